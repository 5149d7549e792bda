"""The provisional data make a sensible game: a simple greedy player upgrades, recruits and scores mostly by nobles."""

from __future__ import annotations

import pytest

from domain.core import rng_for, seed_from_text
from domain.tiefenthal import GAME

from .greedy import greedy_command
from .helpers import check_invariants


def _greedy_game(n: int, seed: str):
    secret = seed_from_text(seed)
    events = GAME.setup(GAME.parse_options({}), n, rng_for(secret, 0))
    state = GAME.fold(None, events)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        new = GAME.decide(state, greedy_command(state, seat), rng_for(secret, len(events)))
        events += new
        for e in new:
            state = GAME.evolve(state, e)
    check_invariants(state)
    return state, events


@pytest.mark.parametrize("n", [2, 3, 4])
def test_greedy_players_make_a_sensible_game(n: int) -> None:
    state, events = _greedy_game(n, f"balance-{n}")
    scores = GAME.scores(state)
    for s in scores:
        assert 30 <= s.total <= 160, s
        assert s.breakdown["nobles"] >= 0.5 * s.total  # nobles are the main source of points
    paid_upgrades = [e for e in events if e.type == "TileUpgraded" and e.price > 0]
    assert len(paid_upgrades) >= 2 * n  # upgrades happen, a few per player
    first_paid = min(e for e, ev in enumerate(events) if ev.type == "TileUpgraded" and ev.price > 0)
    assert first_paid > 0
    assert any(e.type == "GuestRecruited" for e in events)
    assert any(e.type == "CardBought" for e in events)
