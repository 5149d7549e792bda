"""rq workers: one in a thread of the embedded service, and ``taproom worker``'s own process.

rq's normal ``Worker.work()`` installs signal handlers and times jobs out
with SIGALRM, which only works in the main thread; this worker uses a timer
thread for time-outs and skips the signal handlers (DESIGN.md, "Known facts").
"""

from __future__ import annotations

import threading
import time
from typing import Any

import redis
from rq import Queue, SimpleWorker, Worker
from rq.timeouts import TimerDeathPenalty

from services.adapters.workers.moved_jobs import alias_old_job_modules
from services.infrastructure.bootstrap import jobs_keep_time
from services.infrastructure.clock import Clock
from services.infrastructure.redisconn import ClientFactory, set_job_store, set_process_job_store
from services.infrastructure.resilience import UNAVAILABLE, Outage, ride_out
from services.infrastructure.scheduler import run_scheduler_thread
from services.infrastructure.settings import Settings, jobs_run_with


class _SettingsMixin:
    """Makes a worker run its jobs under its ``settings`` (None: the process's own, from its environment): jobs
    are given ids only and take everything else from :func:`services.infrastructure.bootstrap.job_root`. A mixin, not a
    ``Worker`` subclass, so that a ``SimpleWorker`` keeps running jobs in its own thread (no fork)."""

    settings: Settings | None = None
    clock: Clock | None = None

    def perform_job(self, *args: Any, **kwargs: Any) -> bool:
        alias_old_job_modules()  # a job queued before the re-layout names its function by its old path
        with jobs_run_with(self.settings), jobs_keep_time(self.clock):
            return super().perform_job(*args, **kwargs)  # type: ignore[misc]


class TaproomWorker(_SettingsMixin, Worker):
    """rq's forking worker (``taproom worker``) with the process's settings (the job runs in the fork)."""


class ThreadWorker(_SettingsMixin, SimpleWorker):
    death_penalty_class = TimerDeathPenalty

    def __init__(self, *args: Any, settings: Settings | None = None, clock: Clock | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.settings = settings
        self.clock = clock

    def _install_signal_handlers(self) -> None:  # signals belong to the main thread
        pass


def run_worker_thread(client: redis.Redis, queue_name: str, stop: threading.Event, idle_sleep: float = 0.02,
                      store: redis.Redis | None = None, settings: Settings | None = None,
                      clock: Clock | None = None) -> None:
    """Work the queue in bursts until ``stop`` is set, riding out Redis outages. ``client`` is rq's Redis;
    ``store`` the event store's, when it is another (a cluster): the jobs of this thread use it; ``clock``:
    the one its jobs read (their part's; None: wall time)."""
    set_job_store(store)
    queue = Queue(queue_name, connection=client)
    worker: list[ThreadWorker] = []  # made when first needed: making one talks to Redis

    def turn() -> None:
        if queue.count:
            if not worker:
                worker.append(ThreadWorker([queue], connection=client, settings=settings, clock=clock))
            worker[0].work(burst=True, logging_level="WARNING")
        else:
            time.sleep(idle_sleep)

    def lost_redis() -> None:
        # The old worker may not have registered its death: a new name avoids rq's "active worker" refusal.
        worker.clear()

    ride_out("worker", turn, stop, lost_redis)


def run_rq_worker(client: redis.Redis, queue_name: str, settings: Settings, clock: Clock,
                  store: ClientFactory | None = None) -> None:
    """``taproom worker``: rq's forking worker in the main thread, the scheduler loop in a thread beside it,
    both riding out Redis outages until the worker is asked to stop (SIGINT/SIGTERM). ``client`` is rq's
    Redis; ``store`` makes the event store's clients when that is another (each forked job makes its own)."""
    set_process_job_store(store)
    stop = threading.Event()
    scheduler = threading.Thread(target=run_scheduler_thread, args=(client, queue_name, settings, stop, clock),
                                 name="taproom-scheduler", daemon=True)
    scheduler.start()
    outage = Outage("worker")
    try:
        while True:
            # A new worker (new name) each round: a worker cut off by an outage cannot register its death.
            worker: Worker | None = None
            try:
                # Inside the try: rq's constructor already talks to Redis (CLIENT SETNAME), and a restart
                # can come while Redis is still down.
                worker = TaproomWorker([Queue(queue_name, connection=client)], connection=client)
                worker.settings = settings
                worker.work(logging_level="WARNING")
            except UNAVAILABLE as exc:
                time.sleep(outage.failed(exc))
            if worker is not None and getattr(worker, "_shutdown_requested_date", None) is not None:
                return  # asked to stop (rq keeps no public flag for it)
            # rq quits on any Redis error outside its dequeue: wait for Redis, then start again.
            time.sleep(0.5)
            while True:
                try:
                    client.ping()
                    break
                except UNAVAILABLE as exc:
                    time.sleep(outage.failed(exc))
            outage.recovered()
    finally:
        stop.set()
        scheduler.join(5)
