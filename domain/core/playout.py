"""Random playouts straight through the decider (no service): used by soak tests, benchmarks and bots."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from .game import Game
from .messages import Event
from .rng import rng_for, seed_from_text


@dataclass
class Playout:
    state: Any
    events: list[Event] = field(default_factory=list)
    commands: int = 0


def random_playout(
    game: Game[Any],
    n_seats: int,
    seed: str | bytes = "playout",
    options: BaseModel | dict[str, Any] | None = None,
    *,
    max_commands: int = 100_000,
    check: Callable[[Any, Event | None], None] | None = None,
) -> Playout:
    """Play a whole game choosing uniformly among legal commands.

    The version counter mirrors the service's: each event is one version, and
    the RNG of a decision is ``rng_for(seed, version)`` as in production.
    ``check(state, last_event)`` runs after every command (invariants).
    """
    secret = seed if isinstance(seed, bytes) else seed_from_text(seed)
    opts = options if isinstance(options, BaseModel) else game.parse_options(options)
    chooser = random.Random(secret + b"|chooser")
    events = game.setup(opts, n_seats, rng_for(secret, 0))
    state = game.fold(None, events)
    result = Playout(state=state, events=list(events))
    while not game.is_over(state):
        if result.commands >= max_commands:
            raise RuntimeError(f"{game.id}: no end after {max_commands} commands")
        seats = game.to_act(state)
        if not seats:
            raise RuntimeError(f"{game.id}: nobody to act but the game is not over")
        seat = chooser.choice(seats)
        legal = game.legal_commands(state, seat)
        if not legal:
            raise RuntimeError(f"{game.id}: seat {seat} must act but has no legal command")
        command = chooser.choice(legal)
        new = game.decide(state, command, rng_for(secret, len(result.events)))
        for event in new:
            state = game.evolve(state, event)
        result.events.extend(new)
        result.commands += 1
        if check is not None:
            check(state, new[-1] if new else None)
    result.state = state
    return result
