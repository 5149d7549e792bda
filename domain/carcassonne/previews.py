"""What each legal placement of the drawn tile would complete, for the seat placing it (the view's
``completions``): a client says "placing here completes the city: 8 points" without knowing the rules.

Each placement is tried on a copy of the state with the engine's own :func:`board.place_tile` and valued with
:func:`scoring.feature_value`, so the preview and the move agree by construction. Only the seat to act gets it
(it names the drawn tile's effects, which under the hidden-draw house rule only that seat may know).
"""

from __future__ import annotations

from typing import Any

from .board import AROUND, neighbours8, place_tile, placements, rotated_at, tile_nodes
from .scoring import abbots_in, feature_value, followers_in, winners
from .state import PLACE, VIEW_CACHE, CarcassonneState
from .tiles import CITY, KIND_NAMES, MONASTERY, ROAD, STEP, TILES, Rotated


def _completed(trial: CarcassonneState, placement: int) -> list[dict[str, Any]]:
    """Roads and cities the tile closes, occupied or not (one nobody holds may still be claimed with this turn's
    figure), and monasteries or gardens it surrounds: its own, and those around it that hold a figure (one that
    holds none scores for nobody and cannot be claimed any more)."""
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    root, open_ = trial.root, trial.open
    for n in tile_nodes(trial, placement):
        r = root[n]
        if trial.kind[n] in (CITY, ROAD) and r not in seen and open_[r] == 0:
            seen.add(r)
            out.append(_entry(trial, r))
    x, y, _, _ = trial.placements[placement]
    for j in [placement, *neighbours8(trial, x, y)]:
        mx, my, _, _ = trial.placements[j]
        if len(neighbours8(trial, mx, my)) != 8:
            continue
        rt = rotated_at(trial, j)
        for i, f in enumerate(rt.features):
            node = trial.tile_base[j] + i
            if f.kind >= MONASTERY and (j == placement or trial.occupied[node]):
                out.append(_entry(trial, node))
    return out


def _may_complete(state: CarcassonneState, rt: Rotated, x: int, y: int, closing: set[tuple[int, int]]) -> bool:
    """A cheap test that never misses: a road or city of the tile meets a placed tile on each of its edges and
    takes the last open ends of every feature it meets, or the tile's own monastery or garden gets its eighth
    neighbour, or one around it with a figure does (``closing``: :func:`_closing_cells`)."""
    if (x, y) in closing:
        return True
    if any(f.kind >= MONASTERY for f in rt.features) and len(neighbours8(state, x, y)) == 8:
        return True
    board = state.board
    for f in rt.features:
        if f.kind not in (CITY, ROAD):
            continue
        facing = [board.get((x + STEP[e][0], y + STEP[e][1])) for e in f.edges]
        if None not in facing and _closes_all_it_meets(state, f.kind, f.edges, facing):
            return True
    return False


def _closing_cells(state: CarcassonneState) -> set[tuple[int, int]]:
    """The cells where any tile gives a monastery or garden holding a figure its eighth neighbour: the one empty
    cell around such a feature's tile when seven are placed (worked out once per preview, not per placement)."""
    out: set[tuple[int, int]] = set()
    board, placements_, node_tile = state.board, state.placements, state.node_tile
    for n, (kind, occupied) in enumerate(zip(state.kind, state.occupied, strict=True)):
        if kind >= MONASTERY and occupied:
            x, y, _, _ = placements_[node_tile[n]]
            empty = [(x + dx, y + dy) for dx, dy in AROUND if (x + dx, y + dy) not in board]
            if len(empty) == 1:
                out.add(empty[0])
    return out


def _closes_all_it_meets(state: CarcassonneState, kind: int, edges: tuple[int, ...], facing: list[int | None]) -> bool:
    """Whether every road or city a feature of the new tile meets (each edge facing a placed tile) loses its last
    open ends to it: each connection takes one open end of each segment across the edge, as
    :func:`board.place_tile` counts them. Without that the merged feature stays open (its parts' open ends only
    add up), so this is necessary for closing; for a road it is also enough."""
    taken: dict[int, int] = {}
    for e, j in zip(edges, facing, strict=True):
        assert j is not None
        other = rotated_at(state, j)
        o = (e + 2) % 4
        theirs = other.cities_at[o] if kind == CITY else (other.road_at[o],) if other.road_at[o] >= 0 else ()
        if not theirs:
            return False
        base = state.tile_base[j]
        for b in theirs:
            r = state.root[base + b]
            taken[r] = taken.get(r, 0) + 1
    return all(state.open[r] == n for r, n in taken.items())


def _entry(trial: CarcassonneState, root: int) -> dict[str, Any]:
    points, _, tiles = feature_value(trial, root, completed=True)
    figures = followers_in(trial, root) + (abbots_in(trial, root) if trial.abbots else [])
    return {"kind": KIND_NAMES[trial.kind[root]], "tiles": tiles, "points": points,
            "winners": winners(trial, figures)}


_GROWN = ("placements", "tile_base", "root", "kind", "node_tile", "node_local", "open", "occupied")
"""The lists :func:`board.place_tile` appends to or changes (besides ``members``, ``board`` and ``frontier``)."""


def _trial(state: CarcassonneState, x: int, y: int) -> CarcassonneState:
    """A copy of ``state`` good for placing one tile at (x, y) and reading the result: what ``place_tile``
    changes is copied (of ``members`` only the lists of the features around the cell, the only ones a union
    there extends); the rest is shared, read-only. Cheaper than :meth:`CarcassonneState.copy`, which copies
    every member list."""
    trial = object.__new__(CarcassonneState)
    d = dict(state.__dict__)
    d.pop(VIEW_CACHE, None)
    for name in _GROWN:
        d[name] = d[name][:]
    d["board"] = state.board.copy()
    d["frontier"] = state.frontier.copy()
    members = d["members"] = state.members[:]
    root = state.root
    for dx, dy in STEP:
        j = state.board.get((x + dx, y + dy))
        if j is not None:
            base = state.tile_base[j]
            for n in range(base, base + len(rotated_at(state, j).features)):
                r = root[n]
                members[r] = state.members[r][:]
    trial.__dict__.update(d)
    return trial


def completions(state: CarcassonneState) -> list[dict[str, Any]]:
    """``[{x, y, rotation, completes: [{kind, tiles, points, winners}]}]`` for the placements of the drawn tile
    that complete something (the others complete nothing); empty outside the place phase."""
    tile = state.current_tile
    if state.phase != PLACE or tile is None:
        return []
    out = []
    closing = _closing_cells(state)
    rotations = TILES[tile].rotations
    for x, y, rotation in placements(state, tile):
        if not _may_complete(state, rotations[rotation], x, y, closing):
            continue  # most placements: tried on a copy only when something could close
        trial = _trial(state, x, y)
        done = _completed(trial, place_tile(trial, x, y, tile, rotation))
        if done:
            out.append({"x": x, "y": y, "rotation": rotation, "completes": done})
    return out
