"""Seeded positions of real games for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from domain.catalog import load_games
from domain.core.registry import get_game
from domain.core.rng import rng_for, seed_from_text

load_games()

def positions(game_id: str, options: dict[str, Any], players: int, seed: str, every: int = 1) -> Iterator[Any]:
    """Copies of the states of one seeded random game, every ``every``-th command, to the end (inclusive)."""
    game = get_game(game_id)
    secret = seed_from_text(seed)
    chooser = random.Random(seed)
    events = game.setup(game.parse_options(options), players, rng_for(secret, 0))
    state = game.fold(None, events)
    version, step = len(events), 0
    while not game.is_over(state):
        if step % every == 0:
            yield game.clone(state)
        seat = chooser.choice(game.to_act(state))
        command = chooser.choice(game.legal_commands(state, seat))
        for event in game.decide(state, command, rng_for(secret, version)):
            state = game.evolve(state, event)
            version += 1
        step += 1
    yield game.clone(state)
