"""The tile set as data: counts (carcassonne.md §4, §8 case 13) and per-tile consistency of edges and features."""

from __future__ import annotations

import itertools

import pytest

from domain.carcassonne.tiledefs import SHEEP_TOKENS, TILE_DEFS
from domain.carcassonne.tiles import ANY, CITY, FIELD, GARDEN, MONASTERY, ROAD, TILES, fitting_rotations, tile_counts


def _count(expansion: str) -> int:
    return sum(tile_counts(expansion).values())


def test_box_counts() -> None:
    assert _count("base") == 72 and len(tile_counts("base")) == 24
    assert _count("river") == 12
    assert _count("hills_and_sheep") == 18 and len(tile_counts("hills_and_sheep")) == 16
    assert sum(d.start for d in TILE_DEFS) == 1 and TILES["D"].spec.start == 1


def test_base_letters_and_counts() -> None:
    expected = dict(A=2, B=4, C=1, D=4, E=5, F=2, G=1, H=3, I=2, J=3, K=3, L=3, M=2, N=3, O=2, P=3, Q=1, R=3,
                    S=2, T=1, U=8, V=9, W=4, X=1)
    assert tile_counts("base") == expected


def test_base_pennants_monasteries_gardens() -> None:
    base = [d for d in TILE_DEFS if d.expansion == "base"]
    assert sum(d.copies * sum(c.pennants for c in d.cities) for d in base) == 10
    assert sum(d.copies for d in base if d.monastery) == 6
    assert sum(d.gardens for d in base) == 8


def test_hills_and_sheep_modifiers() -> None:
    hs = [d for d in TILE_DEFS if d.expansion == "hills_and_sheep"]
    assert sum(d.copies for d in hs if d.hill) == 8
    assert sum(d.copies for d in hs if d.vineyard) == 8
    assert sum(d.copies for d in hs if d.monastery) == 2
    assert not any(c.pennants for d in hs for c in d.cities)


def test_sheep_tokens() -> None:
    assert sum(SHEEP_TOKENS.values()) == 18
    assert sum(v * c for v, c in SHEEP_TOKENS.items()) == 37
    assert SHEEP_TOKENS[0] == 2


def test_garden_copies_with_the_abbot() -> None:
    with_gardens = tile_counts("base", gardens=True)
    assert sum(with_gardens.values()) == 72
    assert sorted(t for t in with_gardens if t.endswith("_G")) == [f"{c}_G" for c in "EHIMNRUV"]
    assert with_gardens["E"] == 4 and with_gardens["E_G"] == 1
    assert tile_counts("river", gardens=True)["RV_CURVE_G"] == 1
    assert tile_counts("hills_and_sheep", gardens=True)["HS_RR_H_G"] == 1
    assert TILES["HS_RR_H_G"].spec.hill  # the garden copy is still a hill
    # a garden copy has the same edges and features as its plain copy, plus the garden
    for tile in with_gardens:
        if tile.endswith("_G"):
            plain, garden = TILES[tile[:-2]].rotations[1], TILES[tile].rotations[1]
            assert garden.edges == plain.edges and garden.features[:-1] == plain.features
            assert garden.features[-1].kind == GARDEN


def test_river_roles() -> None:
    river = [d for d in TILE_DEFS if d.expansion == "river"]
    roles = sorted(d.river_role for d in river for _ in range(d.copies))
    assert roles.count("spring") == 1 and roles.count("lake") == 1 and roles.count("course") == 10


@pytest.mark.parametrize("tile", sorted(TILES))
def test_edges_and_features_agree(tile: str) -> None:
    for rt in TILES[tile].rotations:
        used_halves: list[int] = []
        for f in rt.features:
            used_halves += list(f.halves)
        assert len(used_halves) == len(set(used_halves)), "a half-edge belongs to two fields"
        for e, kind in enumerate(rt.edges):
            halves = (rt.field_at[2 * e], rt.field_at[2 * e + 1])
            if kind == "C":
                assert rt.cities_at[e], f"city edge {e} without a city"
                assert halves == (-1, -1) and rt.road_at[e] == -1
            else:
                assert not rt.cities_at[e]
                assert -1 not in halves, f"{kind} edge {e} has a half without a field"
                assert (rt.road_at[e] >= 0) == (kind == "R")
                assert (e in rt.rivers) == (kind == "I")
        for f in rt.features:
            if f.kind == CITY:
                assert f.points == len(f.edges) and all(rt.edges[e] == "C" for e in f.edges)
            elif f.kind == ROAD:
                assert all(rt.edges[e] == "R" for e in f.edges)
            elif f.kind == FIELD:
                assert f.halves and all(rt.features[c].kind == CITY for c in f.cities)
            elif f.kind == MONASTERY:
                assert f.local_id == "m" and TILES[tile].spec.monastery
            else:
                assert f.kind == GARDEN and f.local_id == "g" and TILES[tile].spec.garden
        # the same number of every feature kind in every rotation, and 4 turns come back home
        assert [f.local_id for f in rt.features] == [f.local_id for f in TILES[tile].rotations[0].features]


@pytest.mark.parametrize("tile", sorted(TILES))
def test_rotation_turns_edges_clockwise(tile: str) -> None:
    r0 = TILES[tile].rotations[0].edges
    for r, rt in enumerate(TILES[tile].rotations):
        assert rt.edges == r0[-r:] + r0[:-r] if r else rt.edges == r0


def test_field_city_adjacency_examples() -> None:
    d = TILES["D"].rotations[0]
    strip, south = d.features[2], d.features[3]
    assert strip.local_id == "f0" and strip.cities == (0,)
    assert south.local_id == "f1" and south.cities == ()


def test_multi_edge_tile_shares_its_north_edge() -> None:
    rt = TILES["HS_CC_V_MULTI"].rotations[0]
    assert rt.cities_at[0] == (0, 1)  # both cities on N
    assert rt.features[1].points == 2  # c1: its own E edge plus the shared N


def test_fitting_rotations() -> None:
    assert fitting_rotations("C", "....") == (0, 1, 2, 3)
    assert fitting_rotations("E", "..C.") == (2,)
    assert fitting_rotations("C", "..F.") == ()


def test_fit_table_answers_the_edge_rule_for_every_signature() -> None:
    """The fit table (one lookup per open cell when listing placements) says what comparing the edges says (§5.2)."""
    chars = sorted({c for tile in TILES.values() for rt in tile.rotations for c in rt.edges} | {ANY})
    for tile_id, tile in TILES.items():
        for signature in map("".join, itertools.product(chars, repeat=4)):
            want = tuple(rt.rotation for rt in tile.rotations
                         if all(s == ANY or s == e for s, e in zip(signature, rt.edges)))
            assert fitting_rotations(tile_id, signature) == want, (tile_id, signature)
