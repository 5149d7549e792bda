"""An archived game's page in a real browser: the same final board, score sheet, history and fairness checks
as before it left Redis (issue 18)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from services.infrastructure.archive import Archiver, DirectoryStore
from services.infrastructure.eventstore import EventStore, Keys
from tests.web.conftest import WebServer, register_player, sign_in

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _finished_game(web_server: WebServer) -> tuple[dict[str, Any], str]:
    ana = register_player(web_server, "Ana")
    with web_server.api(ana["token"]) as client:
        created = client.post("/games", json={"game": "counter", "options": {"target": 12},
                                              "seats": [{"me": True}, {"name": "Guest"}]}).json()
        game_id, guest = created["game_id"], created["seats"][1]["token"]
    with web_server.api(ana["token"]) as a, web_server.api(guest) as b:
        while a.get(f"/games/{game_id}").json()["status"] == "active":
            for seat in (a, b):
                seat.post(f"/games/{game_id}/commands", json={"type": "Add", "amount": 3})
        deadline = time.monotonic() + 15
        while a.get(f"/games/{game_id}").json()["status"] != "scored":
            assert time.monotonic() < deadline, "the game was not scored"
            time.sleep(0.1)
    return ana, game_id


def _check_page(page: Any, head: int) -> None:
    expect(page.locator(".game")).to_have_attribute("data-status", "scored")
    expect(page.locator(".game")).to_have_attribute("data-version", str(head))
    expect(page.locator(".score-sheet")).to_contain_text("Place")
    for check in ("browser-seed", "chain", "seed", "replay"):
        expect(page.locator(f'[data-check="{check}"]')).to_have_class("pass")
    page.locator("h1").click()
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".game")).to_have_attribute("data-version", str(head - 1))
    page.get_by_role("button", name="Back to live").click()
    expect(page.locator(".game")).to_have_attribute("data-version", str(head))


def test_an_archived_games_page_is_the_page_it_was(new_page: Any, web_server: WebServer, tmp_path: Path):
    ana, game_id = _finished_game(web_server)
    with web_server.api() as client:
        head = client.get(f"/games/{game_id}").json()["version"]
    before = new_page(1280, 900)
    sign_in(before, ana)
    before.goto(f"/#/game/{game_id}")
    _check_page(before, head)
    board_before = before.locator(".view").text_content()

    keys = Keys(web_server.settings.key_prefix, web_server.settings.shards)
    assert Archiver(EventStore(web_server.client, keys), DirectoryStore(tmp_path)).archive(game_id).status == "archived"
    assert not web_server.client.exists(keys.events(game_id), keys.view(game_id, 0))

    for width, height in ((1280, 900), (375, 740)):
        page = new_page(width, height)
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        sign_in(page, ana)
        page.goto(f"/#/game/{game_id}")
        _check_page(page, head)
        expect(page.locator(".view")).to_have_text(board_before)
        assert not errors
        if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS"):
            page.screenshot(path=str(SHOTS / f"archived-game-{width}.png"), full_page=True)
