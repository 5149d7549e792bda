"""Legal commands of a seat now, built from the same option lists that ``decide`` validates against."""

from __future__ import annotations

from domain.core import Command

from . import commands as cmd
from .actions import (
    can_pass,
    cart_commands,
    disc_commands,
    goods_commands,
    privilege_commands,
    remaining_storage_tiles,
    shed_commands,
    slot_commands,
    storage_commands,
)
from .board import TRACK_LEN
from .garden import SPOT_NAMES
from .rules import buy_options, reachable
from .state import (
    ARRANGING,
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
)
from .supply import tile_name


def to_act(s: HeavenAndAleState) -> list[int]:
    if s.phase == PLAYING:
        return [s.turn] if s.turn >= 0 else []
    if s.phase == PLACING:
        return s.place_order[:1]
    if s.phase == ARRANGING:
        return [i for i, p in enumerate(s.players) if None in p.storage_tiles]
    return []


def legal_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    if s.phase == PLACING:
        return slot_commands(s, seat) if s.place_order[:1] == [seat] else []
    if s.phase == ARRANGING:
        p = s.players[seat]
        if None not in p.storage_tiles:
            return []
        return [cmd.PlaceStorageTile(seat=seat, tile=t) for t in remaining_storage_tiles(p)]
    if s.phase != PLAYING or s.turn != seat:
        return []
    step = s.step
    out: list[Command]
    if step == STEP_MOVE:
        p = s.players[seat]
        out = [cmd.Move(seat=seat, space=k) for k in range(p.pos + 1, TRACK_LEN) if reachable(s, seat, k)]
        out.extend(slot_commands(s, seat))
    elif step == STEP_BUY:
        out = [cmd.BuyTile(seat=seat, tile=tile_name(code), spot=SPOT_NAMES[spot])
               for code, spot, _ in buy_options(s, s.players[seat], s.space)]
        if s.bought:
            out.append(cmd.EndBuying(seat=seat))
    elif step == STEP_DISC:
        out = disc_commands(s, seat)
    elif step == STEP_BARREL:
        out = [cmd.ClaimBarrels(seat=seat)]
    elif step == STEP_SHED:
        out = shed_commands(s, seat)
    elif step == STEP_PRIVILEGE:
        out = privilege_commands(s, seat)
    elif step == STEP_STORAGE:
        out = storage_commands(s, seat)
    elif step == STEP_GOODS:
        out = goods_commands(s, seat)
    elif step == STEP_CART:
        out = cart_commands(s, seat)
    else:
        out = []
    if can_pass(s):
        out.append(cmd.Pass(seat=seat))
    out.extend(cmd.UseEmergencyCoin(seat=seat, card=card) for card in s.players[seat].cards)
    return out
