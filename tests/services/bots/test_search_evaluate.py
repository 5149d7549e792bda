"""A game may give the search bot its own evaluation (``BotSupport.search_evaluate``); greedy keeps ``evaluate``."""

from __future__ import annotations

import dataclasses
import random

from domain.core.registry import get_game
from domain.heaven_and_ale import commands as cmd
from services.bots.search import greedy_choice, search_choice

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
