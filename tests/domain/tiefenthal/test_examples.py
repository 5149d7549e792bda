"""The worked examples of the Module 1 rules text, move by move through the game's commands."""

from __future__ import annotations

import pytest

from domain.core import IllegalMove, NotYourTurn
from domain.tiefenthal import GAME
from domain.tiefenthal import commands as cmd
from domain.tiefenthal.cards import GROUPS, KIND
from domain.tiefenthal.events import TavernFilled, WaitressDiceRolled
from domain.tiefenthal.state import is_white

from .helpers import (
    Driver,
    arrange_deck_top,
    check_invariants,
    free_supply_cards,
    put_in_staff,
    seat_at_new_table,
    set_dice,
)

W = 0  # Wolfgang, the start player of round 2 in these tests is seat 1, of round 1 seat 0


def _to_round2_choices(n: int = 3) -> Driver:
    d = Driver(n, "examples")
    d.end_turns_until(lambda s: s.round == 2 and s.phase == "A")
    return d


def test_phase_b_example_fills_until_every_table_is_taken_and_nobles_stack() -> None:
    """Phase B example: Noble, Table, Waitress, Supplier, 2 Guests, Noble (stacks), Waitress, Regular."""
    d = _to_round2_choices()
    s = d.state
    assert all(p.pending for p in s.players)  # round 2: choose a Waitress or a Table card
    d.do(cmd.ChooseBonus(seat=W, option=0))
    s = d.state
    noble_a, noble_f = s.supply["noble"][-2:]
    table_b = s.supply["table"][0]
    waitress_c, waitress_g = s.supply["waitress"][:2]
    supplier_d = s.supply["supplier"][0]
    guest_e1, guest_e2 = free_supply_cards(s, "guest", 2)
    regular_h = GROUPS[f"regular:{W}"][0]
    extra = GROUPS[f"regular:{W}"][1]
    order = [noble_a, table_b, waitress_c, supplier_d, guest_e1, guest_e2, noble_f, waitress_g, regular_h, extra]
    arrange_deck_top(s, W, order)
    check_invariants(s)
    for seat in (1, 2):
        d.do(cmd.ChooseBonus(seat=seat, option=0))
    filled = next(e for e in d.events if isinstance(e, TavernFilled) and e.seat == W and e.cards[:1] == [noble_a])
    assert filled.cards == order[:9]  # the tenth card stays on the deck: all 4 tables are taken
    p = d.state.players[W]
    assert p.tables == [[noble_a, noble_f], [guest_e1], [guest_e2], [regular_h]]
    assert p.noble_table == 0
    assert p.staff == {"table": [table_b], "waitress": [waitress_c, waitress_g], "supplier": [supplier_d]}
    assert p.deck_top[0] == extra
    # every player holds the counter guest of round 1: each may keep or redraw
    assert d.state.phase == "B" and sorted(GAME.to_act(d.state)) == [0, 1, 2]
    for seat in range(3):
        d.do(cmd.KeepTavern(seat=seat))
    # Phase C: one coloured die per Waitress drawn
    rolled = next(e for e in d.events if isinstance(e, WaitressDiceRolled) and e.seat == W)
    assert len(rolled.dice) == 2 and all(not is_white(x, 3) for x in rolled.dice)
    assert d.state.phase == "D"


def test_phase_c_permanent_waitress_and_at_most_three_dice() -> None:
    """Phase C example: 1 Waitress card + the permanent waitress = 2 dice; never more than 3 dice."""
    d = _to_round2_choices()
    s = d.state
    s.players[W].upgraded.add("waitress")
    s.players[1].upgraded.add("waitress")
    for seat in range(3):
        d.do(cmd.ChooseBonus(seat=seat, option=1))  # a Table card each, on top of the deck
    # arrange for next round: seat 0 will draw one Waitress, seat 1 four of them
    d.end_turns_until(lambda st: st.round == 2 and st.phase == "F" and st.active == st.order()[-1])
    s = d.state
    waitresses = s.supply["waitress"][:5]
    arrange_deck_top(s, W, [waitresses[0]])
    arrange_deck_top(s, 1, waitresses[1:5])
    before = len(d.events)
    d.do(cmd.EndTurn(seat=s.active))
    d.end_turns_until(lambda st: st.phase == "D")
    assert d.state.round == 3
    rolled = {e.seat: e for e in d.events[before:] if isinstance(e, WaitressDiceRolled)}
    assert len(rolled[W].dice) == 2
    assert len(rolled[1].dice) == 3


def _to_phase(d: Driver, phase: str, rnd: int = 1) -> None:
    d.end_turns_until(lambda st: st.round == rnd and st.phase == phase)


def test_dice_draft_with_passing() -> None:
    """Phase D example with Wolfgang, Nina, Luke and Marie (seats 0-3, Wolfgang starts)."""
    d = Driver(4, "draft")
    assert d.state.phase == "B"  # everybody got a counter guest in round 1 and may redraw
    d.end_turns_until(lambda st: st.phase == "D")
    s = d.state
    assert s.phase == "D" and s.start == 0 and GAME.to_act(s) == [0]
    wanted = {0: [6, 5, 3, 3], 1: [6, 4, 2, 2], 2: [2, 1, 4, 4], 3: [5, 6, 1, 1]}
    for coaster, values in wanted.items():
        for die, v in zip(s.coasters[coaster], values):
            s.die_value[die] = v
    with pytest.raises(NotYourTurn):
        d.do(cmd.PickDie(seat=1, value=6))
    for seat, v in [(0, 6), (1, 6), (2, 2), (3, 5)]:
        d.do(cmd.PickDie(seat=seat, value=v))
    # coasters passed left: Wolfgang now holds Marie's coaster
    assert d.state.held_coaster(0) == 3
    assert sorted(GAME.view(d.state, 0)["coasters"]["0"]) == [1, 1, 6]
    with pytest.raises(IllegalMove):
        d.do(cmd.PickDie(seat=0, value=5))
    for seat, v in [(0, 6), (1, 5), (2, 4), (3, 1)]:
        d.do(cmd.PickDie(seat=seat, value=v))
    while d.state.phase == "D":
        seat = GAME.to_act(d.state)[0]
        d.do(GAME.legal_commands(d.state, seat)[0])
    s = d.state
    assert s.phase == "E" and sorted(GAME.to_act(s)) == [0, 1, 2, 3]
    for p in s.players:
        assert sum(1 for x in p.dice if is_white(x, 4)) == 4
    assert sorted(v for x, v in s.players[0].dice.items() if is_white(x, 4))[-2:] == [6, 6]
    assert all(c == [] for c in s.coasters)


def _arranged_e(n: int = 3) -> Driver:
    d = Driver(n, "planning")
    _to_phase(d, "E")
    return d


def test_planning_example_and_beer_supplier_example_gives_9_beer() -> None:
    """Phase E example (1,1,3,3,5,6) and the Beer Supplier example: 2 supplier cards, dice 1,1,6 -> 9 beer."""
    d = _arranged_e()
    s = d.state
    p = s.players[W]
    p.staff.pop("merchant", None)
    while p.n_staff("supplier") < 2:
        put_in_staff(s, W, s.supply["supplier"][0])
    assert p.n_staff("supplier") == 2
    three_guest = seat_at_new_table(s, W, GROUPS[f"regular:{W}"][2])  # the regular that takes a 3
    ones_a, ones_b, three_a, three_b, five, six = set_dice(s, W, [1, 1, 3, 3, 5, 6])
    check_invariants(s)
    for die in (ones_a, ones_b, six):
        d.do(cmd.PlaceDie(seat=W, die=die, space="supplier"))
    d.do(cmd.PlaceDie(seat=W, die=five, space="monk"))
    d.do(cmd.PlaceDie(seat=W, die=three_a, space=f"table:{three_guest}"))
    d.do(cmd.PlaceDie(seat=W, die=three_b, space="barrel"))
    for seat in range(3):
        d.do(cmd.FinishPlanning(seat=seat))
    assert d.state.phase == "F" and d.state.active == W
    beer0 = d.state.players[W].beer
    for die in (ones_a, ones_b, six):
        d.do(cmd.TakeDie(seat=W, die=die))
    assert d.state.players[W].beer - beer0 == 9
    steps0 = d.state.players[W].monastery
    d.do(cmd.TakeDie(seat=W, die=five))
    assert d.state.players[W].monastery == steps0 + 1
    doubloons0 = d.state.players[W].doubloons
    d.do(cmd.TakeDie(seat=W, die=three_a))
    assert d.state.players[W].doubloons == doubloons0 + 1  # the regular pays 1
    d.do(cmd.TakeDie(seat=W, die=three_b))
    assert d.state.players[W].beer - beer0 == 10  # the barrel gives 1
    # used white dice went back to Wolfgang's coaster, coloured ones to the supply
    assert d.state.players[W].dice == {}
    assert {ones_a, ones_b, three_a, three_b} <= set(d.state.coasters[W])


def test_dishwasher_rule() -> None:
    """Each Dishwasher raises one die by 1; several may stack on a die; a 6 never becomes a 1."""
    d = _arranged_e()
    s = d.state
    p = s.players[W]
    p.staff.pop("dishwasher", None)
    for card in s.supply["dishwasher"][:2]:
        put_in_staff(s, W, card)
    four, three, two, six = set_dice(s, W, [4, 3, 2, 6])
    assert p.boost_capacity() == 2
    with pytest.raises(IllegalMove):  # a 2 needs 3 dishwashers for the monk
        d.do(cmd.PlaceDie(seat=W, die=two, space="monk"))
    d.do(cmd.PlaceDie(seat=W, die=three, space="monk"))  # two dishwashers on one die
    assert d.state.players[W].placed[three] == ("monk", 2)
    with pytest.raises(IllegalMove):  # no dishwasher left for the 4
        d.do(cmd.PlaceDie(seat=W, die=four, space="monk"))
    d.do(cmd.PlaceDie(seat=W, die=six, space="supplier"))  # a 6 fits as it is, and cannot become a 1
    assert d.state.players[W].placed[six] == ("supplier", 0)
    d.do(cmd.FinishPlanning(seat=W))
    for seat in (1, 2):
        d.do(cmd.FinishPlanning(seat=seat))
    # phase F: moving the 3 off the monk frees both dishwashers for the 4
    d.do(cmd.PlaceDie(seat=W, die=three, space="barrel"))
    d.do(cmd.PlaceDie(seat=W, die=four, space="monk"))
    assert d.state.players[W].placed[four] == ("monk", 1)
    assert d.state.players[W].boost_in_use() == 1
    steps = d.state.players[W].monastery
    d.do(cmd.TakeDie(seat=W, die=four))
    assert d.state.players[W].monastery == steps + 1


def test_special_offer_and_upgrade_brings_a_noble() -> None:
    """Returning 2 Beer Supplier cards (6 each) pays for the supplier upgrade; never below 0 for tables."""
    d = _arranged_e()
    s = d.state
    p = s.players[W]
    for kind in ("supplier", "table"):
        for card in p.staff.pop(kind, []):
            s.supply[kind].append(card)
    suppliers = s.supply["supplier"][:2]
    tables = s.supply["table"][:3]
    for card in suppliers + tables:
        put_in_staff(s, W, card)
    set_dice(s, W, [])
    for seat in range(3):
        d.do(cmd.FinishPlanning(seat=seat))
    p = d.state.players[W]
    assert p.doubloons == 0
    with pytest.raises(IllegalMove):  # 12 - 6 = 6 doubloons still to pay
        d.do(cmd.UpgradeTile(seat=W, tile="supplier", returned=1))
    nobles = len(d.state.supply["noble"])
    d.do(cmd.UpgradeTile(seat=W, tile="supplier", returned=2))
    p = d.state.players[W]
    assert "supplier" in p.upgraded and p.doubloons == 0
    assert set(suppliers) <= set(d.state.supply["supplier"]) and p.n_staff("supplier") == 0
    assert KIND[p.deck_top[0]] == "noble" and len(d.state.supply["noble"]) == nobles - 1
    guests = [t[:] for t in p.tables]
    d.do(cmd.UpgradeTile(seat=W, tile="tables", returned=3))  # 12 - 15 -> 0, never a gain
    p = d.state.players[W]
    assert p.doubloons == 0 and p.tile("tables") == 4
    assert p.tables == guests  # guests at returned Table cards stay for the round
    with pytest.raises(IllegalMove):
        d.do(cmd.UpgradeTile(seat=W, tile="tables", returned=0))


def test_one_die_on_the_top_noble_only() -> None:
    d = _arranged_e()
    s = d.state
    nobles = s.supply["noble"][-2:]
    table = seat_at_new_table(s, W, nobles[0])
    top = seat_at_new_table(s, W, nobles[1])
    s.players[W].tables[table].append(s.players[W].tables.pop(top)[0])
    s.players[W].noble_table = table
    a, b = set_dice(s, W, [2, 4])
    d.do(cmd.PlaceDie(seat=W, die=a, space=f"table:{table}"))
    with pytest.raises(IllegalMove):
        d.do(cmd.PlaceDie(seat=W, die=b, space=f"table:{table}"))
    assert d.state.players[W].placed == {a: (f"table:{table}", 0)}
