"""Kernel fixtures: one contract suite on fakeredis and on the real Redis server.

Every test gets its own key prefix; the real server's keys with that prefix
are deleted afterwards (database 13 by default, REDIS_TEST_URL to change).
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import fakeredis
import pytest
import redis

from domain.core import register
from services.settings import Settings
from tests.fixture_game import COUNTER

REAL_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/13")
register(COUNTER)


def real_redis() -> redis.Redis:
    """The real server, or skip (locally) / fail (in CI, where it must be there)."""
    client = redis.Redis.from_url(REAL_URL)
    try:
        client.ping()
    except redis.ConnectionError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs a real Redis at {REAL_URL}: {exc}")
        pytest.skip(f"no Redis at {REAL_URL}")
    return client


def cleanup(client: redis.Redis, prefix: str) -> None:
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    for i in range(0, len(keys), 500):
        client.delete(*keys[i:i + 500])
    # rq keeps its own keys under "rq:": queues and registries carry our queue name, jobs name it as origin
    queue = f"q-{prefix.strip(':')}"
    for key in client.scan_iter(match=f"rq:*{queue}*", count=1000):
        client.delete(key)
    client.srem("rq:queues", f"rq:queue:{queue}")
    client.delete("rq:clean_groups")  # the lock a worker's maintenance takes (it would lapse by itself)
    for key in client.scan_iter(match="rq:job:*", count=1000):
        origin = client.hget(key, "origin") if client.type(key) == b"hash" else None
        if origin and origin.decode() == queue:
            job_id = key.decode()[len("rq:job:"):]
            client.delete(key, f"{key.decode()}:dependents", f"{key.decode()}:dependencies", f"rq:results:{job_id}")


@pytest.fixture
def prefix() -> str:
    return f"t{uuid.uuid4().hex[:8]}:"


def relaxed_limits() -> dict[str, object]:
    """Every rate and cap of the abuse limits raised far past what a test does (tests of the limits lower them)."""
    relaxed: dict[str, object] = {name: "1000000/second" for name in Settings.model_fields
                                  if name.startswith("rate_limit_")}
    relaxed.update({name: 1_000_000 for name in Settings.model_fields
                    if name.startswith("max_") and (name.endswith("_per_player") or "_streams_" in name)})
    return relaxed


@pytest.fixture
def settings(prefix: str) -> Settings:
    return Settings(redis_url=None, key_prefix=prefix, shards=4, allow_client_seed=True, snapshot_every=5,
                    rq_queue=f"q-{prefix.strip(':')}", command_wait_seconds=5.0, lease_ms=2000, **relaxed_limits())


@pytest.fixture(params=["fake", pytest.param("real", marks=pytest.mark.integration)])
def client(request: pytest.FixtureRequest, prefix: str) -> Iterator[redis.Redis]:
    """A Redis client: fakeredis, then the real server (the same tests run on both)."""
    if request.param == "fake":
        yield fakeredis.FakeRedis(server=fakeredis.FakeServer())
        return
    real = real_redis()
    try:
        yield real
    finally:
        cleanup(real, prefix)


@pytest.fixture
def fake_client() -> redis.Redis:
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


@contextlib.contextmanager
def client_factory(backend: str, prefix: str):
    """A factory of Redis clients on one server, ``fake`` (in-process) or ``real``; cleans ``prefix`` up."""
    if backend == "fake":
        server = fakeredis.FakeServer()
        yield lambda: fakeredis.FakeRedis(server=server)
        return
    real = real_redis()
    pool = redis.ConnectionPool.from_url(REAL_URL)
    try:
        yield lambda: redis.Redis(connection_pool=pool)
    finally:
        cleanup(real, prefix)


@pytest.fixture(params=["fake", pytest.param("real", marks=pytest.mark.integration)])
def clients(request: pytest.FixtureRequest, prefix: str):
    """A factory of Redis clients on one server: in-process, then the real one."""
    with client_factory(request.param, prefix) as factory:
        yield factory


@pytest.fixture
def service(clients, settings):
    """The whole pipeline as threads (processor, projector, reactor, rq worker)."""
    from services.runtime import Service

    svc = Service(settings, clients, workers=1).start()
    yield svc
    svc.stop()


@pytest.fixture
def api(service, clients, settings):
    from fastapi.testclient import TestClient

    from services.api.app import create_app

    with TestClient(create_app(clients(), settings)) as test_client:
        yield test_client
