"""The event store: one Redis stream per game, appended by one Lua script (:mod:`.appends`), its settled
stretches compacted into segments (:mod:`.compaction`); this module reads, and keeps snapshots and seeds.

Stream entry ids are ``<version>-1``, so reading "after version N" is a plain XRANGE.
"""

from __future__ import annotations

import zlib
from importlib import resources
from typing import Any

import orjson
import redis

from domain.core.lifecycle import GameRecord
from domain.core.record import decode_record, encode_record
from services.infrastructure.eventstore.appends import (
    FEED_EVENTS_MAX,
    REPLY_TTL_SECONDS,
    AppendRequest,
    AppendResult,
    Appends,
    find_settled,
    run_scripts,
    settled_digest,
    settled_entry,
)
from services.infrastructure.eventstore.compaction import SEGMENTS, Compaction, _Recent, _version
from services.infrastructure.eventstore.envelope import GENESIS_HASH, Envelope
from services.infrastructure.eventstore.keys import Keys
from services.infrastructure.eventstore.segments import Block, decode, needs_previous

__all__ = ["FEED_EVENTS_MAX", "REPLY_TTL_SECONDS", "SEGMENTS", "SNAPSHOT_FORMAT", "AppendRequest", "AppendResult",
           "EventStore", "find_settled", "run_scripts", "settled_digest", "settled_entry", "snapshot_bytes"]

SNAPSHOT_FORMAT = 3
"""Bump when the snapshot's own encoding changes (a record's shape is checked by itself: a snapshot of a record
or game state whose fields changed since is ignored and the log replayed, ``domain.core.record.record_shape``). 2: JSON
(``domain.core.codec``); format 1 was pickle, never loaded again (Redis is not a trusted source of code).
3: the JSON zlib-compressed (a Carcassonne record shrinks about threefold)."""


def snapshot_bytes(record: GameRecord) -> bytes:
    """The record as snapshot data: JSON, which cannot run code when it is read back. A record in the middle
    of an undo trail is not snapshotted (the processor waits for the trail's end)."""
    if record.undo is not None:
        raise ValueError(f"game {record.game_id} is inside an undo trail at version {record.version}: no snapshot now")
    return encode_record(record)


def _whole_log(game_id: str, spans: list[tuple[int, int, bytes]], blobs: list[bytes | None],
               entries: list[Any]) -> list[dict[str, Any]] | None:
    """A log from its segments (``spans`` and their ``blobs``) and its stream's ``entries``, decoded for folding;
    None when they do not join up into versions 1, 2, ... (a segment gone, or a compaction between the reads
    that moved events the stream read had into segments the names read did not see)."""
    docs: list[dict[str, Any]] = []
    previous: Block | None = None
    for (first, last, _), blob in zip(spans, blobs):
        if blob is None or first != len(docs) + 1:
            return None
        previous = decode(game_id, first, blob, previous if needs_previous(blob, first) else None)
        docs += previous.docs()
        if len(docs) != last:
            return None
    loads = orjson.loads
    for entry_id, fields in entries:
        version = _version(entry_id)
        if version <= len(docs):  # compacted between the reads: the segment has it too
            continue
        if version != len(docs) + 1:
            return None
        docs.append(loads(fields[b"e"]))
    return docs


class EventStore(Appends, Compaction):
    """The log of every game. A finished game that was archived (``services.infrastructure.archive``) has left Redis; every
    read below then answers from its archive (``.archived``), the same as before."""

    def __init__(self, client: redis.Redis, keys: Keys, replicas: int = 0, replica_timeout_ms: int = 1000,
                 archive: Any = None, no_replica_policy: str = "refuse") -> None:
        """``replicas`` > 0: an append is acknowledged (its outcome stored, its stream entry acknowledged) only
        once ``WAIT`` says that many replicas have it, so a failover cannot lose an acknowledged command.
        ``archive``: the reader of archived games (default: the process's shared one)."""
        self.redis = client
        self.keys = keys
        self.replicas = replicas
        self.replica_timeout_ms = replica_timeout_ms
        self.no_replica_policy = no_replica_policy
        """``refuse`` or ``local_fsync``: see ``Settings.no_replica_policy``."""
        self._local_fsync: dict[int, bool] = {}
        self._archive_reader = archive
        self._append = client.register_script(resources.files(__package__).joinpath("append.lua").read_text())
        self._trim = client.register_script(resources.files(__package__).joinpath("trim.lua").read_text())
        self._compact = client.register_script(resources.files(__package__).joinpath("compact.lua").read_text())
        self._recent: dict[str, _Recent] = {}
        """Per game, the stretch of its log this store appended last (see :class:`_Recent`)."""

    # -- archived games ------------------------------------------------------
    def archived(self, game_id: str) -> dict[str, Any] | None:
        """The archive pointer of a game that left Redis (None while its log is in Redis)."""
        raw = self.redis.get(self.keys.archived(game_id))
        return orjson.loads(raw) if raw else None

    def archive_of(self, game_id: str, pointer: dict[str, Any] | bytes | None = None) -> Any:
        """The archived game (:class:`.archived.ArchivedGame`) read from its cold store, or None."""
        if isinstance(pointer, bytes):
            pointer = orjson.loads(pointer)
        if pointer is None:
            pointer = self.archived(game_id)
            if pointer is None:
                return None
        if self._archive_reader is None:
            from services.infrastructure.eventstore.archived import DEFAULT_READER

            self._archive_reader = DEFAULT_READER
        return self._archive_reader.load(pointer)

    def archived_side(self, game_id: str, name: str) -> Any:
        """The side data ``name`` (see ``services.infrastructure.archive.register_side_key``) an archived game took along."""
        game = self.archive_of(game_id)
        return None if game is None else game.side.get(name)

    # -- reading -----------------------------------------------------------
    def head(self, game_id: str) -> tuple[int, str]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(self.keys.head(game_id), "version", "hash")
        pipe.get(self.keys.archived(game_id))
        (version, digest), pointer = pipe.execute()
        if version and digest:
            return int(version), digest.decode()
        if pointer:
            found = orjson.loads(pointer)
            return int(found["version"]), found["hash"]
        return 0, GENESIS_HASH

    def read(self, game_id: str, after: int = 0, until: int | None = None, count: int | None = None) -> list[Envelope]:
        return [Envelope.trusted(raw) for raw in self.read_raw(game_id, after, until, count)]

    def read_raw(self, game_id: str, after: int = 0, until: int | None = None,
                 count: int | None = None) -> list[bytes]:
        """The stored envelopes (JSON) after ``after`` up to ``until``: from the events stream, from the
        compressed segments for a stretch moved out of it, or from the archive once the game left Redis."""
        for _ in range(3):
            found = self._read_raw_once(game_id, after, until, count)
            if found is not None:
                return found
        raise RuntimeError(f"the log of {game_id} kept moving while it was read")

    def _read_raw_once(self, game_id: str, after: int, until: int | None, count: int | None) -> list[bytes] | None:
        end = f"{until}-1" if until is not None else "+"
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(self.keys.events(game_id), f"{after + 1}-0", end, count=count)
        pipe.get(self.keys.archived(game_id))  # same round trip: an archived game reads from its archive
        pipe.hget(self.keys.head(game_id), "version")
        entries, pointer, head = pipe.execute()
        if pointer and not entries:
            envelopes = self.archive_of(game_id, pointer).envelopes
            stop = len(envelopes) if until is None else min(until, len(envelopes))
            chosen = envelopes[after:stop]
            return chosen[:count] if count is not None else chosen
        raws = [fields[b"e"] for _, fields in entries]
        if head is None:
            return raws
        stop = int(head) if until is None else min(until, int(head))
        have_from = _version(entries[0][0]) if entries else stop + 1
        if after + 1 >= have_from or after + 1 > stop:
            return raws
        older = self._from_segments(game_id, after + 1, have_from - 1)
        if older is None:  # compacted or archived meanwhile: read again
            return None
        raws = older + raws
        return raws[:count] if count is not None else raws

    def read_raw_after_many(self, after: dict[str, int]) -> dict[str, list[bytes]]:
        """For many games at once, the stored envelopes after each one's version (``after``: game -> version),
        in one round trip; a game whose log reaches into compressed segments or an archive is read on its own
        by :meth:`read_raw` (a rare extra round trip)."""
        if not after:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        self.queue_tails(pipe, after)
        return self.take_tails(after, pipe.execute())

    def queue_tails(self, pipe: Any, after: dict[str, int]) -> None:
        """Queue the reads of :meth:`read_raw_after_many` on ``pipe`` (one reply per game, in order)."""
        for game_id, version in after.items():
            pipe.xrange(self.keys.events(game_id), f"{version + 1}-0", "+")

    def take_tails(self, after: dict[str, int], replies: list[Any]) -> dict[str, list[bytes]]:
        """The envelopes from the replies of :meth:`queue_tails` (consumed from the front of ``replies``).

        A stream read that starts at the next version is the tail as it is (appends are whole commands, and an
        archived or compacted log has no such entry); an empty or a later start (nothing new, the log moved
        into segments or an archive, no such game) takes the careful path, a round trip of its own."""
        found: dict[str, list[bytes]] = {}
        mine = replies[:len(after)]
        del replies[:len(after)]
        for (game_id, version), entries in zip(after.items(), mine):
            if entries and _version(entries[0][0]) == version + 1:
                found[game_id] = [fields[b"e"] for _, fields in entries]
            else:
                found[game_id] = self.read_raw(game_id, after=version)
        return found

    def snapshots_many(self, game_ids: list[str], seeds: list[str] = ()  # type: ignore[assignment]
                       ) -> tuple[dict[str, tuple[int, str, GameRecord, float] | None], dict[str, bytes]]:
        """The snapshots of several games (see :meth:`load_snapshot`) and the seeds of ``seeds`` found in Redis
        (an archived game's is not: :meth:`seed` reads it), in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(self.keys.snapshot(game_id))
        for game_id in seeds:
            pipe.get(self.keys.seed(game_id))
        replies = pipe.execute()
        snaps = {game_id: self.snapshot_from(raw) for game_id, raw in zip(game_ids, replies)}
        found = {game_id: bytes(raw) for game_id, raw in zip(seeds, replies[len(game_ids):]) if raw is not None}
        return snaps, found

    def read_docs(self, game_id: str) -> list[dict[str, Any]]:
        """The whole log decoded for folding (what a projections rebuild folds): the compressed segments' events
        as :meth:`Block.docs <.segments.Block.docs>` gives them, without rebuilding each envelope and its hash,
        then the rest as :meth:`read_raw` reads it (the stream's tail, or the archive)."""
        spans = self._segment_fields(game_id)
        docs: list[dict[str, Any]] = []
        if spans and spans[0][0] == 1 and all(a[1] + 1 == b[0] for a, b in zip(spans, spans[1:])):
            blocks = self._blocks(game_id, spans, 0, len(spans) - 1)
            for block in blocks or []:
                docs += block.docs()
            if blocks is None or len(docs) != spans[-1][1]:  # archived meanwhile, or not what the spans say
                docs = []
        return docs + [orjson.loads(raw) for raw in self.read_raw(game_id, after=len(docs))]

    def read_raw_many(self, game_ids: list[str]) -> list[list[bytes]]:
        """The whole logs of several games in one round trip (stored envelopes, raw JSON)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.xrange(self.keys.events(game_id), "-", "+")
            pipe.exists(self.keys.segments(game_id), self.keys.archived(game_id))
        replies = pipe.execute()
        logs: list[list[bytes]] = []
        for game_id, entries, elsewhere in zip(game_ids, replies[::2], replies[1::2]):
            # a log partly in segments, or archived, is read whole by read_raw
            logs.append(self.read_raw(game_id) if elsewhere else [fields[b"e"] for _, fields in entries])
        return logs

    def read_docs_many(self, game_ids: list[str]) -> list[list[dict[str, Any]]]:
        """:meth:`read_docs` of several games in two round trips (the streams, the segments' names and the
        archive pointers; then every segment of those that have some): what a projections rebuild reads. A
        log that does not read as one piece (archived, or moved into segments between the two reads past what
        they show) is read on its own by :meth:`read_docs`."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.xrange(self.keys.events(game_id), "-", "+")
            pipe.hkeys(self.keys.segments(game_id))
            pipe.exists(self.keys.archived(game_id))
        replies = pipe.execute()
        spans: dict[str, list[tuple[int, int, bytes]]] = {}
        pipe = self.redis.pipeline(transaction=False)
        for game_id, fields, archived in zip(game_ids, replies[1::3], replies[2::3]):
            if fields and not archived:
                spans[game_id] = sorted((int(f.partition(b"-")[0]), int(f.partition(b"-")[2]), f) for f in fields)
                pipe.hmget(self.keys.segments(game_id), [field for _, _, field in spans[game_id]])
        blobs = dict(zip(spans, pipe.execute())) if spans else {}
        logs = []
        for game_id, entries, archived in zip(game_ids, replies[0::3], replies[2::3]):
            docs = None if archived else _whole_log(game_id, spans.get(game_id, []), blobs.get(game_id, []), entries)
            logs.append(self.read_docs(game_id) if docs is None else docs)
        return logs

    def exists(self, game_id: str) -> bool:
        return bool(self.redis.exists(self.keys.head(game_id), self.keys.archived(game_id)))

    def command_record(self, game_id: str, command_id: str) -> dict[str, Any] | None:
        return self.settled_for([(game_id, command_id)])[0][0]

    def rejection(self, game_id: str, command_id: str) -> dict[str, Any] | None:
        """The outcome a rejected command id keeps forever (None: never rejected)."""
        return self.settled_for([(game_id, command_id)])[0][1]

    def settled_for(self, pairs: list[tuple[str, str]]) -> list[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
        """For many (game, command id) pairs in one round trip: (applied command record, rejection outcome);
        at most one of the two is set."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id, command_id in pairs:
            pipe.hget(self.keys.commands(game_id), command_id)
            pipe.hget(self.keys.rejections(game_id), command_id)
            pipe.get(self.keys.archived(game_id))
            pipe.get(self.keys.settled(game_id))
        raw = pipe.execute()
        found: list[tuple[dict[str, Any] | None, dict[str, Any] | None]] = []
        for i, (game_id, command_id) in enumerate(pairs):
            applied, rejected, pointer, index = raw[4 * i:4 * i + 4]
            if applied or rejected:
                found.append((orjson.loads(applied) if applied else None, orjson.loads(rejected) if rejected else None))
            elif (versions := find_settled(index, command_id)) is not None:
                record = self._segment_record(game_id, command_id, versions[1])
                found.append((record or {"command_id": command_id, "from_version": versions[0],
                                         "to_version": versions[1]}, None))
            elif pointer:
                game = self.archive_of(game_id, pointer)
                found.append((game.by_id.get(command_id), game.rejections.get(command_id)))
            else:
                found.append((None, None))
        return found

    def command_records(self, game_id: str) -> list[dict[str, Any]]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.keys.commands(game_id))
        pipe.get(self.keys.archived(game_id))
        raw, pointer = pipe.execute()
        records = [orjson.loads(v) for v in raw.values()]
        spans = self._segment_fields(game_id)
        blocks = self._blocks(game_id, spans, 0, len(spans) - 1) if spans else []
        if blocks is None:  # archived meanwhile
            return self.command_records(game_id)
        for block in blocks:
            records += block.records
        if not records and pointer:
            return list(self.archive_of(game_id, pointer).commands)
        # A compaction between the two reads moves records from the hash into a block: both reads then hold
        # them (never neither: blocks are only appended). One copy each, or a replay would run them twice.
        unique = {(r["from_version"], r["command_id"]): r for r in records}
        return [unique[k] for k in sorted(unique)]

    def game_ids(self, shard: int | None = None) -> list[str]:
        shards = range(self.keys.shards) if shard is None else [shard]
        ids: list[str] = []
        for s in shards:
            ids += sorted(m.decode() for m in self.redis.smembers(self.keys.games(s)))
        return ids

    # -- trimming the shard streams -------------------------------------------
    def trim_feed(self, shard: int, roles: tuple[str, ...], margin_ms: int = 0) -> int:
        """Drop the feed entries every follower role has handled (older than the lowest checkpoint by more
        than ``margin_ms``: what a follower rereads after an outage stays)."""
        keys = [self.keys.feed(shard), *(self.keys.checkpoint(role, shard) for role in roles)]
        return int(self._trim(keys=keys, args=["feed", margin_ms]))

    def trim_commands(self, shard: int, group: str) -> int:
        """Drop the command stream's entries ``group`` has settled (below its oldest pending entry)."""
        return int(self._trim(keys=[self.keys.cmd_stream(shard)], args=["commands", group]))

    # -- snapshots -----------------------------------------------------------
    def save_snapshot(self, game_id: str, version: int, digest: str, record: GameRecord, ts: float = 0.0) -> None:
        self.save_snapshot_bytes(game_id, version, digest, snapshot_bytes(record), ts)

    def save_snapshot_bytes(self, game_id: str, version: int, digest: str, data: bytes, ts: float = 0.0) -> None:
        """Store a record encoded earlier (records change in place, so encode it at the right version)."""
        self._queue_snapshot(self.redis, game_id, version, digest, data, ts)

    def _queue_snapshot(self, pipe: Any, game_id: str, version: int, digest: str, data: bytes, ts: float) -> None:
        pipe.hset(self.keys.snapshot(game_id), mapping={
            "version": version, "hash": digest, "format": SNAPSHOT_FORMAT, "ts": ts, "state": zlib.compress(data, 1)})

    def load_snapshot(self, game_id: str) -> tuple[int, str, GameRecord, float] | None:
        return self.snapshot_from(self.redis.hgetall(self.keys.snapshot(game_id)))

    @staticmethod
    def snapshot_from(raw: dict[bytes, bytes]) -> tuple[int, str, GameRecord, float] | None:
        """(version, hash, record, ts) of a snapshot hash as read, or None: none, one of an older format (a
        pickle is never loaded) or one that does not decode; the caller then replays the log."""
        if not raw or int(raw.get(b"format", 0)) != SNAPSHOT_FORMAT:
            return None
        try:
            return (int(raw[b"version"]), raw[b"hash"].decode(), decode_record(zlib.decompress(raw[b"state"])),
                    float(raw.get(b"ts", 0.0)))
        except Exception:  # not a record this code can read (pydantic's ValueError, a game gone): replay
            return None

    # -- seeds (secret) ------------------------------------------------------
    def ensure_seed(self, game_id: str, seed: bytes) -> bytes:
        """Store ``seed`` unless the game already has one (a redelivered create reuses it)."""
        key = self.keys.seed(game_id)
        self.redis.set(key, seed, nx=True)
        stored = self.redis.get(key)
        assert stored is not None, "a seed just stored"
        return bytes(stored)

    def seed(self, game_id: str) -> bytes | None:
        seed = self.redis.get(self.keys.seed(game_id))
        if seed is None and (game := self.archive_of(game_id)) is not None:
            return game.seed  # revealed in the record
        return seed
