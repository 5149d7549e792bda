"""Submitting commands to the command streams and waiting for their outcome.

The API, bots, workers and the CLI all submit through :class:`CommandBus`,
so every command (a human's, a bot's, the service's own) takes the one path
through the processor and the event store.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from .eventstore import Keys


@dataclass(frozen=True)
class Outcome:
    status: str  # "accepted" | "rejected"
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
        return {k: v for k, v in self.__dict__.items() if v is not None}


def new_command_id() -> str:
    return uuid.uuid4().hex


def new_reply() -> str:
    """A reply nonce: the processor pushes the command's outcome onto ``Keys.reply(game, nonce)``."""
    return uuid.uuid4().hex


def parse_reply(raw: bytes) -> tuple[Outcome, list[bytes]]:
    """A reply popped from a reply list: the outcome, and the events' envelopes (JSON) when the append
    script pushed it (empty for a rejection or an outcome settled before)."""
    data = orjson.loads(raw)
    events = [orjson.dumps(e) for e in data.get("events") or ()]
    return Outcome(**data["outcome"]), events


class CommandBus:
    def __init__(self, client: redis.Redis, keys: Keys, stream_maxlen: int = 1_000_000) -> None:
        self.redis = client
        self.keys = keys
        self.stream_maxlen = stream_maxlen

    def submit(self, game_id: str, command: dict[str, Any], *, seat: int, actor: str, command_id: str | None = None,
               expected_version: int | None = None, dev_seed: str | None = None, reply: str | None = None) -> str:
        """Queue a command; returns its id. One id has one outcome forever: an id already applied or
        rejected is answered with that outcome again and never decided anew (retry a rejection under a
        new id). With ``reply`` (see :func:`new_reply`) the processor pushes the outcome to that reply list
        for :meth:`wait`."""
        command_id = command_id or new_command_id()
        message = {"game_id": game_id, "command_id": command_id, "command": command, "seat": seat, "actor": actor}
        if reply is not None:
            message["reply"] = reply
        if expected_version is not None:
            message["expected_version"] = expected_version
        if dev_seed is not None:
            message["dev_seed"] = dev_seed
        self.redis.xadd(self.keys.cmd_stream_for(game_id), {"m": orjson.dumps(message)},
                        maxlen=self.stream_maxlen, approximate=True)
        return command_id

    def outcome(self, game_id: str, command_id: str) -> Outcome | None:
        """The command's outcome, also once its outcome key expired (from the game's records)."""
        found = self._stored(game_id, command_id)
        if found is not None:
            return found
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(self.keys.commands(game_id), command_id)
        pipe.hget(self.keys.rejections(game_id), command_id)
        applied, rejected = pipe.execute()
        if rejected:
            return Outcome(**orjson.loads(rejected))
        if applied:
            record = orjson.loads(applied)
            return Outcome("accepted", command_id, game_id, record.get("from_version", 0), record.get("to_version", 0))
        return None

    def _stored(self, game_id: str, command_id: str) -> Outcome | None:
        raw = self.redis.get(self.keys.outcome(game_id, command_id))
        return Outcome(**orjson.loads(raw)) if raw else None

    def wait(self, game_id: str, command_id: str, timeout: float, reply: str | None = None) -> Outcome | None:
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

    def _wait_reply(self, game_id: str, command_id: str, reply: str, deadline: float) -> Outcome | None:
        key = self.keys.reply(game_id, reply)
        while (left := deadline - time.monotonic()) > 0:
            try:
                popped = self.redis.blpop([key], timeout=max(left, 0.001))
            except (redis.ConnectionError, redis.TimeoutError):
                time.sleep(min(0.05, max(deadline - time.monotonic(), 0)))
                continue
            if popped is not None:
                return parse_reply(popped[1])[0]
        return self.outcome(game_id, command_id)

    def _poll(self, game_id: str, command_id: str, deadline: float) -> Outcome | None:
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

    def send(self, game_id: str, command: dict[str, Any], *, seat: int, actor: str, timeout: float = 10.0,
             **kwargs: Any) -> Outcome | None:
        reply = new_reply()
        command_id = self.submit(game_id, command, seat=seat, actor=actor, reply=reply, **kwargs)
        return self.wait(game_id, command_id, timeout, reply=reply)
