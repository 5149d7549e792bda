"""Wiring: connect to Redis (real or in-process) and run the parts as threads.

``Service`` runs processor, projector, reactor (with the watchdog), scheduler
(releases scheduled rq jobs) and rq worker threads against one Redis; the embedded default uses an in-process fakeredis server so
``taproom serve`` needs nothing installed. Each part also runs alone as its
own process against ``REDIS_URL`` (see ``taproom --help``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import fakeredis
import structlog

from domain.catalog import load_games
from services.adapters.processor import Processor
from services.adapters.projector import Projector
from services.adapters.reactor import Reactor
from services.adapters.workers.worker import run_worker_thread
from services.infrastructure.bootstrap import (
    ClientFactory,
    Root,
    bootstrap,
    queue_client_factory,
    store_client_factory,
)
from services.infrastructure.clock import Clock
from services.infrastructure.scheduler import run_scheduler_thread
from services.infrastructure.settings import AsyncSettings, Settings, with_async

log = structlog.get_logger("taproom.runtime")

__all__ = ["ClientFactory", "Service", "client_factory", "queue_client_factory"]


def client_factory(settings: Settings, server: fakeredis.FakeServer | None = None) -> ClientFactory:
    """New event-store clients on ``REDIS_URL`` (a cluster client with ``TAPROOM_REDIS_CLUSTER``), or on one
    in-process server when there is none. rq's clients: :func:`queue_client_factory`."""
    return store_client_factory(settings, server)


class Service:
    """The moving parts of the service as threads (the embedded default, tests, ``taproom play``)."""

    def __init__(self, settings: Settings, clients: ClientFactory, workers: int = 1,
                 async_settings: AsyncSettings | None = None, queue_clients: ClientFactory | None = None,
                 clock: Clock | None = None) -> None:
        """``clients``: the event store's; ``queue_clients``: rq's (default: the same server); ``clock``: what
        every part and job reads as now (wall time unless given: tests move a ``ShiftedClock``)."""
        load_games()
        self.settings = settings
        self.async_settings = async_settings or settings
        self.clients = clients
        self.queue_clients = queue_clients or clients
        self.stop_event = threading.Event()
        self._clock = clock
        self.processor = Processor(clients(), settings, root=self.root())
        self.clock = self.processor.root.clock
        """The clock of every part (the root's: wall time unless one was given)."""
        self.projector = Projector(clients(), settings, root=self.root())
        # the reactor also runs the watchdog; its jobs go to rq's Redis (the root's queue)
        self.reactor = Reactor(clients(), settings, async_settings=self.async_settings, root=self.root())
        self.workers = workers
        self.threads: list[threading.Thread] = []

    def root(self) -> Root:
        """A composition root of its own for a part (each part works on a client of its own), on this
        service's clock and rq Redis."""
        return bootstrap(self.settings, self.clients(), queue_redis=self.queue_clients(), clock=self._clock)

    def start(self) -> Service:
        parts: list[tuple[str, Callable[[], None]]] = [
            ("processor", lambda: self.processor.run(self.stop_event)),
            ("projector", lambda: self.projector.run(self.stop_event)),
            ("reactor", lambda: self.reactor.run(self.stop_event)),
            ("scheduler", lambda: run_scheduler_thread(self.queue_clients(), self.settings.rq_queue,
                                                       self.async_settings, self.stop_event, self.clock)),
        ]
        store = self.clients() if self.queue_clients is not self.clients else None
        for i in range(self.workers):
            client = self.queue_clients()
            parts.append((f"worker-{i}", self._worker(client, store)))
        # The coach's analyses take minutes of CPU: a worker of their own, so bot turns never wait behind one.
        parts.append(("worker-coach", self._worker(self.queue_clients(), store, self.settings.coach_queue)))
        for name, target in parts:
            thread = threading.Thread(target=_guarded(name, target, self.stop_event), name=f"taproom-{name}", daemon=True)
            thread.start()
            self.threads.append(thread)
        return self

    def _worker(self, client: Any, store: Any, queue: str | None = None) -> Callable[[], None]:
        settings = with_async(self.settings, self.async_settings)
        return lambda: run_worker_thread(client, queue or self.settings.rq_queue, self.stop_event, store=store,
                                         settings=settings, clock=self.clock)

    def stop(self, timeout: float = 5.0) -> None:
        self.stop_event.set()
        for thread in self.threads:
            thread.join(timeout)
        self.threads.clear()

    def __enter__(self) -> Service:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _guarded(name: str, target: Callable[[], None], stop: threading.Event) -> Callable[[], None]:
    """Keep a part running: log a crash and start it again (a dying thread must not stall games)."""

    def run() -> None:
        while not stop.is_set():
            try:
                target()
            except Exception:
                log.exception("part crashed; restarting", part=name)
                stop.wait(0.5)

    return run
