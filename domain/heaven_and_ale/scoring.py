"""Final scoring (heaven-and-ale.md §3.14; Kegs & More D). Exact: half points are Fractions."""

from __future__ import annotations

from fractions import Fraction

from . import delivery
from .barrels import barrel_vp
from .board import FIRST_PLAYER_VP, SLOT_FIRST, START_SLOTS
from .privileges import CARD_BARRELS, CARD_BARRELS_VP
from .production import FINAL_DUCATS_PER_STEP, TRACK_MAX, bracket
from .state import HeavenAndAleState, Player


def exchange(markers: list[int], rate: int) -> list[int]:
    """§3.14 A (U12): move markers back ``rate`` steps in total per step of the least advanced one, while no
    marker would fall below the raised one. Steps are taken from the most advanced markers first."""
    m = sorted(markers)
    level = m[0]
    while level < TRACK_MAX:
        t = level + 1
        deficit = sum(t - x for x in m if x < t)
        surplus = sum(x - t for x in m if x > t)
        if rate * deficit > surplus:
            break
        level = t
    if level == m[0]:
        return m
    need = rate * sum(level - x for x in m if x < level)
    m = [max(x, level) for x in m]
    while need:  # take one step at a time from the highest marker
        i = max(range(len(m)), key=lambda j: m[j])
        m[i] -= 1
        need -= 1
    return sorted(m)


def buy_steps(markers: list[int], steps: int) -> list[int]:
    """§3.14 B: each 10 ducats moves one marker a step; always the least advanced (cap 20)."""
    m = sorted(markers)
    for _ in range(steps):
        if m[0] >= TRACK_MAX:
            break
        m[0] += 1
        m.sort()
    return m


def production(p: Player) -> tuple[int, int, int]:
    """(production VP, least advanced spot after evening out, VP value of the bracket)."""
    rate, value = bracket(p.brewmaster)
    m = exchange(p.markers, rate)
    m = buy_steps(m, p.money // FINAL_DUCATS_PER_STEP)
    low = max(0, min(m))
    return low * value, low, value


def keg_points(p: Player) -> tuple[int, Fraction, int]:
    """Kegs & More D: (delivered VP, stored keg VP, kegs-on-cart VP)."""
    delivered = 0
    for area, n in enumerate(p.delivered):
        covered = p.area_values[area]
        delivered += n * (covered if covered is not None else delivery.KEG_AREA_VALUES[area])
    stored = Fraction(p.total_kegs() * delivery.STORED_KEG_VP_HALVES, 2)
    cart = p.cart_kegs * delivery.ROAD[p.cart][1]
    return delivered, stored, cart


def breakdown(s: HeavenAndAleState, seat: int, with_production: bool = True) -> dict[str, int | Fraction | float]:
    """The score sheet of ``seat``; without ``production`` (the dearest part) when ``with_production`` is False."""
    p = s.players[seat]
    out: dict[str, int | Fraction | float] = {
        "production": production(p)[0] if with_production else 0,
        "large_barrels": sum(barrel_vp(g, True) for g in p.large),
        "small_barrels": sum(barrel_vp(g, False) for g in p.small),
        "barrel_privilege": CARD_BARRELS_VP * (len(p.large) + len(p.small)) if CARD_BARRELS in p.pairs else 0,
        "first_player": FIRST_PLAYER_VP if p.slot == START_SLOTS.index(SLOT_FIRST) else 0,
    }
    if s.kegs_and_more:
        delivered, stored, cart = keg_points(p)
        out["kegs_delivered"] = delivered
        out["kegs_stored"] = stored
        out["kegs_on_cart"] = cart
    return out


def total(s: HeavenAndAleState, seat: int) -> Fraction:
    return sum((Fraction(v) for v in breakdown(s, seat).values()), Fraction(0))


def preview(s: HeavenAndAleState, seat: int) -> dict[str, object]:
    """What the final scoring would give if the game ended now (§3.14): the markers after the exchange and the
    ducat purchases, the least of them, and the score sheet. The same code scores the real end."""
    p = s.players[seat]
    rate, value = bracket(p.brewmaster)
    m = buy_steps(exchange(p.markers, rate), p.money // FINAL_DUCATS_PER_STEP)
    sheet = breakdown(s, seat)
    return {
        "markers_after_exchange_sorted": m,  # the exchange moves steps between colours, so no colour names
        "least_marker": max(0, min(m)),
        "vp_per_spot": value,
        "breakdown": {k: float(v) for k, v in sheet.items()},
        "total": float(sum((Fraction(v) for v in sheet.values()), Fraction(0))),
    }
