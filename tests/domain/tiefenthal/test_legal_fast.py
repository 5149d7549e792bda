"""The fast legal_commands (domain/tiefenthal/legal.py) equals the candidates that ``check`` accepts, in order.

At every step of seeded random games with 2, 3 and 4 seats, for every seat (to act or not), and with the
counter-guest redraw off and the other reading of Recruit Nobles too.
"""

from __future__ import annotations

import random

import pytest

from domain.core import rng_for, seed_from_text
from domain.tiefenthal import GAME, actions, legal


def _slow(state: object, seat: int) -> list[object]:
    return [c for c in actions.candidates(state, seat) if actions.check(state, c) is None]  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "redraw", "noble_recruits"),
                         [(2, True, None), (3, True, None), (4, True, None), (3, False, None), (3, True, 1)])
def test_fast_legal_commands_equal_the_checked_candidates(monkeypatch: pytest.MonkeyPatch, players: int,
                                                          redraw: bool, noble_recruits: int | None) -> None:
    """``noble_recruits``: the once-a-turn reading of Recruit Nobles (RULES_NOTES), read at call time."""
    monkeypatch.setattr(actions, "NOBLE_RECRUITS_PER_ROUND", noble_recruits)
    secret = seed_from_text(f"legal-fast-{players}-{redraw}")
    chooser = random.Random(players)
    options = GAME.parse_options({"counter_guest_redraw": redraw})
    events = GAME.setup(options, players, rng_for(secret, 0))
    state = GAME.fold(None, events)
    version = len(events)
    steps = 0
    while not GAME.is_over(state):
        for seat in range(-1, players + 1):
            assert legal.legal_commands(state, seat) == _slow(state, seat), (state.phase, seat)
        seat = chooser.choice(GAME.to_act(state))
        new = GAME.decide(state, chooser.choice(GAME.legal_commands(state, seat)), rng_for(secret, version))
        version += len(new)
        for event in new:
            state = GAME.evolve(state, event)
        steps += 1
    assert steps > 100
    for seat in range(players):
        assert legal.legal_commands(state, seat) == _slow(state, seat) == []
