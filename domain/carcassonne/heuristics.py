"""A cheap static evaluation for bots (greedy choice, MCTS leaf values).

``evaluate(state, seat)`` = the seat's estimated final points minus the best
opponent's. Estimated points: current score, plus what every occupied feature
would pay its majority holders if the game ended now (roads, cities and
monasteries scaled up a little while tiles remain, since they may still be
completed and pay double), farmers at their current value, flocks at a
discount for the wolf risk, and a small value per follower still in supply.

Reads only public state (what every seat's view shows): ``scores``,
``followers``, ``abbots``, ``supply``, ``shepherds``, ``flocks``, ``bag``, the feature
union-find (``root``, ``members``, ``open``, ``kind``, ``node_tile``,
``node_local``, ``placements``, ``board``) and ``tiles_left()`` (a count).
Never the stack's make-up (``remaining``) nor ``buried`` on their own.

``search_evaluate(state, seat)`` is the search bot's judgement of its leaves and root commands
(``BotSupport.leaf_evaluate``): unfinished features by their chance of completion, from the empty cells
each still needs and the unseen tiles that fit them (the pooled ``remaining`` and ``buried``, which is the
view's public ``unseen_tiles``, plus the drawn tile), in a model fitted to self-play
(``bench/carcassonne_outlook.py``). Greedy and the playouts keep the cheaper ``evaluate``.

``determinize(state, rng)`` gives search bots a state to play out from: it
pools ``remaining`` and ``buried`` (exactly the view's public ``unseen_tiles``)
and deals the hidden split afresh, so the true face-down tiles never leak.
"""

from __future__ import annotations

import random
from functools import cache
from typing import NamedTuple

from .board import field_cities
from .rules import (
    CITY_END_POINTS_PER_PENNANT,
    CITY_END_POINTS_PER_TILE,
    CITY_POINTS_PER_PENNANT,
    CITY_POINTS_PER_TILE,
    FARM_POINTS_PER_CITY,
    MONASTERY_COMPLETE_POINTS,
    ROAD_POINTS_PER_TILE,
)
from .scoring import feature_value, winners
from .state import OVER, CarcassonneState
from .tiles import CITY, FIELD, GARDEN, MONASTERY, ROAD, STEP, TILES, fitting_rotations

FOLLOWER_IN_SUPPLY = 1.5
"""Points a follower in hand is worth (it can still claim something)."""
COMPLETION_UPLIFT = {ROAD: 1.0, CITY: 1.6, MONASTERY: 1.3, FIELD: 1.0, GARDEN: 1.3}
"""Multiplier on a feature's game-end value while tiles remain (cities pay double when completed)."""
WOLF_RISK = 0.75
"""Fraction of a flock's sheep counted as banked."""


def _figures_by_feature(state: CarcassonneState) -> dict[int, list[tuple[int, int]]]:
    """The figures (node, seat) grouped by their feature's root, followers then abbots, in one pass (search
    evaluates millions of leaves: no scan per feature)."""
    figures_of: dict[int, list[tuple[int, int]]] = {}
    root_of = state.root
    for n, seat in state.followers.items():
        figures_of.setdefault(root_of[n], []).append((n, seat))
    for seat, n in state.abbots.items():
        figures_of.setdefault(root_of[n], []).append((n, seat))
    return figures_of


def estimated_points(state: CarcassonneState) -> list[float]:
    """Each seat's current score plus the expected yield of what it holds on the board."""
    points = [float(s) for s in state.scores]
    live = state.tiles_left() > 0 and state.phase != "over"
    figures_of = _figures_by_feature(state)
    for root in sorted(figures_of):
        figures = figures_of[root]
        value = value_now(state, root) * (COMPLETION_UPLIFT[state.kind[root]] if live else 1.0)
        first = figures[0][1]
        for seat in [first] if all(s == first for _, s in figures) else winners(state, figures):
            points[seat] += value
    if live:
        for seat, flock in state.flocks.items():
            points[seat] += WOLF_RISK * sum(flock)
    for seat in range(state.players):
        points[seat] += FOLLOWER_IN_SUPPLY * state.supply[seat] * (1.0 if live else 0.0)
    return points


def value_now(state: CarcassonneState, root: int) -> float:
    """``scoring.feature_value(state, root, completed=False)``'s points, in one pass over the feature's segments
    (the evaluation's inner loop: search calls it tens of thousands of times a move)."""
    kind = state.kind[root]
    if kind >= MONASTERY:
        return float(feature_value(state, root, completed=False)[0])
    node_tile, node_local, placements = state.node_tile, state.node_local, state.placements
    if kind == FIELD:
        root_of, tile_base = state.root, state.tile_base
        cities: set[int] = set()
        for n in state.members[root]:
            j = node_tile[n]
            _, _, tile, rotation = placements[j]
            touches = TILES[tile].rotations[rotation].features[node_local[n]].cities
            if touches:
                base = tile_base[j]
                for c in touches:
                    cities.add(root_of[base + c])
        open_ = state.open
        return float(FARM_POINTS_PER_CITY * sum(1 for c in cities if open_[c] == 0))
    tiles = {node_tile[n] for n in state.members[root]}
    if kind == ROAD:
        return float(ROAD_POINTS_PER_TILE * len(tiles))
    pennants = 0
    for n in state.members[root]:
        _, _, tile, rotation = placements[node_tile[n]]
        pennants += TILES[tile].rotations[rotation].features[node_local[n]].pennants
    return float(CITY_END_POINTS_PER_TILE * len(tiles) + CITY_END_POINTS_PER_PENNANT * pennants)


def evaluate(state: CarcassonneState, seat: int) -> float:
    """Estimated margin of ``seat`` over its best opponent (positive = ahead)."""
    points = estimated_points(state)
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - (max(others) if others else 0.0)


def determinize(state: CarcassonneState, rng: random.Random) -> CarcassonneState:
    """A copy whose hidden part (which unseen tiles lie under hills) is resampled from public knowledge.

    The stack and the buried tiles are pooled (the view's ``unseen_tiles``) and the same number of
    tiles is put under the hills at random, so a search bot never plays with the true hidden split.
    The result depends only on public state and ``rng``.
    """
    copy = state.clone()
    if not state.buried:
        return copy
    pool = sorted([t for t, n in state.remaining.items() for _ in range(n)] + list(state.buried))
    rng.shuffle(pool)
    copy.buried = pool[:len(state.buried)]
    remaining: dict[str, int] = {}
    for tile in sorted(pool[len(state.buried):]):
        remaining[tile] = remaining.get(tile, 0) + 1
    copy.remaining = remaining
    return copy


# -- the search's evaluation (issue 20) ----------------------------------------------------------------------
#
# Greedy's ``evaluate`` scales an unfinished feature by a flat uplift, so a city that no tile left can close
# is still worth 1.6 times its end value, and a farm counts only the cities completed so far. The search
# judges its leaves with ``search_evaluate`` instead: each unfinished road, city and monastery is worth its
# value at completion times the chance it is completed (and its followers come home), the chance coming from
# the empty cells it still needs filled against the unseen tiles that fit them; a farm counts each adjacent
# city by its chance of completion.

class Outlook(NamedTuple):
    """How a feature's empty cells get filled in the model of :class:`_Outlook` (fitted to the completions of
    16 greedy-against-greedy games, ``bench/carcassonne_outlook.py``)."""

    share: float
    """Fraction of the unseen tiles that fit a cell which end up filling it (a tile that fits may extend the
    feature instead, or be placed elsewhere)."""
    attention: float
    """Draws that may fill the feature's cells, as a multiple of one seat's draws still to come."""
    cost: float
    """Draws each further cell uses up (the hardest cell is filled first)."""
    per_cell: float
    """Factor on the chance of completion for each cell beyond the first."""
    lone: float = 0.0
    """Chance per draw for a monastery's empty neighbour that touches no tile yet (it needs a neighbour first)."""


OUTLOOK = {
    CITY: Outlook(share=0.25, attention=1.5, cost=6.0, per_cell=0.7),
    ROAD: Outlook(share=1.0, attention=0.25, cost=0.0, per_cell=0.5),
    MONASTERY: Outlook(share=0.2, attention=3.0, cost=3.0, per_cell=1.0, lone=0.15),
}
"""The fitted models (a Brier score on those games of 0.17 for cities, 0.14 for roads, 0.15 for monasteries, against
0.25, 0.27 and 0.17 for a first guess that let every draw of the seat try every cell): a city with one open cell
that 12 of 60 unseen tiles fit completes with chance 0.90, with two such cells 0.55, with one cell that 4 of 20
fit 0.54; a road with one open end that 12 of 60 fit 0.81, with two such ends 0.33. Gardens use the monastery's."""


@cache
def fitting_tiles(signature: str) -> tuple[str, ...]:
    """The tile types with a rotation that fits a cell of this edge signature (every tile when all is open)."""
    return tuple(t for t in sorted(TILES) if fitting_rotations(t, signature))


class _Outlook:
    """What one evaluation knows about the tiles still to come: their multiset, how many each seat draws,
    and the chances already worked out (per cell and per feature root)."""

    __slots__ = ("state", "pool", "total", "draws", "cells", "chances")

    def __init__(self, state: CarcassonneState) -> None:
        self.state = state
        pool = dict(state.remaining)
        for tile in state.buried:  # the view pools the stack with the buried tiles: so does the search
            pool[tile] = pool.get(tile, 0) + 1
        if state.phase == "place" and state.current_tile is not None:
            pool[state.current_tile] = pool.get(state.current_tile, 0) + 1
        self.pool = pool
        self.total = sum(pool.values())
        self.draws = self.total / state.players
        self.cells: dict[tuple[int, int], int] = {}
        self.chances: dict[int, tuple[float, int, int, int]] = {}

    def fits(self, cell: tuple[int, int]) -> int:
        """Unseen tiles that fit ``cell`` (all of them when no tile touches it yet)."""
        n = self.cells.get(cell)
        if n is None:
            sig = self.state.frontier.get(cell)
            if sig is None:
                n = self.total
            else:
                pool = self.pool
                n = sum(pool.get(t, 0) for t in fitting_tiles(sig))
            self.cells[cell] = n
        return n

    def fill_chances(self, cells: list[tuple[int, int]], model: Outlook) -> list[float]:
        """The chance of each cell being filled, by :class:`Outlook` ``model``, the hardest cell first."""
        frontier = self.state.frontier
        total = self.total
        rates = sorted(model.share * self.fits(c) / total if c in frontier else model.share * model.lone
                       for c in cells)
        out = []
        draws = model.attention * self.draws
        for k, f in enumerate(rates):
            left = draws - model.cost * k
            out.append(0.0 if left <= 0 or f <= 0 else 1.0 - (1.0 - min(f, 1.0)) ** left)
        return out

    def shape(self, root: int) -> tuple[list[tuple[int, int]], int, int]:
        """(the empty cells an unfinished road or city still needs filled, its tiles, its pennants), in one
        pass over its segments."""
        s = self.state
        board, node_tile, node_local, placements = s.board, s.node_tile, s.node_local, s.placements
        cells: set[tuple[int, int]] = set()
        tiles: set[int] = set()
        pennants = 0
        for n in s.members[root]:
            j = node_tile[n]
            x, y, tile, rotation = placements[j]
            feature = TILES[tile].rotations[rotation].features[node_local[n]]
            tiles.add(j)
            pennants += feature.pennants
            for e in feature.edges:
                dx, dy = STEP[e]
                cell = (x + dx, y + dy)
                if cell not in board:
                    cells.add(cell)
        return sorted(cells), len(tiles), pennants

    def completion(self, root: int) -> tuple[float, int, int, int]:
        """(chance that the unfinished road or city ``root`` is completed, the empty cells it needs, its
        tiles, its pennants)."""
        got = self.chances.get(root)
        if got is None:
            cells, tiles, pennants = self.shape(root)
            model = OUTLOOK[self.state.kind[root]]
            p = model.per_cell ** (len(cells) - 1) if cells else 1.0
            for q in self.fill_chances(cells, model):
                p *= q
            got = self.chances[root] = (p, len(cells), tiles, pennants)
        return got


def feature_outlook(state: CarcassonneState, root: int, outlook: _Outlook | None = None) -> tuple[float, float]:
    """(expected points of the feature ``root`` to its majority holders, chance its followers come home) while
    tiles remain: a road or city by its chance of completion, a monastery or garden by the neighbours it may
    still get, a field by the chance of each adjacent city being completed."""
    o = outlook or _Outlook(state)
    kind = state.kind[root]
    if kind == FIELD:
        cities = 0.0
        for c in field_cities(state, root):
            cities += 1.0 if state.open[c] == 0 else o.completion(c)[0]
        return FARM_POINTS_PER_CITY * cities, 0.0
    if kind in (MONASTERY, GARDEN):
        x, y, _, _ = state.placements[state.node_tile[root]]
        board = state.board
        empty = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                 if (dx or dy) and (x + dx, y + dy) not in board]
        chances = o.fill_chances(empty, OUTLOOK[MONASTERY])
        home = 1.0
        for q in chances:
            home *= q
        return float(MONASTERY_COMPLETE_POINTS - len(empty)) + sum(chances), home
    if state.open[root] == 0:  # complete but not scored yet (a leaf between placement and scoring)
        points, _, _ = feature_value(state, root, completed=True)
        return float(points), 1.0
    p, cells, tiles, pennants = o.completion(root)
    if kind == ROAD:
        return float(tiles) + p * cells, p
    now = float(tiles + pennants)  # its end value (one point a tile and a pennant)
    done = CITY_POINTS_PER_TILE * (tiles + cells) + CITY_POINTS_PER_PENNANT * pennants
    return p * done + (1.0 - p) * now, p


def search_points(state: CarcassonneState) -> list[float]:
    """Each seat's score plus the expected yield of its figures by :func:`feature_outlook` (the search's
    estimate; at the end of the game the same as :func:`estimated_points`)."""
    if state.phase == OVER or state.tiles_left() == 0:
        return estimated_points(state)
    points = [float(s) for s in state.scores]
    figures_of = _figures_by_feature(state)
    outlook = _Outlook(state)
    for root in sorted(figures_of):
        figures = figures_of[root]
        value, home = feature_outlook(state, root, outlook)
        first = figures[0][1]
        for seat in [first] if all(s == first for _, s in figures) else winners(state, figures):
            points[seat] += value
        if home:
            for _, seat in figures:
                points[seat] += FOLLOWER_IN_SUPPLY * home
    for seat, flock in state.flocks.items():
        points[seat] += WOLF_RISK * sum(flock)
    for seat in range(state.players):
        points[seat] += FOLLOWER_IN_SUPPLY * state.supply[seat]
    return points


def search_evaluate(state: CarcassonneState, seat: int) -> float:
    """The search's estimated margin of ``seat`` over its best opponent (:func:`search_points`)."""
    points = search_points(state)
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - (max(others) if others else 0.0)
