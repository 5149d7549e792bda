"""What a space or a shed gives: discs, privileges, the emergency coin, barrels, storage tiles, goods and
the carter die.

One check and one handler per command, as in actions.py (whose ``RULES`` table binds them).
"""

from __future__ import annotations

from domain.core import Command, IllegalMove, InvalidCommand, RuleError

from . import commands as cmd
from . import delivery
from . import events as ev
from .flow import (
    Ctx,
    Gains,
    after_base,
    after_goods,
    claim_barrels,
    end_turn,
    prompt,
    resume_buying,
)
from .garden import NEIGHBOURS, SHED_NAMES
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
    goods_options,
    simulate_cart,
    step_error,
    store_options,
)
from .state import (
    EMPTY,
    PLAYING,
    STEP_BARREL,
    STEP_CART,
    STEP_DISC,
    STEP_GOODS,
    STEP_PRIVILEGE,
    STEP_STORAGE,
    HeavenAndAleState,
)
from .supply import MONK_BASE

# RULES_NOTES R6 (U7): a triggered monk also activates adjacent monks (+1 brewmaster), even of its own type.
TRIGGERED_MONKS_ACTIVATE_MONKS = True


# -- discs (§3.6) and privileges (§3.9) ---------------------------------------------------------------
def disc_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    return [cmd.shared(cmd.TakeDisc, seat, spot=SCORING_SPOTS[spot], number=n)
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
    _trigger_monks(gains, garden, MONK_BASE + spot - MONK_SPOTS[0])
    return gains, f"{SCORING_SPOTS[spot]} monks triggered"


def _trigger_monks(gains: Gains, garden: list[int], code: int) -> None:
    """§3.8: each monk of type ``code`` activates every adjacent tile, one monk after another."""
    for m, t in enumerate(garden):
        if t == code:
            for n in NEIGHBOURS[m]:
                if garden[n] < MONK_BASE or TRIGGERED_MONKS_ACTIVATE_MONKS:
                    gains.activate(n)


def disc_error(s: HeavenAndAleState, c: cmd.TakeDisc) -> RuleError | None:
    err = step_error(s, STEP_DISC)
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
            out.extend(cmd.shared(cmd.PlacePrivilege, seat, card=card, colour=c) for c in COLOURS)
        elif card == CARD_DISCS:
            low = min(p.markers)
            out.extend(cmd.shared(cmd.PlacePrivilege, seat, card=card, colour=COLOURS[i])
                       for i, m in enumerate(p.markers) if m == low)
        else:
            out.append(cmd.shared(cmd.PlacePrivilege, seat, card=card))
    out.append(cmd.shared(cmd.DeclinePrivilege, seat))
    return out


def privilege_error(s: HeavenAndAleState, c: cmd.PlacePrivilege) -> RuleError | None:
    err = step_error(s, STEP_PRIVILEGE)
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


def decline_error(s: HeavenAndAleState, c: cmd.DeclinePrivilege) -> RuleError | None:
    return step_error(s, STEP_PRIVILEGE)


def decline_privilege(ctx: Ctx, c: cmd.DeclinePrivilege) -> None:
    ctx.emit(ev.PrivilegeDeclined(seat=c.seat, pair=ctx.state.pair))
    after_base(ctx)


def coin_error(s: HeavenAndAleState, c: cmd.UseEmergencyCoin) -> RuleError | None:
    if s.phase != PLAYING:
        return IllegalMove("the emergency coin is used during your own turn")
    if c.card not in s.players[c.seat].cards:
        return IllegalMove(f"privilege card {c.card!r} is not unplaced in your hand")
    return None


def use_emergency_coin(ctx: Ctx, c: cmd.UseEmergencyCoin) -> None:
    ctx.emit(ev.EmergencyCoinUsed(seat=c.seat, card=c.card, ducats=EMERGENCY_COIN_DUCATS))


# -- barrels (§3.11) -------------------------------------------------------------------------------
def claim_error(s: HeavenAndAleState, c: cmd.ClaimBarrels) -> RuleError | None:
    return step_error(s, STEP_BARREL)


def claim(ctx: Ctx, c: cmd.ClaimBarrels) -> None:
    claim_barrels(ctx)
    after_base(ctx)


# -- Kegs & More -------------------------------------------------------------------------------------
def storage_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    p = s.players[seat]
    shed = s.sheds_pending[0]
    tile = p.storage_tiles[shed]
    out: list[Command] = [cmd.shared(cmd.ResolveStorageTile, seat, side="back")]
    if tile == delivery.TILE_KEGBALE:
        for k, b, r in store_options(p, min(1, s.keg_reserve), min(1, s.bale_reserve), need_one=True):
            out.append(cmd.shared(cmd.ResolveStorageTile, seat, side="front", keg=bool(k), bale=bool(b), rental=r))
    elif tile in delivery.CARTER_BONUS:
        out.append(cmd.shared(cmd.ResolveStorageTile, seat, side="front"))
    elif tile in delivery.POINT_TILES:
        for a in delivery.UPGRADABLE_AREAS:
            if p.area_values[a - 1] is None or not delivery.ONE_POINT_TILE_PER_AREA:
                out.append(cmd.shared(cmd.ResolveStorageTile, seat, side="front", area=a))
    elif tile in delivery.MOVE_TILES:
        for load in cart_loads(p, delivery.MOVE_TILES[tile], from_die=False):
            out.append(cmd.shared(cmd.ResolveStorageTile, seat, side="front", load=load))
    return out


def resolve_storage_error(s: HeavenAndAleState, c: cmd.ResolveStorageTile) -> RuleError | None:
    err = step_error(s, STEP_STORAGE)
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
    return [cmd.shared(cmd.TakeGoods, seat, kegs=k, bales=b, rental=r)
            for k, b, r in goods_options(s, s.players[seat], s.space)]


def goods_error(s: HeavenAndAleState, c: cmd.TakeGoods) -> RuleError | None:
    err = step_error(s, STEP_GOODS)
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
    return [cmd.shared(cmd.UseCarterDie, seat, load=x) for x in cart_loads(p, carter_value(s, p), from_die=True)]


def cart_error(s: HeavenAndAleState, c: cmd.UseCarterDie) -> RuleError | None:
    err = step_error(s, STEP_CART)
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
