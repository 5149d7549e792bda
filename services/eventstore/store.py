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

from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

import orjson
import redis

from domain.core.codec import decode_record, encode_record
from domain.core.lifecycle import GameRecord

from ..redisconn import by_node, is_cluster, refresh_slots
from ..resilience import UNAVAILABLE, ReplicationShortfall
from .envelope import GENESIS_HASH, Envelope
from .keys import Keys

REPLY_TTL_SECONDS = 60
"""A reply nobody popped (its request gave up waiting and answered 202) is gone after this long."""

SNAPSHOT_FORMAT = 2
"""Bump when a state class changes shape: older snapshots are then ignored and the log replayed. 2: JSON
(``domain.core.codec``); format 1 was pickle, never loaded again (Redis is not a trusted source of code)."""


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


_REDIRECTS = (redis.exceptions.AskError, redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError)
"""Replies of a cluster node whose slots moved or that lost its master (a failover under way)."""


class EventStore:
    def __init__(self, client: redis.Redis, keys: Keys, replicas: int = 0, replica_timeout_ms: int = 1000) -> None:
        """``replicas`` > 0: an append is acknowledged (its outcome stored, its stream entry acknowledged) only
        once ``WAIT`` says that many replicas have it, so a failover cannot lose an acknowledged command."""
        self.redis = client
        self.keys = keys
        self.replicas = replicas
        self.replica_timeout_ms = replica_timeout_ms
        self._append = client.register_script(resources.files(__package__).joinpath("append.lua").read_text())

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
            shard = k.shard(req.game_id)
            outcome_key = k.outcome(req.game_id, req.command_id)
            calls.append(([k.events(req.game_id), k.head(req.game_id), k.commands(req.game_id), k.feed(shard),
                           k.games(shard), outcome_key, k.cmd_stream(shard), k.rejections(req.game_id),
                           req.reply or outcome_key], args))
        replies = self._run_cluster(calls, durable) if is_cluster(self.redis) else self._run(calls, durable)
        results = [self._result(reply) for reply in replies]
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

    # -- reading -----------------------------------------------------------
    def head(self, game_id: str) -> tuple[int, str]:
        version, digest = self.redis.hmget(self.keys.head(game_id), "version", "hash")
        return (int(version), digest.decode()) if version and digest else (0, GENESIS_HASH)

    def read(self, game_id: str, after: int = 0, until: int | None = None, count: int | None = None) -> list[Envelope]:
        end = f"{until}-1" if until is not None else "+"
        entries = self.redis.xrange(self.keys.events(game_id), f"{after + 1}-0", end, count=count)
        return [Envelope.trusted(fields[b"e"]) for _, fields in entries]

    def read_raw(self, game_id: str, after: int = 0, until: int | None = None) -> list[bytes]:
        end = f"{until}-1" if until is not None else "+"
        entries = self.redis.xrange(self.keys.events(game_id), f"{after + 1}-0", end)
        return [fields[b"e"] for _, fields in entries]

    def read_raw_many(self, game_ids: list[str]) -> list[list[bytes]]:
        """The whole logs of several games in one round trip (stored envelopes, raw JSON)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.xrange(self.keys.events(game_id), "-", "+")
        return [[fields[b"e"] for _, fields in entries] for entries in pipe.execute()]

    def exists(self, game_id: str) -> bool:
        return bool(self.redis.exists(self.keys.head(game_id)))

    def command_record(self, game_id: str, command_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self.keys.commands(game_id), command_id)
        return orjson.loads(raw) if raw else None

    def rejection(self, game_id: str, command_id: str) -> dict[str, Any] | None:
        """The outcome a rejected command id keeps forever (None: never rejected)."""
        raw = self.redis.hget(self.keys.rejections(game_id), command_id)
        return orjson.loads(raw) if raw else None

    def settled_for(self, pairs: list[tuple[str, str]]) -> list[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
        """For many (game, command id) pairs in one round trip: (applied command record, rejection outcome);
        at most one of the two is set."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id, command_id in pairs:
            pipe.hget(self.keys.commands(game_id), command_id)
            pipe.hget(self.keys.rejections(game_id), command_id)
        raw = pipe.execute()
        return [(orjson.loads(a) if a else None, orjson.loads(r) if r else None) for a, r in zip(raw[::2], raw[1::2])]

    def command_records(self, game_id: str) -> list[dict[str, Any]]:
        raw = self.redis.hgetall(self.keys.commands(game_id))
        return sorted((orjson.loads(v) for v in raw.values()), key=lambda r: r["from_version"])

    def game_ids(self, shard: int | None = None) -> list[str]:
        shards = range(self.keys.shards) if shard is None else [shard]
        ids: list[str] = []
        for s in shards:
            ids += sorted(m.decode() for m in self.redis.smembers(self.keys.games(s)))
        return ids

    # -- snapshots -----------------------------------------------------------
    def save_snapshot(self, game_id: str, version: int, digest: str, record: GameRecord, ts: float = 0.0) -> None:
        self.save_snapshot_bytes(game_id, version, digest, snapshot_bytes(record), ts)

    def save_snapshot_bytes(self, game_id: str, version: int, digest: str, data: bytes, ts: float = 0.0) -> None:
        """Store a record encoded earlier (records change in place, so encode it at the right version)."""
        self.redis.hset(self.keys.snapshot(game_id), mapping={
            "version": version, "hash": digest, "format": SNAPSHOT_FORMAT, "ts": ts, "state": data})

    def load_snapshot(self, game_id: str) -> tuple[int, str, GameRecord, float] | None:
        return self.snapshot_from(self.redis.hgetall(self.keys.snapshot(game_id)))

    @staticmethod
    def snapshot_from(raw: dict[bytes, bytes]) -> tuple[int, str, GameRecord, float] | None:
        """(version, hash, record, ts) of a snapshot hash as read, or None: none, one of an older format (a
        pickle is never loaded) or one that does not decode; the caller then replays the log."""
        if not raw or int(raw.get(b"format", 0)) != SNAPSHOT_FORMAT:
            return None
        try:
            return (int(raw[b"version"]), raw[b"hash"].decode(), decode_record(raw[b"state"]),
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
        return self.redis.get(self.keys.seed(game_id))
