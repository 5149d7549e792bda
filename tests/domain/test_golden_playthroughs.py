"""Golden per-seat playthroughs: what every seat and the spectator see at each step of a seeded game.

Any change to what a seat can see shows up as a diff of a small JSON file, so
a leak of hidden information (or an accidental change of a view) is caught in
review. After an intended view change, regenerate with
``TAPROOM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/domain/test_golden_playthroughs.py``.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from domain.core import get_game, rng_for, seed_from_text
from tests.games_under_test import games_under_test

GOLDEN = Path(__file__).parent / "golden"
STEPS = 12
CASES = [(game.id, game.example_options) for game in games_under_test()]


def playthrough(game_id: str, options: dict) -> list[dict]:
    game = get_game(game_id)
    secret = seed_from_text(f"golden-{game_id}")
    chooser = random.Random(f"golden-{game_id}")
    events = game.setup(game.parse_options(options), 2, rng_for(secret, 0))
    state = game.fold(None, events)
    steps = []
    for step in range(STEPS + 1):
        views = {"spectator": game.view(state, None), "seat 0": game.view(state, 0), "seat 1": game.view(state, 1)}
        record: dict = {"step": step, "views": views}
        if step == STEPS or game.is_over(state):
            steps.append(record)
            break
        seat = chooser.choice(game.to_act(state))
        command = chooser.choice(game.legal_commands(state, seat))
        record["next_command"] = command.model_dump(mode="json")
        steps.append(record)
        new = game.decide(state, command, rng_for(secret, len(events)))
        events += new
        state = game.fold(state, new)
    return json.loads(json.dumps(steps))


@pytest.mark.parametrize("game_id,options", CASES, ids=[c[0] for c in CASES])
def test_views_match_the_golden_playthrough(game_id, options):
    path = GOLDEN / f"{game_id}.json"
    actual = playthrough(game_id, options)
    if os.environ.get("TAPROOM_UPDATE_GOLDEN") or not path.exists():
        path.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n")
        if not os.environ.get("TAPROOM_UPDATE_GOLDEN"):
            pytest.fail(f"{path.name} was missing and has been written; review and commit it")
    expected = json.loads(path.read_text())
    for want, got in zip(expected, actual):
        assert got == want, f"{game_id}: the views differ at step {want['step']} (regenerate only if intended)"
    assert len(actual) == len(expected)
