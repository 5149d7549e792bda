"""The game state: board, union-find of features, supplies, bag and scores."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core.codec import TupleKeyed

from .rules import FOLLOWERS_PER_PLAYER

CATEGORIES = ("roads", "cities", "monasteries", "vineyards", "gardens", "fields", "sheep")
"""Score breakdown categories, in display order."""

PLACE, FIGURE, TEND, OVER = "place", "figure", "tend", "over"
"""Turn phases: place the drawn tile, place a figure (or pass), tend the flock, game over."""

VIEW_CACHE = "_view_cache"
"""The attribute (no dataclass field) where the views keep what they reuse along the state's history
(``view._ViewCache``); a copy leaves it behind."""


@dataclass
class CarcassonneState:
    """Everything the game knows. ``remaining``, ``river_remaining`` and ``buried`` are hidden from views."""

    players: int
    hills_and_sheep: bool
    river: bool
    abbot: bool = False
    # -- board ---------------------------------------------------------------
    placements: list[tuple[int, int, str, int]] = field(default_factory=list)
    """(x, y, tile, rotation) in placement order; the index is the placement id."""
    board: TupleKeyed[dict[tuple[int, int], int]] = field(default_factory=dict)
    frontier: TupleKeyed[dict[tuple[int, int], str]] = field(default_factory=dict)
    """Empty cells next to a tile -> edge signature (N, E, S, W; ``.`` where nothing faces)."""
    tile_base: list[int] = field(default_factory=list)
    """First feature node of each placement; its features are nodes base + local index."""
    # -- features (union-find with member lists; root[n] is always the root) -
    root: list[int] = field(default_factory=list)
    kind: list[int] = field(default_factory=list)
    node_tile: list[int] = field(default_factory=list)
    node_local: list[int] = field(default_factory=list)
    open: list[int] = field(default_factory=list)
    """Per root: unmatched connection points (0 = complete city/road, closed field)."""
    members: list[list[int]] = field(default_factory=list)
    """Per root: its nodes (empty for non-roots)."""
    occupied: list[int] = field(default_factory=list)
    """Per root: followers in the feature (shepherds are not followers)."""
    # -- tiles -----------------------------------------------------------------
    remaining: dict[str, int] = field(default_factory=dict)
    river_remaining: dict[str, int] = field(default_factory=dict)
    lake_pending: bool = False
    buried: list[str] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    river_end: tuple[int, int, int] | None = None
    """River phase: the cell to fill and the edge of it that must be river."""
    last_curve: int = 0
    # -- turn ------------------------------------------------------------------
    phase: str = PLACE
    turn_seat: int = 0
    current_tile: str | None = None
    placed: int = -1
    """Placement id of the tile placed this turn (figures go only there)."""
    shepherd_placed: bool = False
    turns: int = 0
    # -- figures ---------------------------------------------------------------
    followers: dict[int, int] = field(default_factory=dict)
    """Node -> seat of each follower on the board."""
    supply: list[int] = field(default_factory=list)
    shepherds: dict[int, int] = field(default_factory=dict)
    """Seat -> node of each shepherd on the board."""
    flocks: dict[int, list[int]] = field(default_factory=dict)
    abbots: dict[int, int] = field(default_factory=dict)
    """Seat -> node (monastery or garden) of each abbot on the board."""
    bag: list[int] = field(default_factory=list)
    """Token value -> count in the bag (0 = wolf)."""
    # -- scores ----------------------------------------------------------------
    scores: list[int] = field(default_factory=list)
    breakdown: list[dict[str, int]] = field(default_factory=list)

    @classmethod
    def new(cls, players: int, hills_and_sheep: bool, river: bool, abbot: bool = False) -> CarcassonneState:
        return cls(players=players, hills_and_sheep=hills_and_sheep, river=river, abbot=abbot,
                   supply=[FOLLOWERS_PER_PLAYER] * players, scores=[0] * players,
                   breakdown=[{c: 0 for c in CATEGORIES} for _ in range(players)])

    def copy(self) -> CarcassonneState:
        """A fast independent copy (bots branch thousands of times)."""
        new = object.__new__(CarcassonneState)
        d = dict(self.__dict__)
        d.pop(VIEW_CACHE, None)  # the views' cache follows this object's history, not the copy's
        for name in ("placements", "tile_base", "root", "kind", "node_tile", "node_local", "open",
                     "occupied", "buried", "discarded", "supply", "bag", "scores"):
            d[name] = d[name][:]
        for name in ("board", "frontier", "remaining", "river_remaining", "followers", "shepherds", "abbots"):
            d[name] = d[name].copy()
        d["members"] = [m[:] if m else m for m in self.members]
        d["flocks"] = {k: v[:] for k, v in self.flocks.items()}
        d["breakdown"] = [b.copy() for b in self.breakdown]
        new.__dict__.update(d)
        return new

    clone = copy  # the old name, kept while branches that use it merge (heuristics)

    def tiles_left(self) -> int:
        return sum(self.remaining.values()) + sum(self.river_remaining.values()) + int(self.lake_pending)

    def node(self, placement: int, local: int) -> int:
        return self.tile_base[placement] + local
