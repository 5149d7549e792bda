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
from .previews import completions
from .rules import FOLLOWERS_PER_PLAYER
from .scoring import feature_value, winners
from .shepherds import seats_in_field
from .state import PLACE, VIEW_CACHE, CarcassonneState
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
        return len(neighbours8(state, x, y)) == 8
    return state.open[root] == 0


class _ViewCache:
    """What one state object's views keep from one call to the next (``features`` and the board).

    A state evolves in place along one history, and along it a root's members only grow, its open count only
    falls, a monastery's neighbours only arrive and the board only grows: a feature entry is reused while
    its signature (member count, open count, its figures, and per kind the neighbour count or the completed
    cities, shepherds and sheep of a field) is unchanged, and the part of it the board decides is not even
    recomputed while no tile was placed. :meth:`CarcassonneState.copy` leaves the cache
    behind (a clone goes its own way) and ``owner`` refuses one carried over by any other copy. It is no
    dataclass field: equality, the snapshot codec and replay never see it. Entries and board tiles are
    shared by the views of successive calls: views are read-only."""

    __slots__ = ("board", "features", "owner")

    def __init__(self, owner: int) -> None:
        self.owner = owner
        self.features: dict[int, _Known] = {}
        """Root -> what the last call knew of it, for the features it showed."""
        self.board: list[dict[str, Any]] = []
        """The board entry of each placement so far (replaced, never changed: calls may run in threads)."""


_Known = tuple[int, tuple[Any, ...], tuple[Any, ...], int, dict[str, Any], tuple[int, tuple[int, ...]] | None]
"""What a call knew of a feature: the tiles on the board then, the signature of the feature on that board
(member count, open count, and a monastery's or garden's neighbour count or a field's completed cities),
that of its figures (followers, abbot, and a field's shepherds and their sheep), its first member, its
entry, and of a field the nodes of the cities it touches as of its member count."""


def _cache(state: CarcassonneState) -> _ViewCache:
    cache: _ViewCache | None = state.__dict__.get(VIEW_CACHE)
    if cache is None or cache.owner != id(state):
        cache = state.__dict__[VIEW_CACHE] = _ViewCache(id(state))
    return cache


def _completed_cities(state: CarcassonneState, root: int, known: tuple[int, tuple[int, ...]] | None
                      ) -> tuple[int, tuple[int, tuple[int, ...]]]:
    """How many completed cities the field ``root`` touches (what :func:`feature_value` counts), and the nodes
    of the cities it touches as of its member count (``known``: as the last call found them)."""
    members = state.members[root]
    if known is None or known[0] != len(members):
        nodes: set[int] = set()
        node_tile, node_local, tile_base = state.node_tile, state.node_local, state.tile_base
        for n in members:
            f = rotated_at(state, node_tile[n]).features[node_local[n]]
            if f.cities:
                base = tile_base[node_tile[n]]
                nodes.update(base + c for c in f.cities)
        known = (len(members), tuple(nodes))
    r, open_ = state.root, state.open
    return len({r[c] for c in known[1] if open_[r[c]] == 0}), known


def features(state: CarcassonneState) -> list[dict[str, Any]]:
    """Features a client must show as a whole: those holding a figure (what each player could still score)
    and those of the latest tile on the board (what its turn joined or completed, still there when the next
    seat has drawn). ``parts`` are (x, y, local id). An entry whose signature did not change since the last
    call on this state is the same (see :class:`_ViewCache`)."""
    r = state.root
    followers: dict[int, list[tuple[int, int]]] = {}  # root -> (node, seat) of its followers, then of its abbot
    abbots: dict[int, list[tuple[int, int]]] = {}
    shepherds: dict[int, list[int]] = {}  # field root -> seats of its shepherds, in seat order
    for n, s in state.followers.items():
        followers.setdefault(r[n], []).append((n, s))
    for s, n in state.abbots.items():
        abbots.setdefault(r[n], []).append((n, s))
    for s, n in sorted(state.shepherds.items()):
        shepherds.setdefault(r[n], []).append(s)
    roots = set(followers) | set(abbots) | set(shepherds)
    if state.placements:
        roots |= {r[n] for n in tile_nodes(state, len(state.placements) - 1)}
    cache = _cache(state)
    known = cache.features
    shown: dict[int, _Known] = {}
    flocks = state.flocks
    for root in roots:
        seats = shepherds.get(root)
        figures = (tuple(sorted(followers.get(root, ()))), tuple(sorted(abbots.get(root, ()))),
                   (tuple(seats), sum(sum(flocks.get(s, [])) for s in seats)) if seats else None)
        shown[root] = _known(state, root, known.get(root), figures)
    cache.features = shown  # replaced, never changed in place: concurrent calls each see a whole one
    return [entry for _, _, entry in sorted((f[3], root, f[4]) for root, f in shown.items())]


def _known(state: CarcassonneState, root: int, found: _Known | None, figures: tuple[Any, ...]) -> _Known:
    """What this call knows of the feature ``root`` (``found``: what the last call knew, if it showed it;
    ``figures``: the signature of its figures now): the last call's entry while both signatures are the same."""
    placed = len(state.placements)
    cities = found[5] if found is not None else None
    if found is not None and found[0] == placed:  # no tile since: no union, open count or neighbour changed
        board = found[1]
    else:
        k = state.kind[root]
        extra = None
        if k >= MONASTERY:
            x, y, _, _ = state.placements[state.node_tile[root]]
            extra = len(neighbours8(state, x, y))
        elif k == FIELD:
            extra, cities = _completed_cities(state, root, cities)
        board = (len(state.members[root]), state.open[root], extra)
    if found is None or found[1] != board or found[2] != figures:
        return (placed, board, figures, *_entry(state, root, [*figures[0], *figures[1]]), cities)
    if found[0] != placed or found[5] is not cities:
        return (placed, board, figures, found[3], found[4], cities)
    return found


def _entry(state: CarcassonneState, root: int, figures: list[tuple[int, int]]) -> tuple[int, dict[str, Any]]:
    """(first member, entry) of the feature ``root``, built afresh; ``figures``: (node, seat) of its followers
    in node order, then of its abbot."""
    placements, node_tile, node_local = state.placements, state.node_tile, state.node_local

    def part(n: int) -> list[Any]:
        x, y, tile, rot = placements[node_tile[n]]
        return [x, y, TILES[tile].rotations[rot].features[node_local[n]].local_id]

    members = sorted(state.members[root])
    complete = _complete(state, root)
    points, _, tiles = feature_value(state, root, complete)
    entry: dict[str, Any] = {
        "kind": KIND_NAMES[state.kind[root]],
        "parts": [part(n) for n in members],
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
    return members[0], entry


def build(state: CarcassonneState, seat: int | None) -> dict[str, Any]:
    return build_many(state, [seat])[0]


def build_many(state: CarcassonneState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """The views of ``seats``: what every seat sees alike (the board, the figures, the features) built once;
    the views share it (read-only)."""
    common = _common(state)
    unseen: dict[bool, dict[str, int]] = {}  # a seat's unseen tiles depend only on whether it sees the drawn tile
    out = []
    placing = state.turn_seat if state.phase == PLACE and state.current_tile is not None else None
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
            if seat == placing:  # what each placement of the drawn tile completes: only its drawer's view
                view["completions"] = completions(state)
        out.append(view)
    return out


def _board_entry(x: int, y: int, tile: str, rot: int) -> dict[str, Any]:
    spec = TILES[tile].spec
    return {"x": x, "y": y, "tile": tile, "rotation": rot, "edges": TILES[tile].rotations[rot].edges,
            "hill": spec.hill, "vineyard": spec.vineyard, "garden": spec.garden}


def _figures(state: CarcassonneState) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Followers, shepherds and abbots on the board, each where it stands."""
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
    return followers, shepherds, abbots


def _last_placed(state: CarcassonneState) -> dict[str, Any] | None:
    if state.placed < 0:
        return None
    x, y, tile, rot = state.placements[state.placed]
    rt = rotated_at(state, state.placed)
    return {"x": x, "y": y, "tile": tile, "rotation": rot,
            "features": [{"id": f.local_id, "kind": KIND_NAMES[f.kind]} for f in rt.features]}


def _supply(state: CarcassonneState, seat: int) -> dict[str, Any]:
    return {"followers": state.supply[seat], "followers_total": FOLLOWERS_PER_PLAYER,
            "shepherd": state.hills_and_sheep and seat not in state.shepherds,
            "abbot": state.abbot and seat not in state.abbots}


def _common(state: CarcassonneState) -> dict[str, Any]:
    cache = _cache(state)
    board = cache.board  # placements only grow: each tile's entry is built once
    if len(board) < len(state.placements):  # a new list, never one a call may be reading extended in place
        cache.board = board = board + [_board_entry(*placement) for placement in state.placements[len(board):]]
    followers, shepherds, abbots = _figures(state)
    last = _last_placed(state)
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
        "board": board[:],  # the view's own list
        "last_placed": last,
        "followers": followers,
        "shepherds": shepherds,
        "abbots": abbots,
        "supply": [_supply(state, s) for s in range(state.players)],
        "scores": list(state.scores),
        "breakdown": [dict(b) for b in state.breakdown],
        "river_end": list(state.river_end[:2]) if state.river_end else None,
        "features": features(state),
    }
    if state.hills_and_sheep:
        view["bag"] = {("wolf" if v == 0 else f"sheep_{v}"): n for v, n in enumerate(state.bag)}
    return view
