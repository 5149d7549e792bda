"""A cheap static evaluation for bots: estimated final score of a seat minus the best opponent's.

Reads only public state (everything in Heaven & Ale is on the table, and the
seat's view shows all of it): per player ``markers``, ``brewmaster``,
``money``, ``cards`` (unplaced privilege cards), ``large``/``small`` barrels,
``pairs``, ``slot``, ``garden``; with Kegs & More also ``kegs``/``bales``/
``rental``, ``cart``, ``cart_kegs``, ``delivered``, ``area_values``; and the
state's ``round``/``rounds``. Never the piles (their counts only, not used).
"""

from __future__ import annotations


from .garden import N_SPOTS
from .production import EMERGENCY_COIN_DUCATS
from .scoring import total
from .state import EMPTY, HAState

# Weights of unfinished things, per remaining round fraction (tuned by eye, not by data).
OPEN_SPOT_VALUE = 0.15  # an empty garden spot still to be filled and activated
COIN_VALUE = 0.1  # an unplaced privilege card (at least 3 ducats)
CART_KEG_VALUE = 2.0  # a keg loaded on the cart will likely reach a tavern


def estimate(s: HAState, seat: int) -> float:
    """Current final score of ``seat`` (as if the game ended now) plus the value of unfinished things."""
    p = s.players[seat]
    score = float(total(s, seat))
    remaining = max(0, s.rounds - s.round + 1) / s.rounds
    open_spots = sum(1 for t in p.garden if t == EMPTY)
    score += remaining * (OPEN_SPOT_VALUE * (N_SPOTS - open_spots) / 3)
    score += COIN_VALUE * len(p.cards) * EMERGENCY_COIN_DUCATS / 3
    if s.kegs_and_more:
        score += remaining * CART_KEG_VALUE * p.cart_kegs
    return score


def evaluate(state: HAState, seat: int) -> float:
    """Estimated score of ``seat`` minus the best estimated opponent score."""
    mine = estimate(state, seat)
    others = [estimate(state, i) for i in range(state.n) if i != seat]
    return mine - (max(others) if others else 0.0)


__all__ = ["evaluate", "estimate"]
