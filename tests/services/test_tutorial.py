"""A tutorial game is a casual game with hints: its coach asks for each suggestion with the one hint route
(``POST /games/{id}/hint``, the kernel's ``taproom.Hint``), only its own seat may ask, the move is one of that
seat's legal commands, and following the hints alone finishes a whole game."""

from __future__ import annotations

import time

import pytest

from domain.catalog import load_games

from .test_api import bearer, player_token, settled, wait_for

load_games()

TUTORIALS = {"carcassonne": {"stack_size": 4}, "heaven-and-ale": {"rounds": 1}, "tiefenthal": {"rounds": 1}}


def tutorial(api, game: str, options: dict, token: str) -> str:
    created = api.post("/games", headers=bearer(token), json={
        "game": game, "options": options, "tutorial": True, "seats": [{"me": True}, {"bot": "greedy"}]})
    assert created.status_code in (201, 202), created.text
    assert settled(api, created).status_code in (200, 201)
    return created.json()["game_id"]


def my_turn(api, gid: str, token: str, timeout: float = 60.0) -> dict:
    """The legal list once the seat is to act or the game is over (the bot moves in between)."""
    deadline = time.monotonic() + timeout
    while True:
        view = api.get(f"/games/{gid}/view", headers=bearer(token)).json()
        legal = api.get(f"/games/{gid}/legal", headers=bearer(token)).json()
        game_moves = [c for c in legal["commands"] if not c["type"].startswith("taproom.")]
        if game_moves or view["status"] != "active" or time.monotonic() > deadline:
            return {"status": view["status"], "version": legal["version"], "commands": game_moves}
        time.sleep(0.05)


def ask_hint(api, gid: str, token: str):
    return api.post(f"/games/{gid}/hint", headers=bearer(token))


@pytest.mark.parametrize("game", sorted(TUTORIALS))
def test_the_coach_suggests_one_of_the_seats_own_legal_moves(api, game):
    token = player_token(api, "newcomer")
    gid = tutorial(api, game, TUTORIALS[game], token)
    summary = wait_for(api, f"/games/{gid}")
    assert (summary["tutorial"], summary["rated"], summary["hints"]) == (True, False, True)  # a casual game
    turn = my_turn(api, gid, token)
    assert turn["commands"], turn
    hint = ask_hint(api, gid, token)
    assert hint.status_code == 200, hint.text
    body = hint.json()
    assert body["version"] > turn["version"]  # the hint was logged (taproom.HintAsked) before it was chosen
    if body["version"] == turn["version"] + 1:  # in a simultaneous phase (Tiefenthal) the bot may move in between
        assert body["command"] in turn["commands"]
    logged = wait_for(api, f"/games/{gid}", until=lambda b: b.get("hints_asked"))
    assert logged["hints_asked"] == {"0": 1}


def test_following_the_coach_alone_finishes_a_tutorial_game(api):
    token = player_token(api, "newcomer")
    gid = tutorial(api, "carcassonne", {"stack_size": 5}, token)
    asked = 0
    for _ in range(200):
        turn = my_turn(api, gid, token)
        if turn["status"] != "active":
            break
        hint = ask_hint(api, gid, token)
        assert hint.status_code == 200, hint.text
        command = hint.json()["command"]
        assert command in turn["commands"]
        asked += 1
        sent = api.post(f"/games/{gid}/commands", headers=bearer(token), json=command)
        assert settled(api, sent, headers=bearer(token)).status_code == 200, sent.text
    final = wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "scored", timeout=60)
    assert final["status"] == "scored" and asked > 0 and final["hints_asked"] == {"0": asked}


def test_a_hint_in_a_game_without_hints_is_refused(api):
    token = player_token(api, "rival")
    created = api.post("/games", headers=bearer(token), json={
        "game": "carcassonne", "options": {}, "seats": [{"me": True}, {"bot": "greedy"}]})
    gid = created.json()["game_id"]
    settled(api, created)
    refused = ask_hint(api, gid, token)
    assert (refused.status_code, refused.json()["code"]) == (409, "hints_off")
    summary = wait_for(api, f"/games/{gid}")
    assert not ({"tutorial", "hints"} & set(summary)) and summary.get("rated", True) is True  # defaults are left out


def test_a_tutorial_is_casual_with_hints_whatever_the_request_says(api):
    token = player_token(api, "solo")
    created = api.post("/games", headers=bearer(token), json={
        "game": "carcassonne", "options": {"stack_size": 4}, "tutorial": True, "rated": True, "hints": False,
        "seats": [{"me": True}, {"bot": "greedy"}]})
    assert created.status_code in (201, 202), created.text
    summary = wait_for(api, f"/games/{created.json()['game_id']}")
    assert (summary["tutorial"], summary["rated"], summary["hints"]) == (True, False, True)


@pytest.mark.parametrize("seats,pace", [([{"me": True}, {"name": "bob"}], None),
                                        ([{"me": True}, {}], None),
                                        ([{"bot": "greedy"}, {"bot": "random"}], None),
                                        ([{"me": True}, {"bot": "greedy"}], "1d")])
def test_a_tutorial_is_one_players_own_seat_against_bots_untimed(api, seats, pace):
    token = player_token(api, "solo")
    body = {"game": "carcassonne", "options": {}, "tutorial": True, "seats": seats}
    if pace:
        body["pace"] = pace
    refused = api.post("/games", headers=bearer(token), json=body)
    assert (refused.status_code, refused.json()["code"]) == (422, "invalid_request"), refused.text
    assert "tutorial" in refused.json()["message"]


def test_another_seat_cannot_ask_the_coach(api):
    token = player_token(api, "newcomer")
    gid = tutorial(api, "carcassonne", {"stack_size": 4}, token)
    outsider = player_token(api, "peeker")
    my_turn(api, gid, token)  # the tutorial's seat is to act: the outsider is refused for not holding it
    refused = ask_hint(api, gid, outsider)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_seat"), refused.text
    assert api.post(f"/games/{gid}/hint").status_code == 401
    assert wait_for(api, f"/games/{gid}")["hints_asked"] == {}  # a refused hint is not logged
