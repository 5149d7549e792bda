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


def _played_to_the_end(seed: str, moves_seed: int) -> Table:
    """A 2-player game played to its end by random legal moves."""
    table = Table(n=2, seed=seed).start()
    rng = random.Random(moves_seed)
    while not GAME.is_over(table.state):
        seat = GAME.to_act(table.state)[0]
        table.do(rng.choice(GAME.legal_commands(table.state, seat)))
    return table


def test_at_the_end_the_estimate_is_the_score() -> None:
    table = _played_to_the_end("heuristic-end", 3)
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


def test_the_search_evaluation_is_the_real_final_score_at_the_end() -> None:
    """The search's constants (``SEARCH``) change the projection only: at the end of a game its estimate is
    the real final score (evening out and ducats included) and its margin the real margin."""
    from domain.heaven_and_ale.heuristics import SEARCH, search_evaluate

    table = _played_to_the_end("heuristic-search-end", 11)
    for seat in range(2):
        assert estimate(table.state, seat, SEARCH) == float(total(table.state, seat))
    assert search_evaluate(table.state, 1) == float(total(table.state, 1) - total(table.state, 0))


def test_an_open_shed_promises_the_brewmaster_steps_of_its_fertility_sum() -> None:
    """§3.7: a shed enclosed with a fertility sum of 0-7 moves the brewmaster 6 steps, 24 or more none; the
    search's estimate reads the reward table at the sum so far, more surely the fuller the shed."""
    from domain.heaven_and_ale.garden import SHED_NEIGHBOURS
    from domain.heaven_and_ale.heuristics import SHED_FILL_FERTILITY, shed_brewmaster_by_sum
    from domain.heaven_and_ale.supply import MONK_BASE

    table = Table(n=2, seed="heuristic-shed").start()
    p = table.state.players[0]
    neighbours = SHED_NEIGHBOURS[3]  # shed D, wholly in the sunny half
    assert shed_brewmaster_by_sum(table.state, p) == 0.0  # no tile next to any shed yet
    for spot in neighbours[:5]:
        p.garden[spot] = MONK_BASE  # monks: fertility 0
    poor = shed_brewmaster_by_sum(table.state, p)
    # Shed D: sum 0 + 2 for its empty neighbour, 6 steps, 5 of 6 neighbours filled (and a little from the
    # sheds next to the same spots).
    assert SHED_FILL_FERTILITY <= 7 and poor >= 6 * (5 / 6) ** 2
    for spot in neighbours[:5]:
        p.garden[spot] = 4  # wood-5
    rich = shed_brewmaster_by_sum(table.state, p)
    assert rich < 1.0  # shed D: sum 25 + 2, 24 or more, no step; the others at most 1 step, barely filled
    table.state.round = table.state.rounds
    p.done = True
    assert shed_brewmaster_by_sum(table.state, p) == 0.0  # the game is over for it: nothing more


def test_a_goal_achieved_counts_while_a_barrel_space_is_still_ahead() -> None:
    from domain.heaven_and_ale.barrels import LARGE_VP
    from domain.heaven_and_ale.heuristics import SEARCH, unclaimed_barrels

    table = Table(n=2, seed="heuristic-barrels").start()
    s = table.state
    p = s.players[0]
    assert unclaimed_barrels(s, 0) == 0.0
    p.brewmaster = 1  # goal 10: brewmaster on 1 or beyond
    assert unclaimed_barrels(s, 0) == LARGE_VP
    before = estimate(s, 0, SEARCH)
    p.brewmaster = 0
    assert estimate(s, 0, SEARCH) < before - SEARCH.barrel_share * LARGE_VP / 2
    p.brewmaster = 1
    s.round = s.rounds
    p.pos = 27  # last round, every barrel space behind the figure: too late
    assert unclaimed_barrels(s, 0) == 0.0
    p.large.append(9)
    s.large[9] = 0
    p.pos = 3
    assert unclaimed_barrels(s, 0) == 0.0  # already claimed


def test_ducats_lose_their_buying_value_over_the_spend_horizon() -> None:
    """§3.14 B: at the end ten ducats buy one step; while rounds remain a ducat buys tiles. ``spend_horizon``
    sets over how many of the last rounds that buying value fades, so a bot spends its ducats in time."""
    import dataclasses

    from domain.heaven_and_ale.heuristics import HAND, projected_production

    table = Table(n=2, seed="heuristic-ducats").start()
    s = table.state
    p = s.players[0]
    p.brewmaster = 10  # a level counts in full
    p.markers = [6] * 5
    early, late = dataclasses.replace(HAND, spend_horizon=1.0), dataclasses.replace(HAND, spend_horizon=2.0)

    def gain(params: object) -> float:
        p.money = 0
        poor = projected_production(s, p, params)  # type: ignore[arg-type]
        p.money = 30
        return projected_production(s, p, params) - poor  # type: ignore[arg-type]

    s.round = s.rounds - 2  # three rounds left (this one unplayed): a ducat buys tiles in both
    assert gain(early) == gain(late) > 0
    s.round = s.rounds  # the last round, unplayed: fading with the longer horizon only
    assert 0 < gain(late) < gain(early)


def test_a_player_done_in_the_last_round_is_scored_as_the_final_scoring_will() -> None:
    """In the starting area in the last round a player does nothing more: with ``exact_when_done`` its
    estimate is what §3.14 will give it (whole-step exchange, ten ducats a step), while the smooth projection
    still credits its open sheds and the fraction of a step its ducats buy."""
    import dataclasses

    from domain.heaven_and_ale.garden import SHED_NEIGHBOURS
    from domain.heaven_and_ale.heuristics import SEARCH, Params
    from domain.heaven_and_ale.scoring import production

    table = Table(n=2, seed="heuristic-done").start()
    s = table.state
    p = s.players[0]
    p.brewmaster = 12  # 2:1, x4
    p.markers = [5, 6, 6, 6, 9]
    p.money = 19  # one step at the end, nine ducats lost
    p.discs = [True] * len(p.discs)  # every scoring spot used: nothing left to activate the garden
    for spot in SHED_NEIGHBOURS[3][:5]:
        p.garden[spot] = 4  # wood-5 round an open shed
    exact, smooth = SEARCH, dataclasses.replace(SEARCH, exact_when_done=False)
    assert isinstance(smooth, Params) and exact.exact_when_done
    s.round = s.rounds
    p.done = True
    final = float(total(s, 0))
    assert estimate(s, 0, exact) == final
    assert production(p)[0] == 6 * 4  # [5,6,6,6,9] evened at 2:1 to 6 (the 9 gives 2), a bought step: still 6
    assert estimate(s, 0, smooth) != final  # the projection still sees the open shed's activations
    p.done = False
    assert estimate(s, 0, exact) == estimate(s, 0, smooth)  # turns still to play: the projection


def test_a_brewmaster_a_step_short_of_a_bracket_counts_its_real_bracket_at_the_end() -> None:
    """§2.4.2: spot 0 is x2 and spot 1 x3. The smooth value (each step counts towards the next bracket)
    pulls a bot forward early; with ``exact_bracket_horizon`` it slides to the real bracket over the last
    rounds, so at the end a brewmaster on 0 is seen to lose a third of the production against one on 1."""
    import dataclasses

    from domain.heaven_and_ale.heuristics import SEARCH, projected_production

    table = Table(n=2, seed="heuristic-bracket").start()
    s = table.state
    p = s.players[0]
    p.markers = [6] * 5
    p.discs = [True] * len(p.discs)
    p.cards = []
    p.money = 0
    sliding, smooth = SEARCH, dataclasses.replace(SEARCH, exact_bracket_horizon=0.0)
    assert sliding.exact_bracket_horizon == 1.0

    def ratio(params: object) -> float:
        p.brewmaster = 0
        short = projected_production(s, p, params)  # type: ignore[arg-type]
        p.brewmaster = 1
        return short / projected_production(s, p, params)  # type: ignore[arg-type]

    s.round = s.rounds - 1  # two rounds left: smooth either way
    assert ratio(sliding) == ratio(smooth) > 0.9
    s.round = s.rounds
    p.pos = 21  # a quarter of the last round left
    assert ratio(smooth) > 0.9
    assert abs(ratio(sliding) - (2 + 0.9 * 0.25) / 3) < 0.01  # x2 plus a quarter of the smooth 0.9 above it


def test_ducats_still_to_come_buy_less_than_ducats_in_hand() -> None:
    """Ducats a shady tile will pay at a later activation arrive with less time to spend them: with
    ``future_ducat_time`` below 1 they are valued as if that share of the time left had passed."""
    import dataclasses

    from domain.heaven_and_ale.garden import is_sunny
    from domain.heaven_and_ale.heuristics import SEARCH, projected_gains, projected_production
    from domain.heaven_and_ale.state import EMPTY

    table = Table(n=2, seed="heuristic-future-ducats").start()
    s = table.state
    p = s.players[0]
    p.brewmaster = 10
    p.markers = [6] * 5
    shady = next(spot for spot in range(len(p.garden)) if not is_sunny(spot))
    later, in_hand = SEARCH, dataclasses.replace(SEARCH, future_ducat_time=1.0)
    assert later.future_ducat_time == 0.5
    s.round = s.rounds  # the last round, unplayed
    p.garden[shady] = 4  # wood-5: ducats at its activations to come
    assert projected_gains(s, p, later)[1] > 0
    with_tile = projected_production(s, p, later) - projected_production(s, p, in_hand)
    assert with_tile < 0  # the same ducats, worth less when they come later
    p.garden[shady] = EMPTY
    assert projected_production(s, p, later) == projected_production(s, p, in_hand)  # ducats in hand: the same

