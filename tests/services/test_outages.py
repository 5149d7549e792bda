"""Every part rides out a Redis outage by itself: processor, projector, reactor, rq worker and scheduler keep
their loops, back off, and resume from what Redis holds; the API answers 503 ``unavailable`` meanwhile.

On fakeredis an outage is ``FakeServer.connected = False``; on a real server it is ``kill -9`` of a private
redis-server (AOF on), started again on the same port and directory.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable

import fakeredis
import pytest
import redis
from fastapi.testclient import TestClient

from domain.catalog import load_games
from services.adapters.api.app import create_app
from services.adapters.processor import Processor
from services.adapters.projector import Projector
from services.adapters.reactor import Reactor
from services.adapters.workers.worker import run_worker_thread
from services.infrastructure import audit
from services.infrastructure.bootstrap import client_factory
from services.infrastructure.clock import ShiftedClock
from services.infrastructure.commands import CommandBus
from services.infrastructure.eventstore import EventStore, Keys
from services.infrastructure.scheduler import run_scheduler_thread

from .helpers import Kernel
from .redis_server import RedisServer


class Parts:
    """Each part in a plain thread (no restart on a crash, unlike ``Service``): a part that died shows."""

    def __init__(self, clients: Callable[[], redis.Redis], settings) -> None:
        self.stop = threading.Event()
        self.errors: list[tuple[str, BaseException]] = []
        queue = settings.rq_queue
        self.targets: dict[str, Callable[[], None]] = {
            "processor": lambda: Processor(clients(), settings).run(self.stop),
            "projector": lambda: Projector(clients(), settings).run(self.stop),
            "reactor": lambda: Reactor(clients(), settings).run(self.stop),
            "worker": lambda: run_worker_thread(clients(), queue, self.stop, settings=settings),
            "scheduler": lambda: run_scheduler_thread(clients(), queue, settings, self.stop, ShiftedClock()),
        }
        self.threads: dict[str, threading.Thread] = {}

    def _run(self, name: str) -> None:
        try:
            self.targets[name]()
        except BaseException as exc:  # recorded: the test fails on it
            self.errors.append((name, exc))

    def __enter__(self) -> Parts:
        for name in self.targets:
            self.threads[name] = threading.Thread(target=self._run, args=(name,), daemon=True)
            self.threads[name].start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads.values():
            thread.join(10)

    def dead(self) -> list[str]:
        return [name for name, t in self.threads.items() if not t.is_alive()]


@pytest.fixture
def outage_settings(settings):
    # The watchdog runs again what a worker lost in the outage; quick here, so the test stays short.
    return settings.model_copy(update={"watchdog_interval_seconds": 0.5, "watchdog_stale_seconds": 2.0,
                                       "command_wait_seconds": 1.0})


def bot_game(client: redis.Redis, settings, target: int = 30) -> str:
    bus = CommandBus(EventStore(client, Keys(settings.key_prefix, settings.shards)))
    game_id = uuid.uuid4().hex[:10]
    bus.submit(game_id, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": target},
                         "seats": [{"name": "b0", "bot": "random"}, {"name": "b1", "bot": "random"}],
                         "seed_commitment": ""}, seat=-1, actor="test", dev_seed="outage")
    return game_id


def head(client: redis.Redis, settings, game_id: str) -> int:
    return EventStore(client, Keys(settings.key_prefix, settings.shards)).head(game_id)[0]


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def finished_and_verified(client: redis.Redis, settings, game_id: str) -> None:
    store = EventStore(client, Keys(settings.key_prefix, settings.shards))
    envelopes, commands = audit.parse_lines(audit.export_lines(store, game_id))
    assert envelopes[-1].type == "taproom.SeedRevealed"
    report = audit.verify(envelopes, commands)
    assert report.ok, report.to_dict()


def test_every_part_rides_out_an_outage_on_its_own(outage_settings):
    load_games()
    server = fakeredis.FakeServer()
    clients = lambda: fakeredis.FakeRedis(server=server)  # noqa: E731
    client = clients()
    with Parts(clients, outage_settings) as parts:
        game_id = bot_game(client, outage_settings)
        wait_until(lambda: head(client, outage_settings, game_id) >= 9, 20, "the game to get going")
        server.connected = False
        time.sleep(1.5)
        assert parts.dead() == [] and parts.errors == []
        server.connected = True
        wait_until(lambda: EventStore(client, Keys(outage_settings.key_prefix, outage_settings.shards))
                   .read(game_id)[-1].type == "taproom.SeedRevealed", 60, "the game to finish")
        assert parts.dead() == [] and parts.errors == []
    finished_and_verified(client, outage_settings, game_id)


def test_an_outage_mid_batch_is_not_counted_against_the_command(client, settings):
    """A command cut off by Redis going away is taken up again by the same processor, however many
    outages it sits through, and never becomes a dead letter for it."""
    kernel = Kernel(client, settings)
    gid = kernel.create()
    command_id = kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t")
    outages = []

    def redis_goes_away(game_id, cid):
        if len(outages) < settings.max_deliveries + 2:
            outages.append(cid)
            raise redis.ConnectionError("Connection reset by peer")

    kernel.processor.crash_hook = redis_goes_away
    while True:
        try:
            kernel.processor.step()
            break
        except redis.ConnectionError:
            kernel.processor.lost_redis()
    kernel.processor.drain()
    outcome = kernel.bus.outcome(gid, command_id)
    assert outcome.accepted and outcome.version == 5 and len(outages) == settings.max_deliveries + 2
    assert client.xlen(kernel.keys.dead_letters(kernel.keys.shard(gid))) == 0
    assert client.xpending(kernel.keys.cmd_stream_for(gid), "processors")["pending"] == 0


def test_the_api_answers_503_with_retry_after_while_redis_is_away(settings):
    server = fakeredis.FakeServer()
    with TestClient(create_app(fakeredis.FakeRedis(server=server), settings)) as api:
        assert api.get("/health").json() == {"status": "ok", "redis": "ok"}
        server.connected = False
        health = api.get("/health")
        assert health.status_code == 503 and health.headers["Retry-After"] == "2"
        assert health.json()["code"] == "unavailable" and health.json()["redis"] == "down"
        for response in (api.get("/lobby"), api.get("/games/abc"),
                         api.post("/games", json={"game": "counter", "seats": [{"name": "a"}]}),
                         api.post("/players", json={"name": "ann"})):
            assert response.status_code == 503, response.text
            assert response.json()["code"] == "unavailable" and response.headers["Retry-After"] == "2"
        server.connected = True
        assert api.get("/health").status_code == 200
        assert api.post("/players", json={"name": "ann"}).status_code in (200, 201)


@pytest.mark.integration
def test_a_real_redis_killed_and_restarted_is_ridden_out(tmp_path, outage_settings):
    load_games()
    server = RedisServer(tmp_path / "redis").start()
    try:
        settings = outage_settings.model_copy(update={"redis_url": server.url})
        clients = client_factory(settings)  # the service's own clients: fail fast, reconnect by themselves
        client = clients()
        with Parts(clients, settings) as parts, TestClient(create_app(clients(), settings)) as api:
            game_id = bot_game(client, settings, target=40)
            wait_until(lambda: head(client, settings, game_id) >= 9, 30, "the game to get going")
            server.kill()
            health = api.get("/health")
            assert health.status_code == 503 and health.json()["redis"] == "down"
            assert health.headers["Retry-After"] == "2"
            assert api.get(f"/games/{game_id}").status_code == 503
            time.sleep(2.0)
            assert parts.dead() == [] and parts.errors == []
            server.start()
            assert api.get("/health").status_code == 200
            wait_until(lambda: EventStore(client, Keys(settings.key_prefix, settings.shards))
                       .read(game_id)[-1].type == "taproom.SeedRevealed", 90, "the game to finish")
            assert parts.dead() == [] and parts.errors == []
        finished_and_verified(client, settings, game_id)
    finally:
        server.stop()
