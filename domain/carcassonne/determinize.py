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

from .board import place_tile, start_river
from .state import CarcassonneState
from .tiles import LAKE, SPRING, TILES, tile_counts

_RIVER_TILES = frozenset(tile_counts("river", False)) | frozenset(tile_counts("river", True))


def state_from_view(view: dict[str, Any], seat: int, rng: random.Random,
                    legal: Sequence[Any] | None = None) -> CarcassonneState:
    """A state consistent with seat ``seat``'s ``view``; burials sampled from ``rng`` (``legal`` unused)."""
    options = view["options"]
    s = CarcassonneState.new(view["players"], options["hills_and_sheep"], options["river"], options["abbot"])
    for i, cell in enumerate(view["board"]):
        place_tile(s, cell["x"], cell["y"], cell["tile"], cell["rotation"])
        if i == 0 and cell["tile"] == SPRING:
            start_river(s, cell["x"], cell["y"], TILES[SPRING].rotations[0])
    if view.get("river_end") is None:
        s.river_end = None
    # -- tiles: the stacks and the buried tiles are pooled in the view; deal the burials afresh
    unseen = dict(view["unseen_tiles"])
    lake = unseen.pop(LAKE, 0)
    river = {t: n for t, n in unseen.items() if t in _RIVER_TILES and n > 0}
    main = sorted(t for t, n in unseen.items() if t not in _RIVER_TILES for _ in range(n))
    rng.shuffle(main)
    drawn = view["tile"]
    if drawn == REDACTED:  # another seat's draw: a tile from the pool the game would draw from now
        if river:
            pool = sorted(t for t, n in river.items() for _ in range(n))
            drawn = pool[rng.randrange(len(pool))]
            river[drawn] -= 1
            river = {t: n for t, n in river.items() if n}
        elif lake and view.get("river_end") is not None:
            drawn, lake = LAKE, 0
        else:
            drawn = main.pop()
    s.lake_pending = lake > 0
    buried = view["buried_count"]
    s.buried = main[:buried]
    remaining: dict[str, int] = {}
    for tile in sorted(main[buried:]):
        remaining[tile] = remaining.get(tile, 0) + 1
    s.remaining = remaining
    s.river_remaining = river
    s.discarded = list(view["discarded"])
    # -- turn
    s.phase = view["phase"]
    s.turn_seat = view["turn"]
    s.turns = view["turns"]
    s.current_tile = drawn
    last = view["last_placed"]
    s.placed = s.board[(last["x"], last["y"])] if last else -1
    # -- figures
    for f in view["followers"]:
        node = _node(s, f["x"], f["y"], f["feature"])
        s.followers[node] = f["seat"]
        s.occupied[s.root[node]] += 1
    for f in view["shepherds"]:
        s.shepherds[f["seat"]] = _node(s, f["x"], f["y"], f["feature"])
        s.flocks[f["seat"]] = list(f["flock"])
    for f in view["abbots"]:
        node = _node(s, f["x"], f["y"], f["feature"])
        s.abbots[f["seat"]] = node
        s.occupied[node] += 1
    s.supply = [p["followers"] for p in view["supply"]]
    if s.hills_and_sheep:
        bag = view["bag"]
        s.bag = [bag.get("wolf" if v == 0 else f"sheep_{v}", 0) for v in range(5)]
    s.scores = list(view["scores"])
    s.breakdown = [dict(b) for b in view["breakdown"]]
    return s


def _node(s: CarcassonneState, x: int, y: int, local: str) -> int:
    j = s.board[(x, y)]
    return s.tile_base[j] + TILES[s.placements[j][2]].local_index[local]
