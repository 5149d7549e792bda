"""Failure isolation per shard (issue 35): on a Redis Cluster a shard whose master cannot take appends (gone, or
without the replicas ``append_replicas`` asks for) stops alone.

The processor works its shards in groups, one per master (:func:`by_master`). A group whose work fails with an
outage stalls its shards (:meth:`Stalls.stall`): they are left alone for a jittered backoff (capped at 2 s) while
the processor carries on with the other masters' shards; what memory held about them is forgotten (cached
records of their games, their consumer groups) and their entries stay pending, taken up first, in stream order,
when they are tried again (:meth:`Processor.resume_own`). A shard stalled for want of replicas is tried again
only once its master has them (one ``INFO replication``, nothing that blocks), so a master without a replica
costs the healthy shards no ``WAIT`` time.

While a shard is stalled its flag (``Keys.stalled``) lives on its master, when that master answers: the API's
``submit.lua`` refuses the shard's commands with 503 and ``Retry-After`` instead of queueing them. The flag
lapses by itself (``FLAG_MS``) should the processor go away; it is renewed at each retry and deleted once the
shard's appends go through again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import redis
import structlog
from prometheus_client import Gauge

from services.infrastructure.redisconn import by_node, is_cluster
from services.infrastructure.resilience import UNAVAILABLE, Outage, ReplicationShortfall

log = structlog.get_logger("taproom.processor")

FLAG_MS = 5000
"""The stall flag's time to live: longer than the backoff's cap (2 s), so it lives on between retries."""
STALLED = Gauge("taproom_stalled_shards", "Shards whose appends fail now (the processor retries them alone)",
                multiprocess_mode="livesum")


_UNMAPPED: tuple[type[BaseException], ...] = (AssertionError, *UNAVAILABLE, redis.exceptions.RedisClusterException)
"""What asking the slot map may raise during a failover (``by_node`` asserts a master serves each slot)."""


@dataclass
class Stall:
    outage: Outage
    retry_at: float = 0.0
    replicas: bool = False
    """The last failure was a replica shortfall (the master answers but lacks its replicas)."""
    reasons: list[str] = field(default_factory=list)


def by_master(client: Any, streams: dict[int, str]) -> list[list[int]]:
    """The shards (``shard -> its command stream``) grouped by the master that serves them now: one group on a
    single server; one per shard when the cluster's slot map cannot say (a slot without a master)."""
    if not streams:
        return []
    if not is_cluster(client):
        return [sorted(streams)]
    shards = sorted(streams)
    try:
        groups = by_node(client, [streams[s] for s in shards])
    except _UNMAPPED:
        return [[s] for s in shards]
    return [[shards[i] for i in positions] for _, positions in groups.values()]


class Stalls:
    """The stalled shards of one processor."""

    def __init__(self, client: Any, keys: Any) -> None:
        self.redis = client
        self.keys = keys
        self.shards: dict[int, Stall] = {}

    def __contains__(self, shard: int) -> bool:
        return shard in self.shards

    def due(self) -> list[int]:
        """The stalled shards whose backoff is over."""
        now = time.monotonic()
        return sorted(s for s, stall in self.shards.items() if stall.retry_at <= now)

    def stall(self, shards: list[int], exc: BaseException) -> None:
        """``shards`` failed with ``exc``: back off (each on its own), raise their flags."""
        now = time.monotonic()
        for shard in shards:
            stall = self.shards.get(shard)
            if stall is None:
                stall = self.shards[shard] = Stall(Outage(f"processor shard {shard}", cap=2.0))
                log.warning("shard stalled; the other shards carry on", shard=shard, error=repr(exc))
            stall.retry_at = now + stall.outage.failed(exc)
            stall.replicas = isinstance(exc, ReplicationShortfall)
        STALLED.set(len(self.shards))
        self.flag(shards)

    def wait_more(self, shard: int) -> None:
        """Still no replica: back off again without trying (nothing was touched)."""
        self.stall([shard], ReplicationShortfall("the master still lacks its replicas"))

    def forget(self, shard: int) -> None:
        """Not ours any more (its lease moved, or Redis went away as a whole): no retry of our own."""
        if self.shards.pop(shard, None) is not None:
            STALLED.set(len(self.shards))
            log.info("stalled shard no longer ours", shard=shard)

    def recovered(self, shard: int) -> None:
        stall = self.shards.pop(shard, None)
        if stall is None:
            return
        stall.outage.recovered()
        STALLED.set(len(self.shards))
        log.info("shard resumed", shard=shard)
        try:
            self.redis.delete(self.keys.stalled(shard))
        except UNAVAILABLE:  # it lapses by itself
            pass

    def flag(self, shards: list[int]) -> None:
        """Raise (or renew) the stall flags the API reads, where the masters answer."""
        for shard in shards:
            try:
                self.redis.set(self.keys.stalled(shard), "1", px=FLAG_MS)
            except UNAVAILABLE:  # the master is gone: the API cannot reach it either (503 by itself)
                pass
