"""Commands over HTTP: a command id names one command, errors mean the same thing in every game, a seat named
in the body is never silently replaced, and validation messages are plain words."""

from __future__ import annotations

import pytest

from domain.catalog import load_games

from .test_api import bearer, new_game, wait_for

load_games()


def test_a_command_id_reused_with_another_body_is_refused(api):
    game = new_game(api, target=30)
    gid = game["game_id"]
    ann = game["seats"][0]["token"]
    url = f"/games/{gid}/commands"
    first = api.post(url, headers=bearer(ann), json={"command_id": "o1", "type": "Add", "amount": 2})
    assert first.status_code == 200, first.text
    again = api.post(url, headers=bearer(ann), json={"command_id": "o1", "type": "Add", "amount": 2})
    assert again.status_code == 200 and again.json()["version"] == first.json()["version"]
    other = api.post(url, headers=bearer(ann), json={"command_id": "o1", "type": "Add", "amount": 3})
    assert other.status_code == 409 and other.json()["code"] == "command_id_reused", other.text
    assert "'o1'" in other.json()["message"]
    # the refusal changed nothing: the first body is still the one that id names
    assert api.post(url, headers=bearer(ann), json={"command_id": "o1", "type": "Add", "amount": 2}).status_code == 200
    assert wait_for(api, f"/games/{gid}", until=lambda b: b["version"] == first.json()["version"])["version"] == \
        first.json()["version"]


def test_a_rejected_command_id_reused_with_another_body_is_refused(api):
    game = new_game(api, target=30)
    gid, ann = game["game_id"], game["seats"][0]["token"]
    url = f"/games/{gid}/commands"
    wait_for(api, f"/games/{gid}", until=lambda b: b.get("version") == 3)
    illegal = api.post(url, headers=bearer(ann), json={"command_id": "r1", "type": "Add", "amount": 9})
    assert illegal.status_code == 422
    reused = api.post(url, headers=bearer(ann), json={"command_id": "r1", "type": "Add", "amount": 1})
    assert reused.status_code == 409 and reused.json()["code"] == "command_id_reused"


def test_a_seat_in_the_body_must_be_the_tokens(api):
    game = new_game(api)
    gid, ann = game["game_id"], game["seats"][0]["token"]
    url = f"/games/{gid}/commands"
    wait_for(api, f"/games/{gid}", until=lambda b: b.get("version") == 3)
    foreign = api.post(url, headers=bearer(ann), json={"type": "Add", "amount": 1, "seat": 1})
    assert foreign.status_code == 403 and foreign.json()["code"] == "not_your_seat"
    clash = api.post(url, params={"seat": 0}, headers=bearer(ann), json={"type": "Add", "amount": 1, "seat": 1})
    assert clash.status_code == 422 and clash.json()["code"] == "invalid_request"
    silly = api.post(url, headers=bearer(ann), json={"type": "Add", "amount": 1, "seat": "0"})
    assert silly.status_code == 422 and "'seat'" in silly.json()["message"]
    assert wait_for(api, f"/games/{gid}")["version"] == 3  # nothing changed
    own = api.post(url, headers=bearer(ann), json={"type": "Add", "amount": 1, "seat": 0})
    assert own.status_code == 200, own.text


@pytest.mark.parametrize("game,options,wrong", [("tiefenthal", {}, "FinishPlanning"),
                                                ("heaven-and-ale", {}, "Pass"),
                                                ("carcassonne", {}, "Pass")])
def test_a_wrong_move_on_your_own_turn_is_illegal_in_every_game(api, game, options, wrong):
    created = api.post("/games", json={"game": game, "options": options, "seed": "phase",
                                       "seats": [{"name": "ann"}, {"name": "bob"}]})
    assert created.status_code == 201, created.text
    gid = created.json()["game_id"]
    tokens = [s["token"] for s in created.json()["seats"]]
    view = wait_for(api, f"/games/{gid}", until=lambda b: bool(b.get("to_act")))
    mover = view["to_act"][0]
    legal = api.get(f"/games/{gid}/legal", headers=bearer(tokens[mover])).json()["commands"]
    assert wrong not in {c["type"] for c in legal}
    answer = api.post(f"/games/{gid}/commands", headers=bearer(tokens[mover]), json={"type": wrong})
    assert (answer.status_code, answer.json()["code"]) == (422, "illegal_move"), answer.text
    idle = [s for s in range(2) if s not in view["to_act"]]
    if idle:  # another seat must act: only then is it "not your turn"
        waiting = api.post(f"/games/{gid}/commands", headers=bearer(tokens[idle[0]]), json=legal[0])
        assert (waiting.status_code, waiting.json()["code"]) == (409, "not_your_turn")


def test_validation_messages_name_the_field_in_plain_words(api):
    game = new_game(api)
    gid, ann = game["game_id"], game["seats"][0]["token"]
    bad_seat = api.post("/games", json={"game": "counter", "seats": [{"name": "x" * 65}]})
    assert bad_seat.status_code == 422
    assert bad_seat.json()["message"].startswith("'seats[0].name': string should have at most 64 characters")
    missing = api.post("/games", json={"seats": [{"name": "a"}]})
    assert missing.json()["message"] == "'game' is required"
    bad_query = api.get(f"/games/{gid}/events", params={"after": -1})
    assert bad_query.json()["message"] == "query parameter 'after': input should be greater than or equal to 0"
    bad_command = api.post(f"/games/{gid}/commands", headers=bearer(ann), json={"type": "Add", "amount": "lots"})
    assert bad_command.json()["code"] == "invalid_command"
    assert bad_command.json()["message"].startswith("invalid Add command: 'amount': input should be a valid integer")
    bad_pace = api.post("/games", json={"game": "counter", "seats": [{"name": "a"}, {"name": "b"}],
                                        "pace": {"per_move_seconds": 60, "bank_seconds": 600}})
    assert bad_pace.json() == {"code": "invalid_options",
                               "message": "invalid pace: choose per_move_seconds or bank_seconds, not both"}
    not_an_object = api.post("/players", json=["Ann"])
    assert not_an_object.json()["message"] == "the request body: input should be a valid dictionary or object to " \
                                              "extract fields from"
    for answer in (bad_seat, missing, bad_query, bad_command, bad_pace, not_an_object):
        assert "pydantic" not in answer.text and "http" not in answer.json()["message"]
