"""The projector: folds the shard feeds into the read models that span games, with durable checkpoints.

A game's own models (its meta, public and seat views, legal commands) are written by the processor with
every append (inline projections, ``projections/inline.py``). What spans games is run and stored here: the
lobby, the finished list, invitations and the players' inboxes, a pure fold of the game's meta and its seats'
waits (``projections/spanning.py``); the meta is read for every game a batch names, in one round trip (it is at
the head of the log, so replaying an entry twice changes nothing), and the waits come from the log's commands.
A rebuild deletes every read model, inline ones included, and makes all of them again from the logs alone,
with the same function the processor's append uses.
"""

from __future__ import annotations

import gc
import time
from typing import Any

import redis
import structlog

from domain.core.lifecycle import GameRecord
from projections.inline import seat_models
from projections.read_models import GameMeta, load_meta
from projections.spanning import (
    Changes,
    Entries,
    Step,
    Waits,
    changes,
    entries_of,
    fold_waits,
    step_of,
    wait_step,
    waiting_in,
    waiting_seats,
)
from services.adapters.feed import FeedFollower, carried_events, events_after
from services.adapters.inline import inline_of
from services.infrastructure.aggregates import Loaded, fold_docs
from services.infrastructure.bootstrap import Root
from services.infrastructure.eventstore import GENESIS_HASH
from services.infrastructure.redisconn import is_cluster, mget
from services.infrastructure.settings import Settings

log = structlog.get_logger("taproom.projector")

REBUILD_BATCH = 100
"""Games whose logs a rebuild reads in one round trip."""
WRITTEN_LIMIT = 100_000
"""Games whose entries a projector remembers (what it wrote last, since when their seats wait); past it, it
forgets them all."""


class Projector(FeedFollower):
    role = "projector"

    def __init__(self, client: redis.Redis, settings: Settings, name: str | None = None, *,
                 root: Root | None = None) -> None:
        super().__init__(client, settings, name, root=root)
        self._waits: dict[str, Waits] = {}
        """Per game, the fold of its log's waits at a version (a fact of the log, whoever wrote the models)."""
        self._written: dict[str, Entries] = {}
        """Per game, the entries this process wrote last (to write only what changed)."""

    def forget(self) -> None:
        super().forget()
        self._written.clear()  # another projector may have written these games' read models meanwhile

    def handle_entries(self, shard: int, entries: list[Any]) -> None:
        self.handle_batch([(shard, entries)])

    def handle_batch(self, batches: list[tuple[int, list[Any]]]) -> None:
        """Every game the entries name: its meta read (one round trip for all of them) and its entries in the
        lobby, invitations and inboxes written with the checkpoints they cover (one more)."""
        carried = carried_events(batches)
        games = list(carried)
        metas = mget(self.redis, [self.keys.meta(game_id) for game_id in games]) if games else []
        pipe = self.redis.pipeline(transaction=False)
        try:
            for game_id, raw in zip(games, metas):
                meta = load_meta(raw) if raw is not None else None
                if meta is not None and meta.version >= max(last for _, last, _ in carried[game_id]):
                    self.index(meta, pipe, carried[game_id])
                else:  # appended without its inline models (a tool writing to the log): made from the log
                    self.project(game_id, pipe, self.repo.current(game_id))
            self.save_checkpoints({shard: entries[-1][0] for shard, entries in batches}, pipe)  # with what they cover
            pipe.execute()
        except BaseException:
            self._written.clear()  # what it remembers having written may not be there
            raise

    def index(self, meta: GameMeta, pipe: Any, announced: Carried | None = None, waits: Waits | None = None) -> int:
        """Write the game's entries in the models that span games from its ``meta`` (as stored; ``waits``: its
        log's waits at that version, else folded here, ``announced``: what its feed entries carry); returns its
        version. Only what changed since this process last wrote the game is written."""
        game_id = meta.game_id
        before = self._written.get(game_id)
        if before is not None and before.version >= meta.version:
            return meta.version
        if waits is None:
            waits = self._waits_at(meta, announced or [])
        if len(self._written) >= WRITTEN_LIMIT or len(self._waits) >= WRITTEN_LIMIT:
            self._written.clear()  # a bound on memory: the games are written in full once more
            self._waits.clear()
        self._waits[game_id] = waits
        after = self._written[game_id] = entries_of(meta, waits)
        self._store(game_id, changes(before, after), pipe)
        return meta.version

    def _waits_at(self, meta: GameMeta, announced: Carried) -> Waits:
        """The waits at the meta's version: from those at the version before when one command lies between (one
        feed entry is one command's append; the meta says who waits after it, and when it was made); else folded
        from the log's commands since the last version this process knows (all of them, for a game it never
        saw)."""
        known = self._waits.get(meta.game_id)
        if known is not None and known.version == meta.version:
            return known
        waiting = waiting_seats(meta)
        if not waiting:
            return Waits(meta.version, {})  # nobody waits: however it got here
        if known is not None and any(first == known.version + 1 and last == meta.version
                                     for first, last, _ in announced):
            return wait_step(known, step_of(meta))
        return self._fold_waits(meta, known if known is not None and known.version < meta.version else Waits(),
                                announced)

    def _fold_waits(self, meta: GameMeta, start: Waits, announced: Carried) -> Waits:
        """The waits at the meta's version, folded from ``start`` over the log's commands after it: the events
        the feed entries carry when they cover them all (and the record cache is there), else read."""
        reach = max((last for _, last, _ in announced), default=0)
        docs = events_after(start.version, announced) if reach >= meta.version else None
        _, steps = self.repo.advance(meta.game_id, start.version, _step_facts,
                                     (start.version, docs) if docs is not None else None)
        return fold_waits(start, (Step(v, ts, w) for v, ts, w in steps if v <= meta.version))

    def project(self, game_id: str, pipe: Any, loaded: Loaded, waits: Waits | None = None) -> int:
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
        return self.index(load_meta(models.meta), pipe, waits=waits)

    def _store(self, game_id: str, todo: Changes, pipe: Any) -> None:
        """Write what :func:`~projections.spanning.changes` says."""
        k = self.keys
        if todo.lobby is not None:
            pipe.zadd(k.lobby(), {game_id: todo.lobby})
        elif todo.unlist:
            pipe.zrem(k.lobby(), game_id)
        if todo.finished is not None:
            pipe.zadd(k.finished(), {game_id: todo.finished})
        for player_id, member, expires_at in todo.invitations:
            # Ended invitations are dropped by their reader, who checks each against the game's meta.
            pipe.zadd(k.invitations(player_id), {member: expires_at})
        for player_id, score in todo.inbox:
            pipe.zadd(k.inbox(player_id), {game_id: score})

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
        self._waits.clear()
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
                    events += self.project(game_id, pipe, *_folded(game_id, docs))
                    games += 1
            if last:
                self.save_checkpoint(shard, last[0][0], pipe)
            pipe.execute()
        seconds = time.perf_counter() - started
        self.repo.clear()
        log.info("projections rebuilt", games=games, events=events, seconds=round(seconds, 3))
        return {"games": games, "events": events, "seconds": seconds,
                "events_per_second": events / seconds if seconds else 0.0}


Carried = list[tuple[int, int, bytes | None]]
"""What a game's feed entries of a batch announce (:data:`services.adapters.feed.Carried`, one game's)."""


def _step_facts(record: GameRecord | None) -> frozenset[int]:
    return frozenset() if record is None else waiting_in(record)


def _folded(game_id: str, docs: list[dict[str, Any]]) -> tuple[Loaded, Waits]:
    """A game folded from its whole log, and its waits folded over every command (as the live projector folds
    them)."""
    steps: list[Step] = []

    def observe(record: GameRecord | None, version: int, ts: float) -> None:
        steps.append(Step(version, ts, _step_facts(record)))

    loaded = fold_docs(Loaded(None, 0, GENESIS_HASH), game_id, docs, observe)
    return loaded, fold_waits(Waits(), steps)
