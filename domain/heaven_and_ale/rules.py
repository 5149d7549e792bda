"""What a seat can do now: option enumeration shared by ``legal_commands`` and ``decide``.

Pure reads of the state; the single source of truth for legality.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from domain.core import IllegalMove, RuleError

from . import delivery
from .barrels import can_claim
from .board import (
    BARREL,
    DISC_A,
    DISC_ABC,
    DISC_B,
    DISC_C,
    MONK,
    MONK_COST,
    RESOURCE,
    SLOT_FIRST,
    START_SLOTS,
    TRACK,
    TRACK_LEN,
)
from .garden import N_SIDE
from .privileges import COLOUR_SPOTS, MONK_SPOTS, X_SPOT
from .production import EMERGENCY_COIN_DUCATS
from .state import EMPTY, PLAYING, HeavenAndAleState, Player
from .supply import FERTILITIES, MONK_BASE, N_CODES

Piece = Literal["keg", "bale"]

# RULES_NOTES R4 (U9): a space is reachable when its action could be paid after emergency coins.
COINS_COUNT_FOR_REACHABILITY = True


def potential_money(p: Player) -> int:
    """Ducats now plus what the emergency coins could still bring (§3.10)."""
    return p.money + (EMERGENCY_COIN_DUCATS * len(p.cards) if COINS_COUNT_FOR_REACHABILITY else 0)


# -- buying (§3.5) -----------------------------------------------------------------------------
SUNNY_PRICE_FACTOR = 2
"""§3.5: a tile on a sunny spot costs twice its price, on a shady spot its price."""


def base_cost(code: int, space: int) -> int:
    return MONK_COST[space] if code >= MONK_BASE else code % 5 + 1


def price_on(code: int, space: int, sunny: bool) -> int:
    """What buying tile ``code`` on track space ``space`` costs for a sunny or a shady garden spot (§3.5)."""
    return base_cost(code, space) * (SUNNY_PRICE_FACTOR if sunny else 1)


def price_factor(p: Player) -> int | None:
    """The price factor of the cheapest empty spot of ``p``'s garden (shady if one is empty), None when full: the
    cheapest buy on a space is its cheapest :data:`BASE_COSTS` times this."""
    garden = p.garden
    if EMPTY in garden[N_SIDE:]:
        return 1
    return SUNNY_PRICE_FACTOR if EMPTY in garden[:N_SIDE] else None


BASE_COSTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(base_cost(code, space) for code in range(N_CODES if space in MONK_COST else MONK_BASE))
    for space in range(TRACK_LEN))
""":func:`base_cost` of each tile code on each track space (only resource codes where no monk tile lies), so the
cheapest tile of a space is one ``min`` (the move listing asks it for every space ahead, :class:`SpaceChecks`)."""


def buy_options(s: HeavenAndAleState, p: Player, space: int) -> list[tuple[int, int, int]]:
    """(tile code, spot, cost) affordable now."""
    out: list[tuple[int, int, int]] = []
    money = p.money
    empty = [spot for spot, t in enumerate(p.garden) if t == EMPTY]
    for code in sorted(set(s.tiles[space])):
        sunny, shady = price_on(code, space, sunny=True), price_on(code, space, sunny=False)
        if shady > money:
            continue  # a sunny spot costs more still
        for spot in empty:
            cost = sunny if spot < N_SIDE else shady
            if cost <= money:
                out.append((code, spot, cost))
    return out


# -- discs (§3.6) ------------------------------------------------------------------------------
def _x_spot_options(p: Player) -> list[tuple[int, int | None]]:
    # Base rules, 4 Gameplay, space A: "nominate one fertility number (1 to 5)" -- any of them (RULES_NOTES R5);
    # the x spot only needs a resource tile on the board ("a type of tile that is not present").
    if p.discs[X_SPOT] or not any(t != EMPTY and t < MONK_BASE for t in set(p.garden)):
        return []
    return [(X_SPOT, n) for n in FERTILITIES]


def _colour_spot_options(p: Player) -> list[tuple[int, int | None]]:
    colours = {t // 5 for t in set(p.garden) if t != EMPTY and t < MONK_BASE}  # each tile type once
    return [(spot, None) for spot in COLOUR_SPOTS if not p.discs[spot] and spot - 1 in colours]


def _monk_spot_options(p: Player) -> list[tuple[int, int | None]]:
    types = {t - MONK_BASE for t in set(p.garden) if t != EMPTY and t >= MONK_BASE}
    return [(spot, None) for spot in MONK_SPOTS if not p.discs[spot] and spot - MONK_SPOTS[0] in types]


DiscPart = Callable[[Player], list[tuple[int, int | None]]]
DISC_PARTS: dict[str, tuple[DiscPart, ...]] = {
    DISC_A: (_x_spot_options,), DISC_C: (_colour_spot_options,), DISC_B: (_monk_spot_options,),
    DISC_ABC: (_x_spot_options, _colour_spot_options, _monk_spot_options)}
"""The scoring spots each kind of disc space offers, in listing order (§3.6)."""


def disc_options(s: HeavenAndAleState, p: Player, space: int) -> list[tuple[int, int | None]]:
    """(scoring spot, named number) pairs the seat may choose on disc ``space``."""
    out: list[tuple[int, int | None]] = []
    for part in DISC_PARTS[TRACK[space]]:
        out.extend(part(p))
    return out


# -- Kegs & More (expansion A2, A3) ---------------------------------------------------------------
def storage_room(p: Player, money: int) -> int:
    """How many pieces ``p`` could still store with ``money`` (regular spots plus the rental spot)."""
    room = max(0, p.free_regular())
    if p.rental is None and money >= delivery.RENTAL_COST:
        room += 1
    return room


def goods_performable(s: HeavenAndAleState, p: Player, space: int, money: int) -> bool:
    return (s.kegs[space] + s.bales[space]) > 0 and storage_room(p, money) > 0


def goods_options(s: HeavenAndAleState, p: Player, space: int) -> list[tuple[int, int, Piece | None]]:
    """(kegs, bales, piece on the rental spot) takes allowed now from ``space``."""
    return store_options(p, s.kegs[space], s.bales[space], need_one=True)


def store_options(p: Player, kegs: int, bales: int, need_one: bool) -> list[tuple[int, int, Piece | None]]:
    """Ways to put up to ``kegs`` kegs and ``bales`` bales onto storage.

    Expansion A2: "In addition to your regular storage spots, you have one rental storage spot: Whenever you
    place 1 keg or 1 bale there, you must pay 4 ducats" -- no condition, so the rental spot may take a piece
    while regular spots are still free (RULES_NOTES R-K3).
    """
    free = max(0, p.free_regular())
    rental_ok = p.rental is None and p.money >= delivery.RENTAL_COST
    out: list[tuple[int, int, Piece | None]] = []
    for k in range(kegs + 1):
        for b in range(bales + 1):
            if need_one and k + b == 0:
                continue
            if k + b <= free:
                out.append((k, b, None))
            if rental_ok and 1 <= k + b <= free + 1:
                if k:
                    out.append((k, b, "keg"))
                if b:
                    out.append((k, b, "bale"))
    return out


def simulate_cart(pos: int, cart_kegs: int, steps: int, load: int) -> tuple[int, int, list[int], bool]:
    """Move a cart (expansion A3 gates). Returns (location, loaded, delivered per tavern, reached the monastery gate)."""
    loaded = 0
    delivered = [0, 0, 0]
    crossed = False
    for _ in range(steps):
        if pos == delivery.MONASTERY_GATE_AT:
            if crossed or load == 0:
                crossed = True
                break
            crossed = True
            loaded = load
            cart_kegs += load
        elif pos in delivery.TAVERN_GATES_AT:
            i = delivery.TAVERN_GATES_AT.index(pos)
            rule = delivery.TAVERN_GATE_DELIVERS[i]
            n = cart_kegs if rule is None else min(rule, cart_kegs)
            cart_kegs -= n
            delivered[i] += n
        pos = (pos + 1) % delivery.ROAD_LEN
    return pos, loaded, delivered, crossed


def cart_loads(p: Player, steps: int, from_die: bool) -> list[int]:
    """Allowed ``load`` values for a cart move of ``steps`` (empty: the move is not allowed)."""
    if steps <= 0:
        return [0] if not from_die else []
    _, _, _, crossed = simulate_cart(p.cart, p.cart_kegs, steps, 0)
    if not crossed:
        return [0]
    most = min(p.total_kegs(), p.total_bales())
    low = 1 if (from_die and p.cart == delivery.MONASTERY) else 0
    return list(range(low, most + 1))


def carter_value(s: HeavenAndAleState, p: Player) -> int:
    return s.die_value + p.carter_bonus()


def cart_performable(s: HeavenAndAleState, p: Player, space: int) -> bool:
    if s.die_space != space:
        return False
    return p.cart != delivery.MONASTERY or min(p.total_kegs(), p.total_bales()) >= 1


# -- reaching a space (§3.4, expansion A) ------------------------------------------------------
class SpaceChecks:
    """Whether a seat can perform the action of a space, for any number of spaces (§3.4, expansion A): what does
    not depend on the space (the money with emergency coins, the garden's price factor, the barrels it could
    claim, each part of the disc spots) is asked at most once, so listing the moves asks it once rather than for
    each space."""

    __slots__ = ("s", "p", "seat", "money", "factor", "_barrels", "_discs")

    def __init__(self, s: HeavenAndAleState, seat: int) -> None:
        self.s, self.seat, self.p = s, seat, s.players[seat]
        self.money = potential_money(self.p)
        self.factor = price_factor(self.p)
        self._barrels: bool | None = None
        self._discs: dict[DiscPart, bool] = {}

    def base(self, space: int) -> bool:
        """The base game's action of ``space`` can be performed (on a tile space: some tile there is affordable)."""
        s, kind = self.s, TRACK[space]
        if kind == RESOURCE or kind == MONK:  # the cheapest tile there, on the garden's cheapest empty spot
            tiles, factor = s.tiles[space], self.factor
            return bool(tiles) and factor is not None and min(map(BASE_COSTS[space].__getitem__, tiles)) * factor <= self.money
        if kind == BARREL:
            if self._barrels is None:
                self._barrels = can_claim(s, self.seat)
            return self._barrels
        return s.discs[space] > 0 and any(self._disc_part(part) for part in DISC_PARTS[kind])

    def _disc_part(self, part: DiscPart) -> bool:
        """Some scoring spot of ``part`` is open to the seat (:func:`disc_options` is not empty)."""
        got = self._discs.get(part)
        if got is None:
            got = self._discs[part] = bool(part(self.p))
        return got

    def reachable(self, space: int) -> bool:
        """The figure may move to ``space``: some action there can be performed."""
        if self.base(space):
            return True
        s = self.s
        if s.kegs_and_more:
            return goods_performable(s, self.p, space, self.money) or cart_performable(s, self.p, space)
        return False


def reachable(s: HeavenAndAleState, seat: int, space: int) -> bool:
    return SpaceChecks(s, seat).reachable(space)


def reachable_spaces(s: HeavenAndAleState, seat: int, spaces: range) -> list[int]:
    """The spaces of ``spaces`` the seat may move to, in order (one :class:`SpaceChecks` for them all)."""
    checks = SpaceChecks(s, seat)
    return [space for space in spaces if checks.reachable(space)]


def free_slots(s: HeavenAndAleState, seat: int, forced: bool) -> list[int]:
    """Starting spaces the seat may take; ``forced`` applies the last-player rule (§3.4 step 6)."""
    # A figure still standing on a starting space leaves it when it moves (RULES_NOTES R3).
    free = [i for i, who in enumerate(s.slots) if who == EMPTY or who == seat]
    first = START_SLOTS.index(SLOT_FIRST)
    if forced and first in free and all(q.done for i, q in enumerate(s.players) if i != seat):
        return [first]
    return free


def later_stage_performable(s: HeavenAndAleState, seat: int, step: str) -> bool:
    """Kegs & More A: whether an action after ``step`` on this space can still be performed."""
    p = s.players[seat]
    space = s.space
    if step not in ("goods", "cart") and goods_performable(s, p, space, potential_money(p)):
        return True
    if step != "cart" and cart_performable(s, p, space):
        return True
    return False


def effective_pos(p: Player) -> int:
    return TRACK_LEN if p.done else p.pos


def step_error(s: HeavenAndAleState, *steps: str) -> RuleError | None:
    """The error of a command whose decision is not the current one (None when one of ``steps`` is)."""
    if s.phase != PLAYING or s.step not in steps:
        return IllegalMove(f"not possible now: the current decision is {s.step or s.phase!r}, not {'/'.join(steps)}")
    return None
