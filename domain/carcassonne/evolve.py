"""Folding events into the state: facts only, no checks, no randomness (the decider's ``evolve``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .board import node_of, place_tile, start_river
from .messages import (
    AbbotPlaced,
    AbbotRecalled,
    FeatureScored,
    FigureSkipped,
    FlockFieldExtended,
    FlockGathered,
    FlockScattered,
    FollowerPlaced,
    GameEnded,
    GameStarted,
    ShepherdPlaced,
    TileBuried,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
    TokenDrawn,
)
from .shepherds import WOLF
from .state import FIGURE, OVER, PLACE, TEND, CarcassonneState
from .tiles import LAKE, SPRING, TILES

CATEGORY_OF = {"road": "roads", "city": "cities", "monastery": "monasteries", "field": "fields", "garden": "gardens"}


def take(stack: dict[str, int], tile: str) -> None:
    """Remove one copy of ``tile`` from a multiset (dropping empty entries)."""
    left = stack[tile] - 1
    if left:
        stack[tile] = left
    else:
        del stack[tile]


def started(e: GameStarted) -> CarcassonneState:
    """The state the first event creates: start tile (or spring) at (0, 0), stacks and bag filled."""
    s = CarcassonneState.new(e.players, e.hills_and_sheep, e.river, e.abbot)
    s.remaining = dict(e.tiles)
    s.river_remaining = dict(e.river_tiles)
    s.lake_pending = e.lake
    s.bag = [e.bag.get(str(v), 0) for v in range(5)]
    place_tile(s, 0, 0, e.start_tile, 0)
    if e.start_tile == SPRING:
        start_river(s, 0, 0, TILES[SPRING].rotations[0])
    return s


def _remove_from_stack(s: CarcassonneState, tile: str) -> None:
    if tile in s.river_remaining:
        take(s.river_remaining, tile)
    elif tile == LAKE and s.lake_pending:
        s.lake_pending = False
    else:
        take(s.remaining, tile)


def _drawn(s: CarcassonneState, e: TileDrawn) -> None:
    _remove_from_stack(s, e.tile)
    s.current_tile = e.tile
    s.turn_seat = e.seat
    s.phase = PLACE
    s.placed = -1
    s.shepherd_placed = False
    s.turns += 1


def _discarded(s: CarcassonneState, e: TileDiscarded) -> None:
    _remove_from_stack(s, e.tile)
    s.discarded.append(e.tile)


def _placed(s: CarcassonneState, e: TilePlaced) -> None:
    s.placed = place_tile(s, e.x, e.y, e.tile, e.rotation)
    s.current_tile = None
    s.phase = FIGURE


def _buried(s: CarcassonneState, e: TileBuried) -> None:
    take(s.remaining, e.tile)
    s.buried.append(e.tile)


def _follower(s: CarcassonneState, e: FollowerPlaced) -> None:
    node = node_of(s, e.x, e.y, e.feature)
    assert node is not None
    s.followers[node] = e.seat
    s.supply[e.seat] -= 1
    s.occupied[s.root[node]] += 1


def _shepherd(s: CarcassonneState, e: ShepherdPlaced) -> None:
    node = node_of(s, e.x, e.y, e.feature)
    assert node is not None
    s.shepherds[e.seat] = node
    s.flocks[e.seat] = []
    s.shepherd_placed = True


def _token(s: CarcassonneState, e: TokenDrawn) -> None:
    if e.token != WOLF:
        s.flocks[e.seat].append(e.token)
        s.bag[e.token] -= 1


def _abbot(s: CarcassonneState, e: AbbotPlaced) -> None:
    node = node_of(s, e.x, e.y, e.feature)
    assert node is not None
    s.abbots[e.seat] = node
    s.occupied[node] += 1


def _recalled(s: CarcassonneState, e: AbbotRecalled) -> None:
    category = "gardens" if e.kind == "garden" else "monasteries"
    s.scores[e.seat] += e.points
    s.breakdown[e.seat][category] += e.points
    node = s.abbots.pop(e.seat)
    s.occupied[node] -= 1


def _extended(s: CarcassonneState, e: FlockFieldExtended) -> None:
    s.phase = TEND


def _home(s: CarcassonneState, seats: list[int], tokens: list[int]) -> None:
    for seat in seats:
        s.shepherds.pop(seat, None)
        s.flocks.pop(seat, None)
    for t in tokens:
        s.bag[t] += 1


def _scattered(s: CarcassonneState, e: FlockScattered) -> None:
    _home(s, e.seats, e.tokens)


def _gathered(s: CarcassonneState, e: FlockGathered) -> None:
    for i, seat in enumerate(e.seats):
        points = e.points if e.shares is None else e.shares[i]
        s.scores[seat] += points
        s.breakdown[seat]["sheep"] += points
    _home(s, e.seats, e.tokens)


def _scored(s: CarcassonneState, e: FeatureScored) -> None:
    category = CATEGORY_OF[e.kind]
    for seat in e.winners:
        s.scores[seat] += e.points
        s.breakdown[seat][category] += e.points - e.bonus
        s.breakdown[seat]["vineyards"] += e.bonus
    for seat, x, y, local in e.returned:
        node = node_of(s, x, y, local)
        assert node is not None
        del s.followers[node]
        s.supply[seat] += 1
        s.occupied[s.root[node]] -= 1
    for seat, _x, _y, _local in e.abbots:
        node = s.abbots.pop(seat)
        s.occupied[node] -= 1


def _ended(s: CarcassonneState, e: GameEnded) -> None:
    s.phase = OVER
    s.current_tile = None


HANDLERS: dict[type, Callable[[CarcassonneState, Any], None]] = {
    TileDrawn: _drawn, TileDiscarded: _discarded, TilePlaced: _placed, TileBuried: _buried,
    FollowerPlaced: _follower, ShepherdPlaced: _shepherd, AbbotPlaced: _abbot, AbbotRecalled: _recalled, FigureSkipped: lambda s, e: None, TokenDrawn: _token,
    FlockFieldExtended: _extended, FlockScattered: _scattered, FlockGathered: _gathered, FeatureScored: _scored,
    GameEnded: _ended,
}
