"""Hills & Sheep shepherds, sheep and wolves (expansion text "Shepherd, sheep and wolves"; spec §7.3).

The bag is a multiset of token values (0 = wolf); a draw picks uniformly from
what is in it at that moment, so no bag order ever exists.
"""

from __future__ import annotations

import random

from .board import tile_nodes
from .messages import FlockGathered, FlockScattered
from .rules import MULTIPLE_SHEPHERDS_SHARE_TOTAL
from .state import CarcassonneState

WOLF = 0


def draw_token(bag: list[int], rng: random.Random) -> int:
    """A uniformly random token from the bag multiset (the bag is left unchanged)."""
    pick = rng.randrange(sum(bag))
    for value, count in enumerate(bag):
        if pick < count:
            return value
        pick -= count
    raise AssertionError("empty bag")  # pragma: no cover - wolves never leave the bag


def seats_in_field(state: CarcassonneState, root: int) -> list[int]:
    """Seats whose shepherd stands in the field with this root."""
    r = state.root
    return sorted(s for s, n in state.shepherds.items() if r[n] == root)


def flock_field_extended(state: CarcassonneState, seat: int) -> bool:
    """True when this turn's tile joined the field of ``seat``'s shepherd placed on an earlier turn (B)."""
    node = state.shepherds.get(seat)
    if node is None or state.shepherd_placed or state.placed < 0:
        return False
    target = state.root[node]
    r = state.root
    return any(r[n] == target for n in tile_nodes(state, state.placed))


def gather(state: CarcassonneState, root: int, closed: bool = False) -> FlockGathered:
    """Guide the flocks of a field to the stable: every shepherd's owner scores all its sheep."""
    seats = seats_in_field(state, root)
    tokens = sorted(t for s in seats for t in state.flocks.get(s, []))
    if MULTIPLE_SHEPHERDS_SHARE_TOTAL or len(seats) == 1:
        return FlockGathered(seats=seats, points=sum(tokens), tokens=tokens, closed=closed)
    return FlockGathered(seats=seats, points=sum(tokens), tokens=tokens, closed=closed,
                         shares=[sum(state.flocks.get(s, [])) for s in seats])


def scatter(state: CarcassonneState, root: int) -> FlockScattered:
    """A wolf in the field: every shepherd there goes home and all its sheep go back into the bag."""
    seats = seats_in_field(state, root)
    return FlockScattered(seats=seats, tokens=sorted(t for s in seats for t in state.flocks.get(s, [])))


def closed_fields(state: CarcassonneState) -> list[int]:
    """Roots of closed fields that hold shepherds (they gather at once, footnotes 1-2)."""
    roots = {state.root[n] for n in state.shepherds.values()}
    return sorted(r for r in roots if state.open[r] == 0)
