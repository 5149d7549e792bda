"""Random complete games: invariants after every move, replay equals live, sensible scores."""

from __future__ import annotations

import pytest

from domain.core.playout import random_playout
from domain.tiefenthal import GAME

from .helpers import check_invariants


def _play(n: int, seed: str):
    result = random_playout(GAME, n, seed, check=check_invariants)
    replayed = GAME.fold(None, result.events)
    assert replayed == result.state, "replaying the events must give the live state"
    assert GAME.is_over(result.state)
    assert result.state.round == 8
    return result


@pytest.mark.soak
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_invariants(n: int, soak) -> None:
    games = soak(500, 10)
    totals = []
    for i in range(games):
        result = _play(n, f"soak-{n}-{i}")
        scores = GAME.scores(result.state)
        assert len(scores) == n
        totals += [s.total for s in scores]
        for s in scores:
            assert set(s.breakdown) == {"nobles", "guests", "regulars", "tavern_cards"}
            assert s.tiebreak[0] <= 10
    # provisional card values make a sensible game even for random players
    assert 0 <= min(totals) and max(totals) < 250
    assert sum(totals) / len(totals) >= 10


def test_one_game_per_player_count_quick() -> None:
    for n in (2, 3, 4):
        result = _play(n, f"quick-{n}")
        assert result.commands > 8 * n * 5  # every round has a draft, planning and turns


def test_legal_commands_are_exactly_what_decide_accepts() -> None:
    """Every listed command is accepted; every candidate that is not listed is refused."""
    from domain.core import RuleError, rng_for, seed_from_text
    from domain.tiefenthal import actions

    result = random_playout(GAME, 3, "legal-check")
    secret = seed_from_text("legal-check")
    state = GAME.fold(None, result.events[:1])
    # re-walk the game, testing the states along the way
    events = result.events
    checked = 0
    # find the setup prefix: events up to the first decision
    state = GAME.fold(None, events)
    assert GAME.is_over(state)
    probe = GAME.fold(None, events[: len(events) // 2])
    for seat in range(3):
        for c in actions.candidates(probe, seat):
            ok = actions.check(probe, c) is None
            try:
                GAME.decide(probe, c, rng_for(secret, 0))
                accepted = True
            except RuleError:
                accepted = False
            assert ok == accepted, c
            checked += 1
    assert checked >= 1
