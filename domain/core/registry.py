"""The registry of games the service hosts, by id."""

from __future__ import annotations

from typing import Any

from .errors import RuleError
from .game import Game


class UnknownGame(RuleError):
    code = "unknown_game"


_GAMES: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    if game.id in _GAMES and type(_GAMES[game.id]) is not type(game):
        raise ValueError(f"game id {game.id!r} registered twice")
    _GAMES[game.id] = game
    return game


def get_game(game_id: str) -> Game[Any]:
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}; known: {', '.join(sorted(_GAMES)) or 'none'}") from None


def all_games() -> list[Game[Any]]:
    return [_GAMES[k] for k in sorted(_GAMES)]
