"""Releasing scheduled rq jobs (deadlines, warnings, expiries, webhook and scoring retries).

In one process, rq's own scheduler cannot fork off an in-process Redis
(DESIGN.md, "Known facts"), so a thread holds rq's scheduler lock
(``RQScheduler.acquire_locks``, refreshed) and calls
``enqueue_scheduled_jobs()`` in a loop. As separate processes, ``taproom
worker`` runs this same loop in a thread beside rq's worker (rq's own
scheduler process dies with a lost connection and is only restarted by the
worker's maintenance every ten minutes).
:func:`release_due` is rq's release step at a chosen time, so tests advance
time without sleeping; when the clock the thread was given runs ahead of
wall time (a test's :class:`~services.infrastructure.clock.ShiftedClock`), it releases at that time too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

import redis
import structlog
from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry
from rq.scheduler import RQScheduler

from services.infrastructure.clock import Clock
from services.infrastructure.settings import AsyncSettings

log = structlog.get_logger("taproom.scheduler")

LOCK_REFRESH_SECONDS = 20.0  # rq's lock lives interval + 60 s


def release_due(client: redis.Redis, queue_names: Iterable[str], now: float) -> int:
    """Move every scheduled job due at ``now`` into its queue (rq's ``enqueue_scheduled_jobs`` at a chosen time)."""
    released = 0
    timestamp = int(now)
    for name in queue_names:
        registry = ScheduledJobRegistry(name, connection=client)
        job_ids = registry.get_jobs_to_schedule(timestamp)
        if not job_ids:
            continue
        queue = Queue(name, connection=client)
        jobs = Job.fetch_many(job_ids, connection=client)
        with client.pipeline() as pipe:
            for job_id, job in zip(job_ids, jobs):
                if job is not None:
                    queue._enqueue_job(job, pipeline=pipe, at_front=job.should_enqueue_at_front())
                    released += 1
                registry.remove(job_id, pipeline=pipe)
            pipe.execute()
    return released


def run_scheduler_thread(client: redis.Redis, queue_name: str, settings: AsyncSettings, stop: threading.Event,
                         clock: Clock, watchdog: Callable[[float], object] | None = None) -> None:
    """Release due jobs every ``scheduler_interval_seconds`` (due on ``clock``); call ``watchdog(now)`` now and
    then if given.
    Rides out Redis outages: the lock is taken again (rq refreshes a lock it holds) once Redis is back."""
    from services.infrastructure.resilience import UNAVAILABLE, ride_out

    scheduler = RQScheduler([queue_name], connection=client, interval=max(1, int(settings.scheduler_interval_seconds)),
                            logging_level="WARNING")
    state = {"locked_at": 0.0, "swept_at": time.monotonic()}

    def turn() -> None:
        if time.monotonic() - state["locked_at"] > LOCK_REFRESH_SECONDS:
            scheduler.acquire_locks()
            state["locked_at"] = time.monotonic()
        if scheduler.acquired_locks:
            if clock.moved:  # rq's scheduler reads wall time: release what is due on our clock
                release_due(client, [queue_name], clock.now())
            else:
                scheduler.enqueue_scheduled_jobs()
            if watchdog is not None and time.monotonic() - state["swept_at"] >= settings.watchdog_interval_seconds:
                state["swept_at"] = time.monotonic()
                watchdog(clock.now())
        stop.wait(settings.scheduler_interval_seconds)

    def lost_redis() -> None:
        state["locked_at"] = 0.0  # the lock may have lapsed meanwhile: take it again first thing

    try:
        ride_out("scheduler", turn, stop, lost_redis)
    finally:
        if scheduler.acquired_locks:
            try:
                scheduler.release_locks()
            except UNAVAILABLE:  # it lapses by itself
                pass
