"""The worked examples of the rule texts, played through the game's own commands."""

from __future__ import annotations

from fractions import Fraction

from domain.heaven_and_ale import GAME
from domain.heaven_and_ale import commands as c
from domain.heaven_and_ale import events as ev
from domain.heaven_and_ale.garden import SPOT_INDEX
from domain.heaven_and_ale.production import COLOUR_INDEX
from domain.heaven_and_ale.scoring import breakdown, exchange
from domain.heaven_and_ale.supply import TILE_CODES

from .helpers import Table, check_invariants, clear_board, plant, put_tile

WOOD, YEAST, HOPS, WATER, BARLEY = (COLOUR_INDEX[x] for x in ("wood", "yeast", "hops", "water", "barley"))


def _plant(t: Table, seat: int, spot: str, tile: str) -> None:
    plant(t.state, seat, SPOT_INDEX[spot], TILE_CODES[tile])


def test_shed_with_fertility_sum_15_gives_one_step_and_a_type_2_shed() -> None:
    """Base rules, "Enclosing a shed spot" example: sum 15 -> 1 brewmaster step, a type-2 shed (opposite edges)."""
    t = Table(2, "shed15").start()
    s, seat = t.state, t.seat
    clear_board(s)
    # Shed D's neighbours: S6 (E), S3 (NE), S2 (NW), S5 (W), S7 (SW), S8 (SE). Five are filled: 3+2+1+4+2 = 12.
    for spot, tile in (("S3", "wood-3"), ("S2", "hops-2"), ("S5", "water-1"), ("S7", "barley-4"), ("S8", "yeast-2")):
        _plant(t, seat, spot, tile)
    put_tile(s, 1, TILE_CODES["wood-3"])
    check_invariants(s)
    p = s.players[seat]
    brew, markers, money = p.brewmaster, list(p.markers), p.money

    t.do(c.Move(seat=seat, space=1))
    assert t.state.step == "buy"
    events = t.do(c.BuyTile(seat=seat, tile="wood-3", spot="S6"))  # the sixth tile: sum 15
    built = [e for e in events if isinstance(e, ev.ShedBuilt)]
    assert built == [ev.ShedBuilt(seat=seat, shed="D", fertility=15, shed_type=2)]
    p = t.state.players[seat]
    assert p.money == money - 6  # wood-3 on a sunny spot costs 2 x 3
    assert p.brewmaster == brew + 1
    assert t.state.step == "shed"
    options = {tuple(x.spots) for x in t.legal() if isinstance(x, c.ChooseShedTiles)}
    assert options == {("S5", "S6"), ("S3", "S7"), ("S2", "S8")}  # only opposite edges
    t.do(c.ChooseShedTiles(seat=seat, spots=["S7", "S3"]))
    p = t.state.players[seat]
    assert p.markers[WOOD] == markers[WOOD] + 3 and p.markers[BARLEY] == markers[BARLEY] + 4
    assert p.sheds[3] == 2
    assert t.state.step == "buy" and c.EndBuying(seat=seat) in t.legal()
    check_invariants(t.state)


def test_tile_next_to_two_triggered_monks_is_activated_twice() -> None:
    """Base rules, space B examples: a tile next to two triggered monks is activated twice; an activated monk gives +1
    brewmaster."""
    t = Table(2, "monks").start()
    s, seat = t.state, t.seat
    clear_board(s)
    for spot, tile in (("S3", "monk-1"), ("S6", "monk-1"), ("S4", "hops-2"), ("S1", "yeast-1"),
                       ("H3", "monk-1"), ("H6", "monk-1"), ("H4", "water-3"), ("H9", "monk-2")):
        _plant(t, seat, spot, tile)
    p = s.players[seat]
    brew, markers, money = p.brewmaster, list(p.markers), p.money
    assert s.discs[7] == 1  # space 7 is disc space B

    t.do(c.Move(seat=seat, space=7))
    assert {x.spot for x in t.legal() if isinstance(x, c.TakeDisc)} == {"monk1", "monk2"}
    t.do(c.TakeDisc(seat=seat, spot="monk1"))
    p = t.state.players[seat]
    # S4 (hops-2, sunny) touches both S3 and S6: 2 + 2 steps. S1 (yeast-1) touches S3 only.
    assert p.markers[HOPS] == markers[HOPS] + 4
    assert p.markers[YEAST] == markers[YEAST] + 1
    # H4 (water-3, shady) touches both H3 and H6: 3 + 3 ducats.
    assert p.money == money + 6
    # Monks S3-S6 and H3-H6 activate each other (+1 each, 4 in all) and H6 activates the monk-2 on H9 (+1).
    assert p.brewmaster == brew + 5
    assert t.state.discs[7] == 0 and p.discs[6]


def test_exchange_at_two_to_one() -> None:
    """Base rules, 5 End of the game, A: at 2:1 either one marker goes back 2, or two markers go back 1 each."""
    assert exchange([8, 6, 6, 6, 5], 2) == [6, 6, 6, 6, 6]  # one marker back 2
    assert exchange([7, 7, 6, 6, 5], 2) == [6, 6, 6, 6, 6]  # two markers back 1 each
    assert exchange([7, 6, 6, 6, 5], 2) == [5, 6, 6, 6, 7]  # only 1 surplus step: nothing moves
    t = Table(2, "exchange").start()
    p = t.state.players[0]
    p.brewmaster = 12  # bracket 12-14: 2:1, x4
    p.markers = [7, 7, 6, 6, 5]
    p.money = 9
    assert breakdown(t.state, 0)["production"] == 6 * 4
    p.money = 50  # B: 5 steps for 50 ducats lift all five markers to 7
    assert breakdown(t.state, 0)["production"] == 7 * 4
    p.brewmaster = -3  # before spot 1: 5:1, x2
    p.money = 0
    p.markers = [20, 2, 2, 2, 1]
    # Barley 1 -> 2 costs 5 back-steps of the 20; lifting all four to 3 would cost 25 > 17: level 2, x2.
    assert breakdown(t.state, 0)["production"] == 2 * 2


def test_peter_moves_four_steps_with_two_kegs_on_the_cart() -> None:
    """Kegs & More, 'Example of a player's turn': buy the green tile, take 1 keg, drive 4 steps delivering 2 kegs."""
    t = Table(2, "peter", kegs_and_more=True).start()
    s, seat = t.state, t.seat
    clear_board(s)
    s.keg_reserve += sum(s.kegs)
    s.bale_reserve += sum(s.bales)
    s.kegs = [0] * 28
    s.bales = [0] * 28
    space = 5
    put_tile(s, space, TILE_CODES["hops-3"])  # the green tile
    s.kegs[space], s.bales[space] = 2, 1
    s.keg_reserve -= 2 + 1 + 2
    s.bale_reserve -= 1
    s.die_space, s.die_value = space, 4
    p = s.players[seat]
    p.kegs, p.bales = 2, 1  # 3 of 4 regular spots used: one empty regular spot left
    p.cart, p.cart_kegs = 7, 2  # on tavern 1 with 2 kegs
    check_invariants(s)
    money = p.money

    t.do(c.Move(seat=seat, space=space))
    t.do(c.BuyTile(seat=seat, tile="hops-3", spot="H0"))
    t.do(c.EndBuying(seat=seat))
    assert t.state.step == "goods"
    legal = t.legal()
    assert c.TakeGoods(seat=seat, kegs=2, rental="keg") in legal  # "could have used the rental spot"
    assert c.TakeGoods(seat=seat, kegs=1, bales=1, rental="bale") in legal
    assert c.TakeGoods(seat=seat, kegs=2, bales=1, rental="keg") not in legal  # only 1 regular + 1 rental spot
    t.do(c.TakeGoods(seat=seat, kegs=1))
    assert t.state.step == "cart"
    assert t.legal()[0] == c.UseCarterDie(seat=seat, load=0)
    events = t.do(c.UseCarterDie(seat=seat))
    moved = next(e for e in events if isinstance(e, ev.CartMoved))
    assert moved.steps == 4 and moved.to == 11 and moved.delivered == [1, 1, 0]
    p = t.state.players[seat]
    assert p.cart == 11 and p.cart_kegs == 0 and p.delivered == [1, 1, 0]
    assert p.total_kegs() == 3 and p.total_bales() == 1 and p.free_regular() == 0 and p.rental is None
    assert p.money == money - 3
    assert t.state.kegs[space] == 1 and t.state.bales[space] == 1
    # End of turn: his figure is on the die's space, so the die is rolled and placed that many spaces ahead.
    rolled = next(e for e in events if isinstance(e, ev.CarterDiePlaced))
    assert rolled.reason == "rolled" and rolled.space == space + rolled.value
    assert isinstance(events[-1], ev.TurnBegan) and events[-1].seat != seat
    check_invariants(t.state)


def test_peter_keg_score_is_29_and_a_half() -> None:
    """Kegs & More D example: 3 x 6 + 2 x 4 + 3 x 1/2 + 2 x 1 = 29 1/2, exactly."""
    t = Table(2, "peter-score", kegs_and_more=True).start()
    p = t.state.players[0]
    p.delivered = [3, 2, 0]
    p.kegs, p.bales, p.rental = 2, 0, "keg"  # 3 kegs in storage (one of them on the rental spot)
    p.cart, p.cart_kegs = 1, 2  # a location worth 1 point per keg
    sheet = breakdown(t.state, 0)
    assert sheet["kegs_delivered"] == 26
    assert sheet["kegs_stored"] == Fraction(3, 2)
    assert sheet["kegs_on_cart"] == 2
    assert sheet["kegs_delivered"] + sheet["kegs_stored"] + sheet["kegs_on_cart"] == Fraction(59, 2)
    score = GAME.scores(t.state)[0]
    assert score.breakdown["kegs_stored"] == 1.5
    assert Fraction(score.total) == sum(Fraction(v) for v in sheet.values())
    p.cart = 7  # on a tavern location loaded kegs are worth nothing
    assert breakdown(t.state, 0)["kegs_on_cart"] == 0


# -- the base rulebook's worked examples (shared/rules/heaven-and-ale-base-rules.txt) ----------------
# The colours of the printed examples (yellow, green, blue, brown) are pictures; any colour stands in.


def test_peter_buys_a_5_shady_for_5_and_a_3_sunny_for_6() -> None:
    """Base rules, 4 Gameplay, resource spaces example: the green 5 costs 5 ducats in a shady spot, the yellow 3 costs 6 in a sunny spot."""
    t = Table(2, "peter-buys").start()
    s, seat = t.state, t.seat
    clear_board(s)
    put_tile(s, 1, TILE_CODES["hops-5"])
    put_tile(s, 1, TILE_CODES["barley-3"])
    money = s.players[seat].money
    t.do(c.Move(seat=seat, space=1))
    t.do(c.BuyTile(seat=seat, tile="hops-5", spot="H0"))
    assert t.state.players[seat].money == money - 5
    t.do(c.BuyTile(seat=seat, tile="barley-3", spot="S0"))
    assert t.state.players[seat].money == money - 5 - 6
    assert t.state.tiles[1] == []
    check_invariants(t.state)


def test_peter_scores_fertility_3_on_space_a() -> None:
    """Base rules, 4 Gameplay, scoring disc spaces example: space A, Peter names 3 and activates every resource tile with a 3 ("3 + 3 = 6 steps"
    for two sunny 3s of one colour; a shady 3 pays 3 ducats); tiles with other numbers stay idle."""
    t = Table(2, "peter-a").start()
    s, seat = t.state, t.seat
    clear_board(s)
    for spot, tile in (("S0", "barley-3"), ("S2", "barley-3"), ("H0", "water-3"), ("S5", "hops-4")):
        _plant(t, seat, spot, tile)
    p = s.players[seat]
    markers, money = list(p.markers), p.money
    assert s.discs[4] == 1  # space 4 is disc space A
    t.do(c.Move(seat=seat, space=4))
    t.do(c.TakeDisc(seat=seat, spot="x", number=3))
    p = t.state.players[seat]
    assert p.markers[BARLEY] == markers[BARLEY] + 6 and p.markers[HOPS] == markers[HOPS]
    assert p.money == money + 3 and p.discs[0]


def test_peter_may_not_use_an_occupied_colour_spot_on_space_c() -> None:
    """Base rules, 4 Gameplay, scoring disc spaces example: on space C Peter scores his yellow tiles; the green spot already holds a disc."""
    t = Table(2, "peter-c").start()
    s, seat = t.state, t.seat
    clear_board(s)
    for spot, tile in (("S0", "barley-2"), ("H0", "barley-4"), ("S2", "hops-1")):
        _plant(t, seat, spot, tile)
    p = s.players[seat]
    p.discs[1 + HOPS] = True  # the "green" spot is taken
    markers, money = list(p.markers), p.money
    t.do(c.Move(seat=seat, space=12))  # disc space C
    assert {x.spot for x in t.legal() if isinstance(x, c.TakeDisc)} == {"barley"}
    t.do(c.TakeDisc(seat=seat, spot="barley"))
    p = t.state.players[seat]
    assert p.markers[BARLEY] == markers[BARLEY] + 2 and p.money == money + 4


def test_peter_production_score_9_times_4_is_36() -> None:
    """Base rules, 5 End of the game example: after the exchange the marker furthest behind is on 9; value 4 gives 9 x 4 = 36 points."""
    t = Table(2, "peter-end").start()
    p = t.state.players[0]
    p.brewmaster = 10  # a spot that unlocked 3:1 and x4 (the rulebook's own "for example")
    p.markers = [12, 9, 9, 9, 8]  # 3 back-steps of the leader lift the last marker to 9
    p.money = 9  # under 10 ducats: no step bought
    assert exchange(list(p.markers), 3) == [9, 9, 9, 9, 9]
    assert breakdown(t.state, 0)["production"] == 36


def test_peter_takes_two_large_barrels_and_one_small() -> None:
    """Base rules, "Example of how to acquire barrels": with 3 goals achieved Peter takes the 2 large barrels still there and the small
    barrel of the goal whose large barrel is gone."""
    t = Table(2, "peter-barrels").start()
    s = t.state
    a = t.seat
    b = 1 - a
    p = s.players[a]
    p.brewmaster = 1  # goal 9
    p.markers = [1, 1, 1, 1, 1]  # goal 8
    p.markers[WOOD] = 20  # goal 3
    s.large[3] = b  # the other player already holds goal 3's large barrel
    s.players[b].large.append(3)
    t.do(c.Move(seat=a, space=14))
    p = t.state.players[a]
    assert sorted(p.large) == [8, 9] and p.small == [3]
    assert GAME.scores(t.state)[a].breakdown["large_barrels"] == 8
    assert GAME.scores(t.state)[a].breakdown["small_barrels"] == 2
    check_invariants(t.state)
