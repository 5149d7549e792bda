"""The API's command path on the event loop: claim the client's command id, queue the command and wait for
its outcome in one round trip to Redis (``redis.asyncio``, no worker thread).

``submit.lua`` claims the command id's body fingerprint and appends the message to the command stream
atomically; pipelined right behind it, a BLPOP waits on the request's own reply list, onto which the
processor pushes the outcome, with the command's events, the moment it settles the command (see
``append.lua``). Why a reply list and BLPOP rather than pub/sub or a stream: the reply is written with
the command's settlement, so it is as durable as the log (AOF) and survives a Redis restart, and a
reply pushed before the request starts waiting is simply there when it does (pub/sub loses both);
each request waits on its own key, so any number of API processes need no routing of replies; the key
carries the game's hash tag, so the script that settles the command pushes it in the same slot on Redis
Cluster, and the submit script and the BLPOP go to the one node that holds the game. A reply nobody
pops expires after ``REPLY_TTL_SECONDS``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from typing import Any

import orjson
import redis
import redis.asyncio
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster

from services.infrastructure.commands import CommandMessage, CommandOutcome, new_reply, reply_with_after
from services.infrastructure.eventstore import Envelope, Keys
from services.infrastructure.eventstore.appends import settled_digest
from services.infrastructure.eventstore.store import REPLY_TTL_SECONDS
from services.infrastructure.resilience import ReplicationShortfall

_LUA = resources.files("services.infrastructure.eventstore")
CLAIMS = _LUA.joinpath("claims.lua").read_text()
"""The compact command-id claims (16 bytes a command; ``claims.lua``), the functions the scripts below use."""
SUBMIT_SCRIPT = CLAIMS + _LUA.joinpath("submit.lua").read_text()
SPEND_SCRIPT = CLAIMS + _LUA.joinpath("spend.lua").read_text()
UNCLAIM_SCRIPT = CLAIMS + "UNCLAIM(KEYS[1], ARGV[1])\nreturn 1\n"


def claim_of(command_id: str, fingerprint: str) -> bytes:
    """A command id's claim for a body (``claims.lua``): 8 bytes of the id's SHA-1 (as the settled-ids index
    has it), 8 of the body fingerprint's. 64-bit digests: two ids of one game meeting by chance, or another body
    passing for the claimed one, is a chance in about 10^19 per pair."""
    return settled_digest(command_id) + hashlib.sha1(fingerprint.encode()).digest()[:8]


class ShardStalled(ReplicationShortfall):
    """The game's shard cannot take appends now (its processor set the shard's stall flag): the command was
    not queued. An outage of that shard alone: the API answers 503 with ``Retry-After``."""


class CommandIdReused(Exception):
    """The client's command id already names another command of this game and seat."""


@dataclass(frozen=True)
class Settled:
    """A command's outcome as the processor handed it over, with its events' envelopes (parsed JSON) when
    the append script pushed it (none for a rejection, or for an outcome the id already had)."""

    outcome: CommandOutcome
    events: list[dict[str, Any]]
    after: dict[str, Any] | None = None
    """What the append said of the game after the events (see :func:`commands.reply_with_after`)."""


class AsyncCommandBus:
    def __init__(self, client: redis.asyncio.Redis, keys: Keys,
                 stream_maxlen: int = 1_000_000, store: Any = None) -> None:
        self.redis = client
        self.keys = keys
        self.stream_maxlen = stream_maxlen
        self.store = store
        """The synchronous ``EventStore``, for what the game's Redis keys no longer hold: a stretch of the log
        or a command record moved into a compressed segment, or an archived game (read in a worker thread)."""

    async def submit_and_wait(self, message: CommandMessage, timeout: float, body: dict[str, Any],
                              claim: str | None = None) -> Settled | None:
        """Queue ``message`` (its reply nonce is set here) and wait up to ``timeout`` seconds for its
        outcome; None: still queued. With ``claim`` (the fingerprint of ``body``, the command with its seat)
        the command id is claimed first: :class:`CommandIdReused` when it names another command."""
        game_id, command_id = message.game_id, message.command_id
        reply = new_reply()
        key = self.keys.reply(game_id, reply)
        pipe = self.redis.pipeline(transaction=False)
        # EVAL, not EVALSHA: a BLPOP pipelined behind a NOSCRIPT error would wait out its whole timeout.
        pipe.eval(SUBMIT_SCRIPT, 4, self.keys.cmd_stream_for(game_id), self.keys.command_claims(game_id),
                  self.keys.commands(game_id), key, message.json_with_reply(reply), self.stream_maxlen,
                  claim_of(command_id, claim) if claim else "", self.keys.stalled(self.keys.shard(game_id)),
                  command_id, REPLY_TTL_SECONDS)
        pipe.blpop([key], timeout=max(timeout, 0.001))
        queued, popped = await pipe.execute()
        status = queued[0].decode() if isinstance(queued[0], bytes) else queued[0]
        if status == "stalled":
            raise ShardStalled(f"the appends of this game's shard fail for now (its Redis master is away or lacks "
                               f"its replicas); nothing was queued; try again in {int(queued[1]) // 1000 + 1} s")
        if status == "reused":
            raise CommandIdReused(command_id)
        if status == "check":  # no fingerprint, the applied record remembers the body
            applied = orjson.loads(queued[1])
            if applied.get("command") != body:
                await self.redis.eval(UNCLAIM_SCRIPT, 1, self.keys.command_claims(game_id),  # type: ignore[misc]
                                      settled_digest(command_id))
                raise CommandIdReused(command_id)
            return await self.submit_and_wait(message, timeout, body)  # answered with the outcome it has
        if popped is not None:
            return Settled(*reply_with_after(popped[1]))
        found = await self.outcome(game_id, command_id)  # settled as the wait ran out, or still queued
        return Settled(found, []) if found is not None else None

    async def _replicated(self, game_id: str) -> bool:
        """Whether the game's master has the replicas an append waits for (``append_replicas``), for an outcome
        read from the game's records rather than handed over by the processor (which waited for them): a
        record on a master without them (just promoted, its old master not back) may not be durable, and is
        not answered (``no_replica_policy`` ``refuse``). One ``INFO replication``, on that path only."""
        replicas = getattr(self.store, "replicas", 0)
        if replicas <= 0 or getattr(self.store, "no_replica_policy", "refuse") != "refuse":
            return True
        key = self.keys.head(game_id)
        if isinstance(self.redis, AsyncRedisCluster):
            info = await self.redis.execute_command("INFO", "replication",  # type: ignore[no-untyped-call]
                                                    target_nodes=self.redis.get_node_from_key(key))
        else:
            info = await self.redis.info("replication")
        online = sum(1 for name, value in info.items()
                     if name.startswith("slave") and isinstance(value, dict) and value.get("state") == "online")
        return online >= replicas

    async def spend(self, game_id: str, command_id: str, fingerprint: str, rejection: bytes) -> str:
        """Give ``command_id`` the outcome ``rejection`` of a request refused as malformed (``spend.lua``):
        ``recorded``, ``same`` (it had it already) or ``reused`` (the id names another command)."""
        answer = await self.redis.eval(SPEND_SCRIPT, 3, self.keys.command_claims(game_id),  # type: ignore[misc]
                                       self.keys.commands(game_id), self.keys.rejections(game_id),
                                       command_id, claim_of(command_id, fingerprint), rejection)
        return answer.decode() if isinstance(answer, bytes) else str(answer)

    async def read(self, game_id: str, after: int, until: int) -> list[Envelope]:
        """The events of versions ``after + 1`` to ``until``."""
        entries = await self.redis.xrange(self.keys.events(game_id), f"{after + 1}-0", f"{until}-1")
        envelopes = [Envelope.trusted(fields[b"e"]) for _, fields in entries]
        if len(envelopes) < until - after and self.store is not None:  # compacted or archived meanwhile
            from anyio import to_thread

            return await to_thread.run_sync(self.store.read, game_id, after, until)
        return envelopes

    async def outcome(self, game_id: str, command_id: str) -> CommandOutcome | None:
        """A command's outcome from the game's records (None: not decided yet). While the game's shard is
        stalled (its appends reach a master but not the replicas they need) a record there may not be durable:
        :class:`ShardStalled` instead of an answer that could vanish in a failover."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(self.keys.outcome(game_id, command_id))
        pipe.hget(self.keys.commands(game_id), command_id)
        pipe.hget(self.keys.rejections(game_id), command_id)
        pipe.pttl(self.keys.stalled(self.keys.shard(game_id)))
        stored, applied, rejected, stall = await pipe.execute()
        if stall and int(stall) > 0 and not stored:
            raise ShardStalled("the appends of this game's shard do not reach their replicas for now; "
                               f"try again in {int(stall) // 1000 + 1} s")
        if stored:
            return CommandOutcome.from_json(stored)
        if (rejected or applied) and not await self._replicated(game_id):
            raise ShardStalled("this game's Redis master lacks the replicas its commands need; try again shortly")
        if rejected:
            return CommandOutcome.from_json(rejected)
        if applied:
            return CommandOutcome.from_record(game_id, command_id, orjson.loads(applied))
        if self.store is not None:  # a record moved into a segment, or the game was archived
            from anyio import to_thread

            found, refused = (await to_thread.run_sync(self.store.settled_for, [(game_id, command_id)]))[0]
            if refused:
                return CommandOutcome.model_validate(refused)
            if found:
                return CommandOutcome.from_record(game_id, command_id, found)
        return None
