"""The projector: folds the shard feeds into the read models that span games, with durable checkpoints.

A game's own models (its meta, public and seat views, legal commands) are written by the processor with
every append (inline projections, ``projections/inline.py``). What spans games stays here: the lobby, the
finished list, invitations and the players' inboxes, made from the game's meta (read for every game a batch
names, in one round trip; the meta is at the head of the log, so replaying an entry twice changes nothing).
A rebuild deletes every read model, inline ones included, and makes all of them again from the logs alone,
with the same function the processor's append uses.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from typing import Any

import orjson
import redis
import structlog

from projections.inline import seat_models
from services.adapters.feed import FeedFollower, carried_events
from services.adapters.inline import inline_of
from services.infrastructure.aggregates import Loaded, fold_docs
from services.infrastructure.bootstrap import Root
from services.infrastructure.eventstore import GENESIS_HASH
from services.infrastructure.redisconn import is_cluster, mget
from services.infrastructure.settings import Settings

log = structlog.get_logger("taproom.projector")

REBUILD_BATCH = 100
"""Games whose logs a rebuild reads in one round trip."""
INBOX_OTHER = 10_000_000_000.0
"""Inbox scores: games awaiting the player score their waiting-since time; others come after."""
WRITTEN_LIMIT = 100_000
"""Games whose writes a projector remembers (:class:`_Written`); past it, it forgets them all."""


@dataclass
class _Written:
    """What this projector wrote last for one game: the version of its meta it indexed, whether the lobby lists
    it (True until it removed it), and each seat's inbox entry (player, score)."""

    version: int = -1
    listed: bool = True
    inbox: dict[int, tuple[str, float]] = field(default_factory=dict)


class Projector(FeedFollower):
    role = "projector"

    def __init__(self, client: redis.Redis, settings: Settings, name: str | None = None, *,
                 root: Root | None = None) -> None:
        super().__init__(client, settings, name, root=root)
        self._waiting_since: dict[tuple[str, int], float] = {}
        self._written: dict[str, _Written] = {}

    def forget(self) -> None:
        super().forget()
        self._written.clear()  # another projector may have written these games' read models meanwhile

    def handle_entries(self, shard: int, entries: list[Any]) -> None:
        self.handle_batch([(shard, entries)])

    def handle_batch(self, batches: list[tuple[int, list[Any]]]) -> None:
        """Every game the entries name: its meta read (one round trip for all of them) and its entries in the
        lobby, invitations and inboxes written with the checkpoints they cover (one more)."""
        upto = {game_id: max(last for _, last, _ in announced) for game_id, announced in carried_events(batches).items()}
        games = list(upto)
        metas = mget(self.redis, [self.keys.meta(game_id) for game_id in games]) if games else []
        pipe = self.redis.pipeline(transaction=False)
        try:
            for game_id, raw in zip(games, metas):
                meta = orjson.loads(raw) if raw is not None else None
                if meta is not None and meta["version"] >= upto[game_id]:
                    self.index(game_id, meta, pipe)
                else:  # appended without its inline models (a tool writing to the log): made from the log
                    self.project(game_id, pipe, self.repo.current(game_id))
            self.save_checkpoints({shard: entries[-1][0] for shard, entries in batches}, pipe)  # with what they cover
            pipe.execute()
        except BaseException:
            self._written.clear()  # what it remembers having written may not be there
            raise

    def index(self, game_id: str, meta: dict[str, Any], pipe: Any) -> int:
        """Write the game's entries in the models that span games from its ``meta`` (as stored); returns its
        version. A version this process indexed already is not indexed again, nor is the lobby entry it
        removed already or an inbox entry it wrote with the same score."""
        version = int(meta["version"])
        written = self._written.get(game_id)
        if written is not None and written.version >= version:
            return version
        if written is None:
            if len(self._written) >= WRITTEN_LIMIT:
                self._written.clear()  # a bound on memory: the games are written in full once more
            written = self._written[game_id] = _Written()
        written.version = version
        self._index(game_id, meta, float(meta["updated"]), written, pipe)
        return version

    def project(self, game_id: str, pipe: Any, loaded: Loaded) -> int:
        """Write every model of ``game_id`` from its record ``loaded`` (folded from the log): the inline ones,
        byte for byte as the processor's append writes them, then its entries in the lobby and inboxes."""
        record = loaded.record
        if record is None:
            return 0
        k = self.keys
        models = seat_models(record, loaded.version, loaded.ts or time.time())
        inline = inline_of(k, game_id, models, None)
        writes = dict(inline.sets)
        # An archived game keeps its meta (the summary); its views are built from the archive when asked.
        if record.status == "scored" and self.store.archived(game_id) is not None:
            writes = {k.meta(game_id): models.meta}
        elif inline.legal:
            pipe.hset(inline.legal_key, mapping=dict(enumerate(inline.legal)))
        if is_cluster(self.redis):  # a cluster pipeline refuses MSET, though these keys share a slot
            for name, value in writes.items():
                pipe.set(name, value)
        else:
            pipe.mset(writes)
        return self.index(game_id, orjson.loads(models.meta), pipe)

    def _index(self, game_id: str, meta: dict[str, Any], updated: float, written: _Written, pipe: Any) -> None:
        """The game's entries in the lobby, the finished list, invitations and its players' inboxes."""
        k = self.keys
        status = meta["status"]
        if status == "open":
            pipe.zadd(k.lobby(), {game_id: updated})
            written.listed = True
        elif written.listed:  # a game never opens again: once removed, it stays out
            pipe.zrem(k.lobby(), game_id)
            written.listed = False
        if status == "scored":
            pipe.zadd(k.finished(), {game_id: updated})
        to_act = set(meta["to_act"])
        for seat, info in enumerate(meta["seats"]):
            invited = info.get("invited")
            if invited is not None and status == "open":
                # Ended invitations are dropped by their reader, who checks each against the game's meta.
                pipe.zadd(k.invitations(invited["player_id"]), {f"{game_id}:{seat}": invited["expires_at"]})
            player_id = info.get("player_id")
            if not player_id:
                continue
            key = (game_id, seat)
            if seat in to_act and not info.get("bot"):  # a seat a bot took over by vote awaits nobody
                score = self._waiting_since.setdefault(key, updated)
            else:
                self._waiting_since.pop(key, None)
                score = INBOX_OTHER * 2 - updated
            if written.inbox.get(seat) != (player_id, score):  # the same turn's next step: already there
                pipe.zadd(k.inbox(player_id), {game_id: score})
                written.inbox[seat] = (player_id, score)

    def rebuild(self) -> dict[str, float]:
        """Delete every read model and fold every game again from its log; returns figures.

        The cyclic garbage collector is off meanwhile: folding makes millions of short-lived objects and no
        cycles to speak of, and with it on, each young collection walked the records and logs of the batch in
        hand again (about half the rebuild's CPU)."""
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._rebuild()
        finally:
            if collecting:
                gc.enable()

    def _rebuild(self) -> dict[str, float]:
        for pattern in self.keys.all_read_model_patterns():
            batch = list(self.redis.scan_iter(match=pattern, count=1000))
            for i in range(0, len(batch), 500):
                self.redis.delete(*batch[i:i + 500])
        self.forget_checkpoints()
        self._waiting_since.clear()
        self._written.clear()
        started = time.perf_counter()
        events = games = 0
        for shard in range(self.keys.shards):
            last = self.redis.xrevrange(self.keys.feed(shard), count=1)
            pipe = self.redis.pipeline(transaction=False)
            ids = self.store.game_ids(shard)
            for i in range(0, len(ids), REBUILD_BATCH):  # the logs of a batch of games in one round trip
                batch = ids[i:i + REBUILD_BATCH]
                for game_id, docs in zip(batch, self.store.read_docs_many(batch)):
                    events += self.project(game_id, pipe, fold_docs(Loaded(None, 0, GENESIS_HASH), game_id, docs))
                    games += 1
            if last:
                self.save_checkpoint(shard, last[0][0], pipe)
            pipe.execute()
        seconds = time.perf_counter() - started
        self.repo.clear()
        log.info("projections rebuilt", games=games, events=events, seconds=round(seconds, 3))
        return {"games": games, "events": events, "seconds": seconds,
                "events_per_second": events / seconds if seconds else 0.0}
