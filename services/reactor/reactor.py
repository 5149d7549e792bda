"""Read the shard feeds (own checkpoints) and enqueue jobs for what the events call for.

* a bot seat must act -> ``play_bot_turn(game, seat, version)``
* the game has ended -> ``score_game(game)``

Job ids are derived from (game, version, seat), so a feed entry seen twice
enqueues nothing new.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

import redis
import structlog
from rq import Queue
from rq.job import Job

from ..aggregates import Repository
from ..eventstore import EventStore, Keys
from ..leases import ShardLeases
from ..settings import Settings
from ..workers import jobs

log = structlog.get_logger("taproom.reactor")


class Reactor:
    role = "reactor"

    def __init__(self, client: redis.Redis, settings: Settings, queue: Queue | None = None,
                 name: str | None = None) -> None:
        self.redis = client
        self.settings = settings
        self.keys = Keys(settings.key_prefix, settings.shards)
        self.store = EventStore(client, self.keys)
        self.repo = Repository(self.store, settings.aggregate_cache_size)
        self.queue = queue or Queue(settings.rq_queue, connection=client)
        self.name = name or f"{self.role}-{secrets.token_hex(3)}"
        self.leases = ShardLeases(client, self.keys, self.role, self.name, settings.lease_ms)

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
        if not self.leases.owned:
            return 0
        streams = {}
        for shard in sorted(self.leases.owned):
            ckpt = self.redis.get(self.keys.checkpoint(self.role, shard))
            streams[self.keys.feed(shard)] = ckpt.decode() if ckpt else "0-0"
        reply = self.redis.xread(streams, count=count, block=block_ms or None)
        handled = 0
        for stream, entries in reply or []:
            stream = stream.decode() if isinstance(stream, bytes) else stream
            shard = int(stream.rsplit("{s", 1)[1].rstrip("}"))
            for game_id in dict.fromkeys(f[b"g"].decode() for _, f in entries):
                self.react(game_id)
            self.redis.set(self.keys.checkpoint(self.role, shard), entries[-1][0])
            handled += len(entries)
        return handled

    def drain(self) -> int:
        total = 0
        while (n := self.step()) > 0:
            total += n
        return total

    def react(self, game_id: str) -> list[str]:
        """Enqueue what the game's current state calls for; returns the job ids enqueued."""
        loaded = self.repo.current(game_id)
        record = loaded.record
        if record is None:
            return []
        enqueued = []
        ctx: dict[str, Any] = {"prefix": self.keys.prefix, "shards": self.keys.shards}
        if record.status == "active":
            for seat in record.to_act():
                if record.seats[seat].bot:
                    job_id = f"bot-{game_id}-{loaded.version}-{seat}"
                    if self._enqueue(jobs.play_bot_turn, job_id, game_id, seat, loaded.version, **ctx):
                        enqueued.append(job_id)
        elif record.status == "ended":
            job_id = f"score-{game_id}"
            if self._enqueue(jobs.score_game, job_id, game_id, **ctx):
                enqueued.append(job_id)
        return enqueued

    def _enqueue(self, func: Any, job_id: str, *args: Any, **kwargs: Any) -> bool:
        if Job.exists(job_id, connection=self.redis):
            return False
        self.queue.enqueue(func, *args, job_id=job_id, result_ttl=600, failure_ttl=24 * 3600,
                           retry=None, **kwargs)
        return True
