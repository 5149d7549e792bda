"""The static description clients draw from, and the view's features: both built from the engine's own data."""

from __future__ import annotations

import json

from domain.carcassonne import GAME
from domain.carcassonne.tiles import EDGES, HALVES, KIND_NAMES, TILES

from .helpers import Table


def _turn(feature: dict, r: int) -> tuple[set[int], set[int]]:
    """Edges and half-edges of a described feature turned by ``r``, as the description's conventions say."""
    edges = {(EDGES.index(e) + r) % 4 for e in feature.get("edges", []) + feature.get("shared_edges", [])}
    halves = {(HALVES.index(h) + 2 * r) % 8 for h in feature.get("halves", [])}
    return edges, halves


def test_description_covers_every_tile_type_and_matches_every_rotation() -> None:
    description = GAME.description()
    json.dumps(description)
    assert set(description["tiles"]) == set(TILES)
    assert description["conventions"]["edges"] == list(EDGES) and description["conventions"]["halves"] == list(HALVES)
    for tile_id, tile in TILES.items():
        described = description["tiles"][tile_id]
        assert described["edges"] == tile.rotations[0].edges
        for rotated in tile.rotations:
            assert len(described["features"]) == len(rotated.features)
            for entry, feature in zip(described["features"], rotated.features):
                assert entry["id"] == feature.local_id and entry["kind"] == KIND_NAMES[feature.kind]
                edges, halves = _turn(entry, rotated.rotation)
                assert edges == set(feature.edges) and halves == set(feature.halves)
            rivers = {(EDGES.index(e) + rotated.rotation) % 4 for e in described["river"]}
            assert rivers == set(rotated.rivers)


def test_description_marks_what_a_tile_shows() -> None:
    tiles = GAME.description()["tiles"]
    assert tiles["D"]["start"] and not tiles["E"]["start"]
    assert [f.get("pennants") for f in tiles["C"]["features"]] == [1]
    assert tiles["HS_CFC_H"]["hill"] and tiles["HS_CFC_V"]["vineyard"] and tiles["E_G"]["garden"]
    assert tiles["RV_CURVE"]["river"] == ["S", "W"] and tiles["RV_SPRING"]["river_role"] == "spring"
    multi = {f["id"]: f for f in tiles["HS_CC_V_MULTI"]["features"]}
    assert multi["c1"]["edges"] == ["E"] and multi["c1"]["shared_edges"] == ["N"]
    assert [f["kind"] for f in tiles["A"]["features"]] == ["road", "field", "monastery"]


def test_view_lists_the_features_figures_could_still_score() -> None:
    table = Table(["U", "V", "E"])
    table.place(1, 0, 0)  # a straight road W-E continues the start tile's road
    table.follower("r0")
    view = GAME.view(table.state, None)
    road = next(f for f in view["features"] if f["figures"])
    assert road == {"kind": "road", "parts": [[0, 0, "r0"], [1, 0, "r0"]], "complete": False, "tiles": 2,
                    "points": 2, "figures": [{"seat": 0, "figure": "follower", "at": [1, 0, "r0"]}], "leaders": [0]}
    # the last tile's own features are listed too, so a client can show what the turn joined
    parts = {tuple(p) for f in view["features"] for p in f["parts"]}
    assert {(1, 0, "r0"), (1, 0, "f0"), (1, 0, "f1")} <= parts


def test_view_fields_carry_shepherds_and_their_sheep() -> None:
    table = Table(["U", "V", "E"])
    table.place(1, 0, 0)
    table.shepherd("f0", token=3)
    field = next(f for f in GAME.view(table.state, 1)["features"] if f.get("shepherds"))
    assert field["kind"] == "field" and field["shepherds"] == [0] and field["sheep"] == 3
    assert [1, 0, "f0"] in field["parts"] and field["figures"] == []
