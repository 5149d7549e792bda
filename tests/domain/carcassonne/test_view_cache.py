"""The views built with the per-state feature cache are byte for byte those of the uncached builder.

``_reference_views`` is the builder as it was before the cache (view.py at 66f2fa7), kept verbatim (plus the
uncached ``completions`` of the seat placing, added since): seeded
random games are played to the end and after every command every seat's view and the spectator's are
compared as JSON. Clones taken mid-game (as the undo trail and the bots take them) go on differently from
their original, and a state decoded from its snapshot is viewed too: no cache may serve another history.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import orjson
import pytest

from domain.carcassonne import GAME, rules
from domain.carcassonne.board import describe, neighbours8, rotated_at, tile_nodes
from domain.carcassonne.previews import completions
from domain.carcassonne.rules import FOLLOWERS_PER_PLAYER
from domain.carcassonne.scoring import feature_value, winners
from domain.carcassonne.shepherds import seats_in_field
from domain.carcassonne.state import PLACE, CarcassonneState
from domain.carcassonne.tiles import FIELD, KIND_NAMES, MONASTERY, TILES
from domain.core import REDACTED
from domain.core.rng import rng_for, seed_from_text

# -- the reference: the uncached builder, verbatim ---------------------------------------------------------


def _sees_drawn_tile(state: CarcassonneState, seat: int | None) -> bool:
    return not rules.DRAWN_TILE_PRIVATE or seat == state.turn_seat


def _unseen_tiles(state: CarcassonneState, seat: int | None = None) -> dict[str, int]:
    out: dict[str, int] = {}
    if state.phase == PLACE and state.current_tile is not None and not _sees_drawn_tile(state, seat):
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
    if state.kind[root] >= MONASTERY:
        x, y, _, _ = state.placements[state.node_tile[root]]
        return sum(1 for _ in neighbours8(state, x, y)) == 8
    return state.open[root] == 0


def _features(state: CarcassonneState) -> list[dict[str, Any]]:
    r = state.root
    followers: dict[int, list[tuple[int, int]]] = {}
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
    for _, root in sorted((members[root][0], root) for root in roots):
        complete = _complete(state, root)
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
        "tile": None,
        "tiles_left": state.tiles_left(),
        "unseen_tiles": None,
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
        "features": _features(state),
    }
    if state.hills_and_sheep:
        view["bag"] = {("wolf" if v == 0 else f"sheep_{v}"): n for v, n in enumerate(state.bag)}
    return view


def _reference_views(state: CarcassonneState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    common = _common(state)
    unseen: dict[bool, dict[str, int]] = {}
    out = []
    for seat in seats:
        sees = _sees_drawn_tile(state, seat)
        if sees not in unseen:
            unseen[sees] = _unseen_tiles(state, seat)
        view = dict(common)
        view["tile"] = state.current_tile if state.current_tile is None or sees else REDACTED
        view["unseen_tiles"] = unseen[sees]
        if seat is not None:
            view["seat"] = seat
            view["my_turn"] = state.phase != "over" and state.turn_seat == seat
            if seat == state.turn_seat and state.phase == PLACE and state.current_tile is not None:
                view["completions"] = completions(state)  # added since, uncached: tried afresh on every call
        out.append(view)
    return out


# -- the comparison -----------------------------------------------------------------------------------------


def _assert_same_views(state: CarcassonneState) -> int:
    seats: list[int | None] = [None, *range(state.players)]
    got = [orjson.dumps(v) for v in GAME.views(state, seats)]
    want = [orjson.dumps(v) for v in _reference_views(state, seats)]
    assert got == want
    for seat in seats:  # the single-seat entry point too
        assert orjson.dumps(GAME.view(state, seat)) == want[seats.index(seat)]
    return sum(len(orjson.loads(w)["features"]) for w in want[:1])


class _Player:
    """A seeded random game, one command at a time, as the service plays it (rng per version)."""

    def __init__(self, state: CarcassonneState, secret: bytes, version: int, chooser: random.Random) -> None:
        self.state, self.secret, self.version, self.chooser = state, secret, version, chooser

    def step(self) -> None:
        seat = GAME.to_act(self.state)[0]
        command = self.chooser.choice(GAME.legal_commands(self.state, seat))
        new = GAME.decide(self.state, command, rng_for(self.secret, self.version))
        for event in new:
            self.state = GAME.evolve(self.state, event)  # in place, as the projector's record folds
        self.version += len(new)

    def fork(self, seed: int) -> _Player:
        return _Player(GAME.clone(self.state), self.secret, self.version, random.Random(seed))


GAMES = [
    (2, {"hills_and_sheep": True}, "views-a", False),
    (2, {"hills_and_sheep": True}, "views-b", False),
    (3, {"hills_and_sheep": True, "abbot": True}, "views-c", False),
    (4, {"hills_and_sheep": True, "river": True, "abbot": True}, "views-d", False),
    (5, {"hills_and_sheep": True, "river": True}, "views-e", False),
    (2, {}, "views-f", False),
    (3, {"hills_and_sheep": True, "abbot": True}, "views-g", True),  # the hidden-draw house rule
]


@pytest.mark.parametrize(("players", "options", "seed", "hidden_draw"), GAMES)
def test_views_equal_the_uncached_builder_after_every_command(players: int, options: dict, seed: str,
                                                              hidden_draw: bool, monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    monkeypatch.setattr(rules, "DRAWN_TILE_PRIVATE", hidden_draw)
    secret = seed_from_text(seed)
    events = GAME.setup(GAME.parse_options(options), players, rng_for(secret, 0))
    main = _Player(GAME.fold(None, events), secret, len(events), random.Random(seed))
    forks: list[_Player] = []
    commands = features = 0
    features += _assert_same_views(main.state)
    while not GAME.is_over(main.state):
        main.step()
        commands += 1
        features += _assert_same_views(main.state)
        if commands % 40 == 0:  # a clone goes its own way (undo trail, bots): views of both stay right
            forks.append(main.fork(commands))
        for fork in forks:
            if not GAME.is_over(fork.state):
                fork.step()
                _assert_same_views(fork.state)
        if commands % 50 == 25:  # a state read back from its snapshot
            decoded = GAME.decode_state(GAME.encode_state(main.state))
            assert decoded == main.state
            _assert_same_views(decoded)
    for fork in forks:  # the forks played on to their own ends
        while not GAME.is_over(fork.state):
            fork.step()
            _assert_same_views(fork.state)
    assert commands > 100 and features > commands  # whole games, with features shown along the way
    assert forks
