"""Settling commands outside the append script: outcomes answered from the log, replies to waiting requests,
dead letters. A part of :class:`~services.adapters.processor.processor.Processor` (a mixin over its client,
keys, store and settings)."""

from __future__ import annotations

import re
from typing import Any

import orjson
import redis
import structlog
from prometheus_client import Counter

from services.adapters.feed import shard_of
from services.adapters.processor.plans import _settled_result
from services.infrastructure.commands import CommandMessage, CommandOutcome
from services.infrastructure.eventstore.keys import Keys
from services.infrastructure.eventstore.store import REPLY_TTL_SECONDS, AppendRequest, EventStore
from services.infrastructure.settings import Settings

GROUP = "processors"
REPLY_NONCE = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""The reply nonce a request puts in its message (the processor builds the key from it, in the game's slot)."""
log = structlog.get_logger("taproom.processor")

COMMANDS = Counter("taproom_commands_total", "Commands processed", ["outcome"])
_COUNTERS: dict[str, Any] = {}


def _count(outcome: str) -> None:
    """One more command with this outcome (the labelled counter looked up once per outcome)."""
    counter = _COUNTERS.get(outcome)
    if counter is None:
        counter = _COUNTERS[outcome] = COMMANDS.labels(outcome)
    counter.inc()


class Settling:
    redis: redis.Redis
    keys: Keys
    store: EventStore
    settings: Settings

    def _settle(self, pipe: Any, ack: tuple[str, Any], outcome: CommandOutcome,
                message: CommandMessage | dict[str, Any] | None = None) -> None:
        """Store an outcome the append script did not store (or hand it to the request waiting on its reply
        list), and acknowledge its entry. A rejection never replaces an outcome already there (it may be an
        accepted one)."""
        reply = self._reply_key(message)
        if reply:
            pipe.rpush(reply, b'{"outcome":' + outcome.to_json() + b"}")
            pipe.expire(reply, REPLY_TTL_SECONDS)
        else:
            pipe.set(self.keys.outcome(outcome.game_id, outcome.command_id), outcome.to_json(),
                     ex=self.settings.outcome_ttl_seconds, nx=not outcome.accepted)
        pipe.xack(ack[0], GROUP, ack[1])

    def _reply_key(self, message: CommandMessage | dict[str, Any] | None) -> str:
        """The reply list a request waits on for this command ("": nobody waits)."""
        game_id: Any
        nonce: Any
        if isinstance(message, CommandMessage):
            game_id, nonce = message.game_id, message.reply
        elif isinstance(message, dict):
            game_id, nonce = message.get("game_id"), message.get("reply")
        else:
            return ""
        if not isinstance(game_id, str) or not isinstance(nonce, str) or not REPLY_NONCE.fullmatch(nonce):
            return ""
        return self.keys.reply(game_id, nonce)

    def _deliveries(self, stream: str, entry_id: Any) -> int:
        info = self.redis.xpending_range(stream, GROUP, min=entry_id, max=entry_id, count=1)
        return int(info[0]["times_delivered"]) if info else 0

    def _dead_letter(self, stream: str, entry_id: Any, fields: dict, pipe: Any, error: str) -> None:
        self.redis.xadd(self.keys.dead_letters(shard_of(stream)),
                        {"m": fields.get(b"m", b""), "error": error, "entry": entry_id})
        try:
            message = orjson.loads(fields[b"m"])
            game_id, command_id = message["game_id"], message["command_id"]
            if not isinstance(game_id, str) or not isinstance(command_id, str):
                raise TypeError("not a command")
        except Exception:  # not even readable: acknowledge it, it is kept in the dead-letter stream
            pipe.xack(stream, GROUP, entry_id)
        else:
            outcome = CommandOutcome.rejected(game_id, command_id, "internal_error",
                                              "the command could not be processed; it was set aside")
            # Recorded now, not with the batch's settlements: a repeat of this id later in the batch must
            # find it. Version -1: set aside whatever the log's head (one id, one outcome, even here).
            result = self.store.append_many([AppendRequest(
                game_id, -1, command_id, outcome.to_dict(), [], outcome.to_json(), self.settings.outcome_ttl_seconds,
                (GROUP, entry_id), reject=True, reply=self._reply_key(message))])[0]
            if result.status != "ok":  # settled meanwhile after all
                self._settle(pipe, (stream, entry_id), _settled_result(game_id, command_id, result), message)
        _count("dead_letter")
        log.error("dead letter", stream=stream, entry=str(entry_id), error=error)
