"""Fair play over HTTP: a game that admits only reliable players, an unrated game end to end, and the profile's
reliability and provisional marks (fakeredis, then the real Redis)."""

from __future__ import annotations

from tests.services.helpers import game_moves
from tests.services.test_api import bearer, settled, wait_for
from tests.services.test_identity import register


def set_reliability(api, player_id: str, started: int, finished: int) -> None:
    ctx = api.app.state.context
    ctx.redis.hset(ctx.keys.player_reliability(player_id), mapping={"started": started, "finished": finished})


def test_a_game_with_a_minimum_reliability_refuses_players_below_it_and_guests(api) -> None:
    ann, bob, cat = register(api, "Ann"), register(api, "Bob"), register(api, "Cat")
    set_reliability(api, bob["player_id"], started=4, finished=2)  # 50 %
    set_reliability(api, cat["player_id"], started=10, finished=9)  # 90 %
    made = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 6}, "seats": [{"me": True}, {}], "min_reliability": 80})
    assert settled(api, made).status_code in (200, 201), made.text
    gid = made.json()["game_id"]
    meta = wait_for(api, f"/games/{gid}", until=lambda b: b.get("min_reliability") == 80)
    assert meta["min_reliability"] == 80

    refused = api.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={})
    assert refused.status_code == 403 and refused.json()["code"] == "reliability_too_low"
    assert "50%" in refused.json()["message"]
    guest = api.post(f"/games/{gid}/join", json={"name": "Guest"})
    assert guest.status_code == 403 and guest.json()["code"] == "reliability_too_low"
    assert api.get(f"/games/{gid}").json()["seats"][1]["open"]  # nothing changed

    joined = api.post(f"/games/{gid}/join", headers=bearer(cat["token"]), json={})
    assert settled(api, joined).status_code == 200, joined.text


def test_a_creator_below_the_minimum_cannot_make_such_a_game(api) -> None:
    ann = register(api, "Ann")
    set_reliability(api, ann["player_id"], started=10, finished=5)
    made = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 6}, "seats": [{"me": True}, {}], "min_reliability": 80})
    assert made.status_code == 403 and made.json()["code"] == "reliability_too_low"
    bad = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "seats": [{"me": True}, {}], "min_reliability": 101})
    assert bad.status_code == 422


def test_an_unrated_game_is_marked_everywhere_and_changes_no_rating(api) -> None:
    ann, bob = register(api, "Ann"), register(api, "Bob")
    made = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 4}, "seats": [{"me": True}, {}], "rated": False})
    gid = made.json()["game_id"]
    assert settled(api, made).status_code in (200, 201), made.text
    assert settled(api, api.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={})).status_code == 200
    lobby_game = wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "active")
    assert lobby_game["rated"] is False
    while api.get(f"/games/{gid}").json()["status"] == "active":
        for who in (ann, bob):
            if game_moves(api.get(f"/games/{gid}/legal", headers=bearer(who["token"])).json()):
                api.post(f"/games/{gid}/commands", headers=bearer(who["token"]), json={"type": "Add", "amount": 1})
    profile = wait_for(api, f"/players/{ann['player_id']}/profile", until=lambda b: b["games_played"] == 1)
    assert profile["ratings"] == [] and profile["finished"][0]["rating"] is None
    assert profile["finished"][0]["rated"] is False
    assert profile["reliability"] == {"started": 1, "finished": 1, "percent": 100}
