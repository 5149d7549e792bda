"""A synchronous table for asynchronous play: processor, projector, reactor, rq worker and scheduler
driven step by step, with a clock the tests move forward (no sleeping)."""

from __future__ import annotations

import http.server
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis

from domain.core.lifecycle import GameRecord
from services.adapters.reactor import Reactor
from services.adapters.reactor.watchdog import Watchdog
from services.adapters.workers.worker import ThreadWorker
from services.infrastructure.aggregates import Repository
from services.infrastructure.bootstrap import bootstrap, jobs_keep_time
from services.infrastructure.clock import ShiftedClock
from services.infrastructure.redisconn import set_job_store
from services.infrastructure.scheduler import release_due
from services.infrastructure.settings import AsyncSettings, Settings, jobs_run_with, with_async
from tests.services.helpers import Kernel

HOUR = 3600
DAY = 86400


class Table:
    def __init__(self, client: redis.Redis, settings: Settings, async_settings: AsyncSettings,
                 clock: ShiftedClock) -> None:
        self.client = client
        self.clock = clock
        # On the cluster backend rq has its own server (the fixture hangs it on the client), as deployed.
        self.jobs: redis.Redis = getattr(client, "taproom_queue", client)
        self.kernel = Kernel(client, settings)
        self.reactor = Reactor(client, settings, name="r1", async_settings=async_settings,
                               root=bootstrap(settings, client, queue_redis=self.jobs, clock=clock))
        self.queue = self.reactor.queue
        self.job_settings = with_async(settings, async_settings)
        """What this table's jobs run under (its worker's settings)."""
        self.worker = ThreadWorker([self.queue], connection=self.jobs, settings=self.job_settings, clock=clock)
        self.watchdog = Watchdog(self.reactor, async_settings.watchdog_stale_seconds,
                                 async_settings.watchdog_max_requeues)
        self.repo = Repository(self.kernel.store, cache_size=1)
        self.root = self.reactor.root
        """The composition root of the table's parts (its clock is the test's)."""

    @contextmanager
    def running_jobs(self, settings: Settings | None = None) -> Iterator[None]:
        """Jobs called directly in this block run as the table's worker runs them: under its settings (or
        ``settings``) and on its clock."""
        with jobs_run_with(settings or self.job_settings), jobs_keep_time(self.clock):
            yield

    def settle(self, rounds: int = 500) -> None:
        """Run processor, projector, reactor and worker until nothing moves."""
        for _ in range(rounds):
            self.kernel.pump()
            moved = self.reactor.drain()
            queued = self.queue.count
            if queued:
                self.worker.work(burst=True, logging_level="WARNING")
            if not moved and not queued:
                return
        raise AssertionError("the table never settled")

    def tick(self, seconds: float = 0.0) -> int:
        """Move the clock, release the scheduled jobs now due, and settle."""
        self.clock.advance(seconds)
        released = release_due(self.jobs, [self.queue.name], self.clock.now())
        self.settle()
        return released

    def create(self, seats: list[dict[str, Any]], pace: Any = None, target: int = 10, seed: str = "s",
               settle: bool = True) -> str:
        game_id = uuid.uuid4().hex[:10]
        command: dict[str, Any] = {"type": "taproom.CreateGame", "game": "counter", "options": {"target": target},
                                   "seats": seats, "seed_commitment": ""}
        if pace is not None:
            command["pace"] = pace
        outcome = self.kernel.send(game_id, command, dev_seed=seed)
        assert outcome.accepted, outcome
        if settle:
            self.settle()
        return game_id

    def record(self, game_id: str) -> GameRecord:
        record = self.repo.current(game_id).record
        assert record is not None
        return record

    def types(self, game_id: str) -> list[str]:
        return [e.type for e in self.kernel.store.read(game_id)]

    def events(self, game_id: str, kind: str) -> list[dict[str, Any]]:
        return [e.payload for e in self.kernel.store.read(game_id) if e.type == kind]

    def add(self, game_id: str, seat: int, amount: int = 1) -> Any:
        outcome = self.kernel.add(game_id, seat, amount)
        self.settle()
        return outcome


@pytest.fixture
def async_settings() -> AsyncSettings:
    # system_command_wait_seconds=0: the table runs jobs and the processor in one thread, so a job
    # waiting for its command's outcome would only wait out the timeout
    return AsyncSettings(webhook_allow_private=True, deadline_warning_hours=[12], open_game_expiry_seconds=2 * DAY,
                         system_command_wait_seconds=0)


@pytest.fixture
def table(client: redis.Redis, settings: Settings, async_settings: AsyncSettings,
          clock: ShiftedClock) -> Iterator[Table]:
    set_job_store(client if hasattr(client, "taproom_queue") else None)  # the jobs this thread runs
    yield Table(client, settings, async_settings, clock)
    set_job_store(None)


@pytest.fixture
def api(table: Table, settings: Settings) -> Iterator[Any]:
    """The HTTP API over the table. Its processor runs only when a test settles the table: the API answers 202
    at once and the test settles."""
    from fastapi.testclient import TestClient

    from services.adapters.api.app import create_app

    app = create_app(table.client, settings.model_copy(update={"command_wait_seconds": 0.05}), table.jobs,
                     clock=table.clock)
    app.state.async_settings = table.reactor.async_settings
    with TestClient(app) as client:
        yield client


@pytest.fixture
def waiting_api(table: Table, settings: Settings) -> Iterator[Any]:
    """An API that waits for outcomes (see ``test_forgiving_timeouts.answered``)."""
    from fastapi.testclient import TestClient

    from services.adapters.api.app import create_app

    app = create_app(table.client, settings.model_copy(update={"command_wait_seconds": 5.0}), table.jobs,
                     clock=table.clock)
    app.state.async_settings = table.reactor.async_settings
    with TestClient(app) as client:
        yield client


class Receiver(http.server.BaseHTTPRequestHandler):
    """Records every POST; answers with the next status from ``server.statuses`` (200 when empty)."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.server.received.append((dict(self.headers), body))  # type: ignore[attr-defined]
        statuses = self.server.statuses  # type: ignore[attr-defined]
        self.send_response(statuses.pop(0) if statuses else 200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[http.server.ThreadingHTTPServer]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    server.received = []  # type: ignore[attr-defined]
    server.statuses = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
