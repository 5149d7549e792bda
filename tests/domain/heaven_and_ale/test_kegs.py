"""Kegs & More: setup, goods, the cart and its gates, storage tiles, the carter die, passing."""

from __future__ import annotations

import pytest

from domain.core import IllegalMove
from domain.heaven_and_ale import GAME
from domain.heaven_and_ale import commands as c
from domain.heaven_and_ale import events as ev
from domain.heaven_and_ale.garden import SPOT_INDEX
from domain.heaven_and_ale.supply import TILE_CODES

from .helpers import Table, check_invariants, clear_board, plant, put_tile


def clear_goods(t: Table) -> None:
    s = t.state
    s.keg_reserve += sum(s.kegs)
    s.bale_reserve += sum(s.bales)
    s.kegs = [0] * 28
    s.bales = [0] * 28


def test_expansion_setup() -> None:
    t = Table(3, "kegs-setup", kegs_and_more=True)
    while t.state.phase == "placing":
        t.do(t.legal(GAME.to_act(t.state)[0])[0])
    s = t.state
    assert s.phase == "arranging" and GAME.to_act(s) == [0, 1, 2]
    assert all(p.kegs == 1 and p.bales == 1 and p.cart == 0 for p in s.players)
    with pytest.raises(IllegalMove):
        t.do(c.PlaceStorageTile(seat=1, tile="bogus"))
    t.do(c.PlaceStorageTile(seat=1, tile="move4"))
    assert t.state.players[1].storage_tiles[0] == "move4"
    assert c.PlaceStorageTile(seat=1, tile="move4") not in t.legal(1)
    events: list = []
    while t.state.phase == "arranging":
        events += t.do(t.legal(GAME.to_act(t.state)[-1])[0])
    s = t.state
    assert all(None not in p.storage_tiles and sorted(p.storage_tiles) == sorted(
        ("kegbale", "carter2", "carter3", "points7", "points8", "move3", "move4")) for p in s.players)
    die = next(e for e in events if isinstance(e, ev.CarterDiePlaced))
    assert die.reason == "setup" and die.space == die.value
    goods = next(e for e in events if isinstance(e, ev.GoodsAdded))
    v = die.value
    assert goods.kegs == [(v + v * i) % 28 for i in range(1, 5)]
    assert goods.bales == [(v + v * i) % 28 for i in range(5, 9)]
    assert s.keg_reserve == 32 - 3 - 4 and s.bale_reserve == 20 - 3 - 4
    assert s.phase == "playing" and s.turn == s.start_player
    check_invariants(s)


def test_cart_on_the_monastery_needs_a_keg_and_a_bale_to_load() -> None:
    t = Table(2, "monastery", kegs_and_more=True).start()
    s, seat = t.state, t.seat
    clear_board(s)
    clear_goods(t)
    s.die_space, s.die_value = 3, 5  # space 3 is a monk space, now empty: only the die is there
    p = s.players[seat]
    p.bales = 0
    s.bale_reserve += 1
    assert c.Move(seat=seat, space=3) not in t.legal()  # a keg but no bale: the cart cannot leave
    p.bales = 1
    s.bale_reserve -= 1
    assert c.Move(seat=seat, space=3) in t.legal()
    t.do(c.Move(seat=seat, space=3))
    assert t.state.step == "cart"
    assert [x for x in t.legal() if not isinstance(x, c.UseEmergencyCoin)] == [c.UseCarterDie(seat=seat, load=1)]
    with pytest.raises(IllegalMove):
        t.do(c.UseCarterDie(seat=seat, load=0))  # cannot use the die without leaving the monastery
    with pytest.raises(IllegalMove):
        t.do(c.Pass(seat=seat))  # the only action of the space must be performed
    reserve = t.state.bale_reserve
    t.do(c.UseCarterDie(seat=seat, load=1))
    p = t.state.players[seat]
    assert p.cart == 5 and p.cart_kegs == 1 and p.total_kegs() == 0 and p.total_bales() == 0
    assert t.state.bale_reserve == reserve + 1  # the bale paid goes back to the reserve
    check_invariants(t.state)


def test_passing_over_a_cart_stopping_at_the_monastery_and_taverns() -> None:
    t = Table(2, "gates", kegs_and_more=True).start()
    s, seat = t.state, t.seat
    clear_board(s)
    clear_goods(t)
    put_tile(s, 1, TILE_CODES["wood-1"])
    s.die_space, s.die_value = 1, 6
    p = s.players[seat]
    p.cart, p.cart_kegs = 9, 3  # on tavern 2 with 3 kegs
    s.keg_reserve -= 3
    t.do(c.Move(seat=seat, space=1))
    assert c.Pass(seat=seat) in t.legal()  # the die can still be used
    t.do(c.Pass(seat=seat))
    assert t.state.step == "cart"
    assert c.Pass(seat=seat) not in t.legal()  # nothing performed yet: the die must be used
    events = t.do(c.UseCarterDie(seat=seat, load=0))
    moved = next(e for e in events if isinstance(e, ev.CartMoved))
    # 9 -> 10 passes gate 2 (1 keg), 11 -> 12 passes gate 3 (the other 2), then 13, 0: the monastery gate, no load.
    assert moved.delivered == [0, 1, 2] and moved.to == 0
    assert t.state.players[seat].delivered == [0, 1, 2]


def test_storage_tile_point_front_then_shed() -> None:
    t = Table(2, "storage", kegs_and_more=True).start()
    s, seat = t.state, t.seat
    clear_board(s)
    clear_goods(t)
    p = s.players[seat]
    p.storage_tiles[3] = "points7"  # shed D
    for spot, tile in (("S3", "wood-1"), ("S2", "wood-1"), ("S5", "wood-1"), ("S7", "wood-1"), ("S8", "wood-1")):
        plant(s, seat, SPOT_INDEX[spot], TILE_CODES[tile])
    put_tile(s, 1, TILE_CODES["wood-1"])
    t.do(c.Move(seat=seat, space=1))
    events = t.do(c.BuyTile(seat=seat, tile="wood-1", spot="S6"))
    assert t.state.step == "storage" and not any(isinstance(e, ev.ShedBuilt) for e in events)
    legal = t.legal()
    assert c.ResolveStorageTile(seat=seat, side="back") in legal
    assert c.ResolveStorageTile(seat=seat, side="front", area=1) in legal
    assert c.ResolveStorageTile(seat=seat, side="front", area=3) not in legal
    events = t.do(c.ResolveStorageTile(seat=seat, side="front", area=2))
    assert t.state.players[seat].area_values == [None, 7, None]
    built = next(e for e in events if isinstance(e, ev.ShedBuilt))
    assert built.fertility == 6 and built.shed_type == 0  # then the base shed procedure
    assert t.state.players[seat].storage_tiles[3] is None and t.state.step == "buy"


def test_storage_tile_back_and_rental_spot() -> None:
    t = Table(2, "rental", kegs_and_more=True).start()
    s, seat = t.state, t.seat
    clear_board(s)
    clear_goods(t)
    p = s.players[seat]
    p.kegs, p.bales = 2, 2  # regular spots full
    s.keg_reserve -= 1
    s.bale_reserve -= 1
    s.kegs[2] = 2
    s.keg_reserve -= 2
    money = p.money
    t.do(c.Move(seat=seat, space=2))
    assert t.state.step == "goods"
    assert [x for x in t.legal() if isinstance(x, c.TakeGoods)] == [c.TakeGoods(seat=seat, kegs=1, rental="keg")]
    t.do(c.TakeGoods(seat=seat, kegs=1, rental="keg"))
    p = t.state.players[seat]
    assert p.money == money - 4 and p.rental == "keg" and p.total_kegs() == 3
    check_invariants(t.state)


def test_rental_spot_may_take_a_piece_while_a_regular_spot_is_free() -> None:
    """Expansion A2: "you have one rental storage spot: Whenever you place 1 keg or 1 bale there, you must pay
    4 ducats" -- the text sets no condition, so a free regular spot does not bar it (RULES_NOTES R-K3)."""
    t = Table(2, "rental-free", kegs_and_more=True).start()
    s, seat = t.state, t.seat
    clear_board(s)
    clear_goods(t)
    p = s.players[seat]
    p.kegs, p.bales = 1, 2  # one regular spot free
    s.bale_reserve -= 1
    s.kegs[2], s.bales[2] = 1, 1
    s.keg_reserve -= 1
    s.bale_reserve -= 1
    money = p.money
    t.do(c.Move(seat=seat, space=2))
    takes = {(x.kegs, x.bales, x.rental) for x in t.legal() if isinstance(x, c.TakeGoods)}
    assert takes == {(1, 0, None), (0, 1, None), (1, 0, "keg"), (0, 1, "bale"), (1, 1, "keg"), (1, 1, "bale")}
    t.do(c.TakeGoods(seat=seat, kegs=1, rental="keg"))
    p = t.state.players[seat]
    assert p.money == money - 4 and p.rental == "keg" and p.free_regular() == 1
    check_invariants(t.state)


def test_die_skipped_by_everyone_goes_past_a_figure_in_the_starting_area() -> None:
    """Expansion A, special case: "one space ahead of the player figure that is farthest ahead"; a figure that
    has reached the starting area is farthest ahead, so the die goes to the space after it (RULES_NOTES R-K2)."""
    t = Table(2, "skip-start", kegs_and_more=True).start()
    s = t.state
    clear_board(s)
    clear_goods(t)
    put_tile(s, 6, TILE_CODES["hops-1"])
    s.die_space, s.die_value = 3, 2
    a = t.seat
    t.do(next(x for x in t.legal() if isinstance(x, c.EnterStartingArea) and x.slot != "resource"))
    assert t.state.players[a].done and t.state.die_space == 3  # the other figure can still reach the die
    b = t.seat
    assert b != a
    t.do(c.Move(seat=b, space=6))
    events: list = []
    while not any(isinstance(e, ev.TurnEnded) for e in events):
        events += t.do(next(x for x in t.legal() if isinstance(x, (c.BuyTile, c.EndBuying, c.Pass))))
    placed = [e for e in events if isinstance(e, ev.CarterDiePlaced)]
    assert len(placed) == 1 and placed[0].reason == "skipped" and placed[0].space == 1  # not 7, past figure b
    check_invariants(t.state)


def test_carter_bonus_tile_adds_to_the_die() -> None:
    t = Table(2, "bonus", kegs_and_more=True).start()
    s, seat = t.state, t.seat
    clear_board(s)
    clear_goods(t)
    p = s.players[seat]
    p.board_tiles = ["carter2", "carter3"]
    p.cart, p.cart_kegs = 1, 1
    s.keg_reserve -= 1
    s.die_space, s.die_value = 3, 1
    t.do(c.Move(seat=seat, space=3))
    events = t.do(c.UseCarterDie(seat=seat))
    moved = next(e for e in events if isinstance(e, ev.CartMoved))
    assert moved.steps == 6 and moved.to == 7  # 1 + 2 + 3 steps, stopping on tavern 1 with the keg


def test_die_skipped_by_everyone_is_rolled_ahead_of_the_leader() -> None:
    t = Table(2, "skip", kegs_and_more=True).start()
    s = t.state
    clear_board(s)
    clear_goods(t)
    for k in (5, 6):
        put_tile(s, k, TILE_CODES["hops-1"])
    s.die_space, s.die_value = 1, 2
    a = t.seat
    t.do(c.Move(seat=a, space=5))
    events: list = []
    while t.state.turn == a:
        events += t.do(next(x for x in t.legal() if isinstance(x, (c.BuyTile, c.EndBuying, c.Pass))))
    assert not any(isinstance(e, ev.CarterDiePlaced) for e in events)  # the other figure can still reach it
    b = t.seat
    t.do(c.Move(seat=b, space=6))
    events = []
    while t.state.turn == b:
        events += t.do(next(x for x in t.legal() if isinstance(x, (c.BuyTile, c.EndBuying, c.Pass))))
    placed = [e for e in events if isinstance(e, ev.CarterDiePlaced)]
    assert len(placed) == 1 and placed[0].reason == "skipped" and placed[0].space == 7
    assert t.state.die_space == 7 and t.state.die_value == placed[0].value


def test_move_tile_loads_at_the_monastery_gate_and_kegbale_tile() -> None:
    t = Table(2, "movetile", kegs_and_more=True).start()
    s, seat = t.state, t.seat
    clear_board(s)
    clear_goods(t)
    p = s.players[seat]
    p.storage_tiles[3] = "move4"  # shed D
    p.storage_tiles[4] = "kegbale"  # shed E
    p.cart = 12
    for spot, tile in zip(("S6", "S3", "S2", "S5", "S7", "S10", "S11", "S12", "S13"),
                          ("barley-1", "barley-2", "barley-3", "hops-1", "hops-2", "hops-3", "water-1", "water-2",
                           "water-3")):
        plant(s, seat, SPOT_INDEX[spot], TILE_CODES[tile])
    put_tile(s, 1, TILE_CODES["wood-1"])
    put_tile(s, 1, TILE_CODES["wood-2"])
    t.do(c.Move(seat=seat, space=1))
    t.do(c.BuyTile(seat=seat, tile="wood-1", spot="H14"))  # encloses nothing
    t.do(c.BuyTile(seat=seat, tile="wood-2", spot="S8"))  # S8 closes sheds D and E at once
    assert t.state.sheds_pending == [3, 4] and t.state.step == "storage"
    loads = {x.load for x in t.legal() if isinstance(x, c.ResolveStorageTile) and x.side == "front"}
    assert loads == {0, 1}  # the route 12 -> 13 -> 0 passes the monastery gate: load 0 or 1 keg
    events = t.do(c.ResolveStorageTile(seat=seat, side="front", load=1))
    moved = next(e for e in events if isinstance(e, ev.CartMoved))
    assert moved.source == "tile" and moved.loaded == 1 and moved.to == 2  # 13, 0, (load) 1, 2
    p = t.state.players[seat]
    assert p.cart_kegs == 1 and p.total_kegs() == 0 and p.total_bales() == 0
    # Shed D's own procedure (sum 1+2+3+1+2+2 = 11: type 1, one tile to activate) ...
    assert t.state.sheds_pending[0] == 3 and t.state.step == "shed"
    assert len([x for x in t.legal() if isinstance(x, c.ChooseShedTiles)]) == 6
    t.do(c.ChooseShedTiles(seat=seat, spots=["S2"]))
    # ... then shed E's storage tile: the keg-and/or-bale front, from the reserve.
    assert t.state.sheds_pending == [4] and t.state.step == "storage"
    fronts = [x for x in t.legal() if isinstance(x, c.ResolveStorageTile) and x.side == "front"]
    assert {(x.keg, x.bale) for x in fronts} == {(True, False), (False, True), (True, True)}
    reserve = t.state.keg_reserve
    t.do(c.ResolveStorageTile(seat=seat, side="front", keg=True, bale=True))
    p = t.state.players[seat]
    assert p.total_kegs() == 1 and p.total_bales() == 1 and t.state.keg_reserve == reserve - 1
    check_invariants(t.state)


def test_new_barrel_for_three_delivered_kegs() -> None:
    t = Table(2, "newbarrel", kegs_and_more=True).start()
    s, seat = t.state, t.seat
    clear_goods(t)
    assert len(s.large) == 13  # the 12 base goals and the new barrel
    p = s.players[seat]
    p.delivered = [2, 1, 0]
    s.keg_reserve -= 3
    t.do(c.Move(seat=seat, space=14))
    assert t.state.players[seat].large == [12]
    assert GAME.scores(t.state)[seat].breakdown["large_barrels"] == 4
    # The second to deliver 3 kegs takes the small new barrel: 2 points, like every small barrel (R-K15).
    other = 1 - seat
    t.state.players[other].delivered = [3, 0, 0]
    t.state.keg_reserve -= 3
    t.do(c.Move(seat=other, space=14))
    assert t.state.players[other].small == [12]
    assert GAME.scores(t.state)[other].breakdown["small_barrels"] == 2
    assert GAME.scores(t.state)[seat].breakdown["kegs_delivered"] == 2 * 6 + 4
