"""One rule per command (domain/core/ENGINES.md): a check that returns the error, and a handler that emits.

``check(state, command)`` is the one source of truth for legality: ``decide`` raises what it returns,
``is_legal`` is ``check(...) is None``. The checks test against the shared option lists of rules.py, the
same lists the candidate enumerators here and in legal.py walk; tests/domain/heaven_and_ale/test_check.py
proves that every enumerated command passes the check and that seeded random other commands fail it.
A handler may assume its check passed; it emits events through ``ctx`` and the automatic steps of flow.py.
Here: the setup phases, passing, and the ``RULES`` table; the turn's base action is in buying.py, what
spaces and sheds give in rewards.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
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
)
from .buying import buy_error, buy_tile, choose_shed_tiles, end_buying, end_buying_error, move, move_error, shed_error
from .flow import (
    Ctx,
    Gains,
    after_base,
    after_goods,
    end_turn,
    start_play,
)
from .garden import SHED_NAMES
from .production import COLOUR_INDEX, COLOURS
from .rewards import (
    cart_error,
    claim,
    claim_error,
    coin_error,
    decline_error,
    decline_privilege,
    disc_error,
    goods_error,
    place_privilege,
    privilege_error,
    resolve_storage_error,
    resolve_storage_tile,
    take_disc,
    take_goods,
    use_carter_die,
    use_emergency_coin,
)
from .rules import (
    free_slots,
    later_stage_performable,
    step_error,
)
from .state import (
    ARRANGING,
    OVER,
    PLACING,
    PLAYING,
    STEP_BARREL,
    STEP_BUY,
    STEP_CART,
    STEP_DISC,
    STEP_GOODS,
    STEP_MOVE,
    HeavenAndAleState,
    Player,
)

SLOT_INDEX = {name: i for i, name in enumerate(START_SLOTS)}


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
    return list(_slot_commands(seat, tuple(free_slots(s, seat, forced=s.phase == PLAYING))))


@cache
def _slot_commands(seat: int, slots: tuple[int, ...]) -> tuple[Command, ...]:
    """The commands entering the starting spaces ``slots`` (a few dozen lists exist: each built once)."""
    out: list[Command] = []
    for i in slots:
        name = START_SLOTS[i]
        if name == SLOT_RESOURCE:
            out.extend(cmd.EnterStartingArea(seat=seat, slot=name, colour=c) for c in COLOURS)
        else:
            out.append(cmd.EnterStartingArea(seat=seat, slot=name))
    return tuple(out)


def enter_error(s: HeavenAndAleState, c: cmd.EnterStartingArea) -> RuleError | None:
    if s.phase == PLAYING:
        err = step_error(s, STEP_MOVE)
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


def storage_tile_error(s: HeavenAndAleState, c: cmd.PlaceStorageTile) -> RuleError | None:
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


def can_pass(s: HeavenAndAleState) -> bool:
    if not s.kegs_and_more or s.phase != PLAYING:
        return False
    if s.step == STEP_BUY and s.bought:
        return False
    if s.step not in (STEP_BUY, STEP_DISC, STEP_BARREL, STEP_GOODS, STEP_CART):
        return False
    return s.acted or later_stage_performable(s, s.turn, s.step)


def pass_error(s: HeavenAndAleState, c: cmd.Pass) -> RuleError | None:
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
    cmd.EnterStartingArea: Rule(enter_error, enter_starting_area),
    cmd.PlaceStorageTile: Rule(storage_tile_error, place_storage_tile),
    cmd.Move: Rule(move_error, move),
    cmd.BuyTile: Rule(buy_error, buy_tile),
    cmd.EndBuying: Rule(end_buying_error, end_buying),
    cmd.TakeDisc: Rule(disc_error, take_disc),
    cmd.ClaimBarrels: Rule(claim_error, claim),
    cmd.ChooseShedTiles: Rule(shed_error, choose_shed_tiles),
    cmd.PlacePrivilege: Rule(privilege_error, place_privilege),
    cmd.DeclinePrivilege: Rule(decline_error, decline_privilege),
    cmd.UseEmergencyCoin: Rule(coin_error, use_emergency_coin),
    cmd.ResolveStorageTile: Rule(resolve_storage_error, resolve_storage_tile),
    cmd.TakeGoods: Rule(goods_error, take_goods),
    cmd.UseCarterDie: Rule(cart_error, use_carter_die),
    cmd.Pass: Rule(pass_error, pass_),
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
