"""The games this service hosts. Adding a game is one line here."""

from __future__ import annotations

import importlib
from typing import Any

from .core.game import Game
from .core.registry import register

GAME_PACKAGES: tuple[str, ...] = ("domain.carcassonne", "domain.heaven_and_ale", "domain.tiefenthal")


def load_games(packages: tuple[str, ...] = GAME_PACKAGES) -> list[Game[Any]]:
    """Import every game package and register its ``GAME`` (idempotent); the games, in that order."""
    games = [register(importlib.import_module(name).GAME) for name in packages]
    return games
