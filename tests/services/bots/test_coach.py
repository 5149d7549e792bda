"""The coach's analysis: deterministic for a seed, and blind to what the analysed seat could not see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.catalog import load_games
from domain.core.registry import get_game
from services.application.bots import bot_game, get_bot
from services.application.bots.coach import Step, accuracy, analyse, bot_game_steps, decisions_of

load_games()

SHORT = {"carcassonne": {"stack_size": 8}, "heaven-and-ale": {"rounds": 1}, "tiefenthal": {"rounds": 1}}
"""Short seeded games: a few decisions each, so the tests stay quick."""
DECISIONS = 3
SIMULATIONS = 24
ROUNDS = 3


def _short_game(game_id: str) -> list[Step]:
    steps, _ = bot_game_steps(game_id, [get_bot("greedy"), get_bot("random")], f"coach-{game_id}", SHORT[game_id])
    return steps


def _first_decisions(game_id: str, steps: list[Step], seat: int) -> list[Any]:
    decisions = list(decisions_of(get_game(game_id), steps, seats={seat}))
    assert len(decisions) >= DECISIONS, f"{game_id}: seat {seat} has only {len(decisions)} decisions"
    return decisions[:DECISIONS]


def _analysed(game_id: str, steps: list[Step], seat: int, seed: str = "s") -> dict[str, Any]:
    return analyse(game_id, _first_decisions(game_id, steps, seat), seed=seed, rounds=ROUNDS,
                   simulations=SIMULATIONS).to_dict()


@pytest.mark.parametrize("game_id", sorted(SHORT))
def test_the_analysis_of_a_seeded_game_is_the_same_every_time(game_id: str) -> None:
    steps = _short_game(game_id)
    first, again = _analysed(game_id, steps, 1), _analysed(game_id, steps, 1)
    first.pop("cost"), again.pop("cost")
    assert first == again
    seat = first["seats"][0]
    assert seat["seat"] == 1 and len(seat["decisions"]) == DECISIONS
    for row in seat["decisions"]:
        assert row["loss"] == pytest.approx(max(0.0, row["value_best"] - row["value_played"]), abs=0.06)
        assert row["played"]["seat"] == 1 and row["best"]["seat"] == 1


def _scrambled(game_id: str, steps: list[Step], seat: int) -> list[Step]:
    """The same game with everything ``seat`` could not see dealt afresh: each state replaced by another
    determinization of the seat's own view (the other seats' hands, decks and piles, the face-down tiles)."""
    game, adapter = get_game(game_id), bot_game(game_id)
    assert adapter is not None
    rng = random.Random(f"scramble-{game_id}")
    out: list[Step] = []
    for state, version, command, actor in steps:
        if actor == seat:
            legal = game.legal_commands(state, seat)
            state = adapter.state_from_view(game.view(state, seat), seat, random.Random(rng.getrandbits(64)), legal=legal)
        out.append((state, version, command, actor))
    return out


@pytest.mark.parametrize("game_id", sorted(SHORT))
def test_a_seat_is_analysed_from_its_view_alone(game_id: str) -> None:
    """Scrambling the other seats' hidden parts (and the hidden order of chance) changes nothing: the analysis
    reads the seat's view and legal commands only, and samples the rest as the bots do."""
    steps = _short_game(game_id)
    plain = _analysed(game_id, steps, 0)
    scrambled = _analysed(game_id, _scrambled(game_id, steps, 0), 0)
    plain.pop("cost"), scrambled.pop("cost")
    assert plain == scrambled


def test_a_leaking_state_would_show() -> None:
    """The scramble bites: Tiefenthal's states differ in the hidden decks once scrambled, so an analysis that
    read the state rather than the view would see other cards."""
    steps = _short_game("tiefenthal")
    game = get_game("tiefenthal")
    state = steps[0][0]
    other = _scrambled("tiefenthal", steps, steps[0][3])[0][0]
    assert game.encode_state(state) != game.encode_state(other)
    assert game.view(state, steps[0][3]) == game.view(other, steps[0][3])


def test_accuracy_is_100_for_agreement_and_falls_with_the_loss() -> None:
    assert accuracy([0.0, 0.0], 10.0) == 100.0
    assert accuracy([10.0], 10.0) == pytest.approx(36.8, abs=0.1)
    assert accuracy([], 10.0) is None
