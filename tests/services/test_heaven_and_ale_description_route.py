"""Heaven & Ale's static description through the API: the engine's own data, cacheable."""

from __future__ import annotations

import fakeredis
import pytest
from fastapi.testclient import TestClient

from domain.catalog import load_games
from domain.core import get_game
from services.adapters.api.app import create_app

load_games()


@pytest.fixture
def plain_api(settings):
    """The API alone (the description needs no pipeline)."""
    with TestClient(create_app(fakeredis.FakeRedis(server=fakeredis.FakeServer()), settings)) as test_client:
        yield test_client


def test_heaven_and_ale_description_is_the_engines_with_the_expansion_part(plain_api):
    response = plain_api.get("/games/types/heaven-and-ale/description")
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    body = response.json()
    assert body == get_game("heaven-and-ale").description()
    assert len(body["garden"]["spots"]) == 30 and len(body["track"]["spaces"]) == 28
    assert "kegs_and_more" in body  # one description serves both option sets; the client draws the part in use
    again = plain_api.get("/games/types/heaven-and-ale/description", headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304
