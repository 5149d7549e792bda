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

from .eventstore import EventStore, Keys


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


class CommandBus:
    def __init__(self, client: redis.Redis, keys: Keys, stream_maxlen: int = 1_000_000) -> None:
        self.redis = client
        self.keys = keys
        self.stream_maxlen = stream_maxlen
        self.store = EventStore(client, keys)

    def submit(self, game_id: str, command: dict[str, Any], *, seat: int, actor: str, command_id: str | None = None,
               expected_version: int | None = None, dev_seed: str | None = None) -> str:
        """Queue a command; returns its id. One id has one outcome forever: an id already applied or
        rejected is answered with that outcome again and never decided anew (retry a rejection under a
        new id)."""
        command_id = command_id or new_command_id()
        message = {"game_id": game_id, "command_id": command_id, "command": command, "seat": seat, "actor": actor}
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
        # The game's records (also from its archive once the game left Redis).
        applied, rejected = self.store.settled_for([(game_id, command_id)])[0]
        if rejected:
            return Outcome(**rejected)
        if applied:
            return Outcome("accepted", command_id, game_id, applied.get("from_version", 0), applied.get("to_version", 0))
        return None

    def _stored(self, game_id: str, command_id: str) -> Outcome | None:
        raw = self.redis.get(self.keys.outcome(game_id, command_id))
        return Outcome(**orjson.loads(raw)) if raw else None

    def wait(self, game_id: str, command_id: str, timeout: float) -> Outcome | None:
        """Poll for the outcome (1 ms, backing off to 20 ms) until ``timeout`` seconds pass."""
        deadline = time.monotonic() + timeout
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
        command_id = self.submit(game_id, command, seat=seat, actor=actor, **kwargs)
        return self.wait(game_id, command_id, timeout)
