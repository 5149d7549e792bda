"""What a seat (or a spectator) sees, built from the state.

Never included: the stack's composition on its own or any order (none exists),
and which tiles lie under hills. ``unseen_tiles`` merges the stack with the
buried tiles, which every player can work out by counting (public knowledge).
"""

from __future__ import annotations

from typing import Any

from .board import describe, rotated_at
from .rules import FOLLOWERS_PER_PLAYER
from .state import CarcassonneState
from .tiles import KIND_NAMES, TILES


def unseen_tiles(state: CarcassonneState) -> dict[str, int]:
    """Tiles not yet seen by anyone: the stacks plus the face-down tiles under hills."""
    out: dict[str, int] = {}
    for stack in (state.remaining, state.river_remaining):
        for tile, n in stack.items():
            out[tile] = out.get(tile, 0) + n
    for tile in state.buried:
        out[tile] = out.get(tile, 0) + 1
    if state.lake_pending:
        out["RV_LAKE"] = out.get("RV_LAKE", 0) + 1
    return dict(sorted(out.items()))


def build(state: CarcassonneState, seat: int | None) -> dict[str, Any]:
    board = []
    for x, y, tile, rot in state.placements:
        spec = TILES[tile].spec
        board.append({"x": x, "y": y, "tile": tile, "rotation": rot, "edges": TILES[tile].rotations[rot].edges,
                      "hill": spec.hill, "vineyard": spec.vineyard, "garden": spec.garden})
    followers = []
    for node, owner in sorted(state.followers.items()):
        x, y, local = describe(state, node)
        followers.append({"seat": owner, "x": x, "y": y, "feature": local, "kind": KIND_NAMES[state.kind[node]]})
    shepherds = []
    for owner, node in sorted(state.shepherds.items()):
        x, y, local = describe(state, node)
        shepherds.append({"seat": owner, "x": x, "y": y, "feature": local, "flock": list(state.flocks.get(owner, []))})
    abbots = []
    for owner, node in sorted(state.abbots.items()):
        x, y, local = describe(state, node)
        abbots.append({"seat": owner, "x": x, "y": y, "feature": local})
    last = None
    if state.placed >= 0:
        x, y, tile, rot = state.placements[state.placed]
        rt = rotated_at(state, state.placed)
        last = {"x": x, "y": y, "tile": tile, "rotation": rot,
                "features": [{"id": f.local_id, "kind": KIND_NAMES[f.kind]} for f in rt.features]}
    view: dict[str, Any] = {
        "players": state.players,
        "options": {"hills_and_sheep": state.hills_and_sheep, "river": state.river, "abbot": state.abbot},
        "phase": state.phase,
        "turn": state.turn_seat,
        "turns": state.turns,
        "tile": state.current_tile,
        "tiles_left": state.tiles_left(),
        "unseen_tiles": unseen_tiles(state),
        "buried_count": len(state.buried),
        "discarded": list(state.discarded),
        "board": board,
        "last_placed": last,
        "followers": followers,
        "shepherds": shepherds,
        "abbots": abbots,
        "supply": [{"followers": state.supply[s], "followers_total": FOLLOWERS_PER_PLAYER,
                    "shepherd": state.hills_and_sheep and s not in state.shepherds,
                    "abbot": state.abbot and s not in state.abbots} for s in range(state.players)],
        "scores": list(state.scores),
        "breakdown": [dict(b) for b in state.breakdown],
        "river_end": list(state.river_end[:2]) if state.river_end else None,
    }
    if state.hills_and_sheep:
        view["bag"] = {("wolf" if v == 0 else f"sheep_{v}"): n for v, n in enumerate(state.bag)}
    if seat is not None:
        view["seat"] = seat
        view["my_turn"] = state.phase != "over" and state.turn_seat == seat
    return view
