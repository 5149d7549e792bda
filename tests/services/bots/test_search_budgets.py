"""The search's budget is spendable, and a playout counts turns as one seat acting alone hands them over."""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import pytest

from domain.catalog import load_games
from domain.core.capabilities import BotSupport, SearchSettings
from services.application.bots import bot_game
from services.application.bots.search import playout

load_games()

SEARCHED = ["carcassonne", "tiefenthal"]


@pytest.mark.parametrize("game_id", SEARCHED)
def test_a_paired_search_can_spend_its_simulations_on_its_candidates(game_id: str) -> None:
    """Paired search stops after twice ``determinizations`` rounds: with ``root_width`` candidates that cap must
    not fall short of the game's simulations (at 12 determinizations Carcassonne's 240 stopped at 144)."""
    adapter = bot_game(game_id)
    assert adapter is not None
    config = adapter.search
    assert config.paired and config.simulations
    assert 2 * config.determinizations * config.root_width >= config.simulations


# -- turn counting in playouts, on a scripted game ------------------------------------------------------

@dataclass(frozen=True)
class _Step:
    seats: tuple[int, ...]
    turn: Hashable


@dataclass(frozen=True)
class _Go:
    seat: int


class _Scripted:
    """A game whose state is the index of the next step of ``script``: whoever acts moves it on by one."""

    def __init__(self, script: list[_Step]) -> None:
        self.script = script

    def is_over(self, state: int) -> bool:
        return state >= len(self.script)

    def to_act(self, state: int) -> list[int]:
        return list(self.script[state].seats)

    def turn_key(self, state: int, seat: int) -> Hashable:
        return self.script[state].turn

    def legal_commands(self, state: int, seat: int) -> list[_Go]:
        return [_Go(seat)]

    def decide(self, state: int, command: Any, rng: random.Random) -> list[int]:
        return [state + 1]

    def evolve(self, state: int, event: int) -> int:
        return event

    def clone(self, state: int) -> int:
        return state


# Seat 0 searches: both seats plan (E), seat 1 is the last one planning, then seat 1 and seat 0 each act alone.
PLANNING_THEN_TWO_TURNS = [_Step((0, 1), "E"), _Step((0, 1), "E"), _Step((1,), "E"), _Step((1,), "F1"),
                           _Step((0,), "F0"), _Step((1,), "F1'")]


@pytest.mark.parametrize("turns,leaf", [(1, 3), (2, 4), (3, 5)])
def test_a_playout_counts_a_hand_over_only_when_one_seat_acts_alone(turns: int, leaf: int) -> None:
    """Neither the interleaving of a simultaneous phase nor its last seat still planning hands the turn over:
    the first hand-over is seat 1 acting alone in the next phase, the second seat 0's turn after it."""
    game = _Scripted(PLANNING_THEN_TWO_TURNS)
    adapter = BotSupport(state_from_view=lambda *a, **k: 0, evaluate=lambda state, seat: 0.0)
    config = SearchSettings(playout_turns=turns, playout_depth=100, playout_sample=4)
    for seed in range(4):
        assert playout(game, adapter, 0, 0, random.Random(seed), config) == leaf



# -- common chance in paired rounds ---------------------------------------------------------------------

def _tiles_met(game: Any, adapter: BotSupport, state: Any, command: Any, seed: int, common: bool) -> list[str]:
    """The tiles placed in the playout after ``command``, as a paired round plays it under ``seed``."""
    from services.application.bots.search import _after

    config = SearchSettings(paired=True, playout_turns=3, playout_depth=12, playout_sample=16, common_chance=common)
    sim = random.Random(seed)
    start = _after(game, state, command, sim)
    placed = len(start.placements)
    leaf = playout(game, adapter, start, command.seat, sim, config, seed if common else None)
    return [tile for _, _, tile, _ in leaf.placements[placed:]]


def test_common_chance_deals_every_candidate_of_a_round_the_same_tiles() -> None:
    """With ``common_chance`` two different tile placements meet the same tiles in their playouts (the
    opponent's, then the seat's own next one); on one stream for chance and policy they part."""
    from domain.core.registry import get_game

    from .helpers import positions

    game = get_game("carcassonne")
    adapter = bot_game("carcassonne")
    assert adapter is not None and adapter.search.common_chance
    state = next(s for k, s in enumerate(positions("carcassonne", {}, 2, "common chance")) if k >= 20
                 and s.phase == "place")
    seat = game.to_act(state)[0]
    legal = game.legal_commands(state, seat)
    a, b = legal[0], legal[-1]
    assert a != b
    parted = 0
    for seed in range(6):
        met_a = _tiles_met(game, adapter, state, a, seed, common=True)
        assert len(met_a) >= 2
        assert met_a == _tiles_met(game, adapter, state, b, seed, common=True)
        parted += _tiles_met(game, adapter, state, a, seed, False) != _tiles_met(game, adapter, state, b, seed, False)
    assert parted
