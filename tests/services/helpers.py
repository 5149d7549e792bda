"""Small helpers shared by kernel tests: drive the parts synchronously, step by step."""

from __future__ import annotations

import uuid
from typing import Any

import redis

from services.adapters.processor import Processor
from services.adapters.projector import Projector
from services.infrastructure.commands import CommandBus
from services.infrastructure.commands import CommandOutcome as Outcome
from services.infrastructure.eventstore import EventStore, Keys
from services.infrastructure.settings import Settings


class Kernel:
    """Processor + projector + bus on one Redis, driven by explicit ``pump()`` calls."""

    def __init__(self, client: redis.Redis, settings: Settings) -> None:
        self.client = client
        self.settings = settings
        self.keys = Keys(settings.key_prefix, settings.shards)
        self.store = EventStore(client, self.keys)
        self.bus = CommandBus(self.store)
        self.processor = Processor(client, settings, name="p1")
        self.projector = Projector(client, settings, name="j1")

    def pump(self) -> None:
        self.processor.drain()
        self.projector.drain()

    def send(self, game_id: str, command: dict[str, Any], seat: int = -1, **kwargs: Any) -> Outcome:
        command_id = self.bus.submit(game_id, command, seat=seat, actor="test", **kwargs)
        self.pump()
        outcome = self.bus.outcome(game_id, command_id)
        assert outcome is not None, "the processor left no outcome"
        return outcome

    def create(self, seats: int = 2, target: int = 10, seed: str = "seed", game_id: str | None = None,
               open_seats: int = 0) -> str:
        game_id = game_id or uuid.uuid4().hex[:10]
        specs = [{"name": f"p{i}"} for i in range(seats - open_seats)] + [{} for _ in range(open_seats)]
        outcome = self.send(game_id, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": target},
                                      "seats": specs, "seed_commitment": ""}, dev_seed=seed)
        assert outcome.accepted, outcome
        return game_id

    def add(self, game_id: str, seat: int, amount: int = 1, **kwargs: Any) -> Outcome:
        return self.send(game_id, {"type": "Add", "amount": amount}, seat=seat, **kwargs)


def game_moves(legal: dict[str, Any]) -> list[dict[str, Any]]:
    """The game's own commands of a ``/legal`` answer: the kernel's (``taproom.*``) left out, since
    ``taproom.Resign`` is listed throughout an active game (a non-empty list no longer means "your turn")."""
    return [c for c in legal["commands"] if not c["type"].startswith("taproom.")]
