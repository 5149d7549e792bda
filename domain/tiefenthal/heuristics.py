"""A cheap static estimate of a position for one seat, for greedy bots and MCTS leaves.

Reads only public state (everything a seat's view shows): per player the victory
points of the cards owned (``Player.owned_cards``: every acquisition is public, so
the VP total is public even for cards in a face-down deck), upgraded tiles, safe,
storage, virtual doubloons/beer of the current turn, monastery position, counter
guests, and ``State.round``. It never reads draw order (none exists) nor the guest deck.
"""

from __future__ import annotations

from .flow import MONASTERY_TRACK
from .scoring import vp
from .state import Player, State

UPGRADE_WORTH = 6.0
"""An upgrade is worth about this much future VP per remaining round fraction (it improves income)."""
MONEY_WORTH = 0.5
UNKEEPABLE_WORTH = 0.2
"""Virtual money beyond the safe's or the storage's limit: worth something only if spent this turn."""
COUNTER_GUEST_WORTH = 1.0


def _player_value(p: Player, rounds_left_fraction: float) -> float:
    value = float(vp(p))
    value += UPGRADE_WORTH * len(p.upgraded) * rounds_left_fraction
    value += MONEY_WORTH * (p.safe + p.storage)
    # Virtual money of the turn under way: what the safe and the storage can keep is worth as much as
    # stored money; the rest is lost at the end of the turn unless spent, so it counts for less.
    keep_d, keep_b = min(p.doubloons, p.tile("safe")), min(p.beer, p.tile("storage"))
    value += MONEY_WORTH * (keep_d + keep_b) + UNKEEPABLE_WORTH * (p.doubloons - keep_d + p.beer - keep_b)
    value += COUNTER_GUEST_WORTH * p.counter_guests * rounds_left_fraction
    ahead = [q for q in MONASTERY_TRACK if q > p.monastery]
    if ahead:
        value += 1.0 / (min(ahead) - p.monastery) * rounds_left_fraction
    return value


def evaluate(state: State, seat: int) -> float:
    """Own estimated worth minus the best opponent's (positive = ahead)."""
    fraction = max(0.0, (state.rounds - state.round) / state.rounds)
    values = [_player_value(p, fraction) for p in state.players]
    others = [v for i, v in enumerate(values) if i != seat]
    return values[seat] - (max(others) if others else 0.0)
