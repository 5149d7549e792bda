"""Shared test options and fixtures.

* ``--soak-full`` runs the full count of long random-playout soak tests (500
  games per game); by default a seeded sample runs so the suite stays quick.
* ``--arena-full`` checks the bots' strength targets with whole arena runs
  (``tests/services/bots/test_arena.py``); by default a few seeded games run.
* ``redis_url`` gives integration tests a real Redis server (database 13 of
  127.0.0.1:6379 unless REDIS_TEST_URL says otherwise). Without a server the
  tests are skipped locally but *fail* when ``CI`` is set.
"""

from __future__ import annotations

import pytest


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
