"""Player decisions: the draft (D), planning (E), the turn (F) and bonus choices.

``check(state, command)`` is the one source of truth for legality: ``decide`` raises
what it returns and ``legal_commands`` keeps the candidates it accepts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.core import Command, IllegalMove, InvalidCommand, NotYourTurn, RuleError

from . import commands as cmd
from . import data
from . import events as ev
from .cards import CARDS, TAVERN_TYPES
from .flow import COUNTER_GUEST_USE, Ctx, advance, fill_tavern, grant, move_monastery, upgrade
from .state import OVER, Player, TiefenthalState
from .tavern import (
    DISCOUNT_CARD,
    PER_CARD,
    TILE_SPACES,
    TILE_VALUES,
    UPGRADABLE,
    boost_needed,
    per_card_bonus,
    table_index,
    upgrade_price,
)

NOBLE_PRICES: dict[int, int] = dict(data.NOBLE_PRICES.value)
NOBLE_RECRUITS_PER_ROUND: int | None = data.NOBLE_RECRUITS_PER_ROUND.value
"""How many times a seat may recruit nobles in its (one) phase F turn; None = no limit (RULES_NOTES readings)."""
GUEST_RECRUITS: int = data.GUEST_RECRUITS_PER_ROUND.value
PER_TYPE: int = data.TAVERN_CARDS_PER_TYPE_PER_ROUND.value


# -- who may act ------------------------------------------------------------------------

def to_act(s: TiefenthalState) -> list[int]:
    """Seats that must act now: several in the simultaneous phases A and E, one in D and F."""
    if s.phase == "A":
        return [p.seat for p in s.players if p.pending]
    if s.phase == "B":
        return [p.seat for p in s.players if not p.kept and p.counter_guests > 0] if s.redraw else []
    if s.phase == "D":
        return [s.picker()]
    if s.phase == "E":
        return [p.seat for p in s.players if not p.planned]
    if s.phase == "F":
        return [s.active]
    return []


def _turn_error(s: TiefenthalState, seat: int, phases: str, what: str) -> RuleError | None:
    if s.phase == OVER:
        return IllegalMove("the game is over")
    if not 0 <= seat < s.n:
        return NotYourTurn(f"seat {seat} is not in this game")
    # Not your turn only while other seats must act; a wrong move on one's own turn is an illegal move.
    if seat not in to_act(s):
        return NotYourTurn(f"seat {seat} may not act now; waiting for seats {to_act(s)}")
    if s.phase not in phases:
        return IllegalMove(f"{what} is not possible in phase {s.phase}")
    if s.phase == "F" and s.players[seat].pending and what != "ChooseBonus":
        return IllegalMove(f"seat {seat} must first choose a pending bonus (ChooseBonus)")
    return None


# -- phase E/F helpers ------------------------------------------------------------------

def space_rule(p: Player, space: str) -> tuple[frozenset[int], int | None] | None:
    """(accepted die values, dice limit) of one of the player's action spaces, or None if no such space."""
    t = TILE_SPACES.get(space)
    if t is not None:
        return t.dice, t.limit
    i = table_index(space)
    if i is None or not 0 <= i < len(p.tables):
        return None
    return CARDS[p.tables[i][-1]].dice, 1  # only the topmost noble of a stack takes a die


def spaces_of(p: Player) -> list[str]:
    return list(TILE_SPACES) + [f"table:{i}" for i in range(len(p.tables))]


def _check_place(s: TiefenthalState, c: cmd.PlaceDie) -> RuleError | None:
    p = s.players[c.seat]
    if c.die not in p.dice:
        return IllegalMove(f"die {c.die} is not one of your dice in play")
    current = p.placed.get(c.die)
    if s.phase == "E" and current is not None:
        return IllegalMove(f"die {c.die} is already planned; move it in phase F")
    if current is not None and current[0] == c.space:
        return IllegalMove(f"die {c.die} is already on {c.space}")
    rule = space_rule(p, c.space)
    if rule is None:
        return InvalidCommand(f"no action space {c.space!r} in your tavern")
    accepts, limit = rule
    value = p.dice[c.die]
    boost = boost_needed(value, accepts)
    if boost is None:
        return IllegalMove(f"a {value} cannot go on {c.space} (it takes {sorted(accepts)}; dice never go past 6)")
    in_use = p.boost_in_use() - (current[1] if current else 0)
    if boost and in_use + boost > p.boost_capacity():
        return IllegalMove(f"a {value} needs {boost} dishwasher(s) for {c.space}; "
                           f"{p.boost_capacity() - in_use} free")
    return _space_full(p, c, limit)


def _space_full(p: Player, c: cmd.PlaceDie, limit: int | None) -> RuleError | None:
    """A space with a limit takes that many dice a round, and none once it was used this round."""
    if limit is None:
        return None
    if c.space in p.used_spaces:
        return IllegalMove(f"{c.space} was already used this round")
    on = sum(1 for d, (sp, _) in p.placed.items() if sp == c.space and d != c.die)
    if on >= limit:
        return IllegalMove(f"{c.space} takes only {limit} die")
    return None


def place_boost(p: Player, die: int, space: str) -> int:
    rule = space_rule(p, space)
    assert rule is not None
    return boost_needed(p.dice[die], rule[0]) or 0


def die_yield(p: Player, space: str) -> tuple[int, int, int]:
    """(doubloons, beer, monastery steps) for removing one die from ``space`` now (Action Spaces Explained)."""
    t = TILE_SPACES.get(space)
    if t is None:
        i = table_index(space)
        assert i is not None
        return CARDS[p.tables[i][-1]].pay, 0, 0
    amount = p.tile(space)
    if space in PER_CARD:
        amount += per_card_bonus(space, space in p.upgraded) * p.n_staff(DISCOUNT_CARD.get(space, space))
    if t.gives == "doubloons":
        return amount, 0, 0
    if t.gives == "beer":
        return 0, amount, 0
    return 0, 0, amount


def returnable(p: Player, tile: str) -> int:
    """How many matching tavern cards may go back for the special offer.

    Dishwashers already used to raise dice cannot be returned (RULES_NOTES)."""
    card = DISCOUNT_CARD.get(tile)
    if card is None:
        return 0
    n = p.n_staff(card)
    if card == "dishwasher":
        spare = p.boost_capacity() + (TILE_VALUES[tile][1] - TILE_VALUES[tile][0]) - p.boost_in_use()
        n = min(n, max(0, spare))
    return n


# -- one rule per command: when, the check that returns the error, the handler -------------

def _pick_error(s: TiefenthalState, c: cmd.PickDie) -> RuleError | None:
    values = [s.die_value[d] for d in s.coasters[s.held_coaster(c.seat)]]
    if c.value not in values:
        return IllegalMove(f"no {c.value} on your coaster (it shows {sorted(values)})")
    return None


def _choose_error(s: TiefenthalState, c: cmd.ChooseBonus) -> RuleError | None:
    p = s.players[c.seat]
    if not p.pending:
        return IllegalMove("no bonus choice is pending")
    if not 0 <= c.option < len(p.pending[0]):
        return InvalidCommand(f"option {c.option} out of range 0..{len(p.pending[0]) - 1}")
    return None


def _take_error(s: TiefenthalState, c: cmd.TakeDie) -> RuleError | None:
    if c.die not in s.players[c.seat].placed:
        return IllegalMove(f"die {c.die} is not on an action space")
    return None


def _buy_error(s: TiefenthalState, c: cmd.BuyCard) -> RuleError | None:
    p = s.players[c.seat]
    if c.card_type not in TAVERN_TYPES:
        return InvalidCommand(f"unknown tavern card type {c.card_type!r}; one of {list(TAVERN_TYPES)}")
    if p.bought.count(c.card_type) >= PER_TYPE:
        return IllegalMove(f"you already bought a {c.card_type} this round")
    if not s.supply[c.card_type]:
        return IllegalMove(f"no {c.card_type} cards left")
    price = CARDS[s.supply[c.card_type][-1]].cost
    if p.doubloons < price:
        return IllegalMove(f"a {c.card_type} costs {price} doubloons; you have {p.doubloons}")
    return None


def _upgrade_error(s: TiefenthalState, c: cmd.UpgradeTile) -> RuleError | None:
    p = s.players[c.seat]
    if c.tile not in UPGRADABLE:
        return InvalidCommand(f"tile {c.tile!r} cannot be upgraded; one of {list(UPGRADABLE)}")
    if c.tile in p.upgraded:
        return IllegalMove(f"{c.tile} is already upgraded")
    if not 0 <= c.returned <= returnable(p, c.tile):
        return IllegalMove(f"you can return 0 to {returnable(p, c.tile)} cards for {c.tile}, not {c.returned}")
    price = upgrade_price(c.tile, c.returned)
    if p.doubloons < price:
        return IllegalMove(f"upgrading {c.tile} costs {price} doubloons; you have {p.doubloons}")
    return None


def _recruit_guest_error(s: TiefenthalState, c: cmd.RecruitGuest) -> RuleError | None:
    p = s.players[c.seat]
    if p.recruited >= GUEST_RECRUITS:
        return IllegalMove("you already recruited a guest this round")
    if c.card not in s.display and not (s.three_beer and c.card == s.three_beer[-1]):
        return IllegalMove(f"card {c.card} is not on display")
    price = CARDS[c.card].cost
    if p.beer < price:
        return IllegalMove(f"card {c.card} costs {price} beer; you have {p.beer}")
    return None


def _recruit_nobles_error(s: TiefenthalState, c: cmd.RecruitNobles) -> RuleError | None:
    p = s.players[c.seat]
    if c.count not in NOBLE_PRICES:
        return InvalidCommand(f"recruit {sorted(NOBLE_PRICES)} nobles, not {c.count}")
    if NOBLE_RECRUITS_PER_ROUND is not None and p.noble_recruits >= NOBLE_RECRUITS_PER_ROUND:
        return IllegalMove("you already recruited nobles this turn")
    if len(s.supply["noble"]) < c.count:
        return IllegalMove(f"only {len(s.supply['noble'])} nobles left")
    if p.beer < NOBLE_PRICES[c.count]:
        return IllegalMove(f"{c.count} noble(s) cost {NOBLE_PRICES[c.count]} beer; you have {p.beer}")
    return None


def _counter_guest_error(s: TiefenthalState, c: cmd.UseCounterGuest) -> RuleError | None:
    if s.players[c.seat].counter_guests <= 0:
        return IllegalMove("you have no counter guest")
    return None


def _no_error(s: TiefenthalState, c: Command) -> RuleError | None:
    return None


def _keep(ctx: Ctx, c: cmd.KeepTavern, rng: random.Random) -> bool:
    ctx.emit(ev.TavernKept(seat=c.seat))
    return True


def _redraw(ctx: Ctx, c: cmd.RedrawTavern, rng: random.Random) -> bool:
    ctx.emit(ev.CounterGuestUsed(seat=c.seat))
    ctx.emit(ev.TavernCleared(seat=c.seat))
    fill_tavern(ctx, c.seat, rng)
    return True


def _pick(ctx: Ctx, c: cmd.PickDie, rng: random.Random) -> bool:
    s = ctx.state
    coaster = s.coasters[s.held_coaster(c.seat)]
    die = min(d for d in coaster if s.die_value[d] == c.value)
    ctx.emit(ev.DiePicked(seat=c.seat, die=die))
    return True


def _place(ctx: Ctx, c: cmd.PlaceDie, rng: random.Random) -> bool:
    p = ctx.state.players[c.seat]
    ctx.emit(ev.DiePlaced(seat=c.seat, die=c.die, space=c.space, boost=place_boost(p, c.die, c.space)))
    return False


def _finish_planning(ctx: Ctx, c: cmd.FinishPlanning, rng: random.Random) -> bool:
    ctx.emit(ev.PlanningFinished(seat=c.seat))
    return True


def _choose(ctx: Ctx, c: cmd.ChooseBonus, rng: random.Random) -> bool:
    option = ctx.state.players[c.seat].pending[0][c.option]
    ctx.emit(ev.BonusChosen(seat=c.seat, option=option))
    grant(ctx, c.seat, option, "choice")
    return True


def _take(ctx: Ctx, c: cmd.TakeDie, rng: random.Random) -> bool:
    p = ctx.state.players[c.seat]
    space = p.placed[c.die][0]
    doubloons, beer, steps = die_yield(p, space)
    ctx.emit(ev.DieTaken(seat=c.seat, die=c.die, space=space, doubloons=doubloons, beer=beer))
    if steps:
        move_monastery(ctx, c.seat, steps)
    return False


def _buy(ctx: Ctx, c: cmd.BuyCard, rng: random.Random) -> bool:
    card = ctx.state.supply[c.card_type][-1]
    ctx.emit(ev.CardBought(seat=c.seat, card=card, price=CARDS[card].cost))
    return False


def _upgrade(ctx: Ctx, c: cmd.UpgradeTile, rng: random.Random) -> bool:
    p = ctx.state.players[c.seat]
    kind = DISCOUNT_CARD.get(c.tile)
    returned = p.staff.get(kind, [])[-c.returned:] if (kind and c.returned) else []
    upgrade(ctx, c.seat, c.tile, list(returned), upgrade_price(c.tile, c.returned))
    return False


def _recruit_guest(ctx: Ctx, c: cmd.RecruitGuest, rng: random.Random) -> bool:
    s = ctx.state
    refill = None
    if (c.card in s.display or len(s.three_beer) == 1) and s.guest_deck:
        refill = s.guest_deck[rng.randrange(len(s.guest_deck))]
    ctx.emit(ev.GuestRecruited(seat=c.seat, card=c.card, price=CARDS[c.card].cost, refill=refill))
    bonus = CARDS[c.card].bonus
    if bonus:
        grant(ctx, c.seat, bonus, f"guest {c.card}")
    return False


def _recruit_nobles(ctx: Ctx, c: cmd.RecruitNobles, rng: random.Random) -> bool:
    cards = ctx.state.supply["noble"][-c.count:]
    ctx.emit(ev.NoblesRecruited(seat=c.seat, cards=list(reversed(cards)), price=NOBLE_PRICES[c.count]))
    return False


def _use_counter_guest(ctx: Ctx, c: cmd.UseCounterGuest, rng: random.Random) -> bool:
    ctx.emit(ev.CounterGuestUsed(seat=c.seat))
    grant(ctx, c.seat, COUNTER_GUEST_USE, "counter guest")
    return False


def _end_turn(ctx: Ctx, c: cmd.EndTurn, rng: random.Random) -> bool:
    p = ctx.state.players[c.seat]
    d, b = min(p.doubloons, p.tile("safe")), min(p.beer, p.tile("storage"))
    ctx.emit(ev.TurnEnded(seat=c.seat, stored_doubloons=d, stored_beer=b,
                          lost_doubloons=p.doubloons - d, lost_beer=p.beer - b))
    return True


@dataclass(frozen=True)
class Rule:
    """One command's rule: the phases it is played in, why it is refused (None: it is not), and its handler,
    which emits the events and answers whether the automatic steps of the round follow."""

    phases: str
    error: Callable[[TiefenthalState, Any], RuleError | None]
    handle: Callable[[Ctx, Any, random.Random], bool]


RULES: dict[type[Command], Rule] = {
    cmd.KeepTavern: Rule("B", _no_error, _keep),
    cmd.RedrawTavern: Rule("B", _no_error, _redraw),
    cmd.PickDie: Rule("D", _pick_error, _pick),
    cmd.PlaceDie: Rule("EF", _check_place, _place),
    cmd.FinishPlanning: Rule("E", _no_error, _finish_planning),
    cmd.ChooseBonus: Rule("AF", _choose_error, _choose),
    cmd.TakeDie: Rule("F", _take_error, _take),
    cmd.BuyCard: Rule("F", _buy_error, _buy),
    cmd.UpgradeTile: Rule("F", _upgrade_error, _upgrade),
    cmd.RecruitGuest: Rule("F", _recruit_guest_error, _recruit_guest),
    cmd.RecruitNobles: Rule("F", _recruit_nobles_error, _recruit_nobles),
    cmd.UseCounterGuest: Rule("F", _counter_guest_error, _use_counter_guest),
    cmd.EndTurn: Rule("F", _no_error, _end_turn),
}


def check(s: TiefenthalState, c: Command) -> RuleError | None:
    """Why ``c`` is not allowed now, or None when it is (the one source of truth for legality)."""
    rule = RULES.get(type(c))
    if rule is None:
        return InvalidCommand(f"unknown command {c.type!r}")
    return _turn_error(s, c.seat, rule.phases, type(c).__name__) or rule.error(s, c)


def execute(ctx: Ctx, c: Command, rng: random.Random) -> None:
    """Emit the events of an accepted command, then run the automatic steps that follow (if they do)."""
    if RULES[type(c)].handle(ctx, c, rng):
        advance(ctx, rng)


# -- candidates for legal_commands ---------------------------------------------------------

_CACHE: dict[tuple[Any, ...], Command] = {}


def _c(kind: type[Command], seat: int, *args: Any) -> Command:
    key = (kind, seat) + args
    got = _CACHE.get(key)
    if got is None:
        names = [n for n in kind.model_fields if n not in ("type", "seat")]
        got = kind(seat=seat, **dict(zip(names, args)))
        _CACHE[key] = got
    return got


def candidates(s: TiefenthalState, seat: int) -> list[Command]:
    """A superset of the legal commands of ``seat`` (each is then checked)."""
    if s.phase == OVER or seat not in to_act(s):
        return []
    p = s.players[seat]
    if p.pending:
        return [_c(cmd.ChooseBonus, seat, i) for i in range(len(p.pending[0]))]
    if s.phase == "B":
        return [_c(cmd.KeepTavern, seat), _c(cmd.RedrawTavern, seat)]
    if s.phase == "D":
        values = sorted({s.die_value[d] for d in s.coasters[s.held_coaster(seat)]})
        return [_c(cmd.PickDie, seat, v) for v in values]
    out = _placements(s, p, seat)
    if s.phase == "E":
        out.append(_c(cmd.FinishPlanning, seat))
        return out
    return out + _turn_candidates(s, p, seat)


def _placements(s: TiefenthalState, p: Player, seat: int) -> list[Command]:
    spaces = spaces_of(p)
    return [_c(cmd.PlaceDie, seat, die, space) for die in sorted(p.dice)
            if not (s.phase == "E" and die in p.placed) for space in spaces]


def _turn_candidates(s: TiefenthalState, p: Player, seat: int) -> list[Command]:
    """Phase F besides placing dice: take a die back, buy, upgrade, recruit, use a counter guest, end."""
    out: list[Command] = [_c(cmd.TakeDie, seat, die) for die in sorted(p.placed)]
    out.extend(_c(cmd.BuyCard, seat, t) for t in TAVERN_TYPES)
    for tile in UPGRADABLE:
        if tile not in p.upgraded:
            out.extend(_c(cmd.UpgradeTile, seat, tile, r) for r in range(returnable(p, tile) + 1))
    out.extend(_c(cmd.RecruitGuest, seat, card) for card in s.display)
    if s.three_beer:
        out.append(_c(cmd.RecruitGuest, seat, s.three_beer[-1]))
    out.extend(_c(cmd.RecruitNobles, seat, k) for k in NOBLE_PRICES)
    out.append(_c(cmd.UseCounterGuest, seat))
    out.append(_c(cmd.EndTurn, seat))
    return out
