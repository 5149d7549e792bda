"""The games the shared tests play: every game of the catalog, plus the test fixture game by the same path.

Shared tests (the decider contract, the determinize round trip, the golden playthroughs, the perft counts)
iterate over :func:`games_under_test` and name no game: a new game is covered once its package is in
``domain/catalog.py``. The fixture game (``tests/fixture_game.py``) is one more package here, loaded and
registered exactly like the real ones, so the shared path is proven to need nothing else.
"""

from __future__ import annotations

from typing import Any

from domain.catalog import GAME_PACKAGES, load_games
from domain.core.game import Game

FIXTURE_PACKAGES: tuple[str, ...] = ("tests.fixture_game",)


def games_under_test() -> list[Game]:
    return load_games(GAME_PACKAGES + FIXTURE_PACKAGES)


def flipped_options(game: Game) -> dict[str, Any]:
    """Every boolean option away from its default (the expansions on, a variant rule off)."""
    return {name: not field.default for name, field in game.Options.model_fields.items() if field.annotation is bool}


def ids(games: list[Game]) -> list[str]:
    return [g.id for g in games]
