"""The projector: folds the shard feeds into read models, with durable checkpoints.

Each feed entry names a game and a version range; the projector catches the
game's record up to the head of its log (so replaying an entry twice changes
nothing: versions at or below what it folded are ignored) and rewrites that
game's views, meta, lobby entry and the inboxes of its players. A rebuild
deletes every read model and folds every game from its log alone.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

import orjson
import redis
import structlog

from services.aggregates import Repository
from services.eventstore import EventStore, Keys
from services.leases import ShardLeases
from services.settings import Settings

from . import read_models

log = structlog.get_logger("taproom.projector")

INBOX_OTHER = 10_000_000_000.0
"""Inbox scores: games awaiting the player score their waiting-since time; others come after."""


class Projector:
    role = "projector"

    def __init__(self, client: redis.Redis, settings: Settings, name: str | None = None) -> None:
        self.redis = client
        self.settings = settings
        self.keys = Keys(settings.key_prefix, settings.shards)
        self.store = EventStore(client, self.keys)
        self.repo = Repository(self.store, settings.aggregate_cache_size)
        self.name = name or f"{self.role}-{secrets.token_hex(3)}"
        self.leases = ShardLeases(client, self.keys, self.role, self.name, settings.lease_ms)
        self._waiting_since: dict[tuple[str, int], float] = {}
        self._checkpoints: dict[int, str] = {}

    def run(self, stop: threading.Event, block_ms: int = 50) -> None:
        try:
            while not stop.is_set():
                if self.step(block_ms=block_ms) == 0 and not self.leases.owned:
                    time.sleep(0.05)
        finally:
            self.leases.release_all()

    def step(self, block_ms: int = 0, count: int = 500) -> int:
        if self.leases.refresh():
            self.repo.clear()
            self._checkpoints.clear()  # another projector may have moved them while we did not own the shard
        if not self.leases.owned:
            return 0
        streams = {}
        for shard in sorted(self.leases.owned):
            if shard not in self._checkpoints:
                ckpt = self.redis.get(self.keys.checkpoint(self.role, shard))
                self._checkpoints[shard] = ckpt.decode() if ckpt else "0-0"
            streams[self.keys.feed(shard)] = self._checkpoints[shard]
        reply = self.redis.xread(streams, count=count, block=block_ms or None)
        handled = 0
        for stream, entries in reply or []:
            stream = stream.decode() if isinstance(stream, bytes) else stream
            shard = int(stream.rsplit("{s", 1)[1].rstrip("}"))
            self.handle_entries(shard, entries)
            handled += len(entries)
        return handled

    def drain(self) -> int:
        total = 0
        while (n := self.step()) > 0:
            total += n
        return total

    def handle_entries(self, shard: int, entries: list[Any]) -> None:
        games: dict[str, float] = {}
        for _, fields in entries:
            games[fields[b"g"].decode()] = time.time()
        pipe = self.redis.pipeline(transaction=False)
        for game_id in games:
            self.project(game_id, pipe)
        last = entries[-1][0]
        pipe.set(self.keys.checkpoint(self.role, shard), last)
        pipe.execute()
        self._checkpoints[shard] = last.decode() if isinstance(last, bytes) else last

    def project(self, game_id: str, pipe: Any) -> int:
        """Write every read model of ``game_id`` at the head of its log; returns the version."""
        loaded = self.repo.current(game_id)
        record = loaded.record
        if record is None:
            return 0
        updated = loaded.ts or time.time()
        k = self.keys
        pipe.set(k.meta(game_id), orjson.dumps(read_models.meta(record, updated)))
        pipe.set(k.view(game_id, None), orjson.dumps(read_models.view(record, None, updated)))
        for seat in range(len(record.seats)):
            pipe.set(k.view(game_id, seat), orjson.dumps(read_models.view(record, seat, updated)))
        if record.status == "open":
            pipe.zadd(k.lobby(), {game_id: updated})
        else:
            pipe.zrem(k.lobby(), game_id)
        if record.status == "scored":
            pipe.zadd(k.finished(), {game_id: updated})
        to_act = set(record.to_act())
        for seat, info in enumerate(record.seats):
            if not info.player_id:
                continue
            key = (game_id, seat)
            if seat in to_act:
                since = self._waiting_since.setdefault(key, updated)
                pipe.zadd(k.inbox(info.player_id), {game_id: since})
            else:
                self._waiting_since.pop(key, None)
                pipe.zadd(k.inbox(info.player_id), {game_id: INBOX_OTHER * 2 - updated})
        return loaded.version

    def rebuild(self) -> dict[str, float]:
        """Delete every read model and fold every game again from its log; returns figures."""
        for pattern in self.keys.all_read_model_patterns():
            batch = list(self.redis.scan_iter(match=pattern, count=1000))
            for i in range(0, len(batch), 500):
                self.redis.delete(*batch[i:i + 500])
        self._checkpoints.clear()
        live_repo, self.repo = self.repo, Repository(self.store, cache_size=1, use_snapshots=False)  # the log alone
        self._waiting_since.clear()
        started = time.perf_counter()
        events = games = 0
        for shard in range(self.keys.shards):
            last = self.redis.xrevrange(self.keys.feed(shard), count=1)
            pipe = self.redis.pipeline(transaction=False)
            for game_id in self.store.game_ids(shard):
                events += self.project(game_id, pipe)
                games += 1
            if last:
                pipe.set(self.keys.checkpoint(self.role, shard), last[0][0])
            pipe.execute()
        seconds = time.perf_counter() - started
        self.repo = live_repo
        self.repo.clear()
        log.info("projections rebuilt", games=games, events=events, seconds=round(seconds, 3))
        return {"games": games, "events": events, "seconds": seconds,
                "events_per_second": events / seconds if seconds else 0.0}
