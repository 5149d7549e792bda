"""The legal commands of a seat, fast: what ``actions.check`` accepts among ``actions.candidates``, in that order.

``actions.check`` stays the one source of truth for legality (``decide`` raises what it returns); this module
answers the same question without building an error for every refused candidate, which was most of a random
game's time (bench/tiefenthal_bench.py). The turn part of ``check`` (game over, seat to act) is the same for
every candidate of one seat, so it is asked once; dice placements, the bulk of the candidates in phases E and
F, are tested on figures taken once per call (dishwasher capacity and use, dice per space). Equality with the
filtered candidates is tested at every step of seeded games (tests/domain/tiefenthal/test_legal_fast.py).
"""

from __future__ import annotations

from domain.core import Command

from . import actions
from . import commands as cmd
from .actions import RULES, _c, candidates, returnable, to_act
from .cards import CARDS, TAVERN_TYPES
from .state import OVER, Player, TiefenthalState
from .tavern import TABLE_PREFIX, TILE_SPACES, UPGRADABLE, boost_needed, upgrade_price


def _boosts(accepts: frozenset[int]) -> tuple[int | None, ...]:
    """Dishwasher steps a die of each value 0..6 needs to go on a space taking ``accepts`` (None: it cannot)."""
    return tuple(boost_needed(value, accepts) for value in range(7))


_FIXED_RULES: dict[str, tuple[tuple[int | None, ...], int | None]] = {
    t: (_boosts(sp.dice), sp.limit) for t, sp in TILE_SPACES.items()}
_FIXED_LIST: tuple[tuple[str, tuple[int | None, ...], int | None], ...] = tuple(
    (t, boosts, limit) for t, (boosts, limit) in _FIXED_RULES.items())
_CARD_BOOSTS: dict[int, tuple[int | None, ...]] = {card: _boosts(c.dice) for card, c in enumerate(CARDS) if c.dice}


def legal_commands(s: TiefenthalState, seat: int) -> list[Command]:
    """``[c for c in candidates(s, seat) if check(s, c) is None]``, computed without the refusals' errors."""
    if s.phase == OVER or not 0 <= seat < s.n or seat not in to_act(s):
        return []
    p = s.players[seat]
    if not p.pending and s.phase in ("B", "D"):
        return candidates(s, seat)  # keep or redraw; a value on the held coaster: every candidate is legal
    if not p.pending and s.phase in ("E", "F"):
        out = _placements(s, p, seat)
        if s.phase == "E":
            out.append(_c(cmd.FinishPlanning, seat))
            return out
        return out + _turn_commands(s, p, seat)
    return [c for c in candidates(s, seat) if _allowed(s, p, c)]


def _allowed(s: TiefenthalState, p: Player, c: Command) -> bool:
    """``check(s, c) is None`` for a candidate of a seat that may act now (the turn checks passed)."""
    rule = RULES[type(c)]
    if s.phase not in rule.phases:
        return False
    if s.phase == "F" and p.pending and not isinstance(c, cmd.ChooseBonus):
        return False
    return rule.error(s, c) is None


def _space_rules(p: Player) -> list[tuple[str, tuple[int | None, ...], int | None]]:
    """Each action space of ``spaces_of(p)``, in that order: (id, boost by die value, dice limit)."""
    out = list(_FIXED_LIST)
    for i, table in enumerate(p.tables):
        boosts = _CARD_BOOSTS.get(table[-1])
        out.append((f"{TABLE_PREFIX}{i}", boosts if boosts is not None else _boosts(CARDS[table[-1]].dice), 1))
    return out


def _placements(s: TiefenthalState, p: Player, seat: int) -> list[Command]:
    """The legal PlaceDie commands, as ``actions._check_place`` decides them, in candidate order."""
    free_steps = p.boost_capacity() - p.boost_in_use()
    planning = s.phase == "E"
    rules = _open_spaces(p)
    out: list[Command] = []
    for die in sorted(p.dice):
        current = p.placed.get(die)
        if planning and current is not None:
            continue
        value = p.dice[die]
        free = free_steps + (current[1] if current else 0)
        here = current[0] if current else None
        for space, boosts in rules:
            boost = boosts[value] if value < len(boosts) else None  # dice show 1..6; past 6 nothing fits
            if space != here and boost is not None and not (boost and boost > free):
                out.append(_c(cmd.PlaceDie, seat, die, space))
    return out


def _open_spaces(p: Player) -> list[tuple[str, tuple[int | None, ...]]]:
    """The spaces that may take one more die (``actions._space_full``: a space with a limit takes that many a
    round, none once used this round; the die being moved is never on the space it goes to), with their boosts."""
    on_space: dict[str, int] = {}
    for sp, _ in p.placed.values():
        on_space[sp] = on_space.get(sp, 0) + 1
    return [(space, boosts) for space, boosts, limit in _space_rules(p)
            if limit is None or (space not in p.used_spaces and on_space.get(space, 0) < limit)]


def _turn_commands(s: TiefenthalState, p: Player, seat: int) -> list[Command]:
    """The legal phase F commands besides placing dice, as ``actions._turn_candidates`` lists and the rules'
    ``error`` functions accept them (take back, buy, upgrade, recruit, counter guest, end the turn)."""
    out: list[Command] = [_c(cmd.TakeDie, seat, die) for die in sorted(p.placed)]
    for kind in TAVERN_TYPES:
        stack = s.supply[kind]
        if p.bought.count(kind) < actions.PER_TYPE and stack and p.doubloons >= CARDS[stack[-1]].cost:
            out.append(_c(cmd.BuyCard, seat, kind))
    for tile in UPGRADABLE:
        if tile not in p.upgraded:
            out.extend(_c(cmd.UpgradeTile, seat, tile, r) for r in range(returnable(p, tile) + 1)
                       if p.doubloons >= upgrade_price(tile, r))
    out.extend(_recruits(s, p, seat))
    if p.counter_guests > 0:
        out.append(_c(cmd.UseCounterGuest, seat))
    out.append(_c(cmd.EndTurn, seat))
    return out


def _recruits(s: TiefenthalState, p: Player, seat: int) -> list[Command]:
    """The legal RecruitGuest and RecruitNobles commands, in candidate order."""
    out: list[Command] = []
    if p.recruited < actions.GUEST_RECRUITS:
        guests = s.display + s.three_beer[-1:]
        out.extend(_c(cmd.RecruitGuest, seat, card) for card in guests if p.beer >= CARDS[card].cost)
    if actions.NOBLE_RECRUITS_PER_ROUND is None or p.noble_recruits < actions.NOBLE_RECRUITS_PER_ROUND:
        nobles = len(s.supply["noble"])
        out.extend(_c(cmd.RecruitNobles, seat, k) for k, price in actions.NOBLE_PRICES.items()
                   if nobles >= k and p.beer >= price)
    return out
