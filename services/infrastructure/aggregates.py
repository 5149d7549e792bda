"""Loading game records: an LRU cache in front of snapshot + event replay.

Used by the processor (write side) and by the projector and reactor (read
side), each with its own cache. ``current`` always catches up with the log,
so a cached record can lag but never be wrong for longer than one call.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

from domain.core.lifecycle import GameRecord, actor_seat, apply, begin_command
from services.infrastructure.eventstore import GENESIS_HASH, EventStore
from services.infrastructure.eventstore.envelope import event_decoder


@dataclass
class Loaded:
    record: GameRecord | None
    version: int
    hash: str
    ts: float = 0.0  # time of the last event folded (0 when loaded from a snapshot alone)
    command_id: str = ""  # the command of the last event folded ("" when loaded from a snapshot alone)


T = TypeVar("T")


def fold_raw(loaded: Loaded, game_id: str, raw: list[bytes],
             on_command: Callable[[GameRecord | None, int, float], Any] | None = None) -> Loaded:
    """Fold stored envelopes (raw JSON) into ``loaded``: the hot path of replays and rebuilds,
    decoding only what folding needs.

    ``on_command(record, version, ts)`` is called after the last event of each command (a command's
    events are appended together, so ``raw`` read up to the head ends on such a boundary); states in
    the middle of a command are never shown to it.
    """
    return fold_docs(loaded, game_id, [orjson.loads(item) for item in raw], on_command)


def fold_docs(loaded: Loaded, game_id: str, docs: list[dict[str, Any]],
              on_command: Callable[[GameRecord | None, int, float], Any] | None = None) -> Loaded:
    """:func:`fold_raw` of envelopes already decoded (``docs``; of their fields folding reads ``command_id``,
    ``actor``, ``type``, ``schema_version``, ``payload``, and of the last one also ``version``, ``ts`` and
    ``hash``: what :meth:`EventStore.read_docs` gives)."""
    if not docs:
        return loaded
    record = loaded.record
    last: dict = {}
    command_id = loaded.command_id
    decoders: dict[tuple[str, str, int], Callable[[dict[str, Any]], Any]] = {}  # this fold's, looked up once
    for doc in docs:
        if on_command is not None and last and doc["command_id"] != last["command_id"]:
            on_command(record, last["version"], last["ts"])
        if doc["command_id"] != command_id:  # a new command: who acts decides what it may undo later
            command_id = doc["command_id"]
            begin_command(record, actor_seat(record, doc.get("actor")))
        last = doc
        game_type = record.game_type if record else last["payload"].get("game", "")
        key = (game_type, last["type"], last["schema_version"])
        decode = decoders.get(key)
        if decode is None:
            decode = decoders[key] = event_decoder(*key)
        record = apply(record, game_id, decode(last["payload"]))
    if on_command is not None:
        on_command(record, last["version"], last["ts"])
    return Loaded(record, last["version"], last["hash"], last["ts"], last["command_id"])


class Repository:
    def __init__(self, store: EventStore, cache_size: int = 2048, use_snapshots: bool = True) -> None:
        self.store = store
        self.use_snapshots = use_snapshots
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Loaded] = OrderedDict()

    def current(self, game_id: str) -> Loaded:
        """The record at the head of the log (cache, then snapshot, then events)."""
        loaded = self.cached(game_id)  # the only cache access besides put (a subclass may lock them)
        if loaded is None:
            snap = self.store.load_snapshot(game_id) if self.use_snapshots else None
            loaded = Loaded(snap[2], snap[0], snap[1], snap[3]) if snap else Loaded(None, 0, GENESIS_HASH)
        loaded = fold_raw(loaded, game_id, self.store.read_raw(game_id, after=loaded.version))
        self.put(game_id, loaded)
        return loaded

    def current_many(self, game_ids: list[str], missing_only: bool = False,
                     seeds: list[str] | None = None) -> tuple[dict[str, Loaded], dict[str, bytes]]:
        """:meth:`current` of several games in two round trips (the snapshots of those not cached, then every
        log's tail), and the seeds of the games in ``seeds`` that Redis holds (read with the snapshots).
        ``missing_only``: a cached record is taken as it is (the processor's, which its appends keep at the
        head) and only the others are read."""
        base: dict[str, Loaded] = {}
        missing: list[str] = []
        for game_id in dict.fromkeys(game_ids):
            loaded = self.cached(game_id)
            if loaded is None:
                missing.append(game_id)
            else:
                base[game_id] = loaded
        found: dict[str, bytes] = {}
        if missing or seeds:
            snaps, found = self.store.snapshots_many(missing if self.use_snapshots else [], seeds or [])
            for game_id in missing:
                snap = snaps.get(game_id)
                base[game_id] = Loaded(snap[2], snap[0], snap[1], snap[3]) if snap else Loaded(None, 0, GENESIS_HASH)
        todo = missing if missing_only else list(base)
        tails = self.store.read_raw_after_many({game_id: base[game_id].version for game_id in todo})
        for game_id in todo:
            base[game_id] = fold_raw(base[game_id], game_id, tails[game_id])
            self.put(game_id, base[game_id])
        return base, found

    def advance(self, game_id: str, since: int | None, probe: Callable[[GameRecord], T],
                tail: tuple[int, list[bytes] | list[dict[str, Any]]] | None = None
                ) -> tuple[Loaded, list[tuple[int, float, T]]]:
        """The head record, and ``(version, ts, probe(record))`` after every command after ``since``.

        The reactor's turn clocks need each state a game passed through, not only the head (a seat may
        finish its turn and be to act again before anyone looks). When the cached record is already
        past ``since`` (another caller moved it on), it is rebuilt from a snapshot at or before
        ``since``, else from the log's start. ``since`` None: the steps of whatever is folded now. ``tail``
        (version, envelopes after it, raw or decoded): the log read ahead, used when the cached record is at that
        version.
        """
        loaded = self._cache.get(game_id)
        if loaded is None or (since is not None and loaded.version > since):
            snap = self.store.load_snapshot(game_id) if self.use_snapshots else None
            if snap and (since is None or snap[0] <= since):
                loaded = Loaded(snap[2], snap[0], snap[1], snap[3])
            else:
                loaded = Loaded(None, 0, GENESIS_HASH)
        else:
            self._cache.move_to_end(game_id)
        steps: list[tuple[int, float, T]] = []

        def observe(record: GameRecord | None, version: int, ts: float) -> None:
            if record is not None and (since is None or version > since):
                steps.append((version, ts, probe(record)))

        if tail is not None and tail[0] == loaded.version and loaded.record is not None:
            items = tail[1]
            if items and isinstance(items[0], dict):  # decoded already (carried by the feed entries)
                loaded = fold_docs(loaded, game_id, items, observe)  # type: ignore[arg-type]
                self.put(game_id, loaded)
                return loaded, steps
            raw = items
        else:
            raw = self.store.read_raw(game_id, after=loaded.version)
        loaded = fold_raw(loaded, game_id, raw, observe)  # type: ignore[arg-type]
        self.put(game_id, loaded)
        return loaded, steps

    def at(self, game_id: str, version: int) -> Loaded:
        """The record at a past ``version`` (replay), from the log alone; the cache is not touched."""
        return fold_raw(Loaded(None, 0, GENESIS_HASH), game_id, self.store.read_raw(game_id, until=version))

    def peek(self, game_id: str) -> Loaded | None:
        """The cached record, if any, leaving the cache's order alone."""
        return self._cache.get(game_id)

    def cached(self, game_id: str) -> Loaded | None:
        loaded = self._cache.get(game_id)
        if loaded is not None:
            self._cache.move_to_end(game_id)  # games being played stay cached
        return loaded

    def put(self, game_id: str, loaded: Loaded) -> None:
        self._cache[game_id] = loaded
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def drop(self, game_id: str) -> None:
        self._cache.pop(game_id, None)

    def drop_where(self, doomed: Callable[[str], bool]) -> None:
        """Drop the cached records of the games ``doomed(game_id)`` names (a stalled shard's)."""
        for game_id in [g for g in self._cache if doomed(g)]:
            self._cache.pop(game_id, None)

    def clear(self) -> None:
        self._cache.clear()
