"""The River option (carcassonne.md §6): spring first, river tiles extend the river, no U-turns, lake last."""

from __future__ import annotations

from domain.carcassonne import GAME
from domain.carcassonne.messages import PlaceTile
from domain.carcassonne.tiles import fitting_rotations

from .helpers import Table


def _positions(t: Table) -> set[tuple[int, int, int]]:
    return {(c.x, c.y, c.rotation) for c in GAME.legal_commands(t.state, t.seat) if isinstance(c, PlaceTile)}


def test_river_tiles_extend_the_open_end_without_u_turns() -> None:
    t = Table(["U", "B"], hills_and_sheep=False, river=["RV_STRAIGHT", "RV_CURVE", "RV_CURVE"])
    assert t.state.placements == [(0, 0, "RV_SPRING", 0)]
    assert t.state.current_tile == "RV_STRAIGHT"
    assert _positions(t) == {(1, 0, 0), (1, 0, 2)}  # only at the open end, river facing back
    t.turn(1, 0, 0)
    assert _positions(t) == {(2, 0, 0), (2, 0, 1)}  # a curve may turn either way first
    t.turn(2, 0, 0)                                  # turn right: the river now flows south
    assert _positions(t) == {(2, -1, 2)}            # the next curve must turn left
    t.turn(2, -1, 2)
    assert t.state.current_tile == "RV_LAKE"
    assert _positions(t) == {(3, -1, 0)}
    t.turn(3, -1, 0)
    assert t.state.river_end is None
    assert t.state.current_tile == "U"
    # land tiles now go anywhere they fit, never against a river edge
    assert len({(x, y) for x, y, _ in _positions(t)}) > 3
    assert fitting_rotations("U", "I...") == ()


def test_river_roads_and_fields_are_normal_features() -> None:
    t = Table(["U"], hills_and_sheep=False, river=["RV_RIRI"])
    t.place(1, 0, 1)                           # river turned W-E; the crossing road now runs N-S
    t.follower("r0")
    t.turn(2, 0, 0)                            # the lake closes the river
    assert t.state.river_end is None
    t.turn(1, 1, 1)                            # a land road continues the crossing road north
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["roads"] == 2
    # the river splits the tile's fields, but they meet again round the spring (west) and the lake (east);
    # the crossing road keeps east and west apart
    assert t.root(1, 0, "f0") == t.root(1, 0, "f1") == t.root(2, 0, "f0")
    assert t.root(1, 0, "f2") == t.root(1, 0, "f3") == t.root(0, 0, "f0")
    assert t.root(1, 0, "f0") != t.root(1, 0, "f3")
