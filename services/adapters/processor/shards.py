"""The processor's steps over its shards (a part of :class:`~services.adapters.processor.processor.Processor`):
leases, reclaiming, trimming and one batch per master, with failure isolation per shard on a Redis Cluster
(``stalls.py``)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from services.adapters.feed import TRIM_EVERY_SECONDS
from services.adapters.processor.settling import GROUP
from services.adapters.processor.stalls import by_master
from services.infrastructure.redisconn import is_cluster, read_streams
from services.infrastructure.resilience import UNAVAILABLE, ReplicationShortfall


@dataclass(frozen=True)
class Turn:
    """What one step does over the shards of one master."""

    shards: list[int]
    resume: bool  # after an outage: our own pending entries first
    acquired: set[int]  # shards just acquired: what others left pending first
    reclaim: bool  # time to take over entries a dead consumer left
    trim: bool  # time to trim the command streams
    count: int
    block_ms: int



class ShardSteps:
    """Mixed into the processor: what one step does over the shards it holds."""

    leases: Any
    stalls: Any
    keys: Any
    settings: Any
    redis: Any
    store: Any
    repo: Any
    name: str
    _groups: set[int]
    _resume: bool
    _last_claim: float
    _trimmed_at: float

    def step(self, block_ms: int = 0, count: int = 200) -> int:
        """Renew leases, reclaim abandoned work, process one batch per master; returns messages handled.

        On a Redis Cluster the owned shards are worked in groups, one per master: a group whose master fails
        stalls its shards alone (``stalls.py``) and the others carry on; a stalled shard is tried again after
        a backoff. On one server a failure is the whole processor's outage (``ride_out``)."""
        acquired = self.leases.refresh(force=self._resume)
        owned = self.leases.owned
        for shard in [s for s in self.stalls.shards if s not in owned]:
            self.stalls.forget(shard)  # another processor holds it now
        handled = sum(self._retry(shard) for shard in self.stalls.due())
        resume, self._resume = self._resume, False
        reclaim, trim = self._due_chores()
        active = {s: self.keys.cmd_stream(s) for s in sorted(owned) if s not in self.stalls}
        if not active:
            time.sleep(block_ms / 1000 or 0.01)
            return handled
        cluster = is_cluster(self.redis)
        for shards in by_master(self.redis, active):
            turn = Turn(shards, resume, acquired, reclaim, trim, count, 0 if cluster else block_ms)
            handled += self._guarded(shards, lambda turn=turn: self._step_shards(turn))  # type: ignore[misc]
        if cluster and not handled and block_ms:
            time.sleep(min(block_ms, 5) / 1000)
        return handled

    def _due_chores(self) -> tuple[bool, bool]:
        """Whether this step reclaims abandoned work (every half lease) and trims the streams (every
        ``TRIM_EVERY_SECONDS``); each is marked done now when it is due."""
        now = time.monotonic()
        reclaim = now - self._last_claim > self.settings.lease_ms / 2000
        if reclaim:
            self._last_claim = now
        trim = now - self._trimmed_at >= TRIM_EVERY_SECONDS
        if trim:
            self._trimmed_at = now
        return reclaim, trim

    def _step_shards(self, turn: Turn) -> int:
        """One step over the shards of one master (all of them on one server)."""
        for shard in turn.shards:
            if turn.resume:
                self._ensure_group(shard)
                self.resume_own(shard)
            if shard in turn.acquired:
                if not self.store.replicas_ready(shard):  # its master lacks replicas: stall it untouched
                    raise ReplicationShortfall(f"the master of shard {shard} lacks its replicas")
                self.repo.clear()  # another processor may have written while we did not own the shard
                self._ensure_group(shard)
                self.reclaim(shard, min_idle_ms=0)  # its pending entries are older than anything new
            if turn.reclaim:
                self.reclaim(shard, min_idle_ms=self.settings.lease_ms * 3)
            if turn.trim:
                self._ensure_group(shard)
                self.store.trim_commands(shard, GROUP)
        # One read over the shards, one batch for all it returns: a batch's loads, appends and settlements each
        # take one round trip whatever the number of shards it spans.
        streams = {self.keys.cmd_stream(s): ">" for s in turn.shards}
        batches = read_streams(self.redis, streams, group=GROUP, consumer=self.name, count=turn.count,
                               block_ms=turn.block_ms)
        items = [(stream.decode() if isinstance(stream, bytes) else stream, entry_id, fields)
                 for stream, entries in batches or [] for entry_id, fields in entries]
        return self._handle_batch(items, fresh=True) if items else 0

    def _guarded(self, shards: list[int], work: Any) -> int:
        """``work()`` for ``shards`` (one master's); on a cluster an outage stalls those shards alone."""
        try:
            return int(work())
        except UNAVAILABLE as exc:
            if not is_cluster(self.redis):
                raise
            self._stall(shards, exc)
            return 0

    def _stall(self, shards: list[int], exc: BaseException) -> None:
        """Forget what memory holds about ``shards`` (it may be ahead of their master) and back off."""
        gone = set(shards)
        self.repo.drop_where(lambda game_id: self.keys.shard(game_id) in gone)
        self._groups -= gone
        self.stalls.stall(shards, exc)

    def _retry(self, shard: int) -> int:
        """Try a stalled shard again: its own pending entries first, in stream order; then it is worked as before."""
        try:
            if self.stalls.shards[shard].replicas and not self.store.replicas_ready(shard):
                self.stalls.wait_more(shard)  # its master still lacks replicas: nothing tried, nothing waited
                return 0
            self._ensure_group(shard)
            handled = self.resume_own(shard)
        except UNAVAILABLE as exc:
            self._stall([shard], exc)
            return 0
        self.stalls.recovered(shard)
        return handled

    def trim(self) -> int:
        """Drop the settled entries of the owned command streams (settled commands live on in their
        games' records and outcomes); returns the entries removed."""
        self._trimmed_at = time.monotonic()
        removed = 0
        for shard in sorted(self.leases.owned):
            if shard in self.stalls:
                continue
            self._ensure_group(shard)
            removed += self.store.trim_commands(shard, GROUP)
        return removed

    # provided by the processor
    def _ensure_group(self, shard: int) -> None:
        raise NotImplementedError

    def resume_own(self, shard: int) -> int:
        raise NotImplementedError

    def reclaim(self, shard: int, min_idle_ms: int) -> int:
        raise NotImplementedError

    def _handle_batch(self, entries: list[tuple[str, Any, Any]], reclaimed: bool = False, fresh: bool = False) -> int:
        raise NotImplementedError
