"""Barrel goals and claiming (heaven-and-ale.md §3.11; Kegs & More "The goal of the new barrels").

Each goal has one large (first claim) and one small barrel (second claim).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from . import delivery
from .garden import N_SIDE
from .privileges import COLOUR_SPOTS, DECLINED, MONK_SPOTS
from .production import TRACK_MAX
from .state import EMPTY, HeavenAndAleState, Player
from .supply import MONK_BASE

# Base rulebook, final scoring step 2: "4 points for each large barrel and 2 points for each small barrel you
# have collected". Kegs & More D: "Work out your score according to the base game rules", so the new barrels
# score the same (RULES_NOTES R-K15): there is no separate value for them.
LARGE_VP = 4
SMALL_VP = 2


def _placed_cards(p: Player) -> int:
    return sum(1 for c in p.pairs if c is not None and c != DECLINED)


def _fertility_count(p: Player, fert: int) -> int:
    """Resource tiles of fertility ``fert`` in the garden (codes ``fert - 1`` + 5 * colour)."""
    garden = p.garden
    return sum(garden.count(code) for code in range(fert - 1, MONK_BASE, 5))


def _max_same_shed(p: Player) -> int:
    kinds = [k for k in p.sheds if k != EMPTY]
    return max((kinds.count(k) for k in set(kinds)), default=0)


# §3.11 [RB]: the 12 goals, in a fixed order (the goal id is the index).
GOALS: tuple[tuple[str, Callable[[Player], bool]], ...] = (
    ("3 privilege cards placed", lambda p: _placed_cards(p) >= 3),
    ("4 different shed types", lambda p: len({k for k in p.sheds if k != EMPTY}) >= 4),
    ("3 sheds of one type", lambda p: _max_same_shed(p) >= 3),
    ("a resource marker on 20", lambda p: max(p.markers) >= TRACK_MAX),
    ("all sunny spots filled", lambda p: EMPTY not in p.garden[:N_SIDE]),
    ("all shady spots filled", lambda p: EMPTY not in p.garden[N_SIDE:]),
    ("6 resource tiles of fertility 1", lambda p: _fertility_count(p, 1) >= 6),
    ("6 resource tiles of fertility 5", lambda p: _fertility_count(p, 5) >= 6),
    ("all resource markers on 1 or beyond", lambda p: min(p.markers) >= 1),
    ("brewmaster on 1 or beyond", lambda p: p.brewmaster >= 1),
    ("discs on all 4 monk spots", lambda p: all(p.discs[s] for s in MONK_SPOTS)),
    ("discs on all 5 resource spots", lambda p: all(p.discs[s] for s in COLOUR_SPOTS)),
)
# Kegs & More [RT]: the new barrel.
NEW_GOAL: tuple[str, Callable[[Player], bool]] = (
    f"{delivery.NEW_BARREL_KEGS} kegs delivered", lambda p: sum(p.delivered) >= delivery.NEW_BARREL_KEGS)


def goals(kegs_and_more: bool) -> tuple[tuple[str, Callable[[Player], bool]], ...]:
    return GOALS + ((NEW_GOAL,) if kegs_and_more else ())


def barrel_vp(goal: int, large: bool) -> int:
    """Every barrel, base or new, scores by its size (the ``goal`` does not matter)."""
    return LARGE_VP if large else SMALL_VP


def _claims(s: HeavenAndAleState, seat: int) -> Iterator[tuple[int, bool]]:
    """(goal, large) of each barrel ``seat`` would take now (§3.11: large first, else small), in goal order."""
    p = s.players[seat]
    for g, (_, achieved) in enumerate(goals(s.kegs_and_more)):
        if g in p.large or g in p.small:
            continue
        if s.large[g] == EMPTY:
            if achieved(p):
                yield g, True
        elif s.small[g] == EMPTY and achieved(p):
            yield g, False


def claimable(s: HeavenAndAleState, seat: int) -> tuple[list[int], list[int]]:
    """Goals whose large / small barrel ``seat`` would take now (§3.11: large first, else small)."""
    large: list[int] = []
    small: list[int] = []
    for g, is_large in _claims(s, seat):
        (large if is_large else small).append(g)
    return large, small


def can_claim(s: HeavenAndAleState, seat: int) -> bool:
    """``seat`` would take some barrel now (:func:`claimable` is not empty), asking the goals only up to the first."""
    return next(_claims(s, seat), None) is not None
