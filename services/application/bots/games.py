"""Per-game bot adapters: the games declare them (``Game.bot_support()``), the bots look them up here.

A game's :class:`~domain.core.capabilities.BotSupport` names its ``state_from_view`` (samples what the
seat cannot see), its ``evaluate(state, seat)`` (estimated margin over the best opponent), an optional
pruning of the legal commands and its search settings. No game is named here: adding a game's bots is
done in its own package.
"""

from __future__ import annotations

from domain.core.capabilities import THREE_TURNS, WHOLE_TURN, BotSupport, Evaluate, StateFromView
from domain.core.registry import UnknownGame, get_game

BotGame = BotSupport
"""The bots' name for a game's :class:`~domain.core.capabilities.BotSupport`."""


def bot_game(game_id: str) -> BotGame | None:
    """The adapter of ``game_id``, or None when the game declares no bot support (bots then play randomly)."""
    try:
        return get_game(game_id).bot_support()
    except UnknownGame:
        return None


__all__ = ["THREE_TURNS", "WHOLE_TURN", "BotGame", "Evaluate", "StateFromView", "bot_game"]
