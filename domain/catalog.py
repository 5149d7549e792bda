"""The games this service hosts. Adding a game is one line here."""

from __future__ import annotations

import importlib

from .core.registry import register

GAME_PACKAGES: tuple[str, ...] = ("domain.carcassonne", "domain.heaven_and_ale", "domain.tiefenthal")


def load_games() -> None:
    """Import every game package and register its ``GAME`` (idempotent)."""
    for name in GAME_PACKAGES:
        register(importlib.import_module(name).GAME)
