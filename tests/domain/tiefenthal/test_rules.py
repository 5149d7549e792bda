"""Edge cases of Module 1: limits, displays, storage, monastery, reshuffles, turn order, end of game."""

from __future__ import annotations

import pytest

from domain.core import GameNotActive, IllegalMove, InvalidCommand, NotYourTurn, RuleError, rng_for
from domain.core.playout import random_playout
from domain.tiefenthal import GAME, actions
from domain.tiefenthal import commands as cmd
from domain.tiefenthal.actions import die_yield
from domain.tiefenthal.cards import CARDS, GROUPS, KIND
from domain.tiefenthal.events import CardGained, ChoiceOffered, CurrencyGained, TavernFilled, TileUpgraded
from domain.tiefenthal.flow import MONASTERY_TRACK

from .helpers import Driver, check_invariants, put_in_staff, set_dice


def _my_turn(n: int = 3, seed: str = "rules") -> Driver:
    """Round 1, phase F, seat 0 to act with no dice planned."""
    d = Driver(n, seed)
    d.end_turns_until(lambda s: s.phase == "F")
    assert d.state.active == 0
    return d


def test_buy_at_most_one_of_each_type_and_it_goes_on_top() -> None:
    d = _my_turn()
    p = d.state.players[0]
    p.doubloons = 20
    d.do(cmd.BuyCard(seat=0, card_type="waitress"))
    card = d.state.players[0].deck_top[0]
    assert KIND[card] == "waitress" and d.state.players[0].doubloons == 16
    with pytest.raises(IllegalMove, match="already bought"):
        d.do(cmd.BuyCard(seat=0, card_type="waitress"))
    d.do(cmd.BuyCard(seat=0, card_type="table"))
    assert d.state.players[0].deck_top[:2] == [d.state.players[0].deck_top[0], card]
    assert d.state.players[0].doubloons == 11
    with pytest.raises(InvalidCommand):
        d.do(cmd.BuyCard(seat=0, card_type="bard"))
    with pytest.raises(IllegalMove, match="costs 6"):
        d.state.players[0].doubloons = 5
        d.do(cmd.BuyCard(seat=0, card_type="supplier"))
    # what was bought comes out first next round
    bought = list(d.state.players[0].deck_top)
    d.end_turns_until(lambda s: s.round == 2 and s.phase != "A")
    filled = [e for e in d.events if isinstance(e, TavernFilled) and e.seat == 0][-1]
    assert filled.cards[0] in bought or KIND[filled.cards[0]] in ("waitress", "table")


def test_recruit_one_guest_a_round_refill_and_bonus() -> None:
    d = _my_turn()
    s = d.state
    weaver = next(c for c in GROUPS["guest"] if CARDS[c].bonus == {"kind": "card", "card": "dishwasher"})
    if weaver not in s.display:
        slot_card = s.display[0]
        s.display[0] = weaver
        s.guest_deck.remove(weaver)
        s.guest_deck.append(slot_card)
    s.players[0].beer = 20
    deck_before = len(s.guest_deck)
    d.do(cmd.RecruitGuest(seat=0, card=weaver))
    s = d.state
    assert weaver not in s.display and len(s.display) == 4 and len(s.guest_deck) == deck_before - 1
    assert s.players[0].deck_top[1] == weaver
    assert KIND[s.players[0].deck_top[0]] == "dishwasher"  # the immediate bonus
    assert s.players[0].beer == 20 - CARDS[weaver].cost
    with pytest.raises(IllegalMove, match="already recruited"):
        d.do(cmd.RecruitGuest(seat=0, card=s.three_beer[-1]))


def test_last_three_beer_guest_brings_a_fifth_display_card() -> None:
    d = _my_turn()
    s = d.state
    while len(s.three_beer) > 1:
        s.box.append(s.three_beer.pop())  # arrangement: the others are gone
    s.players[0].beer = 3
    d.do(cmd.RecruitGuest(seat=0, card=s.three_beer[-1]))
    assert d.state.three_beer == [] and len(d.state.display) == 5
    assert d.state.players[0].beer == 0


def test_nobles_cost_9_14_18_beer() -> None:
    d = _my_turn()
    d.state.players[0].beer = 9 + 14 + 18
    for count in (1, 2, 3):
        d.do(cmd.RecruitNobles(seat=0, count=count))
    p = d.state.players[0]
    assert p.beer == 0 and [KIND[c] for c in p.deck_top[:6]] == ["noble"] * 6
    with pytest.raises(IllegalMove):
        d.do(cmd.RecruitNobles(seat=0, count=1))
    with pytest.raises(InvalidCommand):
        d.do(cmd.RecruitNobles(seat=0, count=4))


def test_end_turn_stores_up_to_the_limits_and_the_rest_is_lost() -> None:
    d = _my_turn()
    p = d.state.players[0]
    p.doubloons, p.beer = 4, 7
    new = d.do(cmd.EndTurn(seat=0))
    assert (new[0].stored_doubloons, new[0].stored_beer, new[0].lost_doubloons, new[0].lost_beer) == (2, 2, 2, 5)
    p = d.state.players[0]
    assert (p.safe, p.storage, p.doubloons, p.beer) == (2, 2, 0, 0)
    assert d.state.active == 1
    d.end_turns_until(lambda s: s.round == 2 and s.phase == "F" and s.active == 0)
    p = d.state.players[0]
    assert (p.safe, p.storage) == (0, 0) and p.doubloons == 2 and p.beer >= 2  # spendable again


def test_upgraded_safe_and_storage_hold_five() -> None:
    d = _my_turn()
    p = d.state.players[0]
    p.doubloons, p.beer = 6 + 9, 9
    d.do(cmd.UpgradeTile(seat=0, tile="safe"))
    d.do(cmd.UpgradeTile(seat=0, tile="storage"))
    new = d.do(cmd.EndTurn(seat=0))
    assert (new[0].stored_doubloons, new[0].stored_beer) == (3, 5)


def test_cashbox_is_used_once_a_round() -> None:
    d = _my_turn()
    a, b = set_dice(d.state, 0, [2, 4])
    d.do(cmd.PlaceDie(seat=0, die=a, space="cashbox"))
    d.do(cmd.TakeDie(seat=0, die=a))
    assert d.state.players[0].doubloons == 1
    with pytest.raises(IllegalMove, match="already used"):
        d.do(cmd.PlaceDie(seat=0, die=b, space="cashbox"))
    assert cmd.PlaceDie(seat=0, die=b, space="cashbox") not in GAME.legal_commands(d.state, 0)


def test_upgrade_with_dice_on_the_tile_pays_the_upgraded_value() -> None:
    d = _my_turn()
    (a,) = set_dice(d.state, 0, [3])
    d.do(cmd.PlaceDie(seat=0, die=a, space="cashbox"))
    d.state.players[0].doubloons = 7
    d.do(cmd.UpgradeTile(seat=0, tile="cashbox"))
    d.do(cmd.TakeDie(seat=0, die=a))
    assert d.state.players[0].doubloons == 3


def test_monastery_bonuses_and_wrap_past_22() -> None:
    d = _my_turn()
    p = d.state.players[0]
    p.monastery = 21
    p.counter_guests += 2
    d.state.counter_supply -= 2
    d.do(cmd.UseCounterGuest(seat=0))
    assert d.state.players[0].monastery == 22
    assert MONASTERY_TRACK[22] == {"kind": "noble"}
    assert KIND[d.state.players[0].deck_top[0]] == "noble"
    d.do(cmd.UseCounterGuest(seat=0))
    assert d.state.players[0].monastery == 0
    # an upgraded monk moves 2 and collects every bonus passed
    p = d.state.players[0]
    p.monastery = 2
    p.upgraded.add("monk")
    (five,) = set_dice(d.state, 0, [5])
    d.do(cmd.PlaceDie(seat=0, die=five, space="monk"))
    before = len(d.events)
    d.do(cmd.TakeDie(seat=0, die=five))
    gained = [e for e in d.events[before:] if isinstance(e, CardGained)]
    assert d.state.players[0].monastery == 4 and [KIND[e.card] for e in gained] == ["merchant"]


def test_deck_reshuffles_the_discard_when_empty() -> None:
    d = Driver(2, "reshuffle")
    d.end_turns_until(lambda s: s.round == 1 and s.phase == "F" and s.active == 1)
    s = d.state
    p = s.players[0]
    # arrangement: only 1 card left in the deck, the rest in the discard pile
    keep = p.deck_rest[:1]
    p.discard.extend(p.deck_rest[1:])
    p.deck_rest = keep
    d.do(cmd.EndTurn(seat=1))
    d.end_turns_until(lambda st: st.round == 2 and st.phase not in ("A",))
    filled = [e for e in d.events if isinstance(e, TavernFilled) and e.seat == 0][-1]
    assert filled.cards[0] in keep or KIND[filled.cards[0]] in ("waitress", "table")
    assert len(filled.cards) >= 3
    check_invariants(d.state)


def test_free_upgrade_round_bonus_offers_tiles_and_brings_a_noble() -> None:
    d = Driver(2, "free-upgrade")
    d.end_turns_until(lambda s: s.round == 4 and s.phase == "A")
    offers = [e for e in d.events if isinstance(e, ChoiceOffered) and e.reason == "round 4"]
    assert len(offers) == 2 and {"kind": "upgrade_tile", "tile": "monk"} in offers[0].options
    seat = GAME.to_act(d.state)[0]
    option = next(i for i, o in enumerate(d.state.players[seat].pending[0]) if o.get("tile") == "monk")
    before = len(d.events)
    d.do(cmd.ChooseBonus(seat=seat, option=option))
    up = [e for e in d.events[before:] if isinstance(e, TileUpgraded)]
    assert up and up[0].price == 0 and "monk" in d.state.players[seat].upgraded
    assert KIND[d.state.players[seat].deck_top[0]] == "noble"


def test_beer_merchants_give_one_beer_each_at_turn_start() -> None:
    d = Driver(2, "merchant")
    d.end_turns_until(lambda s: s.phase == "E")
    s = d.state
    s.players[0].staff.pop("merchant", None)
    for card in s.supply["merchant"][:2]:
        put_in_staff(s, 0, card)
    d.do(cmd.FinishPlanning(seat=0))
    d.do(cmd.FinishPlanning(seat=1))
    p = d.state.players[0]
    assert p.beer == 2
    # merchants do not raise the supplier's beer per die
    assert die_yield(p, "supplier") == (0, 1 + p.n_staff("supplier"), 0)


def test_not_your_turn_and_game_over() -> None:
    d = _my_turn()
    with pytest.raises(NotYourTurn):
        d.do(cmd.EndTurn(seat=1))
    with pytest.raises(IllegalMove, match="not possible in phase F"):  # own turn, wrong phase: not "not your turn"
        d.do(cmd.FinishPlanning(seat=0))
    assert GAME.legal_commands(d.state, 1) == []
    result = random_playout(GAME, 2, "over")
    with pytest.raises(GameNotActive):
        GAME.decide(result.state, cmd.EndTurn(seat=0), rng_for(b"x", 0))
    assert GAME.to_act(result.state) == [] and GAME.legal_commands(result.state, 0) == []


def test_legal_commands_match_decide_along_a_game() -> None:
    """At sampled states every listed command is accepted and every other candidate refused."""
    import random
    d = Driver(3, "legal-walk")
    chooser = random.Random(5)
    checked = 0
    step = 0
    while not GAME.is_over(d.state):
        step += 1
        state = d.state
        mover = chooser.choice(GAME.to_act(state))
        move = chooser.choice(GAME.legal_commands(state, mover))
        if step % 7:
            d.do(move)
            continue
        cut = step
        for seat in range(3):
            legal = GAME.legal_commands(state, seat)
            if seat in GAME.to_act(state):
                assert legal, "a seat that must act always has a legal command"
            for c in actions.candidates(state, seat):
                try:
                    GAME.decide(state, c, rng_for(b"s", cut))
                    accepted = True
                except RuleError:
                    accepted = False
                assert accepted == (c in legal), (c, state.phase)
                checked += 1
        d.do(move)
    assert checked > 100


def test_scores_and_tiebreak() -> None:
    result = random_playout(GAME, 2, "scores")
    s = result.state
    sc = GAME.scores(s)
    for score in sc:
        p = s.players[score.seat]
        assert score.total == sum(CARDS[c].vp for c in p.owned_cards())
        assert score.tiebreak == (p.safe + p.storage,)
        assert score.breakdown["nobles"] == 10 * sum(1 for c in p.owned_cards() if KIND[c] == "noble")


def test_currency_bonus_outside_the_turn_goes_to_safe_up_to_the_limit() -> None:
    import random

    from domain.tiefenthal.flow import Ctx, grant
    d = Driver(2, "currency")
    ctx = Ctx(d.state, random.Random(0))  # grant draws nothing
    grant(ctx, 1, {"kind": "doubloons", "n": 5}, "test")
    assert ctx.events == [CurrencyGained(seat=1, doubloons=2, beer=0, stored=True)]


def test_counter_guest_redraws_the_tavern_in_phase_b() -> None:
    d = Driver(2, "redraw")
    d.end_turns_until(lambda s: s.round == 2 and s.phase == "B")
    s = d.state
    p = s.players[0]
    assert p.counter_guests == 1 and GAME.to_act(s) == [0, 1]
    first = p.tavern_cards()
    new = d.do(cmd.RedrawTavern(seat=0))
    assert [e.type for e in new[:3]] == ["CounterGuestUsed", "TavernCleared", "TavernFilled"]
    p = d.state.players[0]
    # the cleared cards went to the discard pile (which may have been reshuffled into the deck while refilling)
    assert p.counter_guests == 0 and set(first) <= set(p.discard + p.deck_rest + p.tavern_cards())
    assert len(p.tables) >= p.tile("tables") or not (p.deck_rest or p.deck_top or p.discard)
    assert GAME.to_act(d.state) == [1]  # no counter guest left: seat 0 is done with phase B
    d.do(cmd.KeepTavern(seat=1))
    assert d.state.phase == "D"


def test_redraw_option_off_makes_phase_b_automatic() -> None:
    from domain.core import seed_from_text
    from domain.tiefenthal.flow import setup_events
    result = random_playout(GAME, 2, "no-redraw", {"counter_guest_redraw": False}, check=check_invariants)
    assert not any(e.type in ("TavernKept", "TavernCleared") for e in result.events)
    assert setup_events(2, __import__("random").Random(1), redraw=False)[0].counter_guest_redraw is False
    assert seed_from_text("x")


# -- readings decided against the text (RULES_NOTES "Readings decided against the text") -----------


@pytest.mark.parametrize("counts_as_step", [True, False])
def test_monastery_past_22_both_readings(monkeypatch, counts_as_step: bool) -> None:
    """The Monk: "place your Marker back on the starting space ... and continue its movement from there".
    Default: the step past 22 lands on the start space 0; the other reading: the return is free, the step
    goes on to space 1."""
    from domain.tiefenthal import flow

    assert flow.MONASTERY_START_COUNTS_AS_STEP is True  # the default
    monkeypatch.setattr(flow, "MONASTERY_START_COUNTS_AS_STEP", counts_as_step)
    d = _my_turn()
    p = d.state.players[0]
    p.monastery = 22
    p.upgraded.add("monk")  # 2 steps a die
    (five,) = set_dice(d.state, 0, [5])
    d.do(cmd.PlaceDie(seat=0, die=five, space="monk"))
    d.do(cmd.TakeDie(seat=0, die=five))
    assert d.state.players[0].monastery == (1 if counts_as_step else 2)


@pytest.mark.parametrize("per_round", [None, 1])
def test_noble_recruits_per_turn_both_readings(monkeypatch, per_round: int | None) -> None:
    """Recruit Nobles: "By paying 9, 14 or 18 Beers, you may take 1, 2 or 3 Nobles" with no limit stated.
    Default: as often as paid for; the other reading: once a turn, so at most 3 nobles."""
    assert actions.NOBLE_RECRUITS_PER_ROUND is None  # the default
    monkeypatch.setattr(actions, "NOBLE_RECRUITS_PER_ROUND", per_round)
    d = _my_turn()
    d.state.players[0].beer = 18 + 9
    d.do(cmd.RecruitNobles(seat=0, count=3))
    second = cmd.RecruitNobles(seat=0, count=1)
    if per_round is None:
        d.do(second)
        assert d.state.players[0].beer == 0 and d.state.players[0].noble_recruits == 2
    else:
        assert second not in GAME.legal_commands(d.state, 0)
        with pytest.raises(IllegalMove, match="already recruited nobles"):
            d.do(second)
        assert GAME.view(d.state, 1)["players"][0]["noble_recruits_this_round"] == 1
        d.end_turns_until(lambda s: s.round == 2 and s.phase == "F" and s.active == 0)
        assert d.state.players[0].noble_recruits == 0  # a new turn, a new recruitment


@pytest.mark.parametrize("cards_count", [True, False])
def test_upgraded_supplier_and_supplier_cards_both_readings(monkeypatch, cards_count: bool) -> None:
    """Deliver Beer: "1 Beer, plus 1 additional Beer for each Beer Supplier card"; upgraded: "2 Beers for each
    Die". Default: the cards still add on the upgraded side (2 + 1 per card); the other reading: 2 flat."""
    from domain.tiefenthal import tavern

    assert tavern.CARDS_COUNT_WHEN_UPGRADED is True  # the default
    monkeypatch.setattr(tavern, "CARDS_COUNT_WHEN_UPGRADED", cards_count)
    d = _my_turn()
    p = d.state.players[0]
    p.staff.pop("merchant", None)
    while p.n_staff("supplier") < 2:
        put_in_staff(d.state, 0, d.state.supply["supplier"][0])
    cards = p.n_staff("supplier")
    assert die_yield(p, "supplier") == (0, 1 + cards, 0)  # the basic side: the text settles it
    p.upgraded.add("supplier")
    assert die_yield(p, "supplier") == (0, 2 + cards if cards_count else 2, 0)
