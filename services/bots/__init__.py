"""Bots choose a command from what their seat may see: the seat's view and its legal commands.

A bot never receives the game state: ``choose`` gets the view dict the game
built for that seat and the legal commands of that seat, nothing else.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from domain.core import Command

Bot = Callable[[str, dict[str, Any], Sequence[Command], random.Random], Command]
"""(game id, seat view, legal commands, rng) -> the chosen command."""


def random_bot(game_id: str, view: dict[str, Any], legal: Sequence[Command], rng: random.Random) -> Command:
    """Uniform over the legal commands."""
    return rng.choice(list(legal))


LEVELS: dict[str, Bot] = {"random": random_bot}


def get_bot(level: str) -> Bot:
    try:
        return LEVELS[level]
    except KeyError:
        raise KeyError(f"unknown bot level {level!r}; known: {', '.join(sorted(LEVELS))}") from None
