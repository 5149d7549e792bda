"""Every level returns a legal command for every game, from the seat's view and legal list alone."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import orjson
import pytest

from domain.core import Command
from domain.core.registry import get_game
from services.application.bots import LEVELS, get_bot, make_search_bot

from .helpers import positions

GAMES = [("carcassonne", {"hills_and_sheep": True}), ("heaven-and-ale", {"kegs_and_more": True}), ("tiefenthal", {})]


def _json_only(value: Any) -> None:
    """The view is plain JSON data: no state object (nor anything else) is reachable from it."""
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str)
            _json_only(v)
    elif isinstance(value, list):
        for v in value:
            _json_only(v)
    else:
        assert value is None or isinstance(value, (str, int, float, bool)), type(value)


def _sample(game_id: str, options: dict, count: int) -> list[tuple[dict, list[Command], Any]]:
    game = get_game(game_id)
    states = list(positions(game_id, options, 2, f"levels-{game_id}"))[:-1]
    picked = random.Random(game_id).sample(states, count)
    out = []
    for state in picked:
        seat = game.to_act(state)[0]
        out.append((game.view(state, seat), game.legal_commands(state, seat), state))
    return out


def test_levels_are_the_documented_three() -> None:
    assert set(LEVELS) == {"random", "greedy", "search"}
    with pytest.raises(KeyError):
        get_bot("grandmaster")


@pytest.mark.parametrize("game_id,options", GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("level", ["random", "greedy", "search"])
def test_level_plays_a_legal_command_from_the_view_alone(game_id: str, options: dict, level: str) -> None:
    bot = make_search_bot(budget=5.0, max_iterations=12) if level == "search" else get_bot(level)
    game = get_game(game_id)
    for view, legal, state in _sample(game_id, options, 4):
        # A deep copy through JSON: whatever the bot reads, it can only be this plain data.
        copy = orjson.loads(orjson.dumps(view))
        _json_only(copy)
        snapshot = orjson.dumps(copy)
        command = bot(game_id, copy, list(legal), random.Random(1))
        assert command in legal
        assert game.is_legal(state, command)
        assert orjson.dumps(copy) == snapshot  # the bot did not scribble on the view


def test_bots_never_see_the_hidden_split() -> None:
    """Two states that differ only in hidden information give the same view, hence the same choice."""
    game = get_game("carcassonne")
    state = next(s for s in positions("carcassonne", {"hills_and_sheep": True}, 2, "hidden-split")
                 if len(s.buried) >= 2 and s.phase == "place")
    other = state.clone()
    pool = list(other.buried)
    for tile in pool:  # swap the buried tiles with stack tiles: same unseen multiset, other hidden split
        swap = next(t for t in sorted(other.remaining) if t != tile)
        other.remaining[swap] -= 1
        if not other.remaining[swap]:
            del other.remaining[swap]
        other.remaining[tile] = other.remaining.get(tile, 0) + 1
        other.buried[other.buried.index(tile)] = swap
    assert other.buried != state.buried
    seat = game.to_act(state)[0]
    assert game.view(state, seat) == game.view(other, seat)
    for level in ("greedy", "search"):
        bot = make_search_bot(budget=5.0, max_iterations=15) if level == "search" else get_bot(level)
        a = bot("carcassonne", game.view(state, seat), game.legal_commands(state, seat), random.Random(7))
        b = bot("carcassonne", game.view(other, seat), game.legal_commands(other, seat), random.Random(7))
        assert a == b


def test_search_respects_its_time_budget() -> None:
    import time
    get_game("carcassonne")
    view, legal, _ = next(v for v in _sample("carcassonne", {}, 10) if len(v[1]) > 3)
    started = time.perf_counter()
    command = make_search_bot(budget=0.2)("carcassonne", view, legal, random.Random(0))
    assert command in legal
    assert time.perf_counter() - started < 5.0  # generous: the budget bounds the loop, not the setup


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_playout_stops_when_the_turn_has_changed_hands_so_often(turns: int) -> None:
    """A Carcassonne turn places one tile: from a seat about to place its tile, a playout stopped at the
    ``turns``-th hand-over has placed ``turns`` tiles and leaves the other seat to act when odd."""
    from domain.carcassonne.state import PLACE
    from services.application.bots import SearchConfig, bot_game
    from services.application.bots.search import playout

    game = get_game("carcassonne")
    adapter = bot_game("carcassonne")
    assert adapter is not None
    state = [s for s in positions("carcassonne", {}, 2, "playout-turns")
             if not game.is_over(s) and s.phase == PLACE and s.tiles_left() > 10][5]
    seat = game.to_act(state)[0]
    config = SearchConfig(playout_turns=turns, playout_depth=100, playout_sample=4)
    leaf = playout(game, adapter, game.clone(state), seat, random.Random(turns), config)
    assert len(leaf.placements) - len(state.placements) == turns
    assert game.to_act(leaf) == [1 - seat if turns % 2 else seat]
    assert leaf.phase == PLACE


def test_a_simultaneous_planning_phase_is_one_turn_in_a_playout() -> None:
    """Tiefenthal's planning (phase E) lets both seats place dice in any order: a playout stopped at the first
    hand-over gets through the whole phase, its seats interleaved, and stops only when one seat acts alone
    in the next phase and it is not the searching seat."""
    from services.application.bots import SearchConfig, bot_game
    from services.application.bots.search import playout

    game = get_game("tiefenthal")
    adapter = bot_game("tiefenthal")
    assert adapter is not None
    states = [s for s in positions("tiefenthal", {}, 2, "playout-simultaneous")
              if not game.is_over(s) and s.phase == "E" and len(game.to_act(s)) == 2]
    assert states
    for k, state in enumerate(states[:3]):
        seat = game.to_act(state)[0]
        config = SearchConfig(playout_turns=1, playout_depth=200, playout_sample=2)
        leaf = playout(game, adapter, game.clone(state), seat, random.Random(k), config)
        assert not (leaf.round == state.round and leaf.phase == "E"), "stopped inside the planning phase"
        if not game.is_over(leaf):
            assert game.to_act(leaf) != [seat]


def test_paired_search_answers_from_the_greedy_ranking_when_no_round_completes() -> None:
    """With no time for one whole round of simulations, the best greedy candidate is played."""
    from services.application.bots import SearchConfig, bot_game
    from services.application.bots.search import _rank, candidates_of, search_choice

    game = get_game("carcassonne")
    adapter = bot_game("carcassonne")
    assert adapter is not None
    view, legal, _ = next(v for v in _sample("carcassonne", {}, 10) if len(v[1]) > 3)
    config = SearchConfig(paired=True, playout_turns=3, playout_depth=12, playout_sample=16)
    chosen = search_choice(game, adapter, view, legal, random.Random(1), max_iterations=0, config=config)
    state = adapter.state_from_view(view, legal[0].seat, random.Random(random.Random(1).getrandbits(64)), legal=legal)
    ranked = _rank(game, adapter, state, candidates_of(adapter, view, legal), legal[0].seat, random.Random(0))
    assert chosen in legal
    assert any(c == chosen for v, c in ranked if v >= ranked[0][0] - 1e-9)


def _search_position(game_id: str) -> tuple[dict, list[Command]]:
    """A position with several candidates for the search (not the greedy answer of a single one)."""
    view, legal, _ = next(v for v in _sample(game_id, {}, 12) if len(v[1]) > 3)
    return view, legal


@pytest.mark.parametrize("game_id", ["carcassonne", "tiefenthal"])
def test_a_counted_search_plays_the_same_move_with_or_without_a_cap(game_id: str) -> None:
    """The budget is simulations, not time: the same view, legal list and seed give the same move, whether
    the search runs uncapped or under a generous cap, and it stops on its budget (or races), not the clock."""
    from services.application.bots import SearchStats, bot_game, search_bot

    adapter = bot_game(game_id)
    assert adapter is not None and adapter.search.simulations
    view, legal = _search_position(game_id)
    config = dataclasses.replace(adapter.search, simulations=24)
    stats: list[SearchStats] = []
    a = search_bot(game_id, view, legal, random.Random(3), budget=None, config=config, stats=stats)
    b = search_bot(game_id, view, legal, random.Random(3), budget=60.0, config=config, stats=stats)
    assert a == b
    assert all(s.iterations <= 24 and s.stopped in ("budget", "race", "rounds", "greedy") for s in stats)
    assert stats[0].iterations == stats[1].iterations


def test_the_service_searches_with_the_games_budget_under_its_think_time() -> None:
    """``choose`` (the bot job's and autopilot's entry) caps the search by the think time but spends the game's
    simulations: with a cap far above it, the move is the uncapped search's."""
    from services.application.bots import choose, search_bot

    view, legal = _search_position("carcassonne")
    assert choose("search", "carcassonne", view, legal, random.Random(5), think_seconds=120.0) == \
        search_bot("carcassonne", view, legal, random.Random(5), budget=None)


def test_the_cap_cuts_a_counted_search_short() -> None:
    """A cap already spent stops the search on the clock, still with a legal move (the greedy ranking's)."""
    from services.application.bots import SearchStats, search_bot

    view, legal = _search_position("carcassonne")
    stats: list[SearchStats] = []
    command = search_bot("carcassonne", view, legal, random.Random(2), budget=0.0, stats=stats)
    assert command in legal
    assert stats[0].stopped in ("cap", "greedy") and stats[0].iterations == 0


def test_racing_drops_a_candidate_clearly_behind_the_leader() -> None:
    from services.application.bots.config import RACE_MIN_ROUNDS
    from services.application.bots.search import _race

    # Candidate 0 leads, 1 is always 5 behind (a clear paired difference), 2 is behind on average by noise.
    rounds = [[10.0 + r, 5.0 + r, 10.0 + r + (1 if r % 2 else -2)] for r in range(RACE_MIN_ROUNDS)]
    assert _race(rounds, [0, 1, 2], 2.0) == [0, 2]
    assert _race(rounds, [0, 1, 2], 0.0) == [0, 1, 2]  # off
    assert _race(rounds[:RACE_MIN_ROUNDS - 1], [0, 1, 2], 2.0) == [0, 1, 2]  # too few rounds yet
