"""The legal commands of every seat at every step of seeded random games equal pinned lists -- same commands,
same order -- recorded with the engines before issue 41's faster listings (commit 91ca811).

A broader sample than perft's one game per case (several seeds, player counts and both option sets, every seat
asked, the ones not to act included), so a faster listing (shared command objects, a fit table, reach checks
asked once per listing) cannot change what a seat may do, nor the order that seeded choosers and the skip policy
index. Pinned per case: each seed's step count, command count and a digest of all the lists. After an intended
rule change, regenerate with ``TAPROOM_UPDATE_LEGAL=1 .venv/bin/pytest tests/domain/test_legal_pinned.py``
(and say why in the commit); ``tests/domain/test_perft.py`` then shows at which step a list changed.
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

PINNED = Path(__file__).parent / "perft" / "legal-lists.json"
SEEDS = range(6)
MAX_STEPS = 2000

CASES = [(game, name, options) for game in games_under_test()
         for name, options in (("default", {}), ("flipped", flipped_options(game)))
         if name == "default" or options]


def lists_of_game(game: Game, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play one seeded random game; digest every seat's ordered legal list at every step."""
    players = game.min_players + seed % (min(game.max_players, 4) - game.min_players + 1)
    secret = seed_from_text(f"legal-pinned-{game.id}-{seed}")
    chooser = random.Random(seed)
    events = game.setup(game.parse_options(options), players, rng_for(secret, 0))
    state = game.fold(None, events)
    digest = hashlib.sha256()
    steps = commands = 0
    while not game.is_over(state) and steps < MAX_STEPS:
        lists = [game.legal_commands(state, seat) for seat in range(players)]
        digest.update(json.dumps([[c.model_dump(mode="json") for c in legal] for legal in lists]).encode())
        commands += sum(len(legal) for legal in lists)
        seat = chooser.choice(game.to_act(state))
        new = game.decide(state, chooser.choice(lists[seat]), rng_for(secret, len(events)))
        events += new
        state = game.fold(state, new)
        steps += 1
    return {"players": players, "steps": steps, "commands": commands, "digest": digest.hexdigest()[:16]}


def case_lists(game: Game, options: dict[str, Any]) -> list[dict[str, Any]]:
    return [lists_of_game(game, options, seed) for seed in SEEDS]


@pytest.mark.parametrize("game,name,options", CASES, ids=[f"{g.id}-{n}" for g, n, _ in CASES])
def test_legal_lists_equal_the_pinned_ones(game: Game, name: str, options: dict[str, Any]) -> None:
    key = f"{game.id}-{name}"
    actual = case_lists(game, options)
    pinned = json.loads(PINNED.read_text()) if PINNED.exists() else {}
    if os.environ.get("TAPROOM_UPDATE_LEGAL") or key not in pinned:
        pinned[key] = actual
        PINNED.write_text(json.dumps(pinned, indent=1, sort_keys=True) + "\n")
        if not os.environ.get("TAPROOM_UPDATE_LEGAL"):
            pytest.fail(f"{key} was not pinned in {PINNED.name} and has been written; review and commit it")
    for seed, (want, got) in enumerate(zip(pinned[key], actual)):
        assert got == want, f"{key}, seed {seed}: the legal lists differ from the pinned ones"
    assert len(actual) == len(pinned[key])
