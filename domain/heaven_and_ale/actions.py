"""One rule per command (domain/core/ENGINES.md): a check that returns the error, and a handler that emits.

``check(state, command)`` is the one source of truth for legality: ``decide`` raises what it returns,
``is_legal`` is ``check(...) is None``. The checks test against the shared option lists of rules.py, the
same lists the candidate enumerators here and in legal.py walk; tests/domain/heaven_and_ale/test_check.py
proves that every enumerated command passes the check and that seeded random other commands fail it.
A handler may assume its check passed; it emits events through ``ctx`` and the automatic steps of flow.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.core import Command, GameNotActive, IllegalMove, InvalidCommand, NotYourTurn, RuleError

from . import commands as cmd
from . import delivery
from . import events as ev
from .board import (
    SLOT_BREWMASTER,
    SLOT_BREWMASTER_STEPS,
    SLOT_DUCATS,
    SLOT_DUCATS_AMOUNT,
    SLOT_RESOURCE,
    SLOT_RESOURCE_STEPS,
    START_SLOTS,
    TRACK_LEN,
)
from .flow import (
    Ctx,
    Gains,
    activate_shed,
    after_base,
    after_goods,
    claim_barrels,
    end_turn,
    prompt,
    resume_buying,
    start_base_action,
    start_play,
)
from .garden import NEIGHBOURS, SHED_NAMES, SHED_NEIGHBOURS, SPOT_INDEX, SPOT_NAMES, SPOT_SHEDS, is_sunny, shed_options
from .privileges import (
    CARD_BREWMASTER,
    CARD_BREWMASTER_STEPS,
    CARD_DISCS,
    CARD_DUCATS,
    CARD_DUCATS_AMOUNT,
    CARD_RESOURCE,
    COLOUR_SPOTS,
    MONK_SPOTS,
    PAIR_OF,
    PAIRS,
    SCORING_INDEX,
    SCORING_SPOTS,
    X_SPOT,
)
from .production import COLOUR_INDEX, COLOURS, EMERGENCY_COIN_DUCATS
from .rules import (
    cart_loads,
    carter_value,
    disc_options,
    free_slots,
    goods_options,
    later_stage_performable,
    price_on,
    reachable,
    simulate_cart,
    store_options,
)
from .state import (
    ARRANGING,
    EMPTY,
    OVER,
    PLACING,
    PLAYING,
    STEP_BARREL,
    STEP_BUY,
    STEP_CART,
    STEP_DISC,
    STEP_GOODS,
    STEP_MOVE,
    STEP_PRIVILEGE,
    STEP_SHED,
    STEP_STORAGE,
    HeavenAndAleState,
    Player,
)
from .supply import MONK_BASE, TILE_CODES

SLOT_INDEX = {name: i for i, name in enumerate(START_SLOTS)}
# RULES_NOTES R6 (U7): a triggered monk also activates adjacent monks (+1 brewmaster), even of its own type.
TRIGGERED_MONKS_ACTIVATE_MONKS = True


def _step_error(s: HeavenAndAleState, *steps: str) -> RuleError | None:
    if s.phase != PLAYING or s.step not in steps:
        return IllegalMove(f"not possible now: the current decision is {s.step or s.phase!r}, not {'/'.join(steps)}")
    return None


def to_act(s: HeavenAndAleState) -> list[int]:
    if s.phase == PLAYING:
        return [s.turn] if s.turn >= 0 else []
    if s.phase == PLACING:
        return s.place_order[:1]
    if s.phase == ARRANGING:
        return [i for i, p in enumerate(s.players) if None in p.storage_tiles]
    return []


# -- starting area ---------------------------------------------------------------------------------
def slot_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    slots = free_slots(s, seat, forced=s.phase == PLAYING)
    out: list[Command] = []
    for i in slots:
        name = START_SLOTS[i]
        if name == SLOT_RESOURCE:
            out.extend(cmd.EnterStartingArea(seat=seat, slot=name, colour=c) for c in COLOURS)
        else:
            out.append(cmd.EnterStartingArea(seat=seat, slot=name))
    return out


def _enter_error(s: HeavenAndAleState, c: cmd.EnterStartingArea) -> RuleError | None:
    if s.phase == PLAYING:
        err = _step_error(s, STEP_MOVE)
        if err is not None:
            return err
    elif s.phase != PLACING:
        return IllegalMove("figures are not placed now")
    if c.slot not in SLOT_INDEX:
        return InvalidCommand(f"unknown starting space {c.slot!r}; expected one of {', '.join(START_SLOTS)}")
    if (c.slot == SLOT_RESOURCE) != (c.colour is not None):
        return InvalidCommand("name a colour for the +2 resource starting space, and only for it")
    if c.colour is not None and c.colour not in COLOUR_INDEX:
        return InvalidCommand(f"unknown colour {c.colour!r}; expected one of {', '.join(COLOURS)}")
    if SLOT_INDEX[c.slot] not in free_slots(s, c.seat, forced=s.phase == PLAYING):
        return IllegalMove(f"starting space {c.slot!r} is not available to you now")
    return None


def enter_starting_area(ctx: Ctx, c: cmd.EnterStartingArea) -> None:
    s = ctx.state
    placing = s.phase == PLACING
    ctx.emit(ev.StartingSpaceTaken(seat=c.seat, slot=c.slot))
    gains = Gains(ctx.state, c.seat)
    if c.slot == SLOT_DUCATS:
        gains.ducats += SLOT_DUCATS_AMOUNT
    elif c.slot == SLOT_BREWMASTER:
        gains.brewmaster(SLOT_BREWMASTER_STEPS)
    elif c.slot == SLOT_RESOURCE:
        gains.marker(COLOUR_INDEX[c.colour], SLOT_RESOURCE_STEPS)  # type: ignore[index]
    gains.emit(ctx, f"starting space {c.slot}")
    if placing:
        if ctx.state.phase == PLAYING:
            start_play(ctx)
    else:
        after_base(ctx)


# -- Kegs & More setup: storage tiles --------------------------------------------------------------
def remaining_storage_tiles(p: Player) -> list[str]:
    placed = [t for t in p.storage_tiles if t is not None]
    return [t for t in delivery.STORAGE_TILES if t not in placed]


def _storage_tile_error(s: HeavenAndAleState, c: cmd.PlaceStorageTile) -> RuleError | None:
    if s.phase != ARRANGING:
        return IllegalMove("storage tiles are arranged only during setup")
    remaining = remaining_storage_tiles(s.players[c.seat])
    if c.tile not in remaining:
        return IllegalMove(f"storage tile {c.tile!r} is not in your hand; you hold {', '.join(remaining) or 'none'}")
    return None


def place_storage_tile(ctx: Ctx, c: cmd.PlaceStorageTile) -> None:
    tile = c.tile
    while True:
        shed = ctx.state.players[c.seat].storage_tiles.index(None)
        ctx.emit(ev.StorageTilePlaced(seat=c.seat, shed=SHED_NAMES[shed], tile=tile))
        left = remaining_storage_tiles(ctx.state.players[c.seat])
        if len(left) != 1:
            break
        tile = left[0]  # the last tile has only one place
    if all(None not in q.storage_tiles for q in ctx.state.players):
        start_play(ctx)


# -- moving ----------------------------------------------------------------------------------------
def _move_error(s: HeavenAndAleState, c: cmd.Move) -> RuleError | None:
    err = _step_error(s, STEP_MOVE)
    if err is not None:
        return err
    p = s.players[c.seat]
    if not p.pos < c.space < TRACK_LEN:
        return IllegalMove(f"cannot move to space {c.space}: move forward from space {p.pos}, at most to 27 "
                           "(enter the starting area with EnterStartingArea)")
    if not reachable(s, c.seat, c.space):
        return IllegalMove(f"cannot move to space {c.space}: you could not perform any of its actions")
    return None


def move(ctx: Ctx, c: cmd.Move) -> None:
    ctx.emit(ev.FigureMoved(seat=c.seat, space=c.space))
    start_base_action(ctx)


# -- buying (§3.5) ---------------------------------------------------------------------------------
def _buy_cost(s: HeavenAndAleState, code: int, spot: int) -> int:
    return price_on(code, s.space, is_sunny(spot))


def _buy_error(s: HeavenAndAleState, c: cmd.BuyTile) -> RuleError | None:
    err = _step_error(s, STEP_BUY)
    if err is not None:
        return err
    code = TILE_CODES.get(c.tile)
    spot = SPOT_INDEX.get(c.spot)
    if code is None:
        return InvalidCommand(f"unknown tile {c.tile!r} (e.g. 'hops-4', 'monk-2')")
    if spot is None:
        return InvalidCommand(f"unknown garden spot {c.spot!r} (S0..S14 sunny, H0..H14 shady)")
    p = s.players[c.seat]
    if code not in s.tiles[s.space]:
        return IllegalMove(f"no {c.tile} tile on space {s.space}")
    if p.garden[spot] != EMPTY:
        return IllegalMove(f"garden spot {c.spot} is not empty")
    cost = _buy_cost(s, code, spot)
    if cost > p.money:
        return IllegalMove(f"{c.tile} on {c.spot} costs {cost} ducats; you have {p.money}")
    return None


def buy_tile(ctx: Ctx, c: cmd.BuyTile) -> None:
    s = ctx.state
    spot = SPOT_INDEX[c.spot]
    cost = _buy_cost(s, TILE_CODES[c.tile], spot)
    ctx.emit(ev.TileBought(seat=c.seat, space=s.space, tile=c.tile, spot=c.spot, cost=cost))
    garden = ctx.state.players[c.seat].garden
    enclosed = [sh for sh in SPOT_SHEDS[spot] if all(garden[n] != EMPTY for n in SHED_NEIGHBOURS[sh])]
    if enclosed:
        ctx.emit(ev.ShedsEnclosed(seat=c.seat, sheds=[SHED_NAMES[sh] for sh in enclosed]))
    resume_buying(ctx)


def _end_buying_error(s: HeavenAndAleState, c: cmd.EndBuying) -> RuleError | None:
    err = _step_error(s, STEP_BUY)
    if err is None and s.bought < 1:
        return IllegalMove("buy at least one tile first")
    return err


def end_buying(ctx: Ctx, c: cmd.EndBuying) -> None:
    after_base(ctx)


def shed_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    shed = s.sheds_pending[0]
    kind = s.players[seat].sheds[shed]
    return [cmd.ChooseShedTiles(seat=seat, spots=[SPOT_NAMES[x] for x in opt]) for opt in shed_options(shed, kind)]


def _shed_error(s: HeavenAndAleState, c: cmd.ChooseShedTiles) -> RuleError | None:
    err = _step_error(s, STEP_SHED)
    if err is not None:
        return err
    shed = s.sheds_pending[0]
    unknown = [x for x in c.spots if x not in SPOT_INDEX]
    if unknown:
        return InvalidCommand(f"unknown garden spot {unknown[0]!r}")
    chosen = tuple(sorted(SPOT_INDEX[x] for x in c.spots))
    options = shed_options(shed, s.players[c.seat].sheds[shed])
    if chosen not in options:
        return IllegalMove(f"shed {SHED_NAMES[shed]} cannot activate {', '.join(c.spots) or 'nothing'}; choose one of "
                           + "; ".join(",".join(SPOT_NAMES[x] for x in o) for o in options))
    return None


def choose_shed_tiles(ctx: Ctx, c: cmd.ChooseShedTiles) -> None:
    shed = ctx.state.sheds_pending[0]
    chosen = tuple(sorted(SPOT_INDEX[x] for x in c.spots))
    activate_shed(ctx, shed, chosen)
    resume_buying(ctx)


# -- discs (§3.6) and privileges (§3.9) ---------------------------------------------------------------
def disc_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    return [cmd.TakeDisc(seat=seat, spot=SCORING_SPOTS[spot], number=n)
            for spot, n in disc_options(s, s.players[seat], s.space)]


def disc_gains(s: HeavenAndAleState, seat: int, spot: int, number: int | None) -> tuple[Gains, str]:
    """The rewards of putting a disc on scoring ``spot`` (§3.6, §3.8); also the view's preview of each choice."""
    gains = Gains(s, seat)
    garden = s.players[seat].garden
    if spot == X_SPOT:
        for i, t in enumerate(garden):
            if t != EMPTY and t < MONK_BASE and t % 5 + 1 == number:
                gains.activate(i)
        return gains, f"fertility {number} activated"
    if spot in COLOUR_SPOTS:
        for i, t in enumerate(garden):
            if t != EMPTY and t < MONK_BASE and t // 5 == spot - COLOUR_SPOTS[0]:
                gains.activate(i)
        return gains, f"{SCORING_SPOTS[spot]} activated"
    code = MONK_BASE + spot - MONK_SPOTS[0]
    for m, t in enumerate(garden):
        if t == code:  # §3.8: each triggered monk activates every adjacent tile, one monk after another
            for n in NEIGHBOURS[m]:
                if garden[n] < MONK_BASE or TRIGGERED_MONKS_ACTIVATE_MONKS:
                    gains.activate(n)
    return gains, f"{SCORING_SPOTS[spot]} monks triggered"


def _disc_error(s: HeavenAndAleState, c: cmd.TakeDisc) -> RuleError | None:
    err = _step_error(s, STEP_DISC)
    if err is not None:
        return err
    spot = SCORING_INDEX.get(c.spot)
    if spot is None:
        return InvalidCommand(f"unknown scoring spot {c.spot!r}; expected one of {', '.join(SCORING_SPOTS)}")
    if (spot, c.number) not in disc_options(s, s.players[c.seat], s.space):
        return IllegalMove(f"cannot put the disc on {c.spot}" + (f" naming {c.number}" if c.number else "")
                           + f" from space {s.space}")
    return None


def take_disc(ctx: Ctx, c: cmd.TakeDisc) -> None:
    s = ctx.state
    spot = SCORING_INDEX[c.spot]
    ctx.emit(ev.DiscTaken(seat=c.seat, space=s.space, spot=c.spot, number=c.number))
    gains, reason = disc_gains(ctx.state, c.seat, spot, c.number)
    gains.emit(ctx, reason)
    pair = PAIR_OF[spot]
    q = ctx.state.players[c.seat]
    if q.pairs[pair] is None and all(q.discs[x] for x in PAIRS[pair]):
        if q.cards:
            prompt(ctx, STEP_PRIVILEGE, pair=pair)
            return
        ctx.emit(ev.PrivilegeDeclined(seat=c.seat, pair=pair))
    after_base(ctx)


def privilege_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    p = s.players[seat]
    out: list[Command] = []
    for card in p.cards:
        if card == CARD_RESOURCE:
            out.extend(cmd.PlacePrivilege(seat=seat, card=card, colour=c) for c in COLOURS)
        elif card == CARD_DISCS:
            low = min(p.markers)
            out.extend(cmd.PlacePrivilege(seat=seat, card=card, colour=COLOURS[i])
                       for i, m in enumerate(p.markers) if m == low)
        else:
            out.append(cmd.PlacePrivilege(seat=seat, card=card))
    out.append(cmd.DeclinePrivilege(seat=seat))
    return out


def _privilege_error(s: HeavenAndAleState, c: cmd.PlacePrivilege) -> RuleError | None:
    err = _step_error(s, STEP_PRIVILEGE)
    if err is None and c not in privilege_commands(s, c.seat):
        return IllegalMove(f"cannot place privilege card {c.card!r}" + (f" with colour {c.colour!r}" if c.colour else "")
                           + "; the disc-count card needs a least advanced colour, the resource card any colour")
    return err


def place_privilege(ctx: Ctx, c: cmd.PlacePrivilege) -> None:
    s = ctx.state
    p = s.players[c.seat]
    pair = s.pair
    ctx.emit(ev.PrivilegePlaced(seat=c.seat, pair=pair, card=c.card, colour=c.colour))
    gains = Gains(ctx.state, c.seat)
    if c.card == CARD_DUCATS:
        gains.ducats += CARD_DUCATS_AMOUNT
    elif c.card == CARD_BREWMASTER:
        gains.brewmaster(CARD_BREWMASTER_STEPS)
    elif c.card == CARD_RESOURCE:
        colour = COLOUR_INDEX[c.colour]  # type: ignore[index]
        gains.marker(colour, sum(1 for t in p.garden if t != EMPTY and t < MONK_BASE and t // 5 == colour))
    elif c.card == CARD_DISCS:
        gains.marker(COLOUR_INDEX[c.colour], sum(p.discs))  # type: ignore[index]
    gains.emit(ctx, f"privilege {c.card}")
    after_base(ctx)


def _decline_error(s: HeavenAndAleState, c: cmd.DeclinePrivilege) -> RuleError | None:
    return _step_error(s, STEP_PRIVILEGE)


def decline_privilege(ctx: Ctx, c: cmd.DeclinePrivilege) -> None:
    ctx.emit(ev.PrivilegeDeclined(seat=c.seat, pair=ctx.state.pair))
    after_base(ctx)


def _coin_error(s: HeavenAndAleState, c: cmd.UseEmergencyCoin) -> RuleError | None:
    if s.phase != PLAYING:
        return IllegalMove("the emergency coin is used during your own turn")
    if c.card not in s.players[c.seat].cards:
        return IllegalMove(f"privilege card {c.card!r} is not unplaced in your hand")
    return None


def use_emergency_coin(ctx: Ctx, c: cmd.UseEmergencyCoin) -> None:
    ctx.emit(ev.EmergencyCoinUsed(seat=c.seat, card=c.card, ducats=EMERGENCY_COIN_DUCATS))


# -- barrels (§3.11) -------------------------------------------------------------------------------
def _claim_error(s: HeavenAndAleState, c: cmd.ClaimBarrels) -> RuleError | None:
    return _step_error(s, STEP_BARREL)


def claim(ctx: Ctx, c: cmd.ClaimBarrels) -> None:
    claim_barrels(ctx)
    after_base(ctx)


# -- Kegs & More -------------------------------------------------------------------------------------
def storage_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    p = s.players[seat]
    shed = s.sheds_pending[0]
    tile = p.storage_tiles[shed]
    out: list[Command] = [cmd.ResolveStorageTile(seat=seat, side="back")]
    if tile == delivery.TILE_KEGBALE:
        for k, b, r in store_options(p, min(1, s.keg_reserve), min(1, s.bale_reserve), need_one=True):
            out.append(cmd.ResolveStorageTile(seat=seat, side="front", keg=bool(k), bale=bool(b), rental=r))
    elif tile in delivery.CARTER_BONUS:
        out.append(cmd.ResolveStorageTile(seat=seat, side="front"))
    elif tile in delivery.POINT_TILES:
        for a in delivery.UPGRADABLE_AREAS:
            if p.area_values[a - 1] is None or not delivery.ONE_POINT_TILE_PER_AREA:
                out.append(cmd.ResolveStorageTile(seat=seat, side="front", area=a))
    elif tile in delivery.MOVE_TILES:
        for load in cart_loads(p, delivery.MOVE_TILES[tile], from_die=False):
            out.append(cmd.ResolveStorageTile(seat=seat, side="front", load=load))
    return out


def _resolve_storage_error(s: HeavenAndAleState, c: cmd.ResolveStorageTile) -> RuleError | None:
    err = _step_error(s, STEP_STORAGE)
    if err is None and c not in storage_commands(s, c.seat):
        return IllegalMove("this use of the storage tile is not possible now")
    return err


def resolve_storage_tile(ctx: Ctx, c: cmd.ResolveStorageTile) -> None:
    s = ctx.state
    p = s.players[c.seat]
    shed = s.sheds_pending[0]
    tile = p.storage_tiles[shed]
    assert tile is not None
    ctx.emit(ev.StorageTileUsed(seat=c.seat, shed=SHED_NAMES[shed], tile=tile, side=c.side, area=c.area))
    if c.side == "front":
        if tile == delivery.TILE_KEGBALE:
            ctx.emit(ev.GoodsTaken(seat=c.seat, space=-1, kegs=int(c.keg), bales=int(c.bale), rental=c.rental,
                                   cost=delivery.RENTAL_COST if c.rental else 0))
        elif tile in delivery.MOVE_TILES:
            move_cart(ctx, c.seat, delivery.MOVE_TILES[tile], c.load, "tile")
    resume_buying(ctx)


def move_cart(ctx: Ctx, seat: int, steps: int, load: int, source: str) -> None:
    p = ctx.state.players[seat]
    to, loaded, delivered, _ = simulate_cart(p.cart, p.cart_kegs, steps, load)
    ctx.emit(ev.CartMoved(seat=seat, to=to, steps=steps, loaded=loaded, delivered=delivered, source=source))


def goods_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    return [cmd.TakeGoods(seat=seat, kegs=k, bales=b, rental=r)
            for k, b, r in goods_options(s, s.players[seat], s.space)]


def _goods_error(s: HeavenAndAleState, c: cmd.TakeGoods) -> RuleError | None:
    err = _step_error(s, STEP_GOODS)
    if err is None and (c.kegs, c.bales, c.rental) not in goods_options(s, s.players[c.seat], s.space):
        return IllegalMove(f"cannot take {c.kegs} kegs and {c.bales} bales"
                           + (f" with the {c.rental} on the rental spot" if c.rental else "")
                           + f" from space {s.space}")
    return err


def take_goods(ctx: Ctx, c: cmd.TakeGoods) -> None:
    s = ctx.state
    ctx.emit(ev.GoodsTaken(seat=c.seat, space=s.space, kegs=c.kegs, bales=c.bales, rental=c.rental,
                           cost=delivery.RENTAL_COST if c.rental else 0))
    after_goods(ctx)


def cart_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    p = s.players[seat]
    return [cmd.UseCarterDie(seat=seat, load=x) for x in cart_loads(p, carter_value(s, p), from_die=True)]


def _cart_error(s: HeavenAndAleState, c: cmd.UseCarterDie) -> RuleError | None:
    err = _step_error(s, STEP_CART)
    if err is not None:
        return err
    p = s.players[c.seat]
    if c.load not in cart_loads(p, carter_value(s, p), from_die=True):
        return IllegalMove(f"cannot use the carter die loading {c.load} kegs")
    return None


def use_carter_die(ctx: Ctx, c: cmd.UseCarterDie) -> None:
    s = ctx.state
    p = s.players[c.seat]
    move_cart(ctx, c.seat, carter_value(s, p), c.load, "die")
    end_turn(ctx)


def can_pass(s: HeavenAndAleState) -> bool:
    if not s.kegs_and_more or s.phase != PLAYING:
        return False
    if s.step == STEP_BUY and s.bought:
        return False
    if s.step not in (STEP_BUY, STEP_DISC, STEP_BARREL, STEP_GOODS, STEP_CART):
        return False
    return s.acted or later_stage_performable(s, s.turn, s.step)


def _pass_error(s: HeavenAndAleState, c: cmd.Pass) -> RuleError | None:
    if not can_pass(s):
        return IllegalMove("you must perform this action (at least one action of the space)")
    return None


def pass_(ctx: Ctx, c: cmd.Pass) -> None:
    step = ctx.state.step
    ctx.emit(ev.ActionSkipped(seat=c.seat, step=step))
    if step == STEP_GOODS:
        after_goods(ctx)
    elif step == STEP_CART:
        end_turn(ctx)
    else:
        after_base(ctx)


# -- one rule per command: the check that returns the error, the handler that emits ------------------
@dataclass(frozen=True)
class Rule:
    error: Callable[[HeavenAndAleState, Any], RuleError | None]
    handle: Callable[[Ctx, Any], None]


RULES: dict[type[Command], Rule] = {
    cmd.EnterStartingArea: Rule(_enter_error, enter_starting_area),
    cmd.PlaceStorageTile: Rule(_storage_tile_error, place_storage_tile),
    cmd.Move: Rule(_move_error, move),
    cmd.BuyTile: Rule(_buy_error, buy_tile),
    cmd.EndBuying: Rule(_end_buying_error, end_buying),
    cmd.TakeDisc: Rule(_disc_error, take_disc),
    cmd.ClaimBarrels: Rule(_claim_error, claim),
    cmd.ChooseShedTiles: Rule(_shed_error, choose_shed_tiles),
    cmd.PlacePrivilege: Rule(_privilege_error, place_privilege),
    cmd.DeclinePrivilege: Rule(_decline_error, decline_privilege),
    cmd.UseEmergencyCoin: Rule(_coin_error, use_emergency_coin),
    cmd.ResolveStorageTile: Rule(_resolve_storage_error, resolve_storage_tile),
    cmd.TakeGoods: Rule(_goods_error, take_goods),
    cmd.UseCarterDie: Rule(_cart_error, use_carter_die),
    cmd.Pass: Rule(_pass_error, pass_),
}


def check(s: HeavenAndAleState, c: Command) -> RuleError | None:
    """Why ``c`` is not allowed now, or None when it is (the one source of truth for legality)."""
    if s.phase == OVER:
        return GameNotActive("the game is over")
    rule = RULES.get(type(c))
    if rule is None:
        return InvalidCommand(f"unknown command {type(c).__name__} for heaven-and-ale")
    if c.seat not in to_act(s):
        return NotYourTurn(f"seat {c.seat} may not act now; waiting for seat(s) {to_act(s)}")
    return rule.error(s, c)


def execute(ctx: Ctx, c: Command) -> None:
    """Emit the events of a command ``check`` accepted, with the automatic steps that follow it."""
    RULES[type(c)].handle(ctx, c)
