"""The projector: folds the shard feeds into read models, with durable checkpoints.

Each feed entry names a game and a version range; the projector catches the
game's record up to the head of its log (so replaying an entry twice changes
nothing: versions at or below what it folded are ignored) and rewrites that
game's views, meta, lobby entry and the inboxes of its players. A rebuild
deletes every read model and folds every game from its log alone.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from typing import Any

import orjson
import redis
import structlog

from projections import read_models
from services.adapters.feed import FeedFollower, carried_events, events_after
from services.infrastructure.aggregates import Loaded, fold_docs
from services.infrastructure.bootstrap import Root
from services.infrastructure.eventstore import GENESIS_HASH
from services.infrastructure.redisconn import is_cluster
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
    """What this projector wrote last for one game: the version of its read models, whether the lobby lists it
    (True until it removed it), and each seat's inbox entry (player, score)."""

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
        """Every game the entries name, at the last version they announce: the events folded from the entries
        themselves when they carry them (``e``, see append.lua) and the record here is where they start, else
        the logs' new events read in one round trip; every read model and the checkpoints they cover written
        in one round trip."""
        upto: dict[str, int] = {}  # game -> the last version its entries name (0: one does not say)
        carried = carried_events(batches)
        for game_id, announced in carried.items():
            upto[game_id] = max(last for _, last, _ in announced)
        # A game whose record here is already at the version its entries name (an earlier batch read ahead to
        # the events they announce) needs no read, nor does one whose entries carry every event after it.
        loaded: dict[str, Loaded] = {}
        for game_id, version in upto.items():
            found = self.repo.cached(game_id)
            if found is None:
                continue
            if version and found.version >= version:
                loaded[game_id] = found
            elif version and (docs := events_after(found.version, carried[game_id])) is not None:
                try:
                    loaded[game_id] = fold_docs(found, game_id, docs)
                except BaseException:
                    self.repo.drop(game_id)  # half folded
                    raise
                self.repo.put(game_id, loaded[game_id])
        if missing := [g for g in upto if g not in loaded]:
            loaded.update(self.repo.current_many(missing)[0])
        games = list(upto)
        pipe = self.redis.pipeline(transaction=False)
        try:
            for game_id in games:
                self.project(game_id, pipe, loaded[game_id])
            self.save_checkpoints({shard: entries[-1][0] for shard, entries in batches}, pipe)  # with what they cover
            pipe.execute()
        except BaseException:
            self._written.clear()  # what it remembers having written may not be there
            raise

    def project(self, game_id: str, pipe: Any, loaded: Loaded | None = None) -> int:
        """Write every read model of ``game_id`` at the head of its log (``loaded``: its record there, when
        the caller has it); returns the version. A version this process has written already is not written
        again (a feed entry whose events an earlier batch folded, as the projector catches up to the head), nor
        is the lobby entry it removed already or an inbox entry it wrote with the same score."""
        loaded = loaded or self.repo.current(game_id)
        record = loaded.record
        if record is None:
            return 0
        written = self._written.get(game_id)
        if written is not None and written.version >= loaded.version:
            return loaded.version
        if written is None:
            if len(self._written) >= WRITTEN_LIMIT:
                self._written.clear()  # a bound on memory: the games are written in full once more
            written = self._written[game_id] = _Written()
        written.version = loaded.version
        updated = loaded.ts or time.time()
        k = self.keys
        summary = orjson.dumps(read_models.meta(record, updated).to_json())
        models: dict[str, bytes] = {k.meta(game_id): summary}
        # An archived game keeps its meta (the summary); its views are built from the archive when asked.
        if record.status != "scored" or self.store.archived(game_id) is None:
            seats: list[int | None] = [None, *range(len(record.seats))]
            boards = record.game.views(record.state, seats) if record.state is not None else [None] * len(seats)
            for seat, view in zip(seats, read_models.dump_views(summary, seats, boards)):
                models[k.view(game_id, seat)] = view
        if is_cluster(self.redis):  # a cluster pipeline refuses MSET, though these keys share a slot
            for name, value in models.items():
                pipe.set(name, value)
        else:
            pipe.mset(models)  # one command for all of them
        self._index(game_id, record, updated, written, pipe)
        return loaded.version

    def _index(self, game_id: str, record: Any, updated: float, written: _Written, pipe: Any) -> None:
        """The game's entries in the lobby, the finished list, invitations and its players' inboxes."""
        k = self.keys
        if record.status == "open":
            pipe.zadd(k.lobby(), {game_id: updated})
            written.listed = True
        elif written.listed:  # a game never opens again: once removed, it stays out
            pipe.zrem(k.lobby(), game_id)
            written.listed = False
        if record.status == "scored":
            pipe.zadd(k.finished(), {game_id: updated})
        to_act = set(record.to_act())
        for seat, info in enumerate(record.seats):
            if info.invitation is not None and record.status == "open":
                # Ended invitations are dropped by their reader, who checks each against the game's meta.
                pipe.zadd(k.invitations(info.invitation.player_id), {f"{game_id}:{seat}": info.invitation.expires_at})
            if not info.player_id:
                continue
            key = (game_id, seat)
            if seat in to_act and not info.bot:  # a seat a bot took over by vote awaits nobody
                score = self._waiting_since.setdefault(key, updated)
            else:
                self._waiting_since.pop(key, None)
                score = INBOX_OTHER * 2 - updated
            if written.inbox.get(seat) != (info.player_id, score):  # the same turn's next step: already there
                pipe.zadd(k.inbox(info.player_id), {game_id: score})
                written.inbox[seat] = (info.player_id, score)

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
