"""Game-length options: the rulebook's lengths and the short development games."""

from __future__ import annotations

import pytest

from domain.core import InvalidOptions
from domain.heaven_and_ale import GAME

from .test_soak import busy_playout


@pytest.mark.parametrize("rounds", [1, 2])
def test_a_short_development_game_ends_after_its_rounds(rounds: int) -> None:
    state, events = busy_playout(2, f"short-{rounds}", {"rounds": rounds, "kegs_and_more": True})
    assert GAME.is_over(state) and state.round == rounds
    assert sum(e.type == "RoundBegan" for e in events) == rounds
    assert len(GAME.scores(state)) == 2


@pytest.mark.parametrize("rounds", [0, 5, 7])
def test_other_lengths_are_refused_with_a_clear_message(rounds: int) -> None:
    with pytest.raises(InvalidOptions, match="rounds must be 3, 4 or 6"):
        GAME.parse_options({"rounds": rounds})
