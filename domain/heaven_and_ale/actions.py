"""Command handlers: validate against the shared option lists (rules.py), then emit events via flow.py."""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Command, IllegalMove, InvalidCommand

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
from .garden import NEIGHBOURS, SHED_NAMES, SHED_NEIGHBOURS, SPOT_INDEX, SPOT_NAMES, SPOT_SHEDS, shed_options
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
    base_cost,
    cart_loads,
    carter_value,
    disc_options,
    free_slots,
    goods_options,
    later_stage_performable,
    reachable,
    simulate_cart,
    store_options,
)
from .state import (
    ARRANGING,
    EMPTY,
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


def _need_step(s: HeavenAndAleState, *steps: str) -> None:
    if s.phase != PLAYING or s.step not in steps:
        raise IllegalMove(f"not possible now: the current decision is {s.step or s.phase!r}, not {'/'.join(steps)}")


def _colour(name: str | None) -> int:
    if name not in COLOUR_INDEX:
        raise InvalidCommand(f"unknown colour {name!r}; expected one of {', '.join(COLOURS)}")
    return COLOUR_INDEX[name]  # type: ignore[index]


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


def enter_starting_area(ctx: Ctx, c: cmd.EnterStartingArea) -> None:
    s = ctx.state
    if s.phase == PLAYING:
        _need_step(s, STEP_MOVE)
    elif s.phase != PLACING:
        raise IllegalMove("figures are not placed now")
    if c.slot not in SLOT_INDEX:
        raise InvalidCommand(f"unknown starting space {c.slot!r}; expected one of {', '.join(START_SLOTS)}")
    if (c.slot == SLOT_RESOURCE) != (c.colour is not None):
        raise InvalidCommand("name a colour for the +2 resource starting space, and only for it")
    if c.colour is not None:
        _colour(c.colour)
    if SLOT_INDEX[c.slot] not in free_slots(s, c.seat, forced=s.phase == PLAYING):
        raise IllegalMove(f"starting space {c.slot!r} is not available to you now")
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


def place_storage_tile(ctx: Ctx, c: cmd.PlaceStorageTile) -> None:
    s = ctx.state
    if s.phase != ARRANGING:
        raise IllegalMove("storage tiles are arranged only during setup")
    p = s.players[c.seat]
    remaining = remaining_storage_tiles(p)
    if c.tile not in remaining:
        raise IllegalMove(f"storage tile {c.tile!r} is not in your hand; you hold {', '.join(remaining) or 'none'}")
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
def move(ctx: Ctx, c: cmd.Move) -> None:
    s = ctx.state
    _need_step(s, STEP_MOVE)
    p = s.players[c.seat]
    if not p.pos < c.space < TRACK_LEN:
        raise IllegalMove(f"cannot move to space {c.space}: move forward from space {p.pos}, at most to 27 "
                          "(enter the starting area with EnterStartingArea)")
    if not reachable(s, c.seat, c.space):
        raise IllegalMove(f"cannot move to space {c.space}: you could not perform any of its actions")
    ctx.emit(ev.FigureMoved(seat=c.seat, space=c.space))
    start_base_action(ctx)


# -- buying (§3.5) ---------------------------------------------------------------------------------
def buy_tile(ctx: Ctx, c: cmd.BuyTile) -> None:
    s = ctx.state
    _need_step(s, STEP_BUY)
    code = TILE_CODES.get(c.tile)
    spot = SPOT_INDEX.get(c.spot)
    if code is None:
        raise InvalidCommand(f"unknown tile {c.tile!r} (e.g. 'hops-4', 'monk-2')")
    if spot is None:
        raise InvalidCommand(f"unknown garden spot {c.spot!r} (S0..S14 sunny, H0..H14 shady)")
    p = s.players[c.seat]
    if code not in s.tiles[s.space]:
        raise IllegalMove(f"no {c.tile} tile on space {s.space}")
    if p.garden[spot] != EMPTY:
        raise IllegalMove(f"garden spot {c.spot} is not empty")
    cost = base_cost(code, s.space) * (2 if spot < 15 else 1)
    if cost > p.money:
        raise IllegalMove(f"{c.tile} on {c.spot} costs {cost} ducats; you have {p.money}")
    ctx.emit(ev.TileBought(seat=c.seat, space=s.space, tile=c.tile, spot=c.spot, cost=cost))
    garden = ctx.state.players[c.seat].garden
    enclosed = [sh for sh in SPOT_SHEDS[spot] if all(garden[n] != EMPTY for n in SHED_NEIGHBOURS[sh])]
    if enclosed:
        ctx.emit(ev.ShedsEnclosed(seat=c.seat, sheds=[SHED_NAMES[sh] for sh in enclosed]))
    resume_buying(ctx)


def end_buying(ctx: Ctx, c: cmd.EndBuying) -> None:
    _need_step(ctx.state, STEP_BUY)
    if ctx.state.bought < 1:
        raise IllegalMove("buy at least one tile first")
    after_base(ctx)


def shed_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    shed = s.sheds_pending[0]
    kind = s.players[seat].sheds[shed]
    return [cmd.ChooseShedTiles(seat=seat, spots=[SPOT_NAMES[x] for x in opt]) for opt in shed_options(shed, kind)]


def choose_shed_tiles(ctx: Ctx, c: cmd.ChooseShedTiles) -> None:
    s = ctx.state
    _need_step(s, STEP_SHED)
    shed = s.sheds_pending[0]
    try:
        chosen = tuple(sorted(SPOT_INDEX[x] for x in c.spots))
    except KeyError as exc:
        raise InvalidCommand(f"unknown garden spot {exc.args[0]!r}") from None
    options = shed_options(shed, s.players[c.seat].sheds[shed])
    if chosen not in options:
        raise IllegalMove(f"shed {SHED_NAMES[shed]} cannot activate {', '.join(c.spots) or 'nothing'}; choose one of "
                          + "; ".join(",".join(SPOT_NAMES[x] for x in o) for o in options))
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


def take_disc(ctx: Ctx, c: cmd.TakeDisc) -> None:
    s = ctx.state
    _need_step(s, STEP_DISC)
    spot = SCORING_INDEX.get(c.spot)
    if spot is None:
        raise InvalidCommand(f"unknown scoring spot {c.spot!r}; expected one of {', '.join(SCORING_SPOTS)}")
    p = s.players[c.seat]
    if (spot, c.number) not in disc_options(s, p, s.space):
        raise IllegalMove(f"cannot put the disc on {c.spot}" + (f" naming {c.number}" if c.number else "")
                          + f" from space {s.space}")
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


def place_privilege(ctx: Ctx, c: cmd.PlacePrivilege) -> None:
    s = ctx.state
    _need_step(s, STEP_PRIVILEGE)
    if c not in privilege_commands(s, c.seat):
        raise IllegalMove(f"cannot place privilege card {c.card!r}" + (f" with colour {c.colour!r}" if c.colour else "")
                          + "; the disc-count card needs a least advanced colour, the resource card any colour")
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


def decline_privilege(ctx: Ctx, c: cmd.DeclinePrivilege) -> None:
    _need_step(ctx.state, STEP_PRIVILEGE)
    ctx.emit(ev.PrivilegeDeclined(seat=c.seat, pair=ctx.state.pair))
    after_base(ctx)


def use_emergency_coin(ctx: Ctx, c: cmd.UseEmergencyCoin) -> None:
    s = ctx.state
    if s.phase != PLAYING:
        raise IllegalMove("the emergency coin is used during your own turn")
    p = s.players[c.seat]
    if c.card not in p.cards:
        raise IllegalMove(f"privilege card {c.card!r} is not unplaced in your hand")
    ctx.emit(ev.EmergencyCoinUsed(seat=c.seat, card=c.card, ducats=EMERGENCY_COIN_DUCATS))


# -- barrels (§3.11) -------------------------------------------------------------------------------
def claim(ctx: Ctx, c: cmd.ClaimBarrels) -> None:
    _need_step(ctx.state, STEP_BARREL)
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


def resolve_storage_tile(ctx: Ctx, c: cmd.ResolveStorageTile) -> None:
    s = ctx.state
    _need_step(s, STEP_STORAGE)
    if c not in storage_commands(s, c.seat):
        raise IllegalMove("this use of the storage tile is not possible now")
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


def take_goods(ctx: Ctx, c: cmd.TakeGoods) -> None:
    s = ctx.state
    _need_step(s, STEP_GOODS)
    if (c.kegs, c.bales, c.rental) not in goods_options(s, s.players[c.seat], s.space):
        raise IllegalMove(f"cannot take {c.kegs} kegs and {c.bales} bales"
                          + (f" with the {c.rental} on the rental spot" if c.rental else "")
                          + f" from space {s.space}")
    ctx.emit(ev.GoodsTaken(seat=c.seat, space=s.space, kegs=c.kegs, bales=c.bales, rental=c.rental,
                           cost=delivery.RENTAL_COST if c.rental else 0))
    after_goods(ctx)


def cart_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    p = s.players[seat]
    return [cmd.UseCarterDie(seat=seat, load=x) for x in cart_loads(p, carter_value(s, p), from_die=True)]


def use_carter_die(ctx: Ctx, c: cmd.UseCarterDie) -> None:
    s = ctx.state
    _need_step(s, STEP_CART)
    p = s.players[c.seat]
    if c.load not in cart_loads(p, carter_value(s, p), from_die=True):
        raise IllegalMove(f"cannot use the carter die loading {c.load} kegs")
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


def pass_(ctx: Ctx, c: cmd.Pass) -> None:
    s = ctx.state
    if not can_pass(s):
        raise IllegalMove("you must perform this action (at least one action of the space)")
    step = s.step
    ctx.emit(ev.ActionSkipped(seat=c.seat, step=step))
    if step == STEP_GOODS:
        after_goods(ctx)
    elif step == STEP_CART:
        end_turn(ctx)
    else:
        after_base(ctx)


HANDLERS: dict[type, Callable] = {
    cmd.EnterStartingArea: enter_starting_area, cmd.PlaceStorageTile: place_storage_tile, cmd.Move: move,
    cmd.BuyTile: buy_tile, cmd.EndBuying: end_buying, cmd.TakeDisc: take_disc, cmd.ClaimBarrels: claim,
    cmd.ChooseShedTiles: choose_shed_tiles, cmd.PlacePrivilege: place_privilege,
    cmd.DeclinePrivilege: decline_privilege, cmd.UseEmergencyCoin: use_emergency_coin,
    cmd.ResolveStorageTile: resolve_storage_tile, cmd.TakeGoods: take_goods, cmd.UseCarterDie: use_carter_die,
    cmd.Pass: pass_,
}
