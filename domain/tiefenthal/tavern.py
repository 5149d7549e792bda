"""The tavern board: its tiles, their two sides and the action spaces on them (Setup, Phase F).

Everything comes from ``data.TILES``; adding a tile or a space for a later module is
a data change. Guest tables are spaces too: ``table:<i>`` is the i-th occupied table.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import data

TILES: tuple[str, ...] = tuple(data.TILES)
"""Tile ids in board order."""

UPGRADABLE: tuple[str, ...] = tuple(t for t, rec in data.TILES.items() if rec["cost"].value is not None)
"""Tiles that can be flipped in Module 1 (the Host cannot)."""

TILE_VALUES: dict[str, tuple[int, int]] = {t: tuple(rec["values"].value) for t, rec in data.TILES.items()}
TILE_COST: dict[str, int] = {t: rec["cost"].value for t, rec in data.TILES.items() if rec["cost"].value is not None}
DISCOUNT_CARD: dict[str, str] = {t: rec["discount_card"].value for t, rec in data.TILES.items() if "discount_card" in rec}
DISCOUNT: dict[str, int] = {t: rec["discount"].value for t, rec in data.TILES.items() if "discount" in rec}
PER_CARD: dict[str, int] = {t: rec["per_card"].value for t, rec in data.TILES.items() if "per_card" in rec}
"""Extra yield per die for each matching card next to the space (Deliver Beer: +1 per Beer Supplier card)."""
CARDS_COUNT_WHEN_UPGRADED: bool = data.SUPPLIER_CARDS_COUNT_WHEN_UPGRADED.value
"""Whether those cards still add on the upgraded side (RULES_NOTES, readings: the upgraded supplier)."""


def per_card_bonus(tile: str, upgraded: bool) -> int:
    """Extra yield per die for each matching card next to ``tile``'s space on its current side."""
    if upgraded and not CARDS_COUNT_WHEN_UPGRADED:
        return 0
    return PER_CARD.get(tile, 0)


@dataclass(frozen=True)
class Space:
    """An action space on a tile: which die values it takes and how many dice (None = any)."""

    id: str
    dice: frozenset[int]
    limit: int | None
    gives: str  # doubloons | beer | monastery


TILE_SPACES: dict[str, Space] = {
    t: Space(t, frozenset(rec["space"].value["dice"]), rec["space_limit"].value, rec["space"].value["gives"])
    for t, rec in data.TILES.items() if "space" in rec
}
"""The fixed action spaces (cashbox, monk, barrel, supplier); each id is its tile's id."""

TABLE_PREFIX = "table:"


def table_index(space: str) -> int | None:
    """The table index of a ``table:<i>`` space id, else None."""
    if not space.startswith(TABLE_PREFIX):
        return None
    try:
        return int(space[len(TABLE_PREFIX):])
    except ValueError:
        return None


def boost_needed(value: int, accepts: frozenset[int]) -> int | None:
    """Dishwasher steps needed for a die of ``value`` to fit (Phase E: +1 each, never past 6, no wrap)."""
    if value in accepts:
        return 0
    higher = [t for t in accepts if t > value]
    return min(higher) - value if higher else None


def upgrade_price(tile: str, returned: int) -> int:
    """Special offer: base cost less the discount per returned card, never below 0."""
    return max(0, TILE_COST[tile] - DISCOUNT.get(tile, 0) * returned)
