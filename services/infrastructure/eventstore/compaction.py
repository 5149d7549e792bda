"""Compaction: the settled stretch of a game's log moves out of its stream into compressed segments
(``segments.py``, format 2), read back through a cache every store of the process shares.

An event store remembers the stretch it appended last of each game, so the compaction of that stretch reads
nothing back (:meth:`Compaction._remember`).
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from services.infrastructure.eventstore.appends import AppendRequest, run_scripts, settled_entry
from services.infrastructure.eventstore.keys import Keys
from services.infrastructure.eventstore.segments import Block, decode, encode, needs_previous
from services.infrastructure.redisconn import is_cluster


def _version(entry_id: bytes | str) -> int:
    raw = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(raw.split("-", 1)[0])


class _SegmentCache:
    """Decoded segments by (prefix, game, field): they never change once written, so every store shares them."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str, bytes], Block] = OrderedDict()
        self._last: dict[tuple[str, str], tuple[int, bytes]] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str, bytes]) -> Block | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[str, str, bytes], segment: Block) -> None:
        with self._lock:
            self._items[key] = segment
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def wrote(self, prefix: str, game_id: str, last: int, field: bytes) -> None:
        """Remember the segment a compaction just appended (the next one of the game follows it)."""
        with self._lock:
            self._last[(prefix, game_id)] = (last, field)
            while len(self._last) > self.size * 4:
                self._last.pop(next(iter(self._last)))

    def last(self, prefix: str, game_id: str, ending: int) -> Block | None:
        """The segment of the game ending at version ``ending`` that this process appended, if still cached."""
        with self._lock:
            found = self._last.get((prefix, game_id))
        if found is None or found[0] != ending:
            return None
        return self.get((prefix, game_id, found[1]))


SEGMENTS = _SegmentCache()


RECENT_GAMES = 4096
"""Games whose last appended stretch an event store keeps for their next compaction (past it, it forgets all)."""
RECENT_EVENTS = 512
"""Events of one game it keeps at most (far more than a stretch between two compactions)."""


@dataclass
class _Recent:
    """The events one store appended to a game's stream from version ``first`` on (raw, in order) and their
    commands' records as stored (by command id): what its next compaction moves, without reading it back."""

    first: int
    raws: list[bytes] = dataclasses.field(default_factory=list)
    records: dict[bytes, bytes] = dataclasses.field(default_factory=dict)



class Compaction:
    """The compaction side of :class:`~services.infrastructure.eventstore.store.EventStore` (a part of it: it
    works on the store's client, keys, compact script and memory of recent appends)."""

    redis: redis.Redis
    keys: Keys
    _compact: Any
    _recent: dict[str, _Recent]
    save_snapshot_bytes: Callable[..., None]
    _queue_snapshot: Callable[..., None]

    def compact(self, game_id: str, upto: int) -> bool:
        """Move the events up to ``upto`` (a command boundary) still in the stream, and their commands' records,
        into one compressed segment appended after the others (``segments``: format 2, compressed with the
        segment before it as dictionary; nothing written earlier is rewritten); the ids go to the settled-ids
        index. Idempotent; False when nothing moved."""
        return self.compact_many({game_id: upto})[game_id]

    def compact_many(self, upto: dict[str, int], snapshots: list[tuple[str, int, str, bytes, float]] = ()  # type: ignore[assignment]
                     ) -> dict[str, bool]:
        """:meth:`compact` for several games (game -> its ``upto``), with ``snapshots`` to save (the arguments
        of :meth:`save_snapshot_bytes`): the stretches are read in one round trip (if at all) and the segments and
        snapshots written in one (on a cluster, each compaction on its own). Each compaction stays atomic and
        idempotent on its own; returns per game whether it moved anything. A stretch this store appended itself
        is not read back (see :meth:`_remember`)."""
        games = list(upto)
        moved = dict.fromkeys(games, False)
        prepared = self._stretches(upto) if games else []
        if not prepared and not snapshots:
            return moved
        if is_cluster(self.redis):  # its pipeline refuses EVALSHA: one script call each
            for game_id, keys, args, field, block in prepared:
                if self._compact(keys=keys, args=args):
                    moved[game_id] = self._compacted(game_id, int(args[1]), field, block)
                self._forget_recent(game_id, int(args[1]) if moved[game_id] else None)
            for snapshot in snapshots:
                self.save_snapshot_bytes(*snapshot)
            return moved
        pipe = self.redis.pipeline(transaction=False)
        for _, keys, args, _, _ in prepared:
            pipe.evalsha(self._compact.sha, len(keys), *keys, *args)  # type: ignore[attr-defined]
        for snapshot in snapshots:
            self._queue_snapshot(pipe, *snapshot)
        replies = run_scripts(pipe, [self._compact])
        for (game_id, _, args, field, block), reply in zip(prepared, replies):
            if reply:
                moved[game_id] = self._compacted(game_id, int(args[1]), field, block)
            self._forget_recent(game_id, int(args[1]) if reply else None)  # refused: read back next time
        return moved

    def _stretches(self, upto: dict[str, int]) -> list[tuple[str, list[str], list[Any], bytes, Block]]:
        """Per game, the compact script's keys and arguments for its stretch up to ``upto`` (and the segment's field
        and block): from what this store appended when it holds it, else read back in one round trip."""
        k = self.keys
        games = list(upto)
        prepared: list[tuple[str, list[str], list[Any], bytes, Block]] = []
        known = {game_id: held for game_id in games if (held := self._from_recent(game_id, upto[game_id]))}
        unknown = [game_id for game_id in games if game_id not in known]
        if unknown:  # what this store did not append (or no longer holds) is read back
            pipe = self.redis.pipeline(transaction=False)
            for game_id in unknown:
                pipe.xrange(k.events(game_id), "-", f"{upto[game_id]}-1")
                pipe.hgetall(k.commands(game_id))  # the records of the commands still in the stream, and a few more
            replies = pipe.execute()
            known.update({game_id: (entries, records)
                          for game_id, entries, records in zip(unknown, replies[::2], replies[1::2])})
        for game_id in games:
            stretch = self._stretch(game_id, upto[game_id], *known[game_id])
            if stretch is not None:
                prepared.append((game_id, *stretch))
        return prepared

    def _remember(self, req: AppendRequest, record: bytes) -> None:
        """Keep what an append wrote to the stream (its envelopes and its command's record, as stored) for the
        compaction of that stretch (:meth:`compact_many` then reads nothing back)."""
        recent = self._recent.get(req.game_id)
        if recent is None or recent.first + len(recent.raws) != req.expected_version + 1:
            recent = _Recent(req.expected_version + 1)
            if len(self._recent) >= RECENT_GAMES:
                self._recent.clear()
            self._recent[req.game_id] = recent
        recent.raws += [env.to_json() for env in req.envelopes]
        recent.records[req.command_id.encode()] = record
        if len(recent.raws) > RECENT_EVENTS:  # compactions are off, or keep failing: forget it
            del self._recent[req.game_id]

    def _from_recent(self, game_id: str, upto: int) -> tuple[list[Any], dict[bytes, bytes]] | None:
        """The stream's entries up to ``upto`` and their commands' records as this store appended them, when
        it holds them all from where the stream starts (None: read them): from the first version, or right after
        the segment this process wrote last. The compact script checks the stream starts and ends there."""
        recent = self._recent.get(game_id)
        if recent is None or upto < recent.first or upto >= recent.first + len(recent.raws):
            return None
        if recent.first > 1 and SEGMENTS.last(self.keys.prefix, game_id, recent.first - 1) is None:
            return None
        entries = [(f"{version}-1".encode(), {b"e": raw})
                   for version, raw in enumerate(recent.raws[:upto - recent.first + 1], start=recent.first)]
        return entries, recent.records

    def _forget_recent(self, game_id: str, upto: int | None) -> None:
        """After a compaction up to ``upto`` the stretch it moved is not kept (None: forget the game's)."""
        recent = self._recent.get(game_id)
        if recent is None:
            return
        if upto is None or upto >= recent.first + len(recent.raws) - 1 or upto < recent.first - 1:
            del self._recent[game_id]
            return
        moved = upto - recent.first + 1
        for raw in recent.raws[:moved]:
            recent.records.pop(orjson.loads(raw)["command_id"].encode(), None)
        del recent.raws[:moved]
        recent.first = upto + 1

    def _compacted(self, game_id: str, upto: int, field: bytes, block: Block) -> bool:
        SEGMENTS.put((self.keys.prefix, game_id, field), block)
        SEGMENTS.wrote(self.keys.prefix, game_id, upto, field)
        return True

    def _stretch(self, game_id: str, upto: int, entries: list[Any], records: dict[bytes, bytes]
                 ) -> tuple[list[str], list[Any], bytes, Block] | None:
        """The compact script's keys and arguments for moving ``entries`` (the stream up to ``upto``) with
        their ``records``, the segment's field and its decoded block; None when nothing is to move."""
        k = self.keys
        if not entries:
            return None
        first = _version(entries[0][0])
        raws = [fields[b"e"] for _, fields in entries]
        ids = list(dict.fromkeys(orjson.loads(raw)["command_id"] for raw in raws))
        present = [bytes(records[i.encode()]) for i in ids if i.encode() in records]
        if len(present) != len(ids):
            return None  # not whole commands (or moved meanwhile)
        previous = None
        if first > 1:
            previous = SEGMENTS.last(k.prefix, game_id, first - 1)  # the block this process wrote last
            if previous is None:
                spans = self._segment_fields(game_id)
                blocks = self._blocks(game_id, spans, len(spans) - 1, len(spans) - 1) if spans else None
                if not blocks or spans[-1][1] != first - 1:
                    return None  # the segments do not end where the stream starts (moved meanwhile)
                previous = blocks[0]
        encoded = encode(game_id, first, raws, present, previous)
        if encoded is None:
            return None  # the records are not the stretch's whole commands
        blob, block = encoded
        index = b"".join(settled_entry(r["command_id"], r["from_version"], r["to_version"]) for r in block.records)
        field = f"{first}-{upto}"
        keys = [k.events(game_id), k.commands(game_id), k.segments(game_id), k.settled(game_id)]
        return keys, [first, upto, field, blob, index, "", *ids], field.encode(), block

    def _segment_fields(self, game_id: str) -> list[tuple[int, int, bytes]]:
        fields = self.redis.hkeys(self.keys.segments(game_id))
        spans = []
        for field in fields:
            first, _, last = field.partition(b"-")
            spans.append((int(first), int(last), field))
        return sorted(spans)

    def _blocks(self, game_id: str, spans: list[tuple[int, int, bytes]], lo: int, hi: int) -> list[Block] | None:
        """The segments ``spans[lo..hi]`` decoded (a format-2 block is decoded after the one before it, so the
        uncached ones before ``lo`` back to a cached one are read too), in one round trip; None when one
        went away meanwhile (archived)."""
        prefix = self.keys.prefix
        blocks: list[Block | None] = [SEGMENTS.get((prefix, game_id, field)) for _, _, field in spans[:hi + 1]]
        start = lo
        while start > 0 and blocks[start] is None and blocks[start - 1] is None:
            start -= 1
        todo = [i for i in range(start, hi + 1) if blocks[i] is None]
        if todo:
            blobs = self.redis.hmget(self.keys.segments(game_id), [spans[i][2] for i in todo])
            if any(blob is None for blob in blobs):
                return None
            for i, blob in zip(todo, blobs):
                assert blob is not None
                blocks[i] = _decode_after(game_id, spans, i, blob, blocks)
                SEGMENTS.put((prefix, game_id, spans[i][2]), blocks[i])  # type: ignore[arg-type]
        return [b for b in blocks[lo:hi + 1] if b is not None]

    def _from_segments(self, game_id: str, first: int, last: int) -> list[bytes] | None:
        """Envelopes ``first``..``last`` from the segments (None: a segment went away meanwhile)."""
        spans = self._segment_fields(game_id)
        chosen = [i for i, (start, end, _) in enumerate(spans) if not (end < first or start > last)]
        if not chosen:
            return None
        blocks = self._blocks(game_id, spans, chosen[0], chosen[-1])
        if blocks is None:
            return None
        out: list[bytes] = []
        for (start, end, _), block in zip(spans[chosen[0]:chosen[-1] + 1], blocks):
            out += block.events[max(first, start) - start:min(last, end) - start + 1]
        return out if len(out) == last - first + 1 else None

    def _segment_record(self, game_id: str, command_id: str, to_version: int) -> dict[str, Any] | None:
        spans = self._segment_fields(game_id)
        for at, (start, end, _) in enumerate(spans):
            if start <= to_version <= end and (blocks := self._blocks(game_id, spans, at, at)):
                for record in blocks[0].records:
                    if record["command_id"] == command_id:
                        return record
        return None


def _decode_after(game_id: str, spans: list[tuple[int, int, bytes]], i: int, blob: bytes,
                  blocks: list[Block | None]) -> Block:
    """Segment ``i`` decoded; a format-2 block needs the block just before it (decoded already)."""
    first = spans[i][0]
    previous = None
    if needs_previous(blob, first):
        if i == 0 or spans[i - 1][1] != first - 1:
            raise ValueError(f"segment {spans[i][2]!r} of {game_id} does not follow one before it")
        previous = blocks[i - 1]
    return decode(game_id, first, blob, previous)
