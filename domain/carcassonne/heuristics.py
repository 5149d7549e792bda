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

``determinize(state, rng)`` gives search bots a state to play out from: it
pools ``remaining`` and ``buried`` (exactly the view's public ``unseen_tiles``)
and deals the hidden split afresh, so the true face-down tiles never leak.
"""

from __future__ import annotations

import random

from .scoring import feature_value, winners
from .state import CarcassonneState
from .tiles import CITY, FIELD, GARDEN, MONASTERY, ROAD

FOLLOWER_IN_SUPPLY = 1.5
"""Points a follower in hand is worth (it can still claim something)."""
COMPLETION_UPLIFT = {ROAD: 1.0, CITY: 1.6, MONASTERY: 1.3, FIELD: 1.0, GARDEN: 1.3}
"""Multiplier on a feature's game-end value while tiles remain (cities pay double when completed)."""
WOLF_RISK = 0.75
"""Fraction of a flock's sheep counted as banked."""


def estimated_points(state: CarcassonneState) -> list[float]:
    """Each seat's current score plus the expected yield of what it holds on the board."""
    points = [float(s) for s in state.scores]
    live = state.tiles_left() > 0 and state.phase != "over"
    # The figures grouped by feature in one pass (search evaluates millions of leaves: no scan per feature).
    figures_of: dict[int, list[tuple[int, int]]] = {}
    root_of = state.root
    for n, seat in state.followers.items():
        figures_of.setdefault(root_of[n], []).append((n, seat))
    for seat, n in state.abbots.items():
        figures_of.setdefault(root_of[n], []).append((n, seat))
    for root in sorted(figures_of):
        figures = figures_of[root]
        points_now, _, _ = feature_value(state, root, completed=False)
        value = points_now * (COMPLETION_UPLIFT[state.kind[root]] if live else 1.0)
        first = figures[0][1]
        for seat in [first] if all(s == first for _, s in figures) else winners(state, figures):
            points[seat] += value
    if live:
        for seat, flock in state.flocks.items():
            points[seat] += WOLF_RISK * sum(flock)
    for seat in range(state.players):
        points[seat] += FOLLOWER_IN_SUPPLY * state.supply[seat] * (1.0 if live else 0.0)
    return points


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
