"""Shared test options and fixtures.

* ``--soak-full`` runs the full count of long random-playout soak tests (500
  games per game); by default a seeded sample runs so the suite stays quick.
* ``--arena-full`` checks the bots' strength targets with whole arena runs
  (``tests/services/bots/test_arena.py``); by default a few seeded games run.
* ``redis_url`` gives integration tests a real Redis server (database 13 of
  127.0.0.1:6379 unless REDIS_TEST_URL says otherwise). Without a server the
  tests are skipped locally but *fail* when ``CI`` is set.
* Under pytest-xdist (``make test`` runs ``pytest -n 2 --dist loadgroup``) each worker takes its own
  database: the base number from REDIS_TEST_URL (13 by default) plus the worker's index, so workers
  gw0 and gw1 use 13 and 14. Servers the tests start take free ports of their own anyway. Chaos tests
  (every part as a process) run one after another on one worker, and so do the browser tests (one
  embedded web server and one chromium at a time) and the Redis Cluster tests (one cluster per run).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

import pytest

DEFAULT_REDIS_TEST_URL = "redis://127.0.0.1:6379/13"
# Tests that must not run beside each other on two xdist workers, or that share a costly session fixture
# one worker should start once: one group each, by marker or by fixture.
SERIAL_GROUPS = {"chaos": "chaos", "browser": "browser", "cluster_backend": "cluster"}
GROUP_BY_FIXTURE = {"redis_cluster": "cluster"}  # six redis-servers per session: one worker starts them


def xdist_group_of(item: pytest.Item) -> str | None:
    for marker, group in SERIAL_GROUPS.items():
        if item.get_closest_marker(marker) is not None:
            return group
    for fixture, group in GROUP_BY_FIXTURE.items():
        if fixture in getattr(item, "fixturenames", ()):
            return group
    return None


def worker_redis_url(base: str, worker: str | None) -> str:
    """``base`` with its database number moved up by the xdist worker's index (``gw1`` -> +1)."""
    if not worker or not worker.startswith("gw"):
        return base
    parts = urlsplit(base)
    db = int(parts.path.strip("/") or 0) + int(worker[2:])
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


# Set before the other conftests read it (they are imported after this one).
os.environ["REDIS_TEST_URL"] = worker_redis_url(os.environ.get("REDIS_TEST_URL", DEFAULT_REDIS_TEST_URL),
                                                os.environ.get("PYTEST_XDIST_WORKER"))


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        group = xdist_group_of(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(trylast=True)  # after xdist's hook: the grouped tests' ids must carry their group now
def pytest_collection_finish(session: pytest.Session) -> None:
    if not getattr(session.config.option, "loadgroup", False):  # set by xdist in its workers only
        return
    lost = [item.nodeid for item in session.items
            if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid]
    if lost:
        raise pytest.UsageError(f"--dist loadgroup does not group {lost[0]} (and {len(lost) - 1} more): this pytest "
                                "and pytest-xdist do not work together (pytest-xdist issue 1386)")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak-full", action="store_true", default=False,
                     help="run the full count of soak games (slow) instead of a seeded sample")
    parser.addoption("--arena-full", action="store_true", default=False,
                     help="the bots' strength targets: whole arena runs per game (tens of minutes each)")
    parser.addoption("--chaos-full", action="store_true", default=False,
                     help="the longer chaos run: more tables and three rounds of kills")


def soak_count(config: pytest.Config, full: int, sample: int) -> int:
    """How many soak games to play: ``full`` with --soak-full, else ``sample``."""
    return full if config.getoption("--soak-full") else sample


@pytest.fixture
def soak(request: pytest.FixtureRequest):
    """``soak(full, sample)`` -> the number of games to run in this session."""
    return lambda full, sample: soak_count(request.config, full, sample)
