"""Following the shard feeds: the loop the projector and the reactor share.

A follower takes a fair share of the shards (leases), reads each owned
``feed:{sN}`` from its own durable checkpoint, and hands every batch to
``handle_entries``, which persists the checkpoint once the batch is done
(possibly in the same pipeline as its own writes). Entries seen twice must
be harmless: both followers act on the game's current state, not on deltas.
When Redis goes away a follower waits it out and then resumes from its
stored checkpoints, so a batch cut short is simply read again. It resumes a
little before them (``feed_rewind_seconds``): a failover of a replicated
Redis (a cluster) may lose the last writes a follower made before the
outage (a bot's watch entry, a read model), and handling those entries
again writes them again.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

import orjson
import redis

from services.infrastructure.bootstrap import Root, bootstrap
from services.infrastructure.gctuning import tune_for_throughput
from services.infrastructure.leases import ShardLeases
from services.infrastructure.redisconn import is_cluster, read_streams
from services.infrastructure.resilience import UNAVAILABLE, ride_out
from services.infrastructure.settings import Settings

FEED_ROLES: tuple[str, ...] = ("projector", "reactor")
"""Every role that follows the feeds: a feed is trimmed behind the lowest of their checkpoints, so a new
kind of follower must be named here (else the feed is trimmed past what it has not read)."""
TRIM_EVERY_SECONDS = 5.0
LINGER_FROM = 2
"""Entries one read must return before a follower with a linger (``<role>_linger_ms``) waits before its next."""
CHECKPOINT_LAG_SECONDS = 1.0
"""How long a follower may keep a checkpoint in memory only (:meth:`FeedFollower.save_checkpoints` with
``defer``): a batch that writes nothing else then costs no round trip of its own. A restart or a lease that moves
rereads at most this much of the feed, which handling twice makes harmless."""


def _rewound(entry_id: str, ms: int) -> str:
    """The feed position ``ms`` milliseconds before ``entry_id`` (feed entry ids are ``<ms>-<seq>``)."""
    if ms <= 0 or entry_id == "0-0":
        return entry_id
    stamp = int(entry_id.split("-", 1)[0])
    return f"{max(0, stamp - ms)}-0"


def shard_of(stream: Any) -> int:
    """The shard number in a stream key's hash tag (``...{s7}``)."""
    name = stream.decode() if isinstance(stream, bytes) else stream
    return int(name.rsplit("{s", 1)[1].rstrip("}"))


Carried = dict[str, list[tuple[int, int, bytes | None]]]
"""Per game, what its feed entries of a batch announce: (first version, last version, the events they carry as a
JSON array, or None when they carry none)."""


def carried_events(batches: list[tuple[int, list[Any]]]) -> Carried:
    """The versions and events the feed entries of a batch announce, per game, in feed order."""
    found: Carried = {}
    for _, entries in batches:
        for _, fields in entries:
            first, last = int(fields.get(b"f", 0)), int(fields.get(b"t", 0))
            found.setdefault(fields[b"g"].decode(), []).append((first, last, fields.get(b"e") if first else None))
    return found


def events_after(version: int, announced: list[tuple[int, int, bytes | None]]) -> list[dict[str, Any]] | None:
    """The events after ``version`` up to the last one the entries announce, decoded, when the entries carry them
    all without a gap ([] when they announce nothing later); None when a read of the log is needed (an entry
    without its events, a stretch no entry covers: an earlier entry not seen, or a record that is behind)."""
    docs: list[dict[str, Any]] = []
    at = version
    for first, last, events in sorted(announced, key=lambda item: item[0]):
        if last <= at:
            continue  # folded already (an entry seen twice, or read ahead)
        if first != at + 1 or events is None:
            return None
        docs += orjson.loads(events)
        at = last
    return docs


class FeedFollower:
    role = "follower"

    def __init__(self, client: redis.Redis, settings: Settings, name: str | None = None, *,
                 root: Root | None = None) -> None:
        """``root``: the composition root over ``client`` (built from ``settings`` when not given)."""
        self.root = root or bootstrap(settings, client)
        self.redis = self.root.redis
        self.settings = settings
        self.keys = self.root.keys
        self.store = self.root.store
        self.repo = self.root.records()
        self.name = name or f"{self.role}-{secrets.token_hex(3)}"
        self.leases = ShardLeases(client, self.keys, self.role, self.name, settings.lease_ms)
        self._checkpoints: dict[int, str] = {}
        self._trimmed_at = time.monotonic()
        self._rewind_ms = 0  # after an outage: resume this far before the stored checkpoints
        self._unsaved: dict[int, Any] = {}  # checkpoints handled but not written yet (deferred), by shard
        self._saved_at = time.monotonic()

    def handle_entries(self, shard: int, entries: list[Any]) -> None:
        raise NotImplementedError

    def handle_batch(self, batches: list[tuple[int, list[Any]]]) -> None:
        """Handle what one read of every owned feed returned, ``(shard, entries)`` each; a follower that can
        work several shards' entries together (one round trip for all) overrides this."""
        for shard, entries in batches:
            self.handle_entries(shard, entries)

    def idle(self) -> None:
        """Called once per loop turn (periodic work)."""

    def run(self, stop: threading.Event, block_ms: int = 50) -> None:
        linger = max(0, int(getattr(self.settings, f"{self.role}_linger_ms", 0))) / 1000

        def turn() -> None:
            started = time.monotonic()
            handled = self.step(block_ms=block_ms)
            if handled == 0 and not self.leases.owned:
                time.sleep(0.05)
            self.idle()
            if linger and handled >= LINGER_FROM:  # several games at once: the next read waits for more
                stop.wait(linger - (time.monotonic() - started))

        tune_for_throughput()
        try:
            ride_out(self.role, turn, stop, self.lost_redis)
        finally:
            try:
                self.flush_checkpoints()
                self.leases.release_all()
            except UNAVAILABLE:  # they lapse by themselves
                pass

    def forget(self) -> None:
        """Drop what this process remembers of the games (records; a subclass adds what it wrote): after an
        outage or a change of the owned shards, Redis, not memory, says where things stand."""
        self.repo.clear()

    def lost_redis(self) -> None:
        """Redis went away mid-batch: resume from the stored checkpoints and the logs, not from memory, a
        little before the checkpoints (writes made just before a failover may be gone)."""
        self.forget()
        self._checkpoints.clear()
        self._unsaved.clear()
        self._rewind_ms = int(getattr(self.settings, "feed_rewind_seconds", 0) * 1000)

    def step(self, block_ms: int = 0, count: int = 500) -> int:
        if self.leases.refresh():
            self.forget()
            self._checkpoints.clear()  # another follower may have moved them while we did not own the shard
            self._unsaved.clear()  # reread from the stored ones: what they cover is handled again, harmlessly
        if not self.leases.owned:
            return 0
        streams = {}
        for shard in sorted(self.leases.owned):
            if shard not in self._checkpoints:
                ckpt = self.redis.get(self.keys.checkpoint(self.role, shard))
                self._checkpoints[shard] = _rewound(ckpt.decode() if ckpt else "0-0", self._rewind_ms)
            streams[self.keys.feed(shard)] = self._checkpoints[shard]
        self._rewind_ms = 0
        reply = read_streams(self.redis, streams, count=count, block_ms=block_ms)
        batches = [(shard_of(stream), entries) for stream, entries in reply or [] if entries]
        if batches:
            self.handle_batch(batches)
        elif self._unsaved and time.monotonic() - self._saved_at >= CHECKPOINT_LAG_SECONDS:
            self.flush_checkpoints()  # quiet now: what was deferred is written
        handled = sum(len(entries) for _, entries in batches)
        if time.monotonic() - self._trimmed_at >= TRIM_EVERY_SECONDS:
            self.trim()
        return handled

    def trim(self) -> int:
        """Trim the owned shards' feeds behind every role's checkpoint; returns the entries removed."""
        self._trimmed_at = time.monotonic()
        margin = int(getattr(self.settings, "feed_rewind_seconds", 0) * 1000)  # what a resume rereads stays
        return sum(self.store.trim_feed(shard, FEED_ROLES, margin) for shard in sorted(self.leases.owned))

    def drain(self) -> int:
        total = 0
        while (n := self.step()) > 0:
            total += n
        self.flush_checkpoints()  # caught up: every checkpoint written
        return total

    def save_checkpoint(self, shard: int, entry_id: Any, pipe: Any = None) -> None:
        """Persist how far ``shard``'s feed is handled (in ``pipe`` when given)."""
        (pipe or self.redis).set(self.keys.checkpoint(self.role, shard), entry_id)
        self._checkpoints[shard] = entry_id.decode() if isinstance(entry_id, bytes) else entry_id

    def save_checkpoints(self, entry_ids: dict[int, Any], pipe: Any, defer: bool = False) -> None:
        """:meth:`save_checkpoint` of several shards in one command (one per shard on a cluster: each shard's
        checkpoint has its slot). ``defer``: the batch writes nothing else, so unless the last write is
        :data:`CHECKPOINT_LAG_SECONDS` old the checkpoints are only kept (the next read starts from them) and
        written with a later batch: at most that much of the feed is read again after a restart."""
        for shard, entry_id in entry_ids.items():
            self._checkpoints[shard] = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
        if defer and time.monotonic() - self._saved_at < CHECKPOINT_LAG_SECONDS:
            self._unsaved.update(entry_ids)
            return
        if self._unsaved:
            entry_ids = {**self._unsaved, **entry_ids}
            self._unsaved.clear()
        self._saved_at = time.monotonic()
        if is_cluster(self.redis) or len(entry_ids) == 1:
            for shard, entry_id in entry_ids.items():
                self.save_checkpoint(shard, entry_id, pipe)
            return
        pipe.mset({self.keys.checkpoint(self.role, shard): entry_id for shard, entry_id in entry_ids.items()})

    def flush_checkpoints(self) -> None:
        """Write the checkpoints kept in memory only (see :meth:`save_checkpoints`)."""
        if self._unsaved:
            pipe = self.redis.pipeline(transaction=False)
            self.save_checkpoints({}, pipe)
            pipe.execute()

    def forget_checkpoints(self) -> None:
        self._checkpoints.clear()
        self._unsaved.clear()
