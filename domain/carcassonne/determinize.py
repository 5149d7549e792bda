"""Rebuild a full state from one seat's view, sampling what the seat cannot see (for search bots).

The view shows the whole board in placement order, every figure, the bag, the
scores and ``unseen_tiles`` (the stacks pooled with the face-down tiles under
hills). Replaying the placements rebuilds the feature union-find, the frontier
and the river exactly as the game did; the only hidden fact, which of the
unseen tiles lie under hills, is dealt afresh from ``rng``. The drawn tile is in the view (shown to
all by default); only under the ``DRAWN_TILE_PRIVATE`` house rule does another seat's view hide it, and
then it is dealt afresh too (``unseen_tiles`` pools it).

Public facts the view does not carry and this module infers:
``shepherd_placed`` (true only when a shepherd was placed this turn; with
``SHEPHERD_WOLF_ENDS_FIGURE_STEP`` the figure step ends at once, so a
state in the FIGURE or PLACE phase never has it set, and in TEND it is false
by construction) and ``last_curve`` (recomputed by replaying the river).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.core import REDACTED
from domain.core.views import parse_view

from .board import place_tile, start_river
from .state import CarcassonneState
from .tiles import LAKE, SPRING, TILES, tile_counts
from .view_models import SeatView

_RIVER_TILES = frozenset(tile_counts("river", False)) | frozenset(tile_counts("river", True))


def state_from_view(view: dict[str, Any], seat: int, rng: random.Random,
                    legal: Sequence[Any] | None = None) -> CarcassonneState:
    """A state consistent with seat ``seat``'s ``view``; burials sampled from ``rng`` (``legal`` unused)."""
    v = parse_view(SeatView, view)
    s = CarcassonneState.new(v.players, v.options.hills_and_sheep, v.options.river, v.options.abbot)
    for i, cell in enumerate(v.board):
        place_tile(s, cell.x, cell.y, cell.tile, cell.rotation)
        if i == 0 and cell.tile == SPRING:
            start_river(s, cell.x, cell.y, TILES[SPRING].rotations[0])
    if v.river_end is None:
        s.river_end = None
    s.current_tile = _deal_tiles(s, v, rng)
    s.discarded = list(v.discarded)
    # -- turn
    s.phase = v.phase
    s.turn_seat = v.turn
    s.turns = v.turns
    s.placed = s.board[(v.last_placed.x, v.last_placed.y)] if v.last_placed else -1
    _figures(s, v)
    s.supply = [p.followers for p in v.supply]
    if s.hills_and_sheep:
        bag = v.bag or {}
        s.bag = [bag.get("wolf" if value == 0 else f"sheep_{value}", 0) for value in range(5)]
    s.scores = list(v.scores)
    s.breakdown = [dict(b) for b in v.breakdown]
    return s


def _deal_tiles(s: CarcassonneState, v: SeatView, rng: random.Random) -> str | None:
    """The stacks and the buried tiles are pooled in the view: deal the burials (and a hidden draw) afresh;
    the drawn tile."""
    unseen = dict(v.unseen_tiles)
    lake = unseen.pop(LAKE, 0)
    river = {t: n for t, n in unseen.items() if t in _RIVER_TILES and n > 0}
    main = sorted(t for t, n in unseen.items() if t not in _RIVER_TILES for _ in range(n))
    rng.shuffle(main)
    drawn = v.tile
    if drawn == REDACTED:  # another seat's draw: a tile from the pool the game would draw from now
        drawn, river, lake = _hidden_draw(v, rng, river, lake, main)
    s.lake_pending = lake > 0
    s.buried = main[:v.buried_count]
    remaining: dict[str, int] = {}
    for tile in sorted(main[v.buried_count:]):
        remaining[tile] = remaining.get(tile, 0) + 1
    s.remaining = remaining
    s.river_remaining = river
    return drawn


def _hidden_draw(v: SeatView, rng: random.Random, river: dict[str, int], lake: int,
                 main: list[str]) -> tuple[str, dict[str, int], int]:
    """A tile for another seat's unseen draw, from the pool the game draws from now (the river first, then the
    lake, then the shuffled main stack, from which it is popped); the river and lake counts left."""
    if river:
        pool = sorted(t for t, n in river.items() for _ in range(n))
        drawn = pool[rng.randrange(len(pool))]
        river[drawn] -= 1
        return drawn, {t: n for t, n in river.items() if n}, lake
    if lake and v.river_end is not None:
        return LAKE, river, 0
    return main.pop(), river, lake


def _figures(s: CarcassonneState, v: SeatView) -> None:
    for f in v.followers:
        node = _node(s, f.x, f.y, f.feature)
        s.followers[node] = f.seat
        s.occupied[s.root[node]] += 1
    for sh in v.shepherds:
        s.shepherds[sh.seat] = _node(s, sh.x, sh.y, sh.feature)
        s.flocks[sh.seat] = list(sh.flock)
    for a in v.abbots:
        node = _node(s, a.x, a.y, a.feature)
        s.abbots[a.seat] = node
        s.occupied[node] += 1


def _node(s: CarcassonneState, x: int, y: int, local: str) -> int:
    j = s.board[(x, y)]
    return s.tile_base[j] + TILES[s.placements[j][2]].local_index[local]
