"""The bots' evaluation of Heaven & Ale: it must see the game's end, not only the score of the moment."""

from __future__ import annotations

import math
import random

from domain.heaven_and_ale import GAME
from domain.heaven_and_ale.heuristics import bracket_value, estimate, evaluate, evened_level
from domain.heaven_and_ale.production import BRACKETS, bracket
from domain.heaven_and_ale.scoring import exchange, total

from .helpers import Table


def test_evened_level_agrees_with_the_final_exchange_on_whole_markers() -> None:
    rng = random.Random(7)
    for _ in range(300):
        markers = [rng.randint(-8, 20) for _ in range(5)]
        rate = rng.choice([5, 4, 3, 2, 1])
        exact = min(exchange(markers, rate))
        assert math.floor(evened_level([float(m) for m in markers], rate) + 1e-6) == exact, (markers, rate)


def test_bracket_value_meets_every_bracket_and_never_falls() -> None:
    for low, _, value in BRACKETS[1:]:
        assert abs(bracket_value(low) - value) < 1e-9
        assert bracket(low)[1] == value
    values = [bracket_value(b / 4) for b in range(-60, 90)]
    assert values == sorted(values)


def test_at_the_end_the_estimate_is_the_score() -> None:
    table = Table(n=2, seed="heuristic-end").start()
    rng = random.Random(3)
    while not GAME.is_over(table.state):
        seat = GAME.to_act(table.state)[0]
        table.do(rng.choice(GAME.legal_commands(table.state, seat)))
    for seat in range(2):
        assert estimate(table.state, seat) == float(total(table.state, seat))
    assert evaluate(table.state, 0) == float(total(table.state, 0) - total(table.state, 1))


def test_a_bot_does_not_rush_into_the_starting_area_at_the_start_of_a_round() -> None:
    """Scored only as if the game ended now, every move looked worthless and bots entered the starting
    area at once, finishing with 0 production: the estimate must value the round still ahead."""
    table = Table(n=2, seed="heuristic-rush").start()
    seat = GAME.to_act(table.state)[0]
    legal = GAME.legal_commands(table.state, seat)
    values: dict[str, list[float]] = {}
    for command in legal:
        after = GAME.clone(table.state)
        for event in GAME.decide(after, command, table.rng()):
            after = GAME.evolve(after, event)
        values.setdefault(command.type, []).append(evaluate(after, seat))
    assert max(values["Move"]) > max(values["EnterStartingArea"])



def test_features_read_only_what_the_seat_sees_and_weights_pick_them() -> None:
    """The tuned evaluation's features come from public state: the state rebuilt from a seat's view gives the
    same vector; weights that keep ``estimate`` and the hand-made value of the track still ahead give the
hand-made margins back (no Kegs & More); at the end
    the fitted estimate is the exact score."""
    from domain.heaven_and_ale.board import TRACK_LEN
    from domain.heaven_and_ale.determinize import state_from_view
    from domain.heaven_and_ale.heuristics import (
        FEATURES,
        TRACK_SPACE_VALUE,
        features,
        fitted_estimate,
        hand_evaluate,
        make_evaluate,
    )

    table = Table(n=2, seed="heuristic-features").start()
    rng = random.Random(5)
    hand = {"estimate": 1.0, "track_left": TRACK_SPACE_VALUE * TRACK_LEN}
    only_estimate = make_evaluate([hand.get(name, 0.0) for name in FEATURES])
    step = 0
    while not GAME.is_over(table.state):
        seat = GAME.to_act(table.state)[0]
        if step % 9 == 0:
            rebuilt = state_from_view(GAME.view(table.state, seat), seat, random.Random(step))
            for s in range(2):
                assert features(rebuilt, s) == features(table.state, s)
                assert len(features(table.state, s)) == len(FEATURES)
            assert abs(only_estimate(table.state, seat) - hand_evaluate(table.state, seat)) < 1e-9
        table.do(rng.choice(GAME.legal_commands(table.state, seat)))
        step += 1
    weights = [0.0] * len(FEATURES)
    for s in range(2):
        assert fitted_estimate(table.state, s, weights) == float(total(table.state, s))
