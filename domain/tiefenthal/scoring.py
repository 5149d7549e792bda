"""End of the Game: victory points on all of a player's cards; ties by stored doubloons plus beer."""

from __future__ import annotations

from fractions import Fraction

from domain.core import Score

from .cards import KIND, VP
from .state import Player, TiefenthalState

CATEGORIES = ("nobles", "guests", "regulars", "tavern_cards")


def breakdown(p: Player) -> dict[str, int | Fraction | float]:
    """VP per kind of card the player owns (deck, discard and tavern)."""
    out: dict[str, int | Fraction | float] = dict.fromkeys(CATEGORIES, 0)
    for card in p.owned_cards():
        kind = KIND[card]
        key = "nobles" if kind == "noble" else "guests" if kind == "guest" else "regulars" if kind == "regular" \
            else "tavern_cards"
        out[key] += VP[card]
    return out


def vp(p: Player) -> int:
    return sum(VP[c] for c in p.owned_cards())


def scores(s: TiefenthalState) -> list[Score]:
    return [Score.of(p.seat, dict(breakdown(p)), tiebreak=[p.safe + p.storage]) for p in s.players]
