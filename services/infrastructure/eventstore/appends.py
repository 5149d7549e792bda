"""Appending to the event store: one Lua script per command (``append.lua``), all of a batch in one round trip
(one per master on a Redis Cluster), with ``WAIT`` for replicas when the settings ask for them.

The script checks the expected version and head hash (optimistic concurrency: a stale writer can delay a command,
never fork a log), refuses a command id already applied or rejected (answering with its original record), appends
the events, records the command for the audit trail and adds one entry to the shard feed, all atomically. A
rejection is recorded by the same script under the same checks, so one command id has one outcome forever.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import orjson
import redis
import structlog
from prometheus_client import Counter

from domain.core.lifecycle import KERNEL_EVENTS
from services.infrastructure.eventstore.envelope import Envelope
from services.infrastructure.eventstore.keys import Keys
from services.infrastructure.redisconn import by_node, is_cluster, refresh_slots
from services.infrastructure.resilience import UNAVAILABLE, ReplicationShortfall

FEED_EVENTS_MAX = 16_384
"""Bytes of envelopes a feed entry carries along (``e``); a command whose events are more is announced without
them, and the followers read those from the log."""

REPLY_TTL_SECONDS = 60
"""A reply nobody popped (its request gave up waiting and answered 202) is gone after this long."""

log = structlog.get_logger("taproom.eventstore")
APPENDS_WITHOUT_REPLICA = Counter(
    "taproom_appends_without_replica_total",
    "Append rounds acknowledged on a master's own fsync'd AOF for want of a replica (no_replica_policy=local_fsync)")


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


@dataclass(frozen=True)
class Inline:
    """The models an append writes with its events (inline projections, see append.lua): ``sets`` (key, value)
    written with SET, ``legal`` one value per seat in the hash ``legal_key``, and ``after``, what the answer
    to the move says once the events are in (JSON, pushed with the outcome onto the reply list)."""

    sets: list[tuple[str, bytes]]
    legal_key: str
    legal: list[bytes]
    after: bytes = b""

    def keys(self) -> list[str]:
        return [key for key, _ in self.sets] + ([self.legal_key] if self.legal else [])

    def args(self) -> list[Any]:
        """The append script's arguments for these models (``after`` is not among them: it is in the reply)."""
        args: list[Any] = [len(self.sets), len(self.legal), *(value for _, value in self.sets)]
        for seat, value in enumerate(self.legal):
            args += [seat, value]
        return args


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
    inline: Inline | None = None
    """The game's models after the events, written in the same step (an append only)."""


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


_REDIRECTS = (redis.exceptions.AskError, redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError)
"""Replies of a cluster node whose slots moved or that lost its master (a failover under way)."""



class Appends:
    """The writing side of :class:`~services.infrastructure.eventstore.store.EventStore` (a part of it, not a
    store of its own: it works on the store's client, keys, replica settings and append script)."""

    redis: redis.Redis
    keys: Keys
    replicas: int
    replica_timeout_ms: int
    no_replica_policy: str
    _local_fsync: dict[int, bool]
    _append: Any
    _remember: Callable[[AppendRequest, bytes], None]  # the store's compaction keeps what was appended

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
        durable = self.replicas > 0
        calls = [self._call(req, durable) for req in requests]
        replies = self._run_cluster(calls, durable) if is_cluster(self.redis) else self._run(calls, durable)
        results = [self._result(reply) for reply in replies]
        for req, (_, args), result in zip(requests, calls, results):
            if result.status == "ok" and not req.reject:
                self._remember(req, args[4])
        if durable:
            self._acknowledge([(req, res) for req, res in zip(requests, results) if res.status == "ok"])
        return results

    def _call(self, req: AppendRequest, durable: bool) -> tuple[list[str], list[Any]]:
        """The append script's KEYS and ARGV for one request (see append.lua)."""
        k = self.keys
        prev = req.envelopes[0].prev_hash if req.envelopes else req.prev_hash
        group, entry = req.ack if req.ack and not durable else ("", "")
        replied = bool(req.reply and req.outcome) and not durable  # the script pushes the reply as it is given
        args: list[Any] = [req.game_id, req.expected_version, prev, req.command_id, orjson.dumps(req.record),
                           b"" if durable else self.reply_of(req) if replied else req.outcome, req.outcome_ttl,
                           group, entry, "reject" if req.reject else "append", len(req.envelopes),
                           REPLY_TTL_SECONDS if req.reply and not durable else 0]
        for env in req.envelopes:
            args += [env.hash, env.to_json()]
        args.append(settled_digest(req.command_id))
        extra: list[str] = []
        if not req.reject:
            args += _feed_flags(req.envelopes)
            if req.inline is not None:
                args += req.inline.args()
                extra = req.inline.keys()
        shard = k.shard(req.game_id)
        outcome_key = k.outcome(req.game_id, req.command_id)
        return ([k.events(req.game_id), k.head(req.game_id), k.commands(req.game_id), k.feed(shard),
                 k.games(shard), outcome_key, k.cmd_stream(shard), k.rejections(req.game_id),
                 req.reply or outcome_key, k.settled(req.game_id), *extra], args)

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
                    self._check_replicas(acks if not isinstance(acks, Exception) else 0, node_client)
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

    def _check_replicas(self, acked: Any, client: Any = None) -> None:
        """Raise :class:`ReplicationShortfall` unless ``acked`` replicas are enough, or the master (``client``)
        lacks them and ``no_replica_policy`` accepts its own fsync'd disk instead (counted: alert on it)."""
        if int(acked) >= self.replicas:
            return
        if self.no_replica_policy == "local_fsync" and self._fsyncs(client if client is not None else self.redis):
            APPENDS_WITHOUT_REPLICA.inc()
            log.warning("append acknowledged without a replica (no_replica_policy=local_fsync): on the master's "
                        "fsync'd AOF only", replicas=int(acked), wanted=self.replicas)
            return
        raise ReplicationShortfall(f"{acked} of {self.replicas} replicas confirmed the appends within "
                                   f"{self.replica_timeout_ms} ms")

    def _fsyncs(self, client: Any) -> bool:
        """Whether the master behind ``client`` fsyncs each write before answering it (AOF on, ``appendfsync
        always``; asked once per connection pool). A master that cannot say (``CONFIG`` renamed away) does not."""
        key = id(client.connection_pool) if hasattr(client, "connection_pool") else id(client)
        known = self._local_fsync.get(key)
        if known is None:
            try:
                config = client.config_get("append*")
                known = config.get("appendonly") == "yes" and config.get("appendfsync") == "always"
            except redis.ResponseError:
                known = False
            self._local_fsync[key] = known
        return known

    def replicas_ready(self, shard: int) -> bool:
        """Whether the master of ``shard`` has the replicas an append waits for now (one ``INFO replication``,
        nothing blocks): a shard stalled for want of them is not tried again before they are back."""
        if self.replicas <= 0 or self.no_replica_policy == "local_fsync":
            return True
        client: Any = self.redis
        if is_cluster(self.redis):
            client = next(iter(by_node(self.redis, [self.keys.cmd_stream(shard)]).values()))[0]  # type: ignore[arg-type]
        info = client.info("replication")
        online = sum(1 for name, value in info.items()
                     if name.startswith("slave") and isinstance(value, dict) and value.get("state") == "online")
        return online >= self.replicas

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
        after = b',"after":' + req.inline.after if req.inline is not None and req.inline.after and not req.reject else b""
        return b'{"outcome":' + req.outcome + b',"events":[' + events + b"]" + after + b"}"

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
            self._check_replicas(pipe.execute()[-1], client)

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
