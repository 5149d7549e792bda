"""The ``stack_size`` development option: a short game on a random part of the land tiles."""

from __future__ import annotations

import random

import pytest

from domain.carcassonne import GAME
from domain.carcassonne.messages import GameStarted
from domain.core import InvalidOptions
from domain.core.playout import random_playout


def test_a_short_stack_holds_that_many_land_tiles_and_the_game_ends() -> None:
    started = GAME.setup(GAME.parse_options({"hills_and_sheep": True, "stack_size": 12}), 2, random.Random(3))[0]
    assert isinstance(started, GameStarted) and sum(started.tiles.values()) == 12
    result = random_playout(GAME, 2, "short", {"hills_and_sheep": True, "stack_size": 12})
    assert GAME.is_over(result.state) and len(result.state.placements) <= 13


def test_a_stack_size_beyond_the_box_keeps_every_tile_and_nonsense_is_refused() -> None:
    started = GAME.setup(GAME.parse_options({"stack_size": 200}), 2, random.Random(3))[0]
    assert isinstance(started, GameStarted) and sum(started.tiles.values()) == 71
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"stack_size": 0})
