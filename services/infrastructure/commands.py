"""Submitting commands to the command streams and waiting for their outcome.

The API, bots, workers and the CLI all submit through :class:`CommandBus`,
so every command (a human's, a bot's, the service's own) takes the one path
through the processor and the event store.
"""

from __future__ import annotations

import time
import uuid
from typing import Any, Literal

import orjson
import redis
from pydantic import BaseModel, ConfigDict, StrictStr

from domain.core import SYSTEM_SEAT, Command
from services.infrastructure.eventstore import EventStore


class CommandMessage(BaseModel):
    """The one message on a command stream (``cmd:{sN}``, field ``m``, JSON): what the processor decides.

    ``command`` is the kernel or game command as JSON without its seat (``seat`` says whose it is); the
    processor parses it against the game, which only the game's record names."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    game_id: StrictStr
    command_id: StrictStr
    command: dict[str, Any]
    seat: int = SYSTEM_SEAT
    actor: str = "system"
    expected_version: int | None = None
    """Refused as ``stale_version`` unless the game is at this version when decided."""
    dev_seed: str | None = None
    """A creation's chosen seed (development only: ignored unless ``allow_client_seed``)."""
    reply: str | None = None
    """A reply nonce (:func:`new_reply`): the processor pushes the outcome onto ``Keys.reply(game, nonce)``,
    where the request that sent the command waits (BLPOP) instead of polling."""

    @classmethod
    def of(cls, game_id: str, command_id: str, command: Command | dict[str, Any], *, seat: int, actor: str,
           expected_version: int | None = None, dev_seed: str | None = None,
           reply: str | None = None) -> CommandMessage:
        """A message for ``command``: a model, or (tests of what the processor does with bad input, tools
        replaying recorded JSON) the command's JSON as it came."""
        if isinstance(command, Command):
            body = command.model_dump(mode="json", exclude={"seat"})
        else:
            body = {k: v for k, v in command.items() if k != "seat"}
        return cls(game_id=game_id, command_id=command_id, command=body, seat=seat, actor=actor,
                   expected_version=expected_version, dev_seed=dev_seed, reply=reply)

    def to_json(self) -> bytes:
        return self.model_dump_json(exclude_none=True).encode()

    def json_with_reply(self, reply: str) -> bytes:
        """:meth:`to_json` of this message with its reply nonce set (the API's hot path: every field is plain
        JSON data already, so orjson writes it without a model copy and pydantic's serializer)."""
        values = {k: v for k, v in self.__dict__.items() if v is not None}
        values["reply"] = reply
        return orjson.dumps(values)


class CommandOutcome(BaseModel):
    """The one outcome of a command id, forever: where the API waits (``outcome:`` key) and what the
    rejection records hold."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    status: Literal["accepted", "rejected"]
    command_id: str
    game_id: str
    from_version: int = 0
    version: int = 0
    code: str | None = None
    message: str | None = None

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)

    def to_json(self) -> bytes:
        return self.model_dump_json(exclude_none=True).encode()

    @classmethod
    def from_json(cls, raw: bytes | str) -> CommandOutcome:
        return cls.model_validate_json(raw)

    @classmethod
    def rejected(cls, game_id: str, command_id: str, code: str, message: str, version: int = 0,
                 from_version: int | None = None) -> CommandOutcome:
        return cls(status="rejected", command_id=command_id, game_id=game_id, code=code, message=message,
                   version=version, from_version=version if from_version is None else from_version)

    @classmethod
    def from_record(cls, game_id: str, command_id: str, record: dict[str, Any]) -> CommandOutcome:
        """The accepted outcome of an applied command, from its audit record."""
        return cls(status="accepted", command_id=command_id, game_id=game_id,
                   from_version=record.get("from_version", 0), version=record.get("to_version", 0))


def new_command_id() -> str:
    return uuid.uuid4().hex


def new_reply() -> str:
    """A reply nonce: the processor pushes the command's outcome onto ``Keys.reply(game, nonce)``."""
    return uuid.uuid4().hex


def parse_reply(raw: bytes) -> tuple[CommandOutcome, list[bytes]]:
    """A reply popped from a reply list: the outcome, and the events' envelopes (JSON) when the append
    script pushed it (empty for a rejection or an outcome settled before)."""
    outcome, events = reply_values(raw)
    return outcome, [orjson.dumps(e) for e in events]


def reply_values(raw: bytes) -> tuple[CommandOutcome, list[dict[str, Any]]]:
    """:func:`parse_reply` with the envelopes as parsed (no second encoding and decoding of each)."""
    outcome, events, _ = reply_with_after(raw)
    return outcome, events


def reply_with_after(raw: bytes) -> tuple[CommandOutcome, list[dict[str, Any]], dict[str, Any] | None]:
    """:func:`reply_values` and what the append said of the game after the events (``after``: its version,
    status, seats to act and the mover's legal commands while it is still to act; None when not said)."""
    data = orjson.loads(raw)
    return CommandOutcome.model_validate(data["outcome"]), list(data.get("events") or ()), data.get("after")


BLPOP_SLICE_SECONDS = 0.5
"""The longest one ``BLPOP`` of :meth:`CommandBus.wait` blocks (a longer wait is several): far below any socket
timeout (``redis_socket_timeout_seconds``), so a blocking pop is never taken for a frozen server."""


class CommandBus:
    def __init__(self, store: EventStore, stream_maxlen: int = 1_000_000) -> None:
        """Over the event store's Redis and keys (``store``: the composition root's)."""
        self.redis = store.redis
        self.keys = store.keys
        self.stream_maxlen = stream_maxlen
        self.store = store

    def submit(self, game_id: str, command: Command | dict[str, Any], *, seat: int, actor: str, command_id: str | None = None,
               expected_version: int | None = None, dev_seed: str | None = None, reply: str | None = None) -> str:
        """Queue a command; returns its id. One id has one outcome forever: an id already applied or
        rejected is answered with that outcome again and never decided anew (retry a rejection under a
        new id). With ``reply`` (see :func:`new_reply`) the processor pushes the outcome to that reply list
        for :meth:`wait`."""
        message = CommandMessage.of(game_id, command_id or new_command_id(), command, seat=seat, actor=actor,
                                    expected_version=expected_version, dev_seed=dev_seed, reply=reply)
        return self.put(message)

    def put(self, message: CommandMessage) -> str:
        """Queue a message as it is; returns its command id."""
        self.redis.xadd(self.keys.cmd_stream_for(message.game_id), {"m": message.to_json()},
                        maxlen=self.stream_maxlen, approximate=True)
        return message.command_id

    def outcome(self, game_id: str, command_id: str) -> CommandOutcome | None:
        """The command's outcome, also once its outcome key expired (from the game's records)."""
        found = self._stored(game_id, command_id)
        if found is not None:
            return found
        # The game's records (also from its archive once the game left Redis).
        applied, rejected = self.store.settled_for([(game_id, command_id)])[0]
        if rejected:
            return CommandOutcome.model_validate(rejected)
        if applied:
            return CommandOutcome.from_record(game_id, command_id, applied)
        return None

    def _stored(self, game_id: str, command_id: str) -> CommandOutcome | None:
        raw = self.redis.get(self.keys.outcome(game_id, command_id))
        return CommandOutcome.from_json(raw) if raw else None

    def wait(self, game_id: str, command_id: str, timeout: float, reply: str | None = None) -> CommandOutcome | None:
        """The outcome within ``timeout`` seconds, else None (still queued).

        With the ``reply`` nonce the command was submitted with, the processor hands the outcome over
        directly: a blocking pop on the reply list, no polling. Redis going away meanwhile (a restart) is
        waited out until the deadline: the reply list is written with the command's settlement, so it
        survives a restart with AOF. Without ``reply`` the outcome key is polled (commands queued by older
        code)."""
        deadline = time.monotonic() + timeout
        if reply is not None:
            return self._wait_reply(game_id, command_id, reply, deadline)
        return self._poll(game_id, command_id, deadline)

    def _wait_reply(self, game_id: str, command_id: str, reply: str, deadline: float) -> CommandOutcome | None:
        key = self.keys.reply(game_id, reply)
        while (left := deadline - time.monotonic()) > 0:
            try:
                # in short pops: each one's answer is due within the client's socket timeout (a frozen Redis)
                popped = self.redis.blpop([key], timeout=max(min(left, BLPOP_SLICE_SECONDS), 0.001))
            except (redis.ConnectionError, redis.TimeoutError):
                time.sleep(min(0.05, max(deadline - time.monotonic(), 0)))
                continue
            if popped is not None:
                return parse_reply(popped[1])[0]
        return self.outcome(game_id, command_id)

    def _poll(self, game_id: str, command_id: str, deadline: float) -> CommandOutcome | None:
        """Poll for the outcome (1 ms, backing off to 20 ms) until ``deadline``."""
        delay = 0.001
        while True:
            # The processor writes the outcome key when it settles, so polling that one key is enough.
            found = self._stored(game_id, command_id)
            if found is not None:
                return found
            if time.monotonic() >= deadline:
                return self.outcome(game_id, command_id)
            time.sleep(delay)
            delay = min(delay * 2, 0.02)

    def send(self, game_id: str, command: Command | dict[str, Any], *, seat: int, actor: str, timeout: float = 10.0,
             **kwargs: Any) -> CommandOutcome | None:
        reply = new_reply()
        command_id = self.submit(game_id, command, seat=seat, actor=actor, reply=reply, **kwargs)
        return self.wait(game_id, command_id, timeout, reply=reply)
