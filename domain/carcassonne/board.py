"""Tile placement and incremental feature tracking (carcassonne.md §3.3, §5.2, §6).

Features are a union-find over (placement, local feature) nodes where every
node knows its root directly and each root keeps its member list (small lists
merge into large ones), so lookups never mutate state and replay compares
equal. A root's ``open`` counts its unmatched connection points: a city or
road is complete and a field closed when it reaches 0.
"""

from __future__ import annotations

from .rules import RIVER_ALTERNATE_CURVES
from .state import CarcassonneState
from .tiles import ANY, FITS, STEP, TILES, Rotated, fitting_rotations


def rotated_at(state: CarcassonneState, placement: int) -> Rotated:
    _, _, tile, rot = state.placements[placement]
    return TILES[tile].rotations[rot]


def _union(state: CarcassonneState, a: int, b: int) -> None:
    root = state.root
    ra, rb = root[a], root[b]
    if ra == rb:
        return
    members = state.members
    if len(members[ra]) < len(members[rb]):
        ra, rb = rb, ra
    moved = members[rb]
    for n in moved:
        root[n] = ra
    members[ra].extend(moved)
    members[rb] = []
    state.open[ra] += state.open[rb]
    state.occupied[ra] += state.occupied[rb]


def place_tile(state: CarcassonneState, x: int, y: int, tile: str, rotation: int) -> int:
    """Put a tile on the board, merge its features with its neighbours'; returns the placement id."""
    rt = TILES[tile].rotations[rotation]
    idx = len(state.placements)
    state.placements.append((x, y, tile, rotation))
    state.board[(x, y)] = idx
    base = len(state.root)
    state.tile_base.append(base)
    for i, f in enumerate(rt.features):
        n = base + i
        state.root.append(n)
        state.kind.append(f.kind)
        state.node_tile.append(idx)
        state.node_local.append(i)
        state.open.append(f.points)
        state.members.append([n])
        state.occupied.append(0)
    frontier = state.frontier
    frontier.pop((x, y), None)
    for e in range(4):
        dx, dy = STEP[e]
        cell = (x + dx, y + dy)
        j = state.board.get(cell)
        if j is None:
            o = (e + 2) % 4
            sig = frontier.get(cell, ANY * 4)
            frontier[cell] = sig[:o] + rt.edges[e] + sig[o + 1:]
        else:
            _join_edge(state, rt, base, e, j)
    if rt.rivers and state.river_end is not None:
        _advance_river(state, x, y, rt)
    return idx


def _join(state: CarcassonneState, a: int, b: int) -> None:
    """Two feature nodes meet across an edge: each loses an open side, and they become one feature."""
    root, open_ = state.root, state.open
    open_[root[a]] -= 1
    open_[root[b]] -= 1
    _union(state, a, b)


def _join_edge(state: CarcassonneState, rt: Rotated, base: int, e: int, j: int) -> None:
    """Merge the new tile's features on edge ``e`` with those of placement ``j`` across it."""
    other = rotated_at(state, j)
    obase = state.tile_base[j]
    o = (e + 2) % 4
    mine = rt.cities_at[e]
    if mine:  # a city edge: every city part of one side touches every one of the other (counted once each)
        root, open_ = state.root, state.open
        theirs = other.cities_at[o]
        for a in mine:
            open_[root[base + a]] -= 1
        for b in theirs:
            open_[root[obase + b]] -= 1
        for a in mine:
            for b in theirs:
                _union(state, base + a, obase + b)
        return
    a = rt.road_at[e]
    b = other.road_at[o]
    if a >= 0 and b >= 0:
        _join(state, base + a, obase + b)
    for ha, hb in ((2 * e, 2 * o + 1), (2 * e + 1, 2 * o)):
        a = rt.field_at[ha]
        b = other.field_at[hb]
        if a >= 0 and b >= 0:
            _join(state, base + a, obase + b)


def _advance_river(state: CarcassonneState, x: int, y: int, rt: Rotated) -> None:
    """Move the open river end past the river tile just placed (§6)."""
    _, _, back = state.river_end  # type: ignore[misc]
    exits = [e for e in rt.rivers if e != back]
    if not exits:
        state.river_end = None  # the lake closes the river
        return
    out = exits[0]
    turn = (out - (back + 2)) % 4
    if turn:
        state.last_curve = turn
    dx, dy = STEP[out]
    state.river_end = (x + dx, y + dy, (out + 2) % 4)


def start_river(state: CarcassonneState, x: int, y: int, rt: Rotated) -> None:
    """After the spring: the river must continue out of its river edge."""
    out = rt.rivers[0]
    dx, dy = STEP[out]
    state.river_end = (x + dx, y + dy, (out + 2) % 4)


def _river_ok(state: CarcassonneState, tile: str, rotation: int) -> bool:
    _, _, back = state.river_end  # type: ignore[misc]
    rt = TILES[tile].rotations[rotation]
    if back not in rt.rivers:
        return False
    if RIVER_ALTERNATE_CURVES and len(rt.rivers) == 2:
        out = rt.rivers[0] if rt.rivers[1] == back else rt.rivers[1]
        turn = (out - (back + 2)) % 4
        if turn and turn == state.last_curve:
            return False
    return True


def placements(state: CarcassonneState, tile: str) -> list[tuple[int, int, int]]:
    """Every legal (x, y, rotation) for ``tile`` now, open cells in frontier order (§5.2; river tiles extend the
    river, §6). A list built by one comprehension: listing the legal commands walks it whole anyway."""
    if state.river_end is not None:
        x, y, _ = state.river_end
        sig = state.frontier.get((x, y))
        if sig is None:
            return []
        return [(x, y, r) for r in fitting_rotations(tile, sig) if _river_ok(state, tile, r)]
    fits = FITS[tile]
    return [(x, y, r) for (x, y), sig in state.frontier.items() for r in fits.get(sig, ())]


def can_place(state: CarcassonneState, tile: str, x: int, y: int, rotation: int) -> bool:
    """Membership test of :func:`placements` without generating them all."""
    sig = state.frontier.get((x, y))
    if sig is None or rotation not in fitting_rotations(tile, sig):
        return False
    if state.river_end is not None:
        return (x, y) == state.river_end[:2] and _river_ok(state, tile, rotation)
    return True


def is_placeable(state: CarcassonneState, tile: str) -> bool:
    """:func:`placements` is not empty, found without listing them: some open cell's signature fits."""
    if state.river_end is not None:
        return bool(placements(state, tile))
    fits = FITS[tile]  # holds only signatures that some rotation fits
    return any(sig in fits for sig in state.frontier.values())


def tile_nodes(state: CarcassonneState, placement: int) -> range:
    base = state.tile_base[placement]
    return range(base, base + len(rotated_at(state, placement).features))


def feature_tiles(state: CarcassonneState, root: int) -> int:
    """Distinct tiles of a feature (a tile holding two segments counts once, §3.3.5)."""
    return len({state.node_tile[n] for n in state.members[root]})


def feature_pennants(state: CarcassonneState, root: int) -> int:
    total = 0
    for n in state.members[root]:
        total += rotated_at(state, state.node_tile[n]).features[state.node_local[n]].pennants
    return total


def field_cities(state: CarcassonneState, root: int) -> set[int]:
    """Roots of the cities a field touches (§3.3.4)."""
    out: set[int] = set()
    for n in state.members[root]:
        f = rotated_at(state, state.node_tile[n]).features[state.node_local[n]]
        if f.cities:
            base = state.tile_base[state.node_tile[n]]
            for c in f.cities:
                out.add(state.root[base + c])
    return out


AROUND = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
"""The offsets of the 8 cells around a cell."""


def neighbours8(state: CarcassonneState, x: int, y: int) -> list[int]:
    """Placements in the 8 cells around (x, y) (a list: every caller walks or counts them all)."""
    board = state.board
    return [j for dx, dy in AROUND if (j := board.get((x + dx, y + dy))) is not None]


def node_of(state: CarcassonneState, x: int, y: int, local_id: str) -> int | None:
    """The node of feature ``local_id`` of the tile at (x, y), or None."""
    j = state.board.get((x, y))
    if j is None:
        return None
    i = TILES[state.placements[j][2]].local_index.get(local_id)
    return None if i is None else state.tile_base[j] + i


def describe(state: CarcassonneState, node: int) -> tuple[int, int, str]:
    """(x, y, local feature id) of a node."""
    j = state.node_tile[node]
    x, y, _, _ = state.placements[j]
    return x, y, rotated_at(state, j).features[state.node_local[node]].local_id

