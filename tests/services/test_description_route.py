"""``GET /games/types/{game}/description``: the game's static description, cacheable, or a stable 404."""

from __future__ import annotations

import time

import fakeredis
import pytest
from fastapi.testclient import TestClient

from domain.catalog import load_games
from domain.core import get_game
from services.api.app import create_app

load_games()


@pytest.fixture
def plain_api(settings):
    """The API alone (the description needs no pipeline)."""
    with TestClient(create_app(fakeredis.FakeRedis(server=fakeredis.FakeServer()), settings)) as test_client:
        yield test_client


def test_carcassonne_description_is_the_engines_and_cacheable(plain_api):
    response = plain_api.get("/games/types/carcassonne/description")
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    assert response.json() == get_game("carcassonne").description()
    etag = response.headers["etag"]
    assert etag.startswith('"') and "max-age" in response.headers["cache-control"]
    again = plain_api.get("/games/types/carcassonne/description", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    stale = plain_api.get("/games/types/carcassonne/description", headers={"If-None-Match": '"other"'})
    assert stale.status_code == 200


def test_game_types_say_which_games_have_a_description(plain_api):
    types = {t["id"]: t for t in plain_api.get("/games/types").json()}
    assert types["carcassonne"]["has_description"] is True and types["counter"]["has_description"] is False


def test_a_game_without_description_and_an_unknown_game_get_stable_codes(plain_api):
    none = plain_api.get("/games/types/counter/description")
    assert none.status_code == 404 and none.json()["code"] == "no_description"
    unknown = plain_api.get("/games/types/chess/description")
    assert unknown.json()["code"] == "unknown_game" and "chess" in unknown.json()["message"]
    bad = plain_api.get("/games/types/NO%20SUCH/description")
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_request"


def test_the_drawn_tile_reaches_only_its_drawer(api):
    created = api.post("/games", json={"game": "carcassonne", "options": {"hills_and_sheep": True}, "seed": "drawn",
                                       "seats": [{"name": "ann"}, {"name": "bob"}]}).json()
    gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    for _ in range(500):  # the read models follow the log a moment later
        if api.get(f"/games/{gid}", headers=auth[0]).json().get("board"):
            break
        time.sleep(0.01)
    mine = api.get(f"/games/{gid}/view", headers=auth[0]).json()
    theirs = api.get(f"/games/{gid}/view", headers=auth[1]).json()
    public = api.get(f"/games/{gid}").json()
    view = lambda body: body["board"]  # noqa: E731
    assert view(mine)["tile"] not in (None, "hidden")
    assert view(theirs)["tile"] == "hidden" and view(public)["tile"] == "hidden"
    drawn = [e for e in api.get(f"/games/{gid}/events", headers=auth[1]).json()["events"] if e["type"] == "TileDrawn"]
    assert drawn and all(e["payload"]["tile"] == "hidden" for e in drawn)
    own = [e for e in api.get(f"/games/{gid}/events", headers=auth[0]).json()["events"] if e["type"] == "TileDrawn"]
    assert own[-1]["payload"]["tile"] == view(mine)["tile"]


def test_tiefenthal_description_is_the_engines(plain_api):
    response = plain_api.get("/games/types/tiefenthal/description")
    assert response.status_code == 200
    assert response.json() == get_game("tiefenthal").description()
    assert [t["id"] for t in response.json()["tavern"]["tiles"]][:3] == ["tables", "waitress", "cashbox"]
