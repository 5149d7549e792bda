"""Friends over HTTP: follow by handle (and the refusals' codes), the friends list with who is online and their
games to watch, and a one-tap invitation of a friend to a free seat of one's open game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.infrastructure.settings import Settings

from .conftest import Table


@pytest.fixture
def web(table: Table, settings: Settings) -> Iterator[TestClient]:
    app = create_app(table.client, settings.model_copy(update={"command_wait_seconds": 0.05,
                                                               "max_follows_per_player": 2}),
                     table.jobs, clock=table.clock)
    app.state.async_settings = table.reactor.async_settings
    with TestClient(app) as client:
        yield client


def player(web: TestClient, handle: str) -> tuple[str, dict[str, str]]:
    made = web.post("/players", json={"name": handle.capitalize(), "handle": handle}).json()
    return made["player_id"], {"Authorization": f"Bearer {made['token']}"}


def friends(web: TestClient, auth: dict[str, str]) -> dict[str, Any]:
    answer = web.get("/players/me/friends", headers=auth)
    assert answer.status_code == 200
    return answer.json()


def test_follow_by_handle_with_clear_refusals(web: TestClient) -> None:
    _, ann = player(web, "ann")
    bob_id, _ = player(web, "bob")
    player(web, "cyd")
    player(web, "dee")
    followed = web.put("/players/me/friends/@Bob", headers=ann)  # any case, a leading @ is fine
    assert followed.status_code == 200 and followed.json() == {"player_id": bob_id, "name": "Bob", "handle": "bob"}
    assert web.put("/players/me/friends/bob", headers=ann).status_code == 200  # again: nothing changes
    assert [f["handle"] for f in friends(web, ann)["friends"]] == ["bob"]

    for handle, status, code in (("nobody", 404, "player_not_found"), ("ann", 422, "cannot_follow_self")):
        refused = web.put(f"/players/me/friends/{handle}", headers=ann)
        assert (refused.status_code, refused.json()["code"]) == (status, code)
    assert web.put("/players/me/friends/cyd", headers=ann).status_code == 200
    over = web.put("/players/me/friends/dee", headers=ann)  # this server's limit is 2
    assert (over.status_code, over.json()["code"]) == (409, "too_many_follows")
    assert [f["handle"] for f in friends(web, ann)["friends"]] == ["bob", "cyd"]

    assert web.delete("/players/me/friends/bob", headers=ann).status_code == 204
    again = web.delete("/players/me/friends/bob", headers=ann)
    assert (again.status_code, again.json()["code"]) == (404, "not_following")
    assert web.put("/players/me/friends/dee", headers=ann).status_code == 200  # room again
    assert web.get("/players/me/friends").status_code == 401


def test_the_list_says_who_is_online_and_which_games_they_play(web: TestClient, table: Table) -> None:
    _, ann = player(web, "ann")
    bob_id, bob = player(web, "bob")
    cyd_id, _ = player(web, "cyd")
    for handle in ("bob", "cyd"):
        assert web.put(f"/players/me/friends/{handle}", headers=ann).status_code == 200
    listed = friends(web, ann)["friends"]
    assert [(f["handle"], f["online"]) for f in listed] == [("bob", False), ("cyd", False)]

    playing = table.create([{"name": "Bob", "player_id": bob_id}, {"bot": "random"}], target=1000)
    over = table.create([{"name": "Bob", "player_id": bob_id}, {"name": "x"}], target=1)
    table.add(over, 0)  # won at once: over, not listed
    table.create([{"name": "Cyd", "player_id": cyd_id}, {"bot": "random"}], target=1000)
    assert web.get("/inbox", headers=bob).status_code == 200  # any page of bob's asks for the inbox: online
    listed = friends(web, ann)["friends"]
    assert [(f["handle"], f["online"]) for f in listed] == [("bob", True), ("cyd", False)]  # online ones first
    assert [(g["game_id"], g["status"], g["watch"]) for g in listed[0]["games"]] == [
        (playing, "active", f"/#/game/{playing}")]
    assert len(listed[1]["games"]) == 1

    table.clock.advance(91)  # no page of bob's for a minute and a half (online_seconds: 90)
    assert [f["online"] for f in friends(web, ann)["friends"]] == [False, False]


def test_a_friend_is_invited_to_a_free_seat_in_one_request(web: TestClient, table: Table) -> None:
    _, ann = player(web, "ann")
    _, bob = player(web, "bob")
    assert web.put("/players/me/friends/bob", headers=ann).status_code == 200
    created = web.post("/games", json={"game": "counter", "seats": [{"me": True}, {}]}, headers=ann)
    assert created.status_code in (201, 202)
    table.settle()
    gid = created.json()["game_id"]
    mine = friends(web, ann)["open_games"]
    assert mine == [{"game_id": gid, "game": "counter", "free_seats": [1]}]
    invited = web.post(f"/games/{gid}/invitations", json={"handle": "bob", "seat": 1}, headers=ann)
    assert invited.status_code in (201, 202)  # 202: queued (this table's processor runs when the test settles)
    table.settle()
    assert [(i["game_id"], i["seat"]) for i in web.get("/players/me/invitations", headers=bob).json()["invitations"]
            ] == [(gid, 1)]
    assert friends(web, ann)["open_games"] == []  # the seat is kept for bob now
