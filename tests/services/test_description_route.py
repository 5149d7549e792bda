"""``GET /games/types/{game}/description``: the game's static description, cacheable, or a stable 404."""

from __future__ import annotations

import time

import fakeredis
import pytest
from fastapi.testclient import TestClient

from domain.carcassonne import rules
from domain.catalog import load_games
from domain.core import get_game
from services.adapters.api.app import create_app

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


def _drawn_tile_as_seen(api):
    """A new two-seat game: the views of the drawer, the other seat and a spectator, and each seat's TileDrawn."""
    created = api.post("/games", json={"game": "carcassonne", "options": {"hills_and_sheep": True}, "seed": "drawn",
                                       "seats": [{"name": "ann"}, {"name": "bob"}]}).json()
    gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    for _ in range(500):  # the read models follow the log a moment later
        if api.get(f"/games/{gid}", headers=auth[0]).json().get("board"):
            break
        time.sleep(0.01)
    views = [api.get(f"/games/{gid}/view", headers=a).json()["board"] for a in auth]
    views.append(api.get(f"/games/{gid}").json()["board"])
    drawn = [[e for e in api.get(f"/games/{gid}/events", headers=a).json()["events"] if e["type"] == "TileDrawn"]
             for a in auth]
    return views, drawn


def test_the_drawn_tile_is_shown_to_everyone(api):
    (mine, theirs, public), (own, others) = _drawn_tile_as_seen(api)
    assert mine["tile"] not in (None, "hidden")
    assert theirs["tile"] == mine["tile"] and public["tile"] == mine["tile"]
    assert theirs["unseen_tiles"] == mine["unseen_tiles"] == public["unseen_tiles"]
    assert own and others == own and others[-1]["payload"]["tile"] == mine["tile"]


def test_with_the_hidden_draw_house_rule_the_drawn_tile_reaches_only_its_drawer(api, monkeypatch):
    monkeypatch.setattr(rules, "DRAWN_TILE_PRIVATE", True)
    (mine, theirs, public), (own, others) = _drawn_tile_as_seen(api)
    assert mine["tile"] not in (None, "hidden")
    assert theirs["tile"] == "hidden" and public["tile"] == "hidden"
    assert sum(theirs["unseen_tiles"].values()) == sum(mine["unseen_tiles"].values()) + 1
    assert others and all(e["payload"]["tile"] == "hidden" for e in others)
    assert own[-1]["payload"]["tile"] == mine["tile"]


def test_tiefenthal_description_is_the_engines(plain_api):
    response = plain_api.get("/games/types/tiefenthal/description")
    assert response.status_code == 200
    assert response.json() == get_game("tiefenthal").description()
    assert [t["id"] for t in response.json()["tavern"]["tiles"]][:3] == ["tables", "waitress", "cashbox"]
