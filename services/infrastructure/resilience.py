"""Riding out a Redis outage: every part keeps its loop and tries again with backoff instead of dying.

redis-py reconnects by itself on the next command (a broken pooled connection is dropped, and its own
short ``Retry`` covers a blip); what a part must add is to survive the ``ConnectionError`` of a longer
outage, wait with jittered, capped backoff, and, once Redis answers again, resume from what Redis holds
(checkpoints, pending entries, leases) rather than from what it had in memory.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import psycopg
import redis
import structlog
from prometheus_client import Counter
from redis.backoff import ExponentialWithJitterBackoff  # type: ignore[attr-defined]  # redis>=5.1; the stubs lag
from redis.retry import Retry

log = structlog.get_logger("taproom.resilience")

UNAVAILABLE: tuple[type[Exception], ...] = (
    redis.ConnectionError, redis.TimeoutError,
    # A Redis Cluster in failover: slots without a master, a node demoted to replica, a slot map to read again.
    redis.exceptions.ClusterError, redis.exceptions.TryAgainError, redis.exceptions.SlotNotCoveredError,
    redis.exceptions.ReadOnlyError, redis.exceptions.MasterDownError,
    # A node at its maxmemory with noeviction (deploy/): it refuses writes and drops nothing; a part waits for room.
    redis.exceptions.OutOfMemoryError,  # type: ignore[attr-defined]  # redis>=4.1; the stubs lag
    # The PostgreSQL cold store away (down, refusing, its pool timed out: ``PoolTimeout`` is one): a read of an
    # archived game answers 503 with Retry-After, an archive job fails and runs again; nothing was changed.
    psycopg.OperationalError, psycopg.InterfaceError)
"""What an unreachable Redis raises (``BusyLoadingError``, a server replaying its AOF, is a ConnectionError;
``ClusterDownError`` is a ClusterError), and an unreachable PostgreSQL cold store."""


class ReplicationShortfall(redis.ConnectionError):
    """Appends reached their master but not the replicas they must reach before being acknowledged
    (``TAPROOM_APPEND_REPLICAS``): handled like an outage, the commands are taken up again afterwards."""

OUTAGES = Counter("taproom_redis_outages_total", "Redis outages a part rode out", ["part"])


def command_retry() -> Retry:
    """redis-py's own retry for one command: a few quick tries, so a blip is invisible but an outage reaches
    the part (and the API answers 503) within about a second instead of stalling on the default ten."""
    return Retry(ExponentialWithJitterBackoff(base=0.02, cap=0.25), retries=3)


class Outage:
    """One part's view of Redis being away: backoff between tries, one log line when it goes and comes back."""

    def __init__(self, part: str, base: float = 0.05, cap: float = 2.0) -> None:
        self.part = part
        self._backoff = ExponentialWithJitterBackoff(base=base, cap=cap)
        self.failures = 0
        self.since: float | None = None

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, exc: BaseException) -> float:
        """Note a failed try; returns how long to wait before the next one."""
        if self.since is None:
            self.since = time.monotonic()
            OUTAGES.labels(self.part).inc()
            log.warning("redis unavailable; retrying with backoff", part=self.part, error=repr(exc))
        self.failures += 1
        return self._backoff.compute(self.failures)

    def recovered(self) -> float | None:
        """Note a successful try; returns the outage's length when one just ended."""
        if self.since is None:
            return None
        seconds = time.monotonic() - self.since
        self.since, self.failures = None, 0
        log.info("redis reachable again; resumed", part=self.part, seconds=round(seconds, 3))
        return seconds


def ride_out(part: str, turn: Callable[[], object], stop: threading.Event,
             on_outage: Callable[[], None] | None = None) -> None:
    """Call ``turn()`` until ``stop`` is set; when Redis is unreachable, call ``on_outage()`` (forget what
    memory says about Redis; it must not talk to Redis) and try again after a backoff, as long as it takes."""
    from services.infrastructure import health

    outage = Outage(part)
    loop = f"{part}@{threading.current_thread().name}"  # its health (services/infrastructure/health.py) while it runs
    try:
        while not stop.is_set():
            try:
                turn()
            except UNAVAILABLE as exc:
                health.beat(loop, ok=False)
                if on_outage is not None:
                    on_outage()
                stop.wait(outage.failed(exc))
                continue
            health.beat(loop, ok=True)
            outage.recovered()
    finally:
        health.forget(loop)
