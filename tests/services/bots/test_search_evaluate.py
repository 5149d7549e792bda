"""A game may give the search bot its own evaluation (``BotSupport.search_evaluate``); greedy keeps ``evaluate``."""

from __future__ import annotations

import dataclasses
import random

from domain.core.registry import get_game
from domain.heaven_and_ale import commands as cmd
from services.application.bots.search import greedy_choice, search_choice

from .helpers import positions


def test_search_judges_with_the_search_evaluation_and_greedy_with_its_own() -> None:
    game = get_game("heaven-and-ale")
    base = game.bot_support()
    assert base is not None and base.search_evaluate is not None
    state = next(s for s in positions("heaven-and-ale", {}, 2, "search-evaluate")
                 if sum(isinstance(c, cmd.Move) for c in game.legal_commands(s, game.to_act(s)[0])) > 3)
    seat = game.to_act(state)[0]
    # Only the moves (no emergency coin, whose follow-up could reach the same space).
    moves = [c for c in game.legal_commands(state, seat) if isinstance(c, cmd.Move)]
    # Each evaluation wants the figure on a different space.
    to_greedy, to_search = moves[0].space, moves[-1].space
    adapter = dataclasses.replace(
        base, evaluate=lambda s, me: float(s.players[me].pos == to_greedy),
        search_evaluate=lambda s, me: float(s.players[me].pos == to_search),
        search=dataclasses.replace(base.search, root_width=len(moves)))
    assert greedy_choice(game, adapter, game.view(state, seat), moves, random.Random(1)) == moves[0]
    chosen = search_choice(game, adapter, game.view(state, seat), moves, random.Random(1), budget=30.0,
                           max_iterations=4 * len(moves))
    assert chosen == moves[-1]


def test_the_leaf_evaluation_ranks_and_judges_while_the_playouts_keep_the_cheap_one() -> None:
    game = get_game("carcassonne")
    base = game.bot_support()
    assert base is not None and base.leaf_evaluate is not None
    state = next(s for s in positions("carcassonne", {}, 2, "leaf-evaluate")
                 if s.phase == "place" and len({(c.x, c.y) for c in game.legal_commands(s, s.turn_seat)}) > 3)
    seat = state.turn_seat
    legal = game.legal_commands(state, seat)
    first, last = (legal[0].x, legal[0].y), (legal[-1].x, legal[-1].y)
    calls = {"cheap": 0, "leaf": 0}

    def cheap(s: object, me: int) -> float:
        calls["cheap"] += 1
        return float(first in s.board)  # type: ignore[attr-defined]

    def leaf(s: object, me: int) -> float:
        calls["leaf"] += 1
        return float(last in s.board)  # type: ignore[attr-defined]

    adapter = dataclasses.replace(base, evaluate=cheap, search_evaluate=None, leaf_evaluate=leaf,
                                  search=dataclasses.replace(base.search, root_width=len(legal), simulations=None))
    view = game.view(state, seat)
    greedy = greedy_choice(game, adapter, view, legal, random.Random(1))
    assert (greedy.x, greedy.y) == first
    calls.update(cheap=0, leaf=0)
    chosen = search_choice(game, adapter, view, legal, random.Random(1), budget=30.0, max_iterations=4 * len(legal))
    assert (chosen.x, chosen.y) == last
    # The ranking and the leaves use the leaf evaluation (each root command and its figure follow-ups, then one
    # call a simulation); the playout policy judges its options with the cheap one, many times more often.
    assert calls["cheap"] > calls["leaf"] >= 5 * len(legal)
