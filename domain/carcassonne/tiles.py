"""Tile geometry: rotations, connection slots and edge matching (carcassonne.md §3).

A :class:`Rotated` tile is a tile type turned ``rotation`` quarter turns clockwise,
with every local feature's connection points rotated and indexed per edge, so
placing a tile only looks up small tuples.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .tiledefs import TILE_DEFS, TileDef

EDGES = "NESW"
HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""Board offset of the neighbour across edge N, E, S, W (N is y + 1)."""

CITY, ROAD, FIELD, MONASTERY, GARDEN = 0, 1, 2, 3, 4
KIND_NAMES: tuple[Literal["city"], Literal["road"], Literal["field"], Literal["monastery"], Literal["garden"]] = (
    "city", "road", "field", "monastery", "garden")
MONASTERY_ID = "m"
GARDEN_ID = "g"
GARDEN_SUFFIX = "_G"
"""Tile id suffix of the garden copies of a tile type (the Abbot's gardens, §5.6)."""
ANY = "."
"""Signature character of an edge that faces an empty cell (anything fits)."""


class Feature(NamedTuple):
    """One feature segment of a rotated tile."""

    local_id: str
    kind: int
    edges: tuple[int, ...]
    halves: tuple[int, ...]
    pennants: int
    cities: tuple[int, ...]
    """Local indices of the city segments a field segment borders (farmer scoring, §5.5)."""
    points: int
    """Open connection points at placement: edges (with shared ones) for cities/roads, halves for fields."""


class Rotated(NamedTuple):
    """A tile type in one rotation."""

    tile: str
    rotation: int
    edges: str
    features: tuple[Feature, ...]
    cities_at: tuple[tuple[int, ...], ...]
    road_at: tuple[int, ...]
    field_at: tuple[int, ...]
    rivers: tuple[int, ...]


class TileType(NamedTuple):
    """A tile type with its four rotations."""

    spec: TileDef
    rotations: tuple[Rotated, ...]
    local_index: dict[str, int]

    @property
    def id(self) -> str:
        return self.spec.id


def _edges(text: str) -> tuple[int, ...]:
    return tuple(EDGES.index(c) for c in text)


def _halves(text: str) -> tuple[int, ...]:
    return tuple(HALVES.index(h) for h in text.split())


def _rotated_features(spec: TileDef, r: int) -> list[Feature]:
    """The tile's features with their edges and field halves turned ``r`` quarter turns clockwise."""
    features: list[Feature] = []
    city_ids = [f"c{i}" for i in range(len(spec.cities))]
    for i, c in enumerate(spec.cities):
        own = tuple((e + r) % 4 for e in _edges(c.edges))
        shared = tuple((e + r) % 4 for e in _edges(c.shared))
        features.append(Feature(city_ids[i], CITY, own + shared, (), c.pennants, (), len(own) + len(shared)))
    for i, road in enumerate(spec.roads):
        edges = tuple((e + r) % 4 for e in _edges(road))
        features.append(Feature(f"r{i}", ROAD, edges, (), 0, (), len(edges)))
    for i, fd in enumerate(spec.fields):
        halves = tuple((h + 2 * r) % 8 for h in _halves(fd.halves))
        cities = tuple(city_ids.index(c) for c in fd.cities.split())
        features.append(Feature(f"f{i}", FIELD, (), halves, 0, cities, len(halves)))
    if spec.monastery:
        features.append(Feature(MONASTERY_ID, MONASTERY, (), (), 0, (), 0))
    if spec.garden:
        features.append(Feature(GARDEN_ID, GARDEN, (), (), 0, (), 0))
    return features


def _by_edge(features: list[Feature]) -> tuple[list[list[int]], list[int], list[int]]:
    """Per edge: the cities there and the road there; per half edge: the field there (-1: none)."""
    cities_at: list[list[int]] = [[] for _ in range(4)]
    road_at = [-1] * 4
    field_at = [-1] * 8
    for i, f in enumerate(features):
        if f.kind == CITY:
            for e in f.edges:
                cities_at[e].append(i)
        elif f.kind == ROAD:
            for e in f.edges:
                road_at[e] = i
        elif f.kind == FIELD:
            for h in f.halves:
                field_at[h] = i
    return cities_at, road_at, field_at


def _rotate(spec: TileDef, r: int) -> Rotated:
    features = _rotated_features(spec, r)
    turned = [""] * 4
    for e, ch in enumerate(spec.edges):
        turned[(e + r) % 4] = ch
    cities_at, road_at, field_at = _by_edge(features)
    rivers = tuple(sorted((e + r) % 4 for r_ in spec.rivers for e in _edges(r_)))
    return Rotated(spec.id, r, "".join(turned), tuple(features), tuple(tuple(c) for c in cities_at),
                   tuple(road_at), tuple(field_at), rivers)


def _build(spec: TileDef) -> TileType:
    rotations = tuple(_rotate(spec, r) for r in range(4))
    return TileType(spec, rotations, {f.local_id: i for i, f in enumerate(rotations[0].features)})


def _garden_variant(spec: TileDef) -> TileDef:
    return spec._replace(id=spec.id + GARDEN_SUFFIX, copies=spec.gardens, name=spec.name + ", garden",
                         gardens=0, start=0, garden=True)


ALL_DEFS: tuple[TileDef, ...] = TILE_DEFS + tuple(_garden_variant(d) for d in TILE_DEFS if d.gardens)
TILES: dict[str, TileType] = {d.id: _build(d) for d in ALL_DEFS}
START_TILE = next(d.id for d in TILE_DEFS if d.start)
SPRING = next(d.id for d in TILE_DEFS if d.river_role == "spring")
LAKE = next(d.id for d in TILE_DEFS if d.river_role == "lake")


def tile_counts(expansion: str, gardens: bool = False) -> dict[str, int]:
    """Copies per tile type of one box part (``base``, ``river``, ``hills_and_sheep``).

    With ``gardens`` the garden copies are told apart as ``<id>_G`` types (the Abbot, §5.6).
    """
    counts: dict[str, int] = {}
    for d in TILE_DEFS:
        if d.expansion != expansion:
            continue
        plain = d.copies - (d.gardens if gardens else 0)
        if plain:
            counts[d.id] = plain
        if gardens and d.gardens:
            counts[d.id + GARDEN_SUFFIX] = d.gardens
    return counts


def _fits(tile: TileType) -> dict[str, tuple[int, ...]]:
    """Every edge signature some rotation of ``tile`` fits, with those rotations in order: a rotation fits
    exactly the 16 signatures that blank out (``.``) some of its edges, so the table is complete."""
    out: dict[str, list[int]] = {}
    for rot in tile.rotations:
        for mask in range(16):
            sig = "".join(ANY if mask >> e & 1 else ch for e, ch in enumerate(rot.edges))
            out.setdefault(sig, []).append(rot.rotation)
    return {sig: tuple(rotations) for sig, rotations in out.items()}


FITS: dict[str, dict[str, tuple[int, ...]]] = {tile_id: _fits(tile) for tile_id, tile in TILES.items()}
"""Per tile type: signature -> fitting rotations. Listing the placements looks up every open cell's signature,
and computing a fit on a cache miss cost the first listing of a new signature more than the rest of the list."""


def fitting_rotations(tile: str, signature: str) -> tuple[int, ...]:
    """Rotations of ``tile`` whose edges match ``signature`` (one char per edge, ``.`` = empty) (§5.2)."""
    return FITS[tile].get(signature, ())
