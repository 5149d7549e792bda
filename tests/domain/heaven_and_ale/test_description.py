"""The static description a client draws from, and the view fields a board needs (no browser)."""

from __future__ import annotations

import json
import random

from domain.heaven_and_ale import GAME, delivery
from domain.heaven_and_ale.board import TRACK
from domain.heaven_and_ale.flow import Gains
from domain.heaven_and_ale.garden import SHED_NEIGHBOURS, SPOT_NAMES, shed_options
from domain.heaven_and_ale.production import bracket
from domain.heaven_and_ale.scoring import total
from domain.heaven_and_ale.supply import TILE_CODES

from .helpers import Table, plant
from .test_soak import busy_playout


def test_description_is_json_and_follows_the_engine_data() -> None:
    d = GAME.description()
    assert d is not None
    json.dumps(d)
    assert [s["kind"] for s in d["track"]["spaces"]] == list(TRACK)
    assert d["track"]["spaces"][3]["monk_cost"] == 4 and d["track"]["spaces"][7]["last_round_extra_disc_for_players"] == [2, 3]
    spots = {s["name"]: s for s in d["garden"]["spots"]}
    assert len(spots) == 30 and sum(s["sunny"] for s in spots.values()) == 15
    # neighbours are symmetric and are exactly the hex neighbours of the coordinates
    for name, s in spots.items():
        for n in s["neighbours"]:
            assert name in spots[n]["neighbours"]
            dr, dc = spots[n]["row"] - s["row"], spots[n]["col"] - s["col"]
            assert (abs(dr), abs(dc)) in ((0, 2), (1, 1))
    sheds = {s["name"]: s for s in d["garden"]["sheds"]}
    assert sheds["A"]["neighbours"] == [SPOT_NAMES[i] for i in SHED_NEIGHBOURS[0]]
    for shed in sheds.values():
        for spot in shed["neighbours"]:
            assert shed["name"] in spots[spot]["sheds"]
    # a direction's offset leads from the shed to its neighbour in that direction
    for shed in sheds.values():
        for direction, spot in zip(d["garden"]["directions"], shed["neighbours"]):
            assert (spots[spot]["row"] - shed["row"], spots[spot]["col"] - shed["col"]) == \
                (direction["drow"], direction["dcol"])
    types = {t["type"]: t for t in d["garden"]["shed_types"]}
    assert types[2]["activates"] == 2 and types[0]["fertility_to"] == 7 and types[4]["fertility_to"] is None
    assert len(shed_options(0, 4)) == len(types[4]["patterns"])
    for b in d["production"]["brackets"]:
        for spot in filter(lambda x: x is not None, (b["from"], b["to"])):
            assert bracket(spot) == (b["exchange_rate"], b["vp_per_spot"])
    assert len(d["barrels"]["goals"]) == 12 and d["barrels"]["kegs_and_more_goal"]["goal"] == 12


def test_kegs_and_more_part_names_road_gates_and_tiles() -> None:
    km = GAME.description()["kegs_and_more"]
    assert len(km["road"]) == delivery.ROAD_LEN
    gates = [loc["gate_after"]["gate"] for loc in km["road"] if "gate_after" in loc]
    assert gates == ["monastery", "tavern1", "tavern2", "tavern3"]
    assert [loc["tavern"] for loc in km["road"] if loc["kind"] == "tavern"] == [1, 2, 3]
    assert [a["value"] for a in km["keg_areas"]] == list(delivery.KEG_AREA_VALUES)
    assert {t["tile"] for t in km["storage_tiles"]} == set(delivery.STORAGE_TILES)
    base_only = GAME.description(GAME.parse_options({}))
    assert "kegs_and_more" not in base_only
    assert "kegs_and_more" in GAME.description(GAME.parse_options({"kegs_and_more": True}))


def test_view_names_sheds_and_shows_the_storage_tiles_still_in_hand() -> None:
    t = Table(2, "hand", kegs_and_more=True)
    while t.state.phase == "placing":
        t.do(GAME.legal_commands(t.state, GAME.to_act(t.state)[0])[0])
    assert t.state.phase == "arranging"
    hand = GAME.view(t.state, 0)["boards"][0]["delivery"]["storage_tiles_in_hand"]
    assert hand == list(delivery.STORAGE_TILES)
    assert [c.tile for c in GAME.legal_commands(t.state, 0)] == hand
    t.do(GAME.legal_commands(t.state, 0)[2])
    v = GAME.view(t.state, 1)  # another seat sees the same (all of it is on the table)
    assert len(v["boards"][0]["delivery"]["storage_tiles_in_hand"]) == 6
    assert v["boards"][0]["delivery"]["storage_tiles"] == {"A": hand[2]}
    t.start()
    v = GAME.view(t.state, 0)
    assert v["boards"][0]["delivery"]["storage_tiles_in_hand"] == []
    assert list(v["resource_piles_by_back"].values()) == v["resource_piles"]
    assert v["boards"][0]["delivery"]["cart_location"] == "monastery"
    t.state.players[0].sheds[1] = 3
    assert GAME.view(t.state, None)["boards"][0]["sheds"] == {"B": {"type": 3, "activates": 3}}


def test_score_now_is_the_final_scoring_of_the_position() -> None:
    checked = [0]

    def check(state, _event) -> None:
        if state.phase != "playing" or checked[0] > 40:
            return
        v = GAME.view(state, None)
        for seat, board in enumerate(v["boards"]):
            assert board["score_now"]["total"] == float(total(state, seat))
        checked[0] += 1

    state, _ = busy_playout(2, "score-now", {"kegs_and_more": True}, check=check)
    assert checked[0] > 40
    final = {s.seat: s for s in GAME.scores(state)}
    for seat, board in enumerate(GAME.view(state, None)["boards"]):
        assert board["score_now"]["total"] == final[seat].total
        assert board["score_now"]["breakdown"] == final[seat].breakdown


def test_shed_choices_preview_the_rewards_of_each_activation() -> None:
    t = Table(2, "shed-preview").start()
    s = t.state
    seat = s.turn
    for spot, name in zip(SHED_NEIGHBOURS[3], ("hops-4", "water-2", "wood-1", "monk-1", "barley-5", "yeast-3")):
        plant(s, seat, spot, TILE_CODES[name])
    s.players[seat].sheds[3] = 2
    s.sheds_pending = [3]
    s.step = "shed"
    choices = GAME.view(s, None)["shed_choices"]
    options = [[SPOT_NAMES[x] for x in o] for o in shed_options(3, 2)]
    assert [c["spots"] for c in choices] == options
    for choice in choices:
        gains = Gains(s, seat)
        for name in choice["spots"]:
            gains.activate(SPOT_NAMES.index(name))
        assert (choice["ducats"], choice["brewmaster"]) == (gains.ducats, gains.brew)
        assert sum(choice["markers"].values()) == sum(gains.markers)
    assert any(c["ducats"] or c["brewmaster"] or c["markers"] for c in choices)
    assert [c.spots for c in GAME.legal_commands(s, seat)
            if c.type == "ChooseShedTiles"] == [c["spots"] for c in choices]


def test_disc_choices_preview_each_legal_disc_with_its_rewards() -> None:
    seen = [0]

    def check(state, _event) -> None:
        if state.phase != "playing" or state.step != "disc":
            return
        choices = GAME.view(state, None)["disc_choices"]
        legal = [(c.spot, c.number) for c in GAME.legal_commands(state, state.turn) if c.type == "TakeDisc"]
        assert [(c["spot"], c["number"]) for c in choices] == legal
        for choice in choices:  # the preview is what taking that disc actually pays
            command = next(c for c in GAME.legal_commands(state, state.turn)
                           if c.type == "TakeDisc" and (c.spot, c.number) == (choice["spot"], choice["number"]))
            events = GAME.decide(state, command, random.Random(0))
            paid = [e for e in events if e.type == "RewardsGained"]
            got = (paid[0].ducats, paid[0].brewmaster, sum(paid[0].markers)) if paid else (0, 0, 0)
            assert got == (choice["ducats"], choice["brewmaster"], sum(choice["markers"].values()))
        seen[0] += 1

    busy_playout(2, "disc-preview", {"kegs_and_more": True}, check=check)
    assert seen[0] >= 3


def test_barrel_choice_names_the_barrels_a_claim_takes() -> None:
    t = Table(2, "barrel-choice", kegs_and_more=True).start()
    s = t.state
    seat = s.turn
    s.players[seat].brewmaster = 1  # goal 9: brewmaster on 1 or beyond
    s.large[9] = 1 - seat  # its large barrel is gone, so the claim takes the small one
    s.space, s.step = 14, "barrel"
    s.players[seat].pos = 14
    assert GAME.view(s, None)["barrel_choice"] == {"large": [], "small": [9]}
    claim = next(c for c in GAME.legal_commands(s, seat) if c.type == "ClaimBarrels")
    claimed = [e for e in GAME.decide(s, claim, random.Random(0)) if e.type == "BarrelsClaimed"][0]
    assert (claimed.large, claimed.small) == ([], [9])


def test_cart_choices_say_where_the_cart_goes_and_what_it_delivers() -> None:
    seen = [0]

    def check(state, _event) -> None:
        if state.phase != "playing" or state.step != "cart":
            return
        choices = GAME.view(state, None)["cart_choices"]
        uses = [c for c in GAME.legal_commands(state, state.turn) if c.type == "UseCarterDie"]
        assert [c["load"] for c in choices] == [c.load for c in uses]
        for choice, use in zip(choices, uses):
            moved = [e for e in GAME.decide(state, use, random.Random(0)) if e.type == "CartMoved"][0]
            assert (choice["to"], choice["loaded"], choice["delivered"], choice["steps"]) == \
                (moved.to, moved.loaded, moved.delivered, moved.steps)
        seen[0] += 1

    for seed in ("cart-a", "cart-b"):
        busy_playout(2, seed, {"kegs_and_more": True}, check=check)
    assert seen[0] >= 3
