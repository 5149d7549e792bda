"""The search's evaluation (``heuristics.search_evaluate``): unfinished features by their chance of completion
against the unseen tiles that fit the cells they need, built move by move through the engine's commands.

The start tile D lies at (0, 0): city cap N, road W-E. F turned once (``rotation=1``) is a city band N-S with a
pennant; placed at (0, 1) it joins the start city, which then needs only the cell (0, 2), whose south edge is
city.
"""

from __future__ import annotations

import pytest

from domain.carcassonne import GAME
from domain.carcassonne.heuristics import (
    FOLLOWER_IN_SUPPLY,
    OUTLOOK,
    estimated_points,
    feature_outlook,
    fitting_tiles,
    search_evaluate,
    search_points,
)
from domain.carcassonne.tiles import CITY
from domain.core.playout import random_playout

from .helpers import Table


def _city_with_knight(stack: list[str]) -> Table:
    t = Table(["F", *stack], hills_and_sheep=False)
    t.place(0, 1, 1)
    t.follower("c0")  # seat 0: knight in the 2-tile city with a pennant, open at (0, 2)
    return t


def test_a_city_no_unseen_tile_can_close_is_worth_its_end_value_and_keeps_its_knight() -> None:
    t = _city_with_knight(["U", "U", "V"])  # roads only: no tile has a city edge for (0, 2)
    root = t.root(0, 1, "c0")
    assert t.state.frontier[(0, 2)] == "..C."
    value, home = feature_outlook(t.state, root)
    assert (value, home) == (3.0, 0.0)  # 2 tiles + 1 pennant at game end; the knight never comes back
    # Only the knight's supply value is lost, so seat 0 leads by its city's end value less one follower.
    assert search_points(t.state) == [3.0 + 6 * FOLLOWER_IN_SUPPLY, 7 * FOLLOWER_IN_SUPPLY]


def test_a_city_that_a_tile_left_can_close_is_worth_its_chance_of_the_double_value() -> None:
    hopeless = _city_with_knight(["U", "U", "V"])
    hopeful = _city_with_knight(["U", "U", "E"])  # E's city cap closes (0, 2)
    root = hopeful.root(0, 1, "c0")
    value, home = feature_outlook(hopeful.state, root)
    # Unseen: U (drawn), U, E; seat 0 draws 1.5 of them; E is one fitting tile of 3.
    city = OUTLOOK[CITY]
    p = 1 - (1 - city.share / 3) ** (city.attention * 1.5)
    assert home == pytest.approx(p)
    assert value == pytest.approx(p * (2 * 3 + 2) + (1 - p) * 3)
    assert 3.0 < value < 8.0
    # Greedy's flat uplift cannot tell them apart; the search's evaluation can.
    assert estimated_points(hopeful.state) == estimated_points(hopeless.state)
    assert search_evaluate(hopeful.state, 0) > search_evaluate(hopeless.state, 0)
    assert search_evaluate(hopeful.state, 1) < search_evaluate(hopeless.state, 1)


def test_a_farmer_counts_each_adjacent_city_by_its_chance_of_completion() -> None:
    def farmer(stack: list[str]) -> Table:
        t = Table(["F", *stack], hills_and_sheep=False)
        t.place(0, 1, 1)
        t.follower("f0")  # seat 0: a farmer beside the unfinished city
        return t

    hopeless, hopeful = farmer(["U", "U", "V"]), farmer(["U", "U", "E"])
    city = hopeful.root(0, 1, "c0")
    _, p = feature_outlook(hopeful.state, city)  # the city's chance of completion
    value, home = feature_outlook(hopeful.state, hopeful.root(0, 1, "f0"))
    assert home == 0.0 and value == pytest.approx(3 * p)
    assert feature_outlook(hopeless.state, hopeless.root(0, 1, "f0")) == (0.0, 0.0)
    # Greedy counts the farmer at the cities completed so far: nothing in either position.
    assert estimated_points(hopeful.state)[0] == estimated_points(hopeless.state)[0] == 6 * FOLLOWER_IN_SUPPLY


def test_a_monastery_counts_the_neighbours_it_may_still_get() -> None:
    t = Table(["B", "U", "U", "V", "V"], hills_and_sheep=False)
    t.place(0, -1, 0)
    t.follower("m")  # seat 0: monastery south of the start tile, one neighbour so far
    value, home = feature_outlook(t.state, t.root(0, -1, "m"))
    assert 2.0 < value < 9.0  # 2 now, up to 9 if all seven empty cells fill
    # Four unseen tiles: too few draws to fill seven cells, so the monk does not come home.
    assert home == 0.0


def test_fitting_tiles_read_every_edge_of_the_cell() -> None:
    assert "E" in fitting_tiles("..C.") and "U" not in fitting_tiles("..C.")
    assert "U" in fitting_tiles(".R.R") and "V" not in fitting_tiles(".R.R")
    assert set(fitting_tiles("....")) >= {"A", "B", "U", "X"}


def test_at_the_end_the_search_estimate_is_the_score() -> None:
    result = random_playout(GAME, 2, "search-heur", {})
    assert search_points(result.state) == [float(s) for s in result.state.scores]


def test_the_fast_value_now_is_the_scoring_rules_value_of_every_feature() -> None:
    import random

    from domain.carcassonne.heuristics import value_now
    from domain.carcassonne.scoring import feature_value

    rng = random.Random(7)
    state = GAME.fold(None, GAME.setup(GAME.parse_options({"hills_and_sheep": True, "abbot": True}), 2, rng))
    checked: set[int] = set()
    while not GAME.is_over(state):
        roots = {state.root[n] for n in range(len(state.root))}
        for root in roots:
            assert value_now(state, root) == feature_value(state, root, completed=False)[0]
        checked |= {state.kind[r] for r in roots}
        seat = GAME.to_act(state)[0]
        state = GAME.fold(state, GAME.decide(state, rng.choice(GAME.legal_commands(state, seat)), rng))
    assert checked >= {0, 1, 2, 3, 4}  # cities, roads, fields, monasteries and gardens all compared
