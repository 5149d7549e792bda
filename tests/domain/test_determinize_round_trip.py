"""``state_from_view`` of every game with bot support: a state rebuilt from one seat's view shows that seat
the same view and the same legal commands, and the same seats are to act. No game is named here."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain.core import rng_for, seed_from_text
from domain.core.game import Game
from tests.games_under_test import flipped_options, games_under_test

SAMPLED = 40
"""Positions checked per configuration, spread evenly over one seeded game."""

CONFIGS = [(game, options, players)
           for game in games_under_test() if game.bot_support() is not None
           for options, players in (({}, min(3, game.max_players)), (flipped_options(game), 2))]


def positions(game: Game, options: dict[str, Any], players: int, seed: str) -> Iterator[Any]:
    """Copies of the states of one seeded random game, to the end (inclusive)."""
    secret = seed_from_text(seed)
    chooser = random.Random(seed)
    events = game.setup(game.parse_options(options), players, rng_for(secret, 0))
    state = game.fold(None, events)
    version = len(events)
    while not game.is_over(state):
        yield game.clone(state)
        command = chooser.choice(game.legal_commands(state, chooser.choice(game.to_act(state))))
        for event in game.decide(state, command, rng_for(secret, version)):
            state = game.evolve(state, event)
            version += 1
    yield game.clone(state)


@pytest.mark.parametrize("game,options,players", CONFIGS,
                         ids=[f"{g.id}-{p}p-{'flipped' if o else 'default'}" for g, o, p in CONFIGS])
def test_view_and_legal_commands_survive_determinization(game: Game, options: dict, players: int) -> None:
    support = game.bot_support()
    assert support is not None
    states = list(positions(game, options, players, f"det-{game.id}-{players}-{sorted(options)}"))
    step = max(1, len(states) // SAMPLED)
    checked = 0
    for i, state in enumerate(states[::step]):
        for seat in range(players):
            view = game.view(state, seat)
            legal = game.legal_commands(state, seat)
            sampled = support.state_from_view(view, seat, random.Random(i * 10 + seat), legal=legal)
            assert game.view(sampled, seat) == view, (i, seat)
            assert game.legal_commands(sampled, seat) == legal, (i, seat)
            assert game.to_act(sampled) == game.to_act(state)
            if support.prune is not None and legal:
                kept = support.prune(view, legal)
                assert kept and all(c in legal for c in kept)
            checked += 1
    assert checked > 20
