"""Bots choose a command from what their seat may see: the seat's view and its legal commands.

A bot never receives the game state: it gets the view dict the game built for
that seat and the legal commands of that seat, nothing else. ``greedy`` and
``search`` rebuild candidate states from the view with the game's
``determinize.state_from_view`` (hidden parts sampled, never read); games are
declared by each game (``Game.bot_support()``, read in :mod:`services.application.bots.games`).

Levels: ``random`` (uniform), ``greedy`` (best immediate gain by the game's
heuristic), ``search`` (determinized Monte Carlo search with a budget of simulations per move, chosen per game in its
``SearchSettings.simulations``, capped by a think time).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from domain.core import Command
from domain.core.registry import get_game
from services.application.bots.config import SearchConfig
from services.application.bots.games import BotGame, bot_game
from services.application.bots.search import SearchStats, greedy_choice, search_choice

Bot = Callable[[str, dict[str, Any], Sequence[Command], random.Random], Command]
"""(game id, seat view, legal commands, rng) -> the chosen command."""

SEARCH_BUDGET = 1.0
"""Default cap in seconds on a search move (the service passes ``Settings.bot_think_seconds``,
``TAPROOM_BOT_THINK_SECONDS``, to :func:`choose` instead). The search's own budget is the game's
``SearchSettings.simulations``: on a quiet machine it ends well before the cap."""


def random_bot(game_id: str, view: dict[str, Any], legal: Sequence[Command], rng: random.Random) -> Command:
    """Uniform over the legal commands."""
    return rng.choice(list(legal))


def greedy_bot(game_id: str, view: dict[str, Any], legal: Sequence[Command], rng: random.Random) -> Command:
    """The legal command with the best heuristic value right after it (ties broken by ``rng``)."""
    adapter = bot_game(game_id)
    if adapter is None or len(legal) == 1:
        return random_bot(game_id, view, legal, rng)
    return greedy_choice(get_game(game_id), adapter, view, legal, rng)


def search_bot(game_id: str, view: dict[str, Any], legal: Sequence[Command], rng: random.Random, *,
               budget: float | None = SEARCH_BUDGET, max_iterations: int | None = None,
               config: SearchConfig | None = None, stats: list[SearchStats] | None = None) -> Command:
    """Determinized Monte Carlo search: the game's simulations per move (or ``max_iterations``), at most
    ``budget`` seconds (None: no cap, the same move whatever the load). ``stats``, when given, receives
    the :class:`SearchStats` of each search (the arena's calibration)."""
    adapter = bot_game(game_id)
    if adapter is None or len(legal) == 1:
        return random_bot(game_id, view, legal, rng)
    record = SearchStats()
    if stats is not None:
        stats.append(record)
    return search_choice(get_game(game_id), adapter, view, legal, rng, budget=budget, max_iterations=max_iterations,
                         config=config, stats=record)


def make_search_bot(budget: float | None = SEARCH_BUDGET, max_iterations: int | None = None,
                    config: SearchConfig | None = None, stats: list[SearchStats] | None = None) -> Bot:
    """A search bot with another cap, budget or configuration (the arena and tests use this)."""
    return partial(search_bot, budget=budget, max_iterations=max_iterations, config=config, stats=stats)


LEVELS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}


def choose(level: str, game_id: str, view: dict[str, Any], legal: Sequence[Command], rng: random.Random, *,
           think_seconds: float | None = None) -> Command:
    """The command a bot of ``level`` plays (an unknown level plays randomly); ``think_seconds`` caps the
    search (the service's ``bot_think_seconds``), whose budget is the game's simulations per move."""
    if level == "search" and think_seconds is not None:
        return search_bot(game_id, view, legal, rng, budget=think_seconds)
    return LEVELS.get(level, random_bot)(game_id, view, legal, rng)


def get_bot(level: str) -> Bot:
    try:
        return LEVELS[level]
    except KeyError:
        raise KeyError(f"unknown bot level {level!r}; known: {', '.join(sorted(LEVELS))}") from None


__all__ = ["Bot", "BotGame", "LEVELS", "SEARCH_BUDGET", "SearchConfig", "SearchStats", "choose", "get_bot", "make_search_bot", "random_bot", "greedy_bot",
           "search_bot", "bot_game"]
