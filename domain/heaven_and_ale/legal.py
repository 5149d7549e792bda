"""Legal commands of a seat now: the fast enumeration of exactly what ``actions.check`` accepts.

The enumerators walk the option lists of rules.py that the checks test against (ENGINES.md rule 1, the
fast-enumerator form); tests/domain/heaven_and_ale/test_check.py proves the two agree.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from domain.core import Command

from . import commands as cmd
from .actions import can_pass, remaining_storage_tiles, slot_commands
from .board import TRACK_LEN
from .buying import shed_commands
from .garden import SPOT_NAMES
from .rewards import cart_commands, disc_commands, goods_commands, privilege_commands, storage_commands
from .rules import buy_options, reachable_spaces
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


@cache
def _move(seat: int, space: int) -> Command:
    """The (frozen, so shared) move command; the two most listed commands are built once each."""
    return cmd.Move(seat=seat, space=space)


@cache
def _buy(seat: int, code: int, spot: int) -> Command:
    return cmd.BuyTile(seat=seat, tile=tile_name(code), spot=SPOT_NAMES[spot])


def _move_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    p = s.players[seat]
    out: list[Command] = [_move(seat, k) for k in reachable_spaces(s, seat, range(p.pos + 1, TRACK_LEN))]
    out.extend(slot_commands(s, seat))
    return out


def _buy_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    out: list[Command] = [_buy(seat, code, spot) for code, spot, _ in buy_options(s, s.players[seat], s.space)]
    if s.bought:
        out.append(cmd.shared(cmd.EndBuying, seat))
    return out


STEP_COMMANDS: dict[str, Callable[[HeavenAndAleState, int], list[Command]]] = {
    STEP_MOVE: _move_commands,
    STEP_BUY: _buy_commands,
    STEP_DISC: disc_commands,
    STEP_BARREL: lambda s, seat: [cmd.shared(cmd.ClaimBarrels, seat)],
    STEP_SHED: shed_commands,
    STEP_PRIVILEGE: privilege_commands,
    STEP_STORAGE: storage_commands,
    STEP_GOODS: goods_commands,
    STEP_CART: cart_commands,
}
"""The commands of each step of a turn (besides passing and the emergency coin)."""


def legal_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    if s.phase == PLACING:
        return slot_commands(s, seat) if s.place_order[:1] == [seat] else []
    if s.phase == ARRANGING:
        p = s.players[seat]
        if None not in p.storage_tiles:
            return []
        return [cmd.shared(cmd.PlaceStorageTile, seat, tile=t) for t in remaining_storage_tiles(p)]
    if s.phase != PLAYING or s.turn != seat:
        return []
    step = STEP_COMMANDS.get(s.step)
    out = step(s, seat) if step is not None else []
    if can_pass(s):
        out.append(cmd.shared(cmd.Pass, seat))
    out.extend(cmd.shared(cmd.UseEmergencyCoin, seat, card=card) for card in s.players[seat].cards)
    return out
