"""What every game declares about itself (``Game`` capabilities), checked the same way for each game, and
the promise behind them: shared code names no game, so a game is its package plus one catalog line."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from domain.catalog import GAME_PACKAGES
from domain.core import rng_for, seed_from_text
from domain.core.lifecycle import skip_move
from tests.games_under_test import FIXTURE_PACKAGES, games_under_test, ids

GAMES = games_under_test()
ROOT = Path(__file__).resolve().parents[2]
SHARED = ["domain/core", "services", "projections"]


@pytest.mark.parametrize("game", GAMES, ids=ids(GAMES))
def test_pass_commands_are_commands_of_the_game(game):
    known = set(game._command_index())
    assert set(game.pass_commands) <= known


@pytest.mark.parametrize("game", GAMES, ids=ids(GAMES))
def test_skip_moves_and_undo_barriers_along_a_seeded_game(game):
    """The skip policy always finds a legal move, prefers a declared pass, and the undo barrier holds its
    promise: a command whose events reveal nothing and leave its seat to act is never a barrier."""
    secret = seed_from_text(f"capabilities-{game.id}")
    chooser = random.Random(game.id)
    events = game.setup(game.parse_options(game.example_options), 2, rng_for(secret, 0))
    state = game.fold(None, events)
    barriers = 0
    while not game.is_over(state) and len(events) < 3000:
        seat = chooser.choice(game.to_act(state))
        legal = game.legal_commands(state, seat)
        skip = skip_move(game, state, seat)
        assert skip in legal
        passes = [c for c in legal if c.type in game.pass_commands]
        if passes:
            assert skip.type in game.pass_commands
        command = chooser.choice(legal)
        new = game.decide(state, command, rng_for(secret, len(events)))
        for event in new:
            state = game.evolve(state, event)
            barrier = game.undo_barrier(event, state, seat)
            expected = game.reveals(event) or game.is_over(state) or seat not in game.to_act(state)
            assert barrier == expected
            barriers += barrier
        events += new
    assert barriers > 0


def _game_names() -> set[str]:
    return {g.id for g in GAMES} | set(GAME_PACKAGES) | set(FIXTURE_PACKAGES)


def test_no_shared_code_names_a_game():
    """No string literal equal to a game id and no import of a game package outside the game packages
    and the catalog: capabilities come through the ``Game`` interface."""
    names = _game_names()
    offenders = []
    for folder in SHARED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and node.value in names:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
                elif isinstance(node, ast.ImportFrom) and node.module and any(
                        node.module == n or node.module.startswith(n + ".") for n in names):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} import {node.module}")
    assert offenders == []
