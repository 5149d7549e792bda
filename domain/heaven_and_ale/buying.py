"""The base action of a turn: moving on the track, buying garden tiles, choosing a shed's tiles.

One check and one handler per command, as in actions.py (whose ``RULES`` table binds them).
"""

from __future__ import annotations

from domain.core import Command, IllegalMove, InvalidCommand, RuleError

from . import commands as cmd
from . import events as ev
from .board import (
    TRACK_LEN,
)
from .flow import (
    Ctx,
    activate_shed,
    after_base,
    resume_buying,
    start_base_action,
)
from .garden import SHED_NAMES, SHED_NEIGHBOURS, SPOT_INDEX, SPOT_NAMES, SPOT_SHEDS, is_sunny, shed_options
from .rules import (
    price_on,
    reachable,
    step_error,
)
from .state import (
    EMPTY,
    STEP_BUY,
    STEP_MOVE,
    STEP_SHED,
    HeavenAndAleState,
)
from .supply import TILE_CODES


# -- moving ----------------------------------------------------------------------------------------
def move_error(s: HeavenAndAleState, c: cmd.Move) -> RuleError | None:
    err = step_error(s, STEP_MOVE)
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


def buy_error(s: HeavenAndAleState, c: cmd.BuyTile) -> RuleError | None:
    err = step_error(s, STEP_BUY)
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


def end_buying_error(s: HeavenAndAleState, c: cmd.EndBuying) -> RuleError | None:
    err = step_error(s, STEP_BUY)
    if err is None and s.bought < 1:
        return IllegalMove("buy at least one tile first")
    return err


def end_buying(ctx: Ctx, c: cmd.EndBuying) -> None:
    after_base(ctx)


def shed_commands(s: HeavenAndAleState, seat: int) -> list[Command]:
    shed = s.sheds_pending[0]
    kind = s.players[seat].sheds[shed]
    return [cmd.ChooseShedTiles(seat=seat, spots=[SPOT_NAMES[x] for x in opt]) for opt in shed_options(shed, kind)]


def shed_error(s: HeavenAndAleState, c: cmd.ChooseShedTiles) -> RuleError | None:
    err = step_error(s, STEP_SHED)
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
