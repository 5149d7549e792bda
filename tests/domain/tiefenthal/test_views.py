"""Views and hidden information: no seat ever sees the order of a draw pile beyond what it put on top itself."""

from __future__ import annotations

import json

from domain.core.playout import random_playout
from domain.tiefenthal import GAME
from domain.tiefenthal import commands as cmd

from .helpers import Driver


def _all_keys(obj, path=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert isinstance(k, str), f"non-str key at {path}"
            yield k
            yield from _all_keys(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for v in obj:
            yield from _all_keys(v, path)


def test_views_are_json_ready_and_hide_deck_order() -> None:
    d = Driver(3, "views")
    d.end_turns_until(lambda s: s.phase == "F")
    d.state.players[0].doubloons = 10
    d.do(cmd.BuyCard(seat=0, card_type="waitress"))
    bought = d.state.players[0].deck_top[0]
    s = d.state
    for seat in (None, 0, 1, 2):
        v = GAME.view(s, seat)
        json.dumps(v)
        list(_all_keys(v))
        for pv in v["players"]:
            mine = pv["seat"] == seat
            assert ("deck_top" in pv) == mine
            assert ("deck_rest" in pv) == mine
            assert pv["deck_count"] == len(s.players[pv["seat"]].deck_top) + len(s.players[pv["seat"]].deck_rest)
            if mine:
                # the unordered rest is shown as counts by name only: no order exists or leaks
                assert isinstance(pv["deck_rest"], dict)
        assert v["guests"]["deck_count"] == len(s.guest_deck)
        assert all("id" in c for c in v["guests"]["display"])
    own = GAME.view(s, 0)["players"][0]["deck_top"]
    assert own[0]["id"] == bought
    # nobody else learns the ids of the guest deck or of another player's deck
    spectator = json.dumps(GAME.view(s, None))
    for card in s.guest_deck:
        assert f'"id": {card},' not in spectator
    for seat in (None, 1, 2):
        text = json.dumps(GAME.view(s, seat))
        for card in s.players[0].deck_rest + s.players[0].deck_top:
            assert f'"id": {card},' not in text


def test_events_hold_no_private_fields_and_redaction_is_identity() -> None:
    """Every event is public: cards are revealed face up when drawn and acquisitions happen openly."""
    result = random_playout(GAME, 2, "redaction")
    for e in result.events:
        assert not e.private_fields
        for seat in (None, 0, 1):
            assert e.redacted(seat) == e.model_dump(mode="json")
    # the setup event lists the starting decks as unordered sets (sorted), the guest deck as a pool
    first = result.events[0]
    assert all(deck == sorted(deck) for deck in first.decks)


def test_view_shows_phase_turn_and_coasters() -> None:
    d = Driver(3, "view-draft")
    d.end_turns_until(lambda s: s.phase == "D")
    v = GAME.view(d.state, 1)
    assert v["phase"] == "D" and v["to_act"] == [0]
    assert set(v["coasters"]) == {"0", "1", "2"} and all(len(c) == 4 for c in v["coasters"].values())
    d.end_turns_until(lambda s: s.phase == "E")
    v = GAME.view(d.state, 1)
    assert v["coasters"] is None and sorted(v["to_act"]) == [0, 1, 2]
    me = v["players"][1]
    assert len(me["dice"]) >= 4 and "cashbox" in me["spaces"]


def test_heuristic_prefers_more_nobles() -> None:
    from domain.tiefenthal.heuristics import evaluate
    d = Driver(2, "heur")
    d.end_turns_until(lambda s: s.phase == "F")
    d.state.players[0].beer = 9
    before, before_other = evaluate(d.state, 0), evaluate(d.state, 1)
    d.do(cmd.RecruitNobles(seat=0, count=1))
    assert evaluate(d.state, 0) > before  # 10 VP for 9 beer
    assert evaluate(d.state, 1) < before_other


def test_clone_is_equal_and_independent_and_commands_parse_from_json() -> None:
    d = Driver(3, "clone")
    d.end_turns_until(lambda s: s.phase == "F")
    copy = GAME.clone(d.state)
    assert copy == d.state
    copy.players[0].deck_rest.append(-1)
    copy.players[0].dice.clear()
    copy.coasters[0].append(-1)
    assert copy != d.state and -1 not in d.state.players[0].deck_rest and d.state.players[0].dice
    for c in GAME.legal_commands(d.state, 0):
        assert GAME.parse_command(c.model_dump(mode="json")) == c
    schema = GAME.schema()
    assert schema["id"] == "tiefenthal" and "PlaceDie" in schema["commands"]
