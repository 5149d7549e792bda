"""Folding events into state: copies facts only (no checks, no randomness)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core import Event

from . import delivery
from . import events as ev
from .board import START_SLOTS, TRACK_LEN
from .garden import SHED_INDEX, SPOT_INDEX
from .privileges import SCORING_INDEX
from .state import ARRANGING, EMPTY, OVER, PLACING, PLAYING, STEP_MOVE, HeavenAndAleState, Player
from .supply import MONK_BASE, TILE_CODES

SLOT_INDEX = {name: i for i, name in enumerate(START_SLOTS)}


def remove_goods(p: Player, kegs: int, bales: int) -> None:
    """Take pieces off the storage spots: regular spots first, the rental spot last (RULES_NOTES R-K4)."""
    from_regular = min(kegs, p.kegs)
    p.kegs -= from_regular
    if kegs > from_regular and p.rental == "keg":
        p.rental = None
    from_regular = min(bales, p.bales)
    p.bales -= from_regular
    if bales > from_regular and p.rental == "bale":
        p.rental = None


def _setup(state: HeavenAndAleState | None, e: ev.GameSetUp) -> HeavenAndAleState:
    s = HeavenAndAleState(n=e.players, rounds=e.rounds, kegs_and_more=e.kegs_and_more, start_player=e.start_player,
                players=[Player() for _ in range(e.players)])
    from .barrels import goals
    s.large = [EMPTY] * len(goals(e.kegs_and_more))
    s.small = [EMPTY] * len(goals(e.kegs_and_more))
    s.place_order = [(e.start_player - i) % e.players for i in range(1, e.players)]
    return s


def _stocked(s: HeavenAndAleState, e: ev.TrackStocked) -> HeavenAndAleState:
    for space, name, back in e.resources:
        code = TILE_CODES[name]
        s.piles[back][code] -= 1
        s.tiles[space].append(code)
    for space, name in e.monks:
        code = TILE_CODES[name]
        s.monk_piles[e.monk_back][code - MONK_BASE] -= 1
        s.tiles[space].append(code)
    s.discs = list(e.discs)
    return s


def _slot_taken(s: HeavenAndAleState, e: ev.StartingSpaceTaken) -> HeavenAndAleState:
    p = s.players[e.seat]
    slot = SLOT_INDEX[e.slot]
    if p.slot != EMPTY:  # moving from the starting area all the way round to it
        s.slots[p.slot] = EMPTY
    s.slots[slot] = e.seat
    p.slot = slot
    p.pos = 0
    if s.phase == PLACING:
        if e.seat in s.place_order:
            s.place_order.remove(e.seat)
        if not s.place_order:
            s.phase = ARRANGING if s.kegs_and_more else PLAYING
    else:
        p.done = True
        s.space = 0
        s.acted = True
    return s


def _rewards(s: HeavenAndAleState, e: ev.RewardsGained) -> HeavenAndAleState:
    p = s.players[e.seat]
    p.money += e.ducats
    p.brewmaster += e.brewmaster
    for c, steps in enumerate(e.markers):
        p.markers[c] += steps
    return s


def _storage_placed(s: HeavenAndAleState, e: ev.StorageTilePlaced) -> HeavenAndAleState:
    s.players[e.seat].storage_tiles[SHED_INDEX[e.shed]] = e.tile
    return s


def _die(s: HeavenAndAleState, e: ev.CarterDiePlaced) -> HeavenAndAleState:
    s.die_space = e.space
    s.die_value = e.value
    return s


def _goods_added(s: HeavenAndAleState, e: ev.GoodsAdded) -> HeavenAndAleState:
    for space in e.kegs:
        s.kegs[space] += 1
    for space in e.bales:
        s.bales[space] += 1
    s.keg_reserve -= len(e.kegs)
    s.bale_reserve -= len(e.bales)
    return s


def _round(s: HeavenAndAleState, e: ev.RoundBegan) -> HeavenAndAleState:
    s.phase = PLAYING
    s.round = e.round
    for p in s.players:
        p.done = False
        p.pos = 0
    return s


def _turn(s: HeavenAndAleState, e: ev.TurnBegan) -> HeavenAndAleState:
    p = s.players[e.seat]
    s.turn = e.seat
    s.step = STEP_MOVE
    s.space = p.pos
    s.turn_from = TRACK_LEN if p.done else p.pos
    s.acted = False
    s.bought = 0
    s.sheds_pending = []
    s.pair = EMPTY
    return s


def _moved(s: HeavenAndAleState, e: ev.FigureMoved) -> HeavenAndAleState:
    p = s.players[e.seat]
    if p.slot != EMPTY:
        s.slots[p.slot] = EMPTY
        p.slot = EMPTY
    p.pos = e.space
    s.space = e.space
    return s


def _step(s: HeavenAndAleState, e: ev.StepBegan) -> HeavenAndAleState:
    s.step = e.step
    if e.pair is not None:
        s.pair = e.pair
    return s


def _bought(s: HeavenAndAleState, e: ev.TileBought) -> HeavenAndAleState:
    p = s.players[e.seat]
    code = TILE_CODES[e.tile]
    s.tiles[e.space].remove(code)
    p.garden[SPOT_INDEX[e.spot]] = code
    p.money -= e.cost
    s.acted = True
    s.bought += 1
    return s


def _enclosed(s: HeavenAndAleState, e: ev.ShedsEnclosed) -> HeavenAndAleState:
    s.sheds_pending = [SHED_INDEX[x] for x in e.sheds]
    return s


def _built(s: HeavenAndAleState, e: ev.ShedBuilt) -> HeavenAndAleState:
    s.players[e.seat].sheds[SHED_INDEX[e.shed]] = e.shed_type
    return s


def _activated(s: HeavenAndAleState, e: ev.ShedTilesActivated) -> HeavenAndAleState:
    shed = SHED_INDEX[e.shed]
    if shed in s.sheds_pending:
        s.sheds_pending.remove(shed)
    return s


def _disc(s: HeavenAndAleState, e: ev.DiscTaken) -> HeavenAndAleState:
    s.discs[e.space] -= 1
    s.players[e.seat].discs[SCORING_INDEX[e.spot]] = True
    s.acted = True
    return s


def _privilege(s: HeavenAndAleState, e: ev.PrivilegePlaced) -> HeavenAndAleState:
    p = s.players[e.seat]
    p.pairs[e.pair] = e.card
    p.cards.remove(e.card)
    s.pair = EMPTY
    return s


def _declined(s: HeavenAndAleState, e: ev.PrivilegeDeclined) -> HeavenAndAleState:
    s.players[e.seat].pairs[e.pair] = "declined"
    s.pair = EMPTY
    return s


def _coin(s: HeavenAndAleState, e: ev.EmergencyCoinUsed) -> HeavenAndAleState:
    p = s.players[e.seat]
    p.cards.remove(e.card)
    p.money += e.ducats
    return s


def _barrels(s: HeavenAndAleState, e: ev.BarrelsClaimed) -> HeavenAndAleState:
    p = s.players[e.seat]
    for g in e.large:
        s.large[g] = e.seat
        p.large.append(g)
    for g in e.small:
        s.small[g] = e.seat
        p.small.append(g)
    s.acted = True
    return s


def _skipped(s: HeavenAndAleState, e: ev.ActionSkipped) -> HeavenAndAleState:
    return s


def _storage_used(s: HeavenAndAleState, e: ev.StorageTileUsed) -> HeavenAndAleState:
    p = s.players[e.seat]
    p.storage_tiles[SHED_INDEX[e.shed]] = None
    if e.side == "back":
        p.extra_spots += delivery.BACK_STORAGE_SPOTS
    elif e.tile in delivery.CARTER_BONUS:
        p.board_tiles.append(e.tile)
    elif e.tile in delivery.POINT_TILES and e.area is not None:
        p.area_values[e.area - 1] = delivery.POINT_TILES[e.tile]
    return s


def _goods_taken(s: HeavenAndAleState, e: ev.GoodsTaken) -> HeavenAndAleState:
    p = s.players[e.seat]
    if e.space >= 0:
        s.kegs[e.space] -= e.kegs
        s.bales[e.space] -= e.bales
        s.acted = True
    else:
        s.keg_reserve -= e.kegs
        s.bale_reserve -= e.bales
    p.kegs += e.kegs - (e.rental == "keg")
    p.bales += e.bales - (e.rental == "bale")
    if e.rental is not None:
        p.rental = e.rental
    p.money -= e.cost
    return s


def _cart(s: HeavenAndAleState, e: ev.CartMoved) -> HeavenAndAleState:
    p = s.players[e.seat]
    remove_goods(p, e.loaded, e.loaded)
    s.bale_reserve += e.loaded
    p.cart = e.to
    p.cart_kegs += e.loaded - sum(e.delivered)
    for i, n in enumerate(e.delivered):
        p.delivered[i] += n
    if e.source == "die":
        s.acted = True
    return s


def _turn_ended(s: HeavenAndAleState, e: ev.TurnEnded) -> HeavenAndAleState:
    s.turn = EMPTY
    s.step = ""
    return s


def _ended(s: HeavenAndAleState, e: ev.GameEnded) -> HeavenAndAleState:
    s.phase = OVER
    s.turn = EMPTY
    s.step = ""
    return s


_HANDLERS: dict[type, Callable[[HeavenAndAleState, Any], HeavenAndAleState]] = {
    ev.TrackStocked: _stocked, ev.StartingSpaceTaken: _slot_taken, ev.RewardsGained: _rewards,
    ev.StorageTilePlaced: _storage_placed, ev.CarterDiePlaced: _die, ev.GoodsAdded: _goods_added,
    ev.RoundBegan: _round, ev.TurnBegan: _turn, ev.FigureMoved: _moved, ev.StepBegan: _step,
    ev.TileBought: _bought, ev.ShedsEnclosed: _enclosed, ev.ShedBuilt: _built,
    ev.ShedTilesActivated: _activated, ev.DiscTaken: _disc, ev.PrivilegePlaced: _privilege,
    ev.PrivilegeDeclined: _declined, ev.EmergencyCoinUsed: _coin, ev.BarrelsClaimed: _barrels,
    ev.ActionSkipped: _skipped, ev.StorageTileUsed: _storage_used, ev.GoodsTaken: _goods_taken,
    ev.CartMoved: _cart, ev.TurnEnded: _turn_ended, ev.GameEnded: _ended,
}


def evolve(state: HeavenAndAleState | None, event: Event) -> HeavenAndAleState:
    if isinstance(event, ev.GameSetUp):
        return _setup(state, event)
    assert state is not None
    return _HANDLERS[type(event)](state, event)
