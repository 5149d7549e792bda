"""Asynchronous play in the running service (processor, projector, reactor, scheduler and worker threads)
and its HTTP routes. Time moves by the clock's offset; nothing sleeps for a deadline."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.adapters.api.routers import players_async
from services.adapters.runtime import Service
from services.infrastructure.audit import verify
from services.infrastructure.commands import CommandBus
from services.infrastructure.eventstore import EventStore, Keys
from services.infrastructure.settings import AsyncSettings, with_async

from .conftest import DAY, HOUR


def wait_until(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


@pytest.fixture
def running(clients, settings, clock) -> Iterator[Service]:  # type: ignore[no-untyped-def]
    async_settings = AsyncSettings(webhook_allow_private=True, scheduler_interval_seconds=0.2,
                                   watchdog_interval_seconds=0.5, watchdog_stale_seconds=30,
                                   webhook_retry_intervals=[1, 1])
    svc = Service(settings, clients, workers=1, async_settings=async_settings, queue_clients=clients.queue,
                  clock=clock).start()
    yield svc
    svc.stop()


def create(svc: Service, seats: list[dict[str, Any]], pace: Any, target: int = 12) -> str:
    keys = Keys(svc.settings.key_prefix, svc.settings.shards)
    bus = CommandBus(EventStore(svc.clients(), keys))
    gid = uuid.uuid4().hex[:10]
    outcome = bus.send(gid, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": target},
                             "seats": seats, "seed_commitment": "", "pace": pace}, seat=-1, actor="test",
                       dev_seed="seed")
    assert outcome is not None and outcome.accepted
    return gid


def test_both_players_vanish_and_the_autopilot_finishes_the_game(running: Service, clock) -> None:
    gid = create(running, [{"name": "alice", "player_id": "alice"}, {"name": "bob", "player_id": "bob"}], "1d")
    store = EventStore(running.clients(), Keys(running.settings.key_prefix, running.settings.shards))
    kinds = lambda: [e.type for e in store.read(gid)]  # noqa: E731
    wait_until(lambda: running.reactor.async_play.clocks.wait(gid, 0))
    clock.advance(DAY + 60)  # the scheduler thread releases alice's deadline
    wait_until(lambda: "taproom.TurnTimedOut" in kinds())
    wait_until(lambda: running.reactor.async_play.clocks.wait(gid, 1))
    clock.advance(DAY + 60)  # and then bob's; from then on the autopilot plays both seats
    wait_until(lambda: "taproom.SeedRevealed" in kinds())
    assert kinds().count("taproom.TurnTimedOut") == 2 and kinds().count("taproom.SeatAutopiloted") == 2
    report = verify(store.read(gid), store.command_records(gid))
    assert report.ok and report.replay_ok, report.problems


@pytest.fixture
def http(running: Service) -> Iterator[TestClient]:
    app = create_app(running.clients(), running.settings, running.queue_clients(), clock=running.clock)
    app.include_router(players_async.router)
    app.state.async_settings = running.async_settings
    with TestClient(app) as test_client:
        yield test_client


def test_the_routes_for_webhooks_vacations_reclaiming_and_the_clock(running: Service, http: TestClient,
                                                                    receiver, clock) -> None:  # type: ignore[no-untyped-def]
    player = http.post("/players", json={"name": "alice"}).json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    assert http.put("/players/me/webhook", json={"url": "ftp://x/y"}, headers=auth).status_code == 422
    hook = http.put("/players/me/webhook", json={"url": f"http://127.0.0.1:{receiver.server_address[1]}/h"},
                    headers=auth)
    assert hook.status_code == 201 and len(hook.json()["secret"]) > 30
    assert http.get("/players/me/webhook", headers=auth).json()["registered"] is True
    assert http.get("/players/me/webhook").status_code == 401

    gid = create(running, [{"name": "alice", "player_id": player["player_id"]}, {"bot": "random"}],
                 {"per_move_seconds": HOUR}, target=100_000)  # still running when the seat is reclaimed
    wait_until(lambda: receiver.received)  # "your turn"
    board = wait_until(lambda: http.get(f"/games/{gid}/clock").json()["seats"][0].get("deadline") and
                       http.get(f"/games/{gid}/clock").json())
    assert board["pace"]["per_move_seconds"] == HOUR and board["seats"][0]["away"] is None

    started = http.post("/players/me/vacation", json={"days": 2}, headers=auth)
    assert started.status_code == 201 and started.json()["on_vacation"] is True
    assert http.post("/players/me/vacation", json={"days": 1}, headers=auth).status_code == 422
    pushed = http.get(f"/games/{gid}/clock").json()["seats"][0]["deadline"]
    assert pushed - board["seats"][0]["deadline"] > 2 * DAY - 60
    ended = http.delete("/players/me/vacation", headers=auth).json()
    assert ended["on_vacation"] is False and ended["days_used"] < 0.01

    assert http.post(f"/games/{gid}/reclaim", headers=auth).json()["code"] == "illegal_move"  # not away
    clock.advance(HOUR + 60)
    wait_until(lambda: http.get(f"/games/{gid}/clock").json()["seats"][0]["away"] == "autopilot")
    reclaimed = http.post(f"/games/{gid}/reclaim", headers=auth)
    assert reclaimed.status_code == 200 and reclaimed.json()["seat"] == 0
    assert http.get(f"/games/{gid}/clock").json()["seats"][0]["away"] is None
    notes = http.get("/players/me/notifications", headers=auth).json()["notifications"]
    assert {n["kind"] for n in notes} >= {"your_turn"} and all(n["game_id"] == gid for n in notes)


def test_a_webhook_retry_is_released_by_rqs_own_scheduler(running: Service, receiver) -> None:  # type: ignore[no-untyped-def]
    """The scheduler thread's real-time path (``enqueue_scheduled_jobs``): a one-second backoff, then delivery."""
    from services.application.notifications.notify import Webhooks

    Webhooks(running.clients(), running.reactor.async_play.keys).register(
        "dora", f"http://127.0.0.1:{receiver.server_address[1]}/h", allow_private=True)
    receiver.statuses.append(500)
    create(running, [{"name": "dora", "player_id": "dora"}, {"bot": "random"}], None)
    wait_until(lambda: len(receiver.received) == 2, timeout=10)  # "your turn": refused once, then delivered
    assert receiver.received[0][1] == receiver.received[1][1]


def test_the_reactors_watchdog_finds_a_lost_bot_turn(clients, settings) -> None:  # type: ignore[no-untyped-def]
    """No worker threads: the first bot job is lost before anyone runs it; the reactor's watchdog enqueues
    it again, and a worker (here, the test's thread) finishes the game."""
    from rq import Queue
    from rq.job import Job

    from services.adapters.workers.worker import ThreadWorker
    from services.infrastructure.redisconn import set_job_store

    async_settings = AsyncSettings(watchdog_interval_seconds=0.2, watchdog_stale_seconds=1)
    svc = Service(settings, clients, workers=0, async_settings=async_settings, queue_clients=clients.queue).start()
    try:
        gid = create(svc, [{"bot": "random"}, {"bot": "random"}], None)
        queue = Queue(settings.rq_queue, connection=clients.queue())
        first = wait_until(lambda: queue.get_job_ids())[0]
        Job.fetch(first, connection=clients.queue()).delete()
        assert queue.count == 0
        assert wait_until(lambda: queue.get_job_ids(), timeout=10) == [first]  # enqueued again
        store = EventStore(clients(), Keys(settings.key_prefix, settings.shards))
        worker = ThreadWorker([queue], connection=clients.queue(), settings=with_async(settings, async_settings))
        set_job_store(clients() if clients.separate else None)  # the jobs this thread runs

        def finished() -> bool:
            worker.work(burst=True, logging_level="WARNING")
            return any(e.type == "taproom.SeedRevealed" for e in store.read(gid))

        wait_until(finished, timeout=30)
    finally:
        set_job_store(None)
        svc.stop()
