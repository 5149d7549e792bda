"""Knobs of the search bot. Each game declares its own settings in its ``bot_support()``
(:class:`domain.core.capabilities.BotSupport`), chosen by arena runs (``bench/arena.py --set``)."""

from __future__ import annotations

from domain.core.capabilities import (
    DETERMINIZATIONS,
    PLAYOUT_SAMPLE,
    PRIOR_VISITS,
    RACE_MIN_ROUNDS,
    ROOT_WIDTH,
    UCB_C,
    SearchSettings,
)

SearchConfig = SearchSettings
"""The search bot's name for a game's :class:`~domain.core.capabilities.SearchSettings`."""

__all__ = ["DETERMINIZATIONS", "PLAYOUT_SAMPLE", "PRIOR_VISITS", "RACE_MIN_ROUNDS", "ROOT_WIDTH", "UCB_C", "SearchConfig"]
