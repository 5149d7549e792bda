"""The static description a client needs to draw every tile type, built from the engine's own tile data.

There is one source of truth: :data:`tiles.TILES` (from ``tiledefs.py``). This
module only re-shapes it into plain JSON, in rotation 0, with the conventions a
client needs to turn and place tiles (edge and half-edge order, rotation sense,
which way is north). It names no rule beyond the geometry.
"""

from __future__ import annotations

from typing import Any

from .rules import FOLLOWERS_PER_PLAYER
from .tiledefs import SHEEP_TOKENS
from .tiles import CITY, EDGES, FIELD, HALVES, KIND_NAMES, ROAD, START_TILE, TILES, TileType

CONVENTIONS: dict[str, Any] = {
    "edges": list(EDGES),
    "halves": list(HALVES),
    "halves_note": "half-edges run clockwise from the north-west corner: NL is the west half of the north "
                   "edge, NR its east half, EL the north half of the east edge, and so on",
    "rotation": "quarter turns clockwise; edge e of rotation 0 lies at (e + r) % 4, half h at (h + 2r) % 8",
    "north": "y + 1",
    "shared_edges": "a city's shared edges are edges it shares with another city of the same tile "
                    "(each city holds the half next to its own edges)",
}


def _tile(tile: TileType) -> dict[str, Any]:
    spec = tile.spec
    features: list[dict[str, Any]] = []
    for f in tile.rotations[0].features:
        entry: dict[str, Any] = {"id": f.local_id, "kind": KIND_NAMES[f.kind]}
        if f.kind in (CITY, ROAD):
            entry["edges"] = [EDGES[e] for e in f.edges]
        if f.kind == CITY:
            own = spec.cities[int(f.local_id[1:])]
            entry["edges"] = list(own.edges)
            entry["shared_edges"] = list(own.shared)
            entry["pennants"] = f.pennants
        if f.kind == FIELD:
            entry["halves"] = [HALVES[h] for h in f.halves]
            entry["cities"] = [f"c{c}" for c in f.cities]
        features.append(entry)
    return {
        "id": spec.id,
        "name": spec.name,
        "expansion": spec.expansion,
        "copies": spec.copies,
        "edges": spec.edges,
        "features": features,
        "river": sorted({e for r in spec.rivers for e in r}, key=EDGES.index),
        "river_role": spec.river_role or None,
        "hill": spec.hill,
        "vineyard": spec.vineyard,
        "garden": spec.garden,
        "start": tile.id == START_TILE,
    }


def describe_game() -> dict[str, Any]:
    """Every tile type (the garden copies of the Abbot included), the conventions and the figure supply."""
    return {
        "game": "carcassonne",
        "conventions": CONVENTIONS,
        "tiles": {tile_id: _tile(tile) for tile_id, tile in sorted(TILES.items())},
        "edge_codes": {"C": "city", "R": "road", "F": "field", "I": "river"},
        "supply": {"followers": FOLLOWERS_PER_PLAYER, "abbot": 1, "shepherd": 1},
        "sheep_tokens": {("wolf" if v == 0 else f"sheep_{v}"): n for v, n in SHEEP_TOKENS.items()},
    }
