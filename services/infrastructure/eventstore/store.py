"""The event store: one Redis stream per game, appended by one Lua script.

The script checks the expected version and head hash (optimistic concurrency:
a stale writer can delay a command, never fork a log), refuses a command id
already applied or rejected (answering with its original record), appends the
events, records the command for the audit trail and adds one entry to the
shard feed, all atomically. A rejection is recorded by the same script under
the same checks, so one command id has one outcome forever. Stream entry ids are ``<version>-1``, so reading "after
version N" is a plain XRANGE.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

import orjson
import redis

from domain.core.lifecycle import KERNEL_EVENTS, GameRecord
from domain.core.record import decode_record, encode_record
from services.infrastructure.eventstore.envelope import GENESIS_HASH, Envelope
from services.infrastructure.eventstore.keys import Keys
from services.infrastructure.eventstore.segments import Block, decode, encode, needs_previous
from services.infrastructure.redisconn import by_node, is_cluster, refresh_slots
from services.infrastructure.resilience import UNAVAILABLE, ReplicationShortfall

FEED_EVENTS_MAX = 16_384
"""Bytes of envelopes a feed entry carries along (``e``); a command whose events are more is announced without
them, and the followers read those from the log."""

REPLY_TTL_SECONDS = 60
"""A reply nobody popped (its request gave up waiting and answered 202) is gone after this long."""

SNAPSHOT_FORMAT = 3
"""Bump when a state class changes shape: older snapshots are then ignored and the log replayed. 2: JSON
(``domain.core.codec``); format 1 was pickle, never loaded again (Redis is not a trusted source of code).
3: the JSON zlib-compressed (a Carcassonne record shrinks about threefold)."""


def run_scripts(pipe: Any, scripts: list[Any]) -> list[Any]:
    """Execute a pipeline of EVALSHA calls; should Redis not know a script (a restart, a flushed cache),
    load it and run the pipeline again. redis-py's own script handling asks SCRIPT EXISTS on every
    execution; this asks nothing while the scripts are there."""
    commands = list(pipe.command_stack)
    try:
        return pipe.execute()  # type: ignore[no-any-return]
    except redis.exceptions.NoScriptError:
        for script in scripts:
            script.registered_client.script_load(script.script)
        pipe.command_stack.extend(commands)
        return pipe.execute()  # type: ignore[no-any-return]


def snapshot_bytes(record: GameRecord) -> bytes:
    """The record as snapshot data: JSON, which cannot run code when it is read back. A record in the middle
    of an undo trail is not snapshotted (the processor waits for the trail's end)."""
    if record.undo is not None:
        raise ValueError(f"game {record.game_id} is inside an undo trail at version {record.version}: no snapshot now")
    return encode_record(record)


SETTLED_WIDTH = 20
"""One entry of the settled-ids index: the first 8 bytes of the id's SHA-1, then its from and to version
(6 hex digits each)."""


def settled_digest(command_id: str) -> bytes:
    return hashlib.sha1(command_id.encode()).digest()[:8]


def settled_entry(command_id: str, from_version: int, to_version: int) -> bytes:
    return settled_digest(command_id) + b"%06x%06x" % (from_version, to_version)


def find_settled(index: bytes | None, command_id: str) -> tuple[int, int] | None:
    """(from, to) versions of an applied command id in a settled-ids index, or None."""
    if not index:
        return None
    digest = settled_digest(command_id)
    pos = index.find(digest)
    while pos >= 0:
        if pos % SETTLED_WIDTH == 0:
            return int(index[pos + 8:pos + 14], 16), int(index[pos + 14:pos + 20], 16)
        pos = index.find(digest, pos + 1)
    return None


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


@dataclass(frozen=True)
class AppendRequest:
    """One command's append: its events, its audit record and, optionally, how to settle it."""

    game_id: str
    expected_version: int
    command_id: str
    record: dict[str, Any]
    envelopes: list[Envelope]
    outcome: bytes = b""
    outcome_ttl: int = 86400
    ack: tuple[str, Any] | None = None  # (consumer group, stream entry id)
    reject: bool = False
    """Record ``record`` (the rejection outcome) instead of appending; ``expected_version`` -1 skips the
    version check (a dead letter is set aside whatever the log's head)."""
    prev_hash: str = ""
    """The head hash the command was decided on, for a rejection (an append takes its first envelope's)."""
    reply: str = ""
    """The reply list a request waits on (BLPOP): the outcome is pushed there instead of written to the
    outcome key."""


@dataclass(frozen=True)
class AppendResult:
    status: Literal["ok", "dup", "refused", "stale", "chain"]
    version: int = 0
    record: dict[str, Any] | None = None  # the original command record ("dup") or rejection ("refused")


def _feed_flags(envelopes: list[Envelope]) -> list[bytes]:
    """The append script's last arguments for an append: whether a kernel event is among the events (the feed
    entry's ``k``: the reactor skips what cannot concern it) and whether the feed entry carries the events (not
    when they are many: the followers then read them from the log). See append.lua."""
    kernel = any(env.type in KERNEL_EVENTS for env in envelopes)
    carried = sum(len(env.to_json()) for env in envelopes) <= FEED_EVENTS_MAX
    return [b"1" if kernel else b"0", b"1" if carried else b"0"]


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


_REDIRECTS = (redis.exceptions.AskError, redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError)
"""Replies of a cluster node whose slots moved or that lost its master (a failover under way)."""


class EventStore:
    """The log of every game. A finished game that was archived (``services.infrastructure.archive``) has left Redis; every
    read below then answers from its archive (``.archived``), the same as before."""

    def __init__(self, client: redis.Redis, keys: Keys, replicas: int = 0, replica_timeout_ms: int = 1000,
                 archive: Any = None) -> None:
        """``replicas`` > 0: an append is acknowledged (its outcome stored, its stream entry acknowledged) only
        once ``WAIT`` says that many replicas have it, so a failover cannot lose an acknowledged command.
        ``archive``: the reader of archived games (default: the process's shared one)."""
        self.redis = client
        self.keys = keys
        self.replicas = replicas
        self.replica_timeout_ms = replica_timeout_ms
        self._archive_reader = archive
        self._append = client.register_script(resources.files(__package__).joinpath("append.lua").read_text())
        self._trim = client.register_script(resources.files(__package__).joinpath("trim.lua").read_text())
        self._compact = client.register_script(resources.files(__package__).joinpath("compact.lua").read_text())
        self._recent: dict[str, _Recent] = {}
        """Per game, the stretch of its log this store appended last (see :class:`_Recent`)."""

    # -- writing -----------------------------------------------------------
    def append(self, game_id: str, expected_version: int, command_id: str, record: dict[str, Any],
               envelopes: list[Envelope], *, outcome: bytes = b"", outcome_ttl: int = 86400,
               ack: tuple[str, Any] | None = None) -> AppendResult:
        """Append atomically; with ``outcome`` and ``ack`` (group, entry id) also settle the command."""
        return self.append_many([AppendRequest(game_id, expected_version, command_id, record, envelopes, outcome,
                                               outcome_ttl, ack)])[0]

    def append_many(self, requests: list[AppendRequest]) -> list[AppendResult]:
        """Run one append script per request, all in one round trip (one per master on a cluster); each is
        atomic on its own. With ``replicas`` the outcomes and acknowledgements follow once replicas have the
        appends (:class:`ReplicationShortfall` when they do not within the timeout: nothing acknowledged)."""
        k = self.keys
        durable = self.replicas > 0
        calls: list[tuple[list[str], list[Any]]] = []
        for req in requests:
            prev = req.envelopes[0].prev_hash if req.envelopes else req.prev_hash
            group, entry = req.ack if req.ack and not durable else ("", "")
            args: list[Any] = [req.game_id, req.expected_version, prev, req.command_id, orjson.dumps(req.record),
                               b"" if durable else req.outcome, req.outcome_ttl, group, entry,
                               "reject" if req.reject else "append", len(req.envelopes),
                               REPLY_TTL_SECONDS if req.reply and not durable else 0]
            for env in req.envelopes:
                args += [env.hash, env.to_json()]
            args.append(settled_digest(req.command_id))
            if not req.reject:
                args += _feed_flags(req.envelopes)
            shard = k.shard(req.game_id)
            outcome_key = k.outcome(req.game_id, req.command_id)
            calls.append(([k.events(req.game_id), k.head(req.game_id), k.commands(req.game_id), k.feed(shard),
                           k.games(shard), outcome_key, k.cmd_stream(shard), k.rejections(req.game_id),
                           req.reply or outcome_key, k.settled(req.game_id)], args))
        replies = self._run_cluster(calls, durable) if is_cluster(self.redis) else self._run(calls, durable)
        results = [self._result(reply) for reply in replies]
        for req, (_, args), result in zip(requests, calls, results):
            if result.status == "ok" and not req.reject:
                self._remember(req, args[4])
        if durable:
            self._acknowledge([(req, res) for req, res in zip(requests, results) if res.status == "ok"])
        return results

    def _queue(self, pipe: Any, calls: list[tuple[list[str], list[Any]]], durable: bool) -> None:
        for keys, args in calls:
            pipe.evalsha(self._append.sha, len(keys), *keys, *args)  # type: ignore[attr-defined]  # Script.sha: the stubs lag
        if durable:  # same connection: waits for everything these scripts wrote
            pipe.execute_command("WAIT", self.replicas, self.replica_timeout_ms)

    def _run(self, calls: list[tuple[list[str], list[Any]]], durable: bool) -> list[Any]:
        pipe = self.redis.pipeline(transaction=False)
        self._queue(pipe, calls, durable)
        replies = run_scripts(pipe, [self._append])
        if durable:
            self._check_replicas(replies.pop())
        return replies

    def _run_cluster(self, calls: list[tuple[list[str], list[Any]]], durable: bool) -> list[Any]:
        """redis-py's cluster pipeline refuses EVALSHA: each master gets its scripts (and ``WAIT``) on one
        connection of its own. A node that is gone or no longer serves the slot reads as an outage: the slot
        map is read again and the caller takes the commands up again (the scripts are idempotent)."""
        replies: list[Any] = [None] * len(calls)
        try:
            for node_client, positions in by_node(self.redis, [keys[0] for keys, _ in calls]).values():  # type: ignore[arg-type]
                mine = [calls[i] for i in positions]
                pipe = node_client.pipeline(transaction=False)
                self._queue(pipe, mine, durable)
                out = pipe.execute(raise_on_error=False)
                if any(isinstance(r, redis.exceptions.NoScriptError) for r in out):  # a node new to the script
                    self._append.registered_client.script_load(self._append.script)  # type: ignore[attr-defined]
                    self._queue(pipe, mine, durable)
                    out = pipe.execute(raise_on_error=False)
                if durable:
                    acks = out.pop()
                    self._check_replicas(acks if not isinstance(acks, Exception) else 0)
                for i, reply in zip(positions, out):
                    if isinstance(reply, _REDIRECTS):
                        raise redis.ConnectionError(f"the cluster moved a slot: {reply}") from reply
                    if isinstance(reply, Exception):
                        raise reply
                    replies[i] = reply
        except UNAVAILABLE:
            refresh_slots(self.redis)  # type: ignore[arg-type]
            raise
        return replies

    def _check_replicas(self, acked: Any) -> None:
        if int(acked) < self.replicas:
            raise ReplicationShortfall(f"{acked} of {self.replicas} replicas confirmed the appends within "
                                       f"{self.replica_timeout_ms} ms")

    def _acknowledge(self, done: list[tuple[AppendRequest, AppendResult]]) -> None:
        """Answer (the reply list a request waits on, else the outcome key) and acknowledge the stream entries
        of appends the replicas confirmed: what the script does itself when nothing waits for replicas."""
        if not done:
            return
        pipe = self.redis.pipeline(transaction=False)
        for req, _ in done:
            if req.outcome and req.reply:
                pipe.rpush(req.reply, self.reply_of(req))
                pipe.expire(req.reply, REPLY_TTL_SECONDS)
            elif req.outcome:
                pipe.set(self.keys.outcome(req.game_id, req.command_id), req.outcome, ex=req.outcome_ttl)
            if req.ack:
                pipe.xack(self.keys.cmd_stream_for(req.game_id), req.ack[0], req.ack[1])
        pipe.execute()

    @staticmethod
    def reply_of(req: AppendRequest) -> bytes:
        """What the append script pushes onto ``req.reply`` once the command is settled (for code that settles
        after the script, e.g. once replicas confirmed it): the outcome and the events' envelopes."""
        events = b",".join(env.to_json() for env in req.envelopes) if not req.reject else b""
        return b'{"outcome":' + req.outcome + b',"events":[' + events + b"]}"

    def replicated(self, shards: list[int]) -> None:
        """Return once replicas hold everything written so far to the masters of ``shards`` (a write of a
        probe key and ``WAIT`` on one connection per master), or raise :class:`ReplicationShortfall`. Called
        before answering with an outcome read back from the log (a redelivered command)."""
        if self.replicas <= 0 or not shards:
            return
        probes = [f"{self.keys.prefix}replprobe:{{s{shard}}}" for shard in sorted(set(shards))]
        if is_cluster(self.redis):
            try:
                targets = [(node_client, [probes[i] for i in positions])
                           for node_client, positions in by_node(self.redis, probes).values()]  # type: ignore[arg-type]
            except UNAVAILABLE:
                refresh_slots(self.redis)  # type: ignore[arg-type]
                raise
        else:
            targets = [(self.redis, probes)]
        for client, keys in targets:
            pipe = client.pipeline(transaction=False)
            for key in keys:
                pipe.incr(key)
            pipe.execute_command("WAIT", self.replicas, self.replica_timeout_ms)
            self._check_replicas(pipe.execute()[-1])

    @staticmethod
    def _result(reply: Any) -> AppendResult:
        status, value = reply
        status = status.decode() if isinstance(status, bytes) else status
        if status == "ok":
            return AppendResult("ok", int(value))
        if status in ("dup", "refused"):
            return AppendResult("dup" if status == "dup" else "refused", record=orjson.loads(value))
        if status == "stale":
            return AppendResult("stale", int(value))
        return AppendResult("chain")

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

    # -- compressed segments -----------------------------------------------------
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
                first = spans[i][0]
                previous = None
                if needs_previous(blob, first):
                    if i == 0 or spans[i - 1][1] != first - 1:
                        raise ValueError(f"segment {spans[i][2]!r} of {game_id} does not follow one before it")
                    previous = blocks[i - 1]
                blocks[i] = decode(game_id, first, blob, previous)
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
