"""Leaving a game over HTTP, as a client sees it: ``taproom.Resign`` listed by ``/legal`` and accepted, the result
and the rating, the stable codes of the refusals (twice, a spectator, a finished game), and an untimed game left
idle past the limit (the vote offered, the end, the archive)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.catalog import load_games

from .conftest import DAY, Table
from .test_forgiving_timeouts import Player, answered, player, start_game

load_games()

RESIGN = {"type": "taproom.Resign"}


def legal(api: TestClient, gid: str, who: Player) -> list[dict[str, Any]]:
    answer = api.get(f"/games/{gid}/legal", headers=who.auth)
    assert answer.status_code == 200, answer.json()
    commands: list[dict[str, Any]] = answer.json()["commands"]
    return commands


def resign(table: Table, waiting_api: TestClient, gid: str, who: Player) -> Any:
    return answered(table, lambda: waiting_api.post(f"/games/{gid}/commands", headers=who.auth, json=RESIGN))


def test_a_two_player_resignation_is_listed_accepted_scored_and_rated(table: Table, api: TestClient,
                                                                      waiting_api: TestClient) -> None:
    ann, ben, cat = player(api, "Ann"), player(api, "Ben"), player(api, "Cat")
    gid = start_game(table, api, ann, ben, "carcassonne", None)
    assert table.record(gid).to_act() == [0]
    assert RESIGN in legal(api, gid, ann) and RESIGN in legal(api, gid, ben)  # also when it is not your turn

    spectator = waiting_api.post(f"/games/{gid}/commands", headers=cat.auth, json=RESIGN)
    assert spectator.status_code == 403 and spectator.json()["code"] == "not_your_seat"
    nobody = waiting_api.post(f"/games/{gid}/commands", json=RESIGN)
    assert nobody.status_code == 401 and nobody.json()["code"] == "unauthorized"

    accepted = resign(table, waiting_api, gid, ben)
    assert accepted.status_code == 200, accepted.json()
    assert [e["type"] for e in accepted.json()["events"]] == ["taproom.SeatLeft", "taproom.GameEnded"]
    table.settle()
    game = api.get(f"/games/{gid}").json()
    assert game["status"] == "scored" and game["places"] == {"0": 1, "1": 2}
    assert game["seats"][1]["left"] == "resigned" and "left" not in game["seats"][0]

    again = resign(table, waiting_api, gid, ann)
    assert again.status_code == 409 and again.json()["code"] == "game_not_active"

    ann_row = api.get(f"/players/{ann.player_id}/profile").json()["ratings"][0]
    profile = api.get(f"/players/{ben.player_id}/profile").json()
    assert ann_row["rating"] > profile["ratings"][0]["rating"]  # the resigner is rated as last
    assert profile["reliability"]["percent"] == 100  # resigning is leaving honestly: not a takeover
    assert profile["finished"][0]["left"] == "resigned" and profile["finished"][0]["place"] == 2


def test_a_three_player_resignation_hands_the_seat_to_a_bot_and_a_second_is_refused(
        table: Table, api: TestClient, waiting_api: TestClient) -> None:
    ann, ben, cat = player(api, "Ann"), player(api, "Ben"), player(api, "Cat")
    created = api.post("/games", headers=ann.auth, json={"game": "heaven-and-ale", "seed": "resign-3",
                                                         "seats": [{"me": True}, {}, {}]})
    gid = created.json()["game_id"]
    table.settle()
    for who in (ben, cat):
        api.post(f"/games/{gid}/join", headers=who.auth, json={})
        table.settle()
    assert table.record(gid).status == "active"
    cat_seat = next(i for i, s in enumerate(table.record(gid).seats) if s.player_id == cat.player_id)
    assert resign(table, waiting_api, gid, cat).status_code == 200
    seat = api.get(f"/games/{gid}").json()["seats"][cat_seat]
    assert seat["left"] == "resigned" and seat["bot"] == "random" and api.get(f"/games/{gid}").json()["status"] == "active"
    twice = resign(table, waiting_api, gid, cat)
    assert twice.status_code == 409 and twice.json()["code"] == "already_resigned"
    inbox = api.get("/inbox", headers=ann.auth).json()
    listed = [g for g in inbox["awaiting"] + inbox["others"] if g["game_id"] == gid]
    assert listed and listed[0]["seats"][cat_seat]["left"] == "resigned"  # the inbox can say "Cat resigned"
    mine = api.get("/inbox", headers=cat.auth).json()
    assert all(g["game_id"] != gid for g in mine["awaiting"])  # nothing waits for the one who left


def test_an_idle_untimed_game_offers_the_vote_then_ends_and_is_archived(table: Table, api: TestClient,
                                                                        waiting_api: TestClient) -> None:
    ann, ben = player(api, "Ann"), player(api, "Ben")
    gid = start_game(table, api, ann, ben, "carcassonne", None)
    assert table.record(gid).to_act() == [0]
    table.tick(14 * DAY + 1)
    game = api.get(f"/games/{gid}").json()
    assert [s["seat"] for s in game["seats"] if s.get("absent")] == [0]
    votes = [c for c in legal(api, gid, ben) if c["type"] == "taproom.Vote"]
    assert [(c["about_seat"], c["choice"]) for c in votes] == [(0, "end"), (0, "replace")]
    assert {"type": "taproom.ReclaimSeat"} in legal(api, gid, ann)
    told = api.get("/players/me/notifications", headers=ann.auth).json()["notifications"]
    assert [n["url"] for n in told if n["kind"] == "absent"] == [f"/#/game/{gid}"]
    asked = api.get("/players/me/notifications", headers=ben.auth).json()["notifications"]
    assert [n["name"] for n in asked if n["kind"] == "absent_vote"] == ["Ann"]
    table.tick(46 * DAY)  # sixty days without a move
    game = api.get(f"/games/{gid}").json()
    assert game["status"] == "scored" and game["seats"][0]["left"] == "idle" and game["places"] == {"0": 2, "1": 1}
    table.tick(3601)
    assert table.kernel.store.archived(gid) is not None
    assert api.get(f"/games/{gid}").json()["status"] == "scored"  # read from the archive
