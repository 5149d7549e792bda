"""Kernel fixtures: one contract suite on fakeredis, on the real Redis server and on a Redis Cluster.

Every test gets its own key prefix; the real server's keys with that prefix
are deleted afterwards (database 13 by default, REDIS_TEST_URL to change).

The ``cluster`` backend is a private Redis Cluster (three masters, three replicas) started once per session
(``tests/services/redis_cluster.py``); rq's queues stay on the real single server, as in a cluster deployment
(``TAPROOM_QUEUE_REDIS_URL``). The cluster variant runs for tests marked ``cluster`` (the end-to-end
pipeline, event store and processor suites); ``TAPROOM_CLUSTER_ALL=1`` runs every test that takes
``client``/``clients`` on it as well (the CROSSSLOT hunt).
"""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import fakeredis
import pytest
import redis
from redis.cluster import RedisCluster

from domain.core import register
from services.infrastructure.clock import ShiftedClock
from services.infrastructure.settings import Settings
from tests.fixture_game import COUNTER

from .postgres import postgres_url  # noqa: F401  # the real PostgreSQL's fixture (a database per test)
from .redis_cluster import RedisClusterServers, cleanup_cluster

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


def until_taken(send: Callable[[], Any], tries: int = 20) -> Any:
    """``send()`` again while it answers 503, after the Retry-After it names, as the API asks a client to: a
    setup write on a cluster whose replica lags on a loaded machine (``write_not_durable``) is refused, not
    lost. Bounded by tries, not by a time."""
    response = send()
    for _ in range(tries):
        if response.status_code != 503:
            break
        time.sleep(float(response.headers.get("retry-after", "1")))
        response = send()
    return response


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


COMMAND_WAIT_SECONDS = 30.0
"""How long a test's request waits for its command's outcome before the API answers 202 (queued). Long: the
processor runs as a thread of the test process, which a loaded machine (load 20-45 on 2 cores) can keep
from settling a command for many seconds, and most tests expect the outcome at once; a request returns as
soon as its outcome is there, so this costs a passing test nothing. Tests of the 202 set their own."""


@pytest.fixture
def settings(prefix: str) -> Settings:
    return Settings(redis_url=None, key_prefix=prefix, shards=4, allow_client_seed=True, snapshot_every=5,
                    rq_queue=f"q-{prefix.strip(':')}", command_wait_seconds=COMMAND_WAIT_SECONDS, lease_ms=2000, **relaxed_limits())


BACKENDS = ["fake", pytest.param("real", marks=pytest.mark.integration),
            pytest.param("cluster", marks=[pytest.mark.integration, pytest.mark.cluster_backend])]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The cluster variant runs only for tests marked ``cluster`` (unless TAPROOM_CLUSTER_ALL is set)."""
    if os.environ.get("TAPROOM_CLUSTER_ALL"):
        return
    keep, drop = [], []
    for item in items:
        on_cluster = item.get_closest_marker("cluster_backend") is not None
        (drop if on_cluster and item.get_closest_marker("cluster") is None else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisClusterServers]:
    """Six redis-server processes joined into a cluster, once per session (skipped locally without the
    binaries; a failure in CI)."""
    servers = RedisClusterServers(tmp_path_factory.mktemp("redis-cluster"))
    try:
        servers.start()
    except Exception as exc:
        servers.stop()
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the Redis Cluster to start: {exc}")
        pytest.skip(f"the Redis Cluster did not start: {exc}")
    yield servers
    servers.stop()


class Clients:
    """A factory of event-store clients (call it) with ``queue``, the factory of rq's clients."""

    def __init__(self, store, queue=None) -> None:
        self._store = store
        self.queue = queue or store

    def __call__(self):
        return self._store()

    @property
    def separate(self) -> bool:
        """rq has a server of its own (the cluster backend)."""
        return self.queue is not self._store


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, prefix: str) -> Iterator[redis.Redis]:
    """A Redis client: fakeredis, the real server, a Redis Cluster (the same tests run on each)."""
    if request.param == "fake":
        yield fakeredis.FakeRedis(server=fake_server())
        return
    if request.param == "cluster":
        cluster = request.getfixturevalue("redis_cluster").client()
        cluster.taproom_queue = real = real_redis()  # type: ignore[attr-defined]  # rq's server, as deployed
        try:
            yield cluster
        finally:
            cleanup_cluster(cluster, prefix)
            cleanup(real, prefix)
            cluster.close()
        return
    real = real_redis()
    try:
        yield real
    finally:
        cleanup(real, prefix)


@pytest.fixture
def fake_client() -> redis.Redis:
    return fakeredis.FakeRedis(server=fake_server())


def fake_server() -> fakeredis.FakeServer:
    """A FakeServer whose database 0 exists already. fakeredis makes a database on the first connection to it
    (``server.dbs`` is a defaultdict read outside the server's lock): two threads connecting first at once could
    each get a database of their own, and both win one ``SET NX`` — a race in the fake, not in the code tested."""
    server = fakeredis.FakeServer()
    fakeredis.FakeRedis(server=server).ping()
    return server


@contextlib.contextmanager
def client_factory(backend: str, prefix: str, cluster: RedisClusterServers | None = None):
    """A factory of Redis clients, ``fake`` (in-process), ``real`` (one server) or ``cluster`` (event store on
    the Redis Cluster, rq on the real server: its ``queue`` factory); cleans ``prefix`` up."""
    if backend == "fake":
        server = fake_server()
        yield Clients(lambda: fakeredis.FakeRedis(server=server))
        return
    real = real_redis()
    pool = redis.ConnectionPool.from_url(REAL_URL)
    plain = Clients(lambda: redis.Redis(connection_pool=pool))
    if backend == "real":
        try:
            yield plain
        finally:
            cleanup(real, prefix)
        return
    assert cluster is not None
    shared: RedisCluster = cluster.client()
    try:
        yield Clients(lambda: shared, queue=plain)
    finally:
        cleanup_cluster(shared, prefix)
        cleanup(real, prefix)
        shared.close()


@pytest.fixture(params=BACKENDS)
def clients(request: pytest.FixtureRequest, prefix: str):
    """A factory of Redis clients: in-process, the real server, a Redis Cluster (``.queue``: rq's)."""
    cluster = request.getfixturevalue("redis_cluster") if request.param == "cluster" else None
    with client_factory(request.param, prefix, cluster) as factory:
        yield factory


@pytest.fixture
def clock() -> ShiftedClock:
    """The test's clock: wall time until the test moves it forward (``clock.advance(seconds)``); hand it to
    every part that should read it (``Service``, ``create_app``, ``bootstrap``)."""
    return ShiftedClock()


@pytest.fixture
def service(clients, settings, clock):
    """The whole pipeline as threads (processor, projector, reactor, rq worker), on the test's clock."""
    from services.adapters.runtime import Service

    svc = Service(settings, clients, workers=1, queue_clients=getattr(clients, "queue", None), clock=clock).start()
    yield svc
    svc.stop()


@pytest.fixture
def api(service, clients, settings, clock):
    from fastapi.testclient import TestClient

    from services.adapters.api.app import create_app

    queue = getattr(clients, "queue", clients)  # a test's own factory may be a plain function (one server)
    with TestClient(create_app(clients(), settings, queue_client=queue(), clock=clock)) as test_client:
        yield test_client
