"""What a seat (or a spectator) sees, built from the state.

Never included: the stack's composition on its own or any order (none exists),
which tiles lie under hills, and, only with the ``DRAWN_TILE_PRIVATE`` house rule
(off by default: the drawn tile is shown to all, as at the table), the tile another
seat has drawn. ``unseen_tiles`` merges the stack with the buried tiles, which every
player can work out by counting, and under that house rule for everyone but the
drawer also the drawn tile, so two views in a row never tell it by difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.core import REDACTED

from . import rules
from .board import describe, neighbours8, rotated_at, tile_nodes
from .rules import FOLLOWERS_PER_PLAYER
from .scoring import feature_value, winners
from .shepherds import seats_in_field
from .state import PLACE, CarcassonneState
from .tiles import FIELD, KIND_NAMES, MONASTERY, TILES


def sees_drawn_tile(state: CarcassonneState, seat: int | None) -> bool:
    return not rules.DRAWN_TILE_PRIVATE or seat == state.turn_seat


def unseen_tiles(state: CarcassonneState, seat: int | None = None) -> dict[str, int]:
    """Tiles ``seat`` has not seen: the stacks, the face-down tiles under hills and (hidden-draw house rule only)
    another seat's drawn tile."""
    out: dict[str, int] = {}
    if state.phase == PLACE and state.current_tile is not None and not sees_drawn_tile(state, seat):
        out[state.current_tile] = 1
    for stack in (state.remaining, state.river_remaining):
        for tile, n in stack.items():
            out[tile] = out.get(tile, 0) + n
    for tile in state.buried:
        out[tile] = out.get(tile, 0) + 1
    if state.lake_pending:
        out["RV_LAKE"] = out.get("RV_LAKE", 0) + 1
    return dict(sorted(out.items()))


def _complete(state: CarcassonneState, root: int) -> bool:
    if state.kind[root] >= MONASTERY:  # monastery or garden: surrounded on all 8 sides (§5.4)
        x, y, _, _ = state.placements[state.node_tile[root]]
        return sum(1 for _ in neighbours8(state, x, y)) == 8
    return state.open[root] == 0


def features(state: CarcassonneState) -> list[dict[str, Any]]:
    """Features a client must show as a whole: those holding a figure (what each player could still score)
    and those of the latest tile on the board (what its turn joined or completed, still there when the next
    seat has drawn). ``parts`` are (x, y, local id)."""
    r = state.root
    followers: dict[int, list[tuple[int, int]]] = {}  # root -> (node, seat) of its followers, then of its abbot
    abbots: dict[int, list[tuple[int, int]]] = {}
    for n, s in state.followers.items():
        followers.setdefault(r[n], []).append((n, s))
    for s, n in state.abbots.items():
        abbots.setdefault(r[n], []).append((n, s))
    roots = set(followers) | set(abbots) | {r[n] for n in state.shepherds.values()}
    if state.placements:
        roots |= {r[n] for n in tile_nodes(state, len(state.placements) - 1)}
    placements, node_tile, node_local = state.placements, state.node_tile, state.node_local

    def part(n: int) -> list[Any]:
        x, y, tile, rot = placements[node_tile[n]]
        return [x, y, TILES[tile].rotations[rot].features[node_local[n]].local_id]

    out = []
    members = {root: sorted(state.members[root]) for root in roots}
    for _, root in sorted((members[root][0], root) for root in roots):  # in placement order
        complete = _complete(state, root)
        # followers_in + abbots_in, each in node order, from one pass over the figures
        figures = sorted(followers.get(root, ())) + sorted(abbots.get(root, ()))
        points, _, tiles = feature_value(state, root, complete)
        entry: dict[str, Any] = {
            "kind": KIND_NAMES[state.kind[root]],
            "parts": [part(n) for n in members[root]],
            "complete": complete,
            "tiles": tiles,
            "points": points,
            "figures": [{"seat": s, "figure": "abbot" if s in state.abbots and state.abbots[s] == n else "follower",
                         "at": list(describe(state, n))} for n, s in figures],
            "leaders": winners(state, figures),
        }
        if state.kind[root] == FIELD:
            shepherds = seats_in_field(state, root)
            entry["shepherds"] = shepherds
            entry["sheep"] = sum(sum(state.flocks.get(s, [])) for s in shepherds)
        out.append(entry)
    return out


def build(state: CarcassonneState, seat: int | None) -> dict[str, Any]:
    return build_many(state, [seat])[0]


def build_many(state: CarcassonneState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """The views of ``seats``: what every seat sees alike (the board, the figures, the features) built once;
    the views share it (read-only)."""
    common = _common(state)
    unseen: dict[bool, dict[str, int]] = {}  # a seat's unseen tiles depend only on whether it sees the drawn tile
    out = []
    for seat in seats:
        sees = sees_drawn_tile(state, seat)
        if sees not in unseen:
            unseen[sees] = unseen_tiles(state, seat)
        view = dict(common)  # the same keys in the same order as ever: "tile" and "unseen_tiles" are set in place
        view["tile"] = state.current_tile if state.current_tile is None or sees else REDACTED
        view["unseen_tiles"] = unseen[sees]
        if seat is not None:
            view["seat"] = seat
            view["my_turn"] = state.phase != "over" and state.turn_seat == seat
        out.append(view)
    return out


def _common(state: CarcassonneState) -> dict[str, Any]:
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
        "tile": None,  # per seat
        "tiles_left": state.tiles_left(),
        "unseen_tiles": None,  # per seat
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
        "features": features(state),
    }
    if state.hills_and_sheep:
        view["bag"] = {("wolf" if v == 0 else f"sheep_{v}"): n for v, n in enumerate(state.bag)}
    return view
