"""The static description a client draws from, and the view fields the board reads (named gains, every seat's
spaces and upgrade offers, the score breakdown, the short development game)."""

from __future__ import annotations

import json
import random

import pytest

from domain.core import InvalidOptions, rng_for, seed_from_text
from domain.tiefenthal import GAME, data
from domain.tiefenthal import commands as cmd
from domain.tiefenthal.actions import die_yield, returnable, space_rule, spaces_of
from domain.tiefenthal.cards import GROUPS
from domain.tiefenthal.scoring import scores
from domain.tiefenthal.tavern import TILE_SPACES, upgrade_price

from .helpers import Driver, put_in_staff, set_dice


def test_description_is_json_and_read_from_the_engines_data() -> None:
    d = GAME.description()
    assert d is not None
    assert json.loads(json.dumps(d)) == d
    tiles = {t["id"]: t for t in d["tavern"]["tiles"]}
    assert list(tiles) == list(data.TILES)  # board order
    for tid, rec in data.TILES.items():
        assert tiles[tid]["sides"] == list(rec["values"].value)
        assert tiles[tid]["cost"] == rec["cost"].value
        assert tiles[tid]["upgradable"] == (rec["cost"].value is not None)
        if "space" in rec:
            assert tiles[tid]["space"]["dice"] == sorted(rec["space"].value["dice"])
            assert tiles[tid]["space"]["limit"] == rec["space_limit"].value
            assert tiles[tid]["space"]["gives"] == rec["space"].value["gives"]
        else:
            assert "space" not in tiles[tid]
        if "discount_card" in rec:
            assert tiles[tid]["special_offer"] == {"card": rec["discount_card"].value, "discount": rec["discount"].value}
    assert d["round_track"] == data.ROUND_TRACK.value
    assert d["monastery_track"]["last"] == data.MONASTERY_LAST_SPACE.value
    assert d["monastery_track"]["bonuses"] == {str(k): v for k, v in data.MONASTERY_TRACK.value.items()}
    assert [c["type"] for c in d["tavern_cards"]] == list(data.TAVERN_CARDS)
    for c in d["tavern_cards"]:
        assert c["cost"] == data.TAVERN_CARDS[c["type"]]["cost"].value
        assert c["count"] == data.TAVERN_CARDS[c["type"]]["count"].value
    # every guest card of the catalogue is one of the described types, copies add up
    assert sum(g["copies"] for g in d["guests"]) == len(GROUPS["three_beer"]) + len(GROUPS["guest"]) + len(GROUPS["noble"])
    farmer = next(g for g in d["guests"] if g["name"] == "Farmer")
    assert (farmer["cost"], farmer["dice"], farmer["copies"]) == (4, [1], 3)
    assert d["noble_prices"] == {str(k): v for k, v in data.NOBLE_PRICES.value.items()}
    assert [p["id"] for p in d["phases"] if p["simultaneous"]] == ["A", "B", "E"]


def test_views_name_what_each_space_gives_for_every_seat() -> None:
    d = Driver(2, "named-gains")
    d.end_turns_until(lambda s: s.phase == "E")
    s = d.state
    put_in_staff(s, 1, GROUPS["supplier"][-1])
    for seat in (None, 0, 1):
        v = GAME.view(s, seat)
        for pv in v["players"]:
            p = s.players[pv["seat"]]
            assert set(pv["spaces"]) == set(spaces_of(p))  # public: another seat's spaces too
            for sp, info in pv["spaces"].items():
                doubloons, beer, steps = die_yield(p, sp)
                assert info["gives"] == {"doubloons": doubloons, "beer": beer, "monastery": steps}
                assert info["dice"] == sorted(space_rule(p, sp)[0])  # type: ignore[index]
                assert info["table"] == (None if sp in TILE_SPACES else int(sp.split(":")[1]))
    other = GAME.view(s, 0)["players"][1]
    cards = s.players[1].n_staff("supplier")
    assert cards >= 1 and other["spaces"]["supplier"]["gives"]["beer"] == 1 + cards  # each Beer Supplier card adds one


def test_upgrade_offers_list_each_special_offer_price() -> None:
    d = Driver(2, "offers")
    d.end_turns_until(lambda s: s.phase == "E")
    s = d.state
    for card in GROUPS["table"][-2:]:
        put_in_staff(s, 0, card)
    pv = GAME.view(s, 1)["players"][0]
    offers = pv["upgrade_offers"]["tables"]
    assert len(offers) == returnable(s.players[0], "tables") + 1 >= 3
    assert [o["price"] for o in offers] == [upgrade_price("tables", r) for r in range(len(offers))]
    assert pv["upgrade_prices"]["tables"] == offers[0]["price"]


def test_score_breakdown_in_the_view_adds_up_to_the_final_score() -> None:
    d = Driver(2, "score-breakdown")
    d.random_until(lambda s: s.phase == "end")
    final = {sc.seat: sc for sc in scores(d.state)}
    for pv in GAME.view(d.state, None)["players"]:
        assert sum(pv["score"].values()) == pv["victory_points"] == final[pv["seat"]].total


def test_dice_on_spaces_and_the_draft_are_in_the_view() -> None:
    d = Driver(2, "dice-view")
    d.end_turns_until(lambda s: s.phase == "D")
    v = GAME.view(d.state, 0)
    assert set(v["coasters"]) == {"0", "1"}
    d.end_turns_until(lambda s: s.phase == "E")
    ids = set_dice(d.state, 0, [5, 3])
    d.do(cmd.PlaceDie(seat=0, die=ids[0], space="monk"))
    me = GAME.view(d.state, 0)["players"][0]
    on_monk = [x for x in me["dice"] if x["space"] == "monk"]
    assert [x["value"] for x in on_monk] == [5]
    assert me["spaces"]["monk"]["gives"] == {"doubloons": 0, "beer": 0, "monastery": 1}


def test_a_short_development_game_ends_after_its_rounds() -> None:
    options = GAME.parse_options({"rounds": 2})
    secret = seed_from_text("short")
    events = GAME.setup(options, 2, rng_for(secret, 0))
    state = GAME.fold(None, events)
    assert GAME.view(state, 0)["rounds"] == 2
    chooser = random.Random(5)
    for _ in range(5000):
        if GAME.is_over(state):
            break
        seat = chooser.choice(GAME.to_act(state))
        new = GAME.decide(state, chooser.choice(GAME.legal_commands(state, seat)), rng_for(secret, len(events)))
        for e in new:
            state = GAME.evolve(state, e)
        events.extend(new)
    assert GAME.is_over(state) and state.round == 2
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"rounds": 9})
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"rounds": 0})
