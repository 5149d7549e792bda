"""Perft (python-chess's habit): legal-command counts pinned at seeded positions of every game, so a
refactor cannot change the rules silently.

For every game under test (no game named here), with default and with flipped options, one seeded random
game is played; at every step the pinned file records how many legal commands each seat to act has and a
digest of that ordered list (the order matters: the skip policy plays the first, seeded choosers index it),
and at a few positions ``perft(2)``: the number of command pairs (a command and any reply of any seat then
to act), chance drawn from a fixed seed per ply. After an intended rule change, regenerate with
``TAPROOM_UPDATE_PERFT=1 .venv/bin/pytest tests/domain/test_perft.py`` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from domain.core import rng_for, seed_from_text
from domain.core.game import Game
from tests.games_under_test import flipped_options, games_under_test

PINNED = Path(__file__).parent / "perft"
DEPTH2_AT = (0, 7, 40, 100, 250)
"""Steps of the seeded game where perft(2) is counted."""
MAX_STEPS = 1000

CASES = [(game, name, options) for game in games_under_test()
         for name, options in (("default", {}), ("flipped", flipped_options(game)))
         if name == "default" or options]


def _digest(commands: list[Any]) -> str:
    text = json.dumps([c.model_dump(mode="json") for c in commands], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def perft(game: Game, state: Any, depth: int, secret: bytes, ply: int) -> int:
    """Leaf count of the command tree ``depth`` deep below ``state`` (every seat to act, every legal command)."""
    if depth == 0 or game.is_over(state):
        return 1
    total = 0
    for seat in game.to_act(state):
        for command in game.legal_commands(state, seat):
            if depth == 1:
                total += 1
                continue
            child = game.fold(game.clone(state), game.decide(state, command, rng_for(secret, ply)))
            total += perft(game, child, depth - 1, secret, ply + 1)
    return total


def counts(game: Game, options: dict[str, Any], players: int) -> dict[str, Any]:
    secret = seed_from_text(f"perft-{game.id}-{sorted(options)}")
    chooser = random.Random(f"perft-{game.id}-{sorted(options)}")
    events = game.setup(game.parse_options(options), players, rng_for(secret, 0))
    state = game.fold(None, events)
    steps: list[list[Any]] = []
    depth2: dict[str, int] = {}
    step = 0
    while not game.is_over(state) and step < MAX_STEPS:
        to_act = game.to_act(state)
        legal = {seat: game.legal_commands(state, seat) for seat in to_act}
        steps.append([[seat, len(legal[seat]), _digest(legal[seat])] for seat in to_act])
        if step in DEPTH2_AT:
            depth2[str(step)] = perft(game, state, 2, secret, 10**6)
        seat = chooser.choice(to_act)
        new = game.decide(state, chooser.choice(legal[seat]), rng_for(secret, len(events)))
        events += new
        state = game.fold(state, new)
        step += 1
    return {"players": players, "options": options, "steps": steps, "perft2": depth2, "over": game.is_over(state)}


@pytest.mark.parametrize("game,name,options", CASES, ids=[f"{g.id}-{n}" for g, n, _ in CASES])
def test_legal_command_counts_are_pinned(game: Game, name: str, options: dict[str, Any]) -> None:
    path = PINNED / f"{game.id}-{name}.json"
    actual = json.loads(json.dumps(counts(game, options, min(3, game.max_players))))
    if os.environ.get("TAPROOM_UPDATE_PERFT") or not path.exists():
        path.write_text(json.dumps(actual, separators=(",", ":")) + "\n")
        if not os.environ.get("TAPROOM_UPDATE_PERFT"):
            pytest.fail(f"{path.name} was missing and has been written; review and commit it")
    expected = json.loads(path.read_text())
    assert actual["perft2"] == expected["perft2"], f"{game.id}: perft(2) changed"
    for index, (want, got) in enumerate(zip(expected["steps"], actual["steps"])):
        assert got == want, f"{game.id} ({name}): the legal commands differ at step {index}"
    assert len(actual["steps"]) == len(expected["steps"])
