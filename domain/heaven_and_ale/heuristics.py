"""A cheap static evaluation for bots: estimated final score of a seat minus the best opponent's.

The final score hangs on the *least advanced* marker (after the exchange), so
"the score if the game ended now" is 0 for most of a game and tells a bot
nothing: a bot judged by it rushes into the starting area and scores 0. The
estimate therefore projects the end of the game:

- every garden tile is expected to be activated again by the scoring spots
  still free on its owner's board (its colour spot, the x spot, a monk spot of
  an adjacent monk) and by the sheds round it that are not enclosed yet, each
  weighted by the chance the owner still gets to use it (disc visits left
  against free spots);
- sunny tiles push their colour's marker, shady ones pay ducats;
- the projected markers are evened out at the brewmaster's exchange rate (the
  real §3.14 A, on fractional markers), projected ducats buy steps (B), and the
  level is valued at the brewmaster's bracket, interpolated so each
  brewmaster step counts; a level below spot 1 still counts a little, so
  progress there is seen;
- barrels, the first-player space and Kegs & More points count as scored now.

Reads only public state (everything in Heaven & Ale is on the table, and the
seat's view shows all of it): per player ``markers``, ``brewmaster``,
``money``, ``garden``, ``sheds``, ``discs``, ``cards``, barrels, ``slot``, ``pos``,
``done``; with Kegs & More the cart and goods; and ``round``/``rounds``. Never the
piles (their counts only, not used).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .board import TRACK_LEN
from .garden import N_SPOTS, NEIGHBOURS, SHED_NEIGHBOURS, SPOT_SHEDS, is_sunny
from .privileges import COLOUR_SPOTS, MONK_SPOTS, X_SPOT
from .production import BRACKETS, EMERGENCY_COIN_DUCATS, FINAL_DUCATS_PER_STEP, TRACK_MAX, bracket
from .scoring import breakdown
from .state import EMPTY, HAState, Player
from .supply import colour_of, fertility_of, is_monk, monk_type
from .weights import WEIGHTS

DISC_VISITS_PER_ROUND = 6.0
"""Disc spaces a player lands on in a round (6 disc spaces shared by the table; tuned by eye)."""
X_SPOT_SHARE = 0.35
"""The x spot activates one fertility number: the chance a given tile's number is the one named."""
SHED_ACTIVATION = 0.35
"""Chance an open shed next to a tile ends up enclosed and activating it."""
BELOW_TRACK_SLOPE = 1.0
"""VP per step of the projected level while it is still below spot 1 (really 0: a gentle pull forward)."""
COIN_VALUE = EMERGENCY_COIN_DUCATS
"""Ducats an unplaced privilege card is worth at least (its back is the emergency coin)."""
CART_KEG_VALUE = 2.0
"""A keg loaded on the cart will likely reach a tavern."""
MARKERS = 5
LEVELS_PER_ROUND = 2.5
"""Levels a player still gains per round left from tiles not bought yet. It is the same for everyone, so
it changes no comparison of markers; it makes the brewmaster's multiplier worth what it will be worth
at the end (without it a one-step bot never moves its brewmaster)."""
FUTURE_DISCOUNT = 0.5
"""An activation still to come counts this much of one made now: it may never happen, and if it counted
in full a bot would see no gain in landing on a disc space and would only ever buy tiles."""
SPENT_DUCAT_STEPS = 0.3
"""Marker steps a ducat buys while rounds remain (a sunny tile costs twice its fertility and moves its
marker by the fertility at each of its activations)."""
TRACK_SPACE_VALUE = 0.3
"""VP per track space still ahead of the figure this round: each space left is a chance to act again
(without it a one-step bot runs into the starting area at once and forfeits the round)."""


def rounds_left(s: HAState, p: Player) -> float:
    """Rounds still to play for ``p``, counting the unplayed part of this one."""
    this_round = 0.0 if p.done else max(0.0, 1.0 - p.pos / TRACK_LEN)
    return max(0, s.rounds - s.round) + this_round


def _chance(free_spots: int, visits: float) -> float:
    return FUTURE_DISCOUNT * (1.0 if free_spots == 0 else min(1.0, visits / free_spots))


def _monk_triggered(p: Player, spot: int, monk_triggers: list[float]) -> float:
    """The expected activations ``spot`` gets from the monks beside it."""
    return sum(monk_triggers[monk_type(p.garden[n]) - 1] for n in NEIGHBOURS[spot]
               if p.garden[n] != EMPTY and is_monk(p.garden[n]))


def projected_gains(s: HAState, p: Player) -> tuple[list[float], float, float]:
    """Expected further (marker steps per colour, ducats, brewmaster steps) from ``p``'s garden."""
    visits = DISC_VISITS_PER_ROUND * rounds_left(s, p)
    free = [not d for d in p.discs]
    use = _chance(sum(free), visits)
    monk_triggers = [use if free[spot] else 0.0 for spot in MONK_SPOTS]
    steps = [0.0] * MARKERS
    ducats = 0.0
    brew = 0.0
    for spot in range(N_SPOTS):
        code = p.garden[spot]
        if code == EMPTY:
            continue
        sheds = sum(SHED_ACTIVATION * use for shed in SPOT_SHEDS[spot] if p.sheds[shed] == EMPTY)
        if is_monk(code):
            # Activated by sheds only (+1 brewmaster); its trigger is credited to its neighbours below.
            brew += sheds + _monk_triggered(p, spot, monk_triggers)
            continue
        colour, fertility = colour_of(code), fertility_of(code)
        times = sheds
        times += use if free[COLOUR_SPOTS[colour]] else 0.0
        times += X_SPOT_SHARE * use if free[X_SPOT] else 0.0
        times += _monk_triggered(p, spot, monk_triggers)
        if is_sunny(spot):
            steps[colour] += fertility * times
        else:
            ducats += fertility * times
    # A shed nearly enclosed also moves the brewmaster (more for poor sheds; about 2 steps on average).
    for shed, neighbours in enumerate(SHED_NEIGHBOURS):
        if p.sheds[shed] == EMPTY:
            filled = sum(1 for n in neighbours if p.garden[n] != EMPTY)
            brew += 2.0 * SHED_ACTIVATION * use * filled / len(neighbours)
    return steps, ducats, brew


def evened_level(markers: list[float], rate: int) -> float:
    """§3.14 A on fractional markers: the level L with rate × (steps missing below L) = steps above L."""
    low, high = min(markers), max(markers)
    for _ in range(30):  # bisection: plenty for a heuristic
        mid = (low + high) / 2
        deficit = sum(mid - m for m in markers if m < mid)
        surplus = sum(m - mid for m in markers if m > mid)
        if rate * deficit <= surplus:
            low = mid
        else:
            high = mid
    return min(low, float(TRACK_MAX))


def bracket_value(brewmaster: float) -> float:
    """The VP value of the brewmaster's bracket, rising linearly towards the next bracket's value."""
    for (low, _, value), (nxt, _, nxt_value) in zip(BRACKETS[1:], BRACKETS[2:]):
        if brewmaster < nxt:
            if brewmaster < low:
                break
            return value + (nxt_value - value) * (brewmaster - low) / (nxt - low)
    if brewmaster >= BRACKETS[-1][0]:
        return float(BRACKETS[-1][2])
    first_low, _, first_value = BRACKETS[1]
    base = BRACKETS[0][2]
    # Before spot 1: from the base value up to the first bracket over the last ten steps.
    return base + (first_value - base) * max(0.0, 1.0 - (first_low - brewmaster) / 10.0)


def projected_production(s: HAState, p: Player) -> float:
    steps, ducats, brew = projected_gains(s, p)
    markers = [min(float(TRACK_MAX), m + g) for m, g in zip(p.markers, steps)]
    brewmaster = min(float(TRACK_MAX), p.brewmaster + brew)
    rate, _ = bracket(int(brewmaster))
    level = evened_level(markers, rate)
    money = p.money + ducats + COIN_VALUE * len(p.cards)
    # While rounds remain a ducat buys tiles (about SPENT_DUCAT_STEPS marker steps each); at the end
    # only §3.14 B is left: ten ducats move the least marker a step. Either way, with the markers
    # evened, a level costs five steps.
    per_ducat = 1.0 / FINAL_DUCATS_PER_STEP + SPENT_DUCAT_STEPS * min(1.0, rounds_left(s, p))
    level = min(float(TRACK_MAX), level + money * per_ducat / MARKERS + LEVELS_PER_ROUND * rounds_left(s, p))
    if level <= 0:
        return BELOW_TRACK_SLOPE * level
    return level * bracket_value(brewmaster)


def estimate(s: HAState, seat: int) -> float:
    """Projected final score of ``seat``: production projected to the end, the rest as it stands."""
    p = s.players[seat]
    parts = breakdown(s, seat)
    score = float(sum(v for k, v in parts.items() if k != "production"))
    if s.phase == "over":
        return score + float(parts["production"])
    score += projected_production(s, p)
    if not p.done:
        score += TRACK_SPACE_VALUE * (TRACK_LEN - p.pos)
    if s.kegs_and_more:
        score += CART_KEG_VALUE * p.cart_kegs * min(1.0, rounds_left(s, p))
    return score


FEATURES: tuple[str, ...] = (
    "bias", "estimate", "production_now", "other_points", "least_marker", "brewmaster", "money", "track_left",
    "free_spots", "bias x left", "estimate x left", "production_now x left", "money x left",
)
"""The evaluation's features of one seat, public state only; ``x left`` ones are multiplied by the share of the
game still to play (1 at the start, 0 at the end), so a weight can change as the game goes on. Few on
purpose: a game gives one final score per seat, so the fit has only about twice as many independent
targets as games. ``bench/tune_heaven_and_ale.py`` fits their weights."""


def features(s: HAState, seat: int) -> list[float]:
    """The feature vector of ``seat`` (see :data:`FEATURES`)."""
    p = s.players[seat]
    parts = breakdown(s, seat)
    now = float(parts["production"])
    other = float(sum(v for k, v in parts.items() if k != "production"))
    estimate = other + projected_production(s, p)
    money = float(p.money)
    left = rounds_left(s, p) / s.rounds
    track_left = 0.0 if p.done else (TRACK_LEN - p.pos) / TRACK_LEN
    return [1.0, estimate, now, other, float(max(-10, min(p.markers))), float(max(-10, p.brewmaster)), money,
            track_left, float(p.discs.count(False)), left, estimate * left, now * left, money * left]


def fitted_estimate(s: HAState, seat: int, weights: Sequence[float] = WEIGHTS) -> float:
    """Final score of ``seat`` predicted by ``weights`` (the exact score once the game is over)."""
    if s.phase == "over":
        return float(sum(breakdown(s, seat).values()))
    return sum(w * f for w, f in zip(weights, features(s, seat)))


def hand_evaluate(state: HAState, seat: int) -> float:
    """The hand-made evaluation (:func:`estimate` margins): the starting point of the self-play tuning."""
    mine = estimate(state, seat)
    others = [estimate(state, i) for i in range(state.n) if i != seat]
    return mine - (max(others) if others else 0.0)


def make_evaluate(weights: Sequence[float]) -> Callable[[HAState, int], float]:
    """The evaluation with these fitted weights: predicted final score of the seat minus the best predicted
    opponent score (the tuning script tries new weights through this)."""
    if len(weights) != len(FEATURES):
        raise ValueError(f"{len(weights)} weights for {len(FEATURES)} features")
    w = tuple(weights)

    def evaluate(state: HAState, seat: int) -> float:
        values = [fitted_estimate(state, i, w) for i in range(state.n)]
        others = [v for i, v in enumerate(values) if i != seat]
        return values[seat] - (max(others) if others else 0.0)

    return evaluate


evaluate: Callable[[HAState, int], float] = make_evaluate(WEIGHTS) if len(WEIGHTS) == len(FEATURES) else hand_evaluate
"""The bots' evaluation: the fitted one (``weights.py``), or the hand-made one while no weights are fitted."""


__all__ = ["FEATURES", "evaluate", "estimate", "evened_level", "bracket_value", "features", "fitted_estimate",
           "hand_evaluate", "make_evaluate", "projected_production"]
