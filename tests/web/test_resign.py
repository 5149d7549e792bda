"""Leaving a game in the browser: every board's page offers Resign (to both seats, whoever is to act) behind a
confirmation that says what it costs; confirming ends a two-player game with the resigner last, and the move
log and the other player's page say so in words. At 1280x800 and 390x844.

``TAPROOM_UPDATE_SCREENSHOTS=1`` writes the screenshots to ``docs/screenshots/``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, register_player, sign_in

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else None


def two_players(web_server: WebServer, game: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    ana, bo = register_player(web_server, "Ana"), register_player(web_server, "Bo")
    with web_server.api(ana["token"]) as client:
        gid = client.post("/games", json={"game": game, "seed": f"resign-{game}",
                                          "seats": [{"me": True}, {}]}).json()["game_id"]
    with web_server.api(bo["token"]) as client:
        assert client.post(f"/games/{gid}/join", json={}).status_code == 200
    return ana, bo, gid


@pytest.mark.parametrize("game", ["carcassonne", "heaven-and-ale", "tiefenthal"])
def test_resign_behind_a_confirmation_on_every_board(web_server: WebServer, new_page: Any, game: str) -> None:
    ana, bo, gid = two_players(web_server, game)
    pages = {}
    errors: list[str] = []
    for who, (width, height) in ((ana, (1280, 800)), (bo, (390, 844))):
        page = new_page(width, height)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sign_in(page, who)
        page.goto(f"/#/game/{gid}")
        page.wait_for_selector('.game[data-ready="1"][data-status="active"]')
        pages[who["name"]] = page
    a, b = pages["Ana"], pages["Bo"]
    for page in (a, b):  # both seats, the one to act and the one waiting
        expect(page.get_by_role("button", name="Resign…")).to_be_visible()
    # Resign is the frame's: it never makes it anybody's turn (a seat not to act reads "not my turn")
    with web_server.api() as client:
        to_act = client.get(f"/games/{gid}").json()["to_act"]
    for seat, page in enumerate((a, b)):
        expect(page.locator(".game")).to_have_attribute("data-my-turn", "1" if seat in to_act else "0")

    b.get_by_role("button", name="Resign…").click()
    question = b.get_by_role("alertdialog")
    expect(question).to_contain_text("placed last")
    expect(question).to_contain_text("The game ends now.")
    if SHOTS and game == "carcassonne":
        SHOTS.mkdir(parents=True, exist_ok=True)
        b.screenshot(path=str(SHOTS / "resign-confirm-390.png"))
    b.get_by_role("button", name="Keep playing").click()
    expect(question).to_have_count(0)
    expect(b.locator(".game")).to_have_attribute("data-status", "active")  # nothing was sent

    a.get_by_role("button", name="Resign…").click()
    if SHOTS and game == "carcassonne":
        a.screenshot(path=str(SHOTS / "resign-confirm-1280.png"))
    a.get_by_role("alertdialog").get_by_role("button", name="Resign").click()
    for page in (a, b):
        expect(page.locator(".game")).to_have_attribute("data-status", "scored")
        expect(page.locator(".log-list")).to_contain_text("Ana resigned.")
        expect(page.get_by_role("button", name="Resign…")).to_have_count(0)
    expect(b.locator(".seats")).to_contain_text("resigned")
    if SHOTS and game == "carcassonne":
        a.screenshot(path=str(SHOTS / "resigned-1280.png"))
    with web_server.api() as client:
        meta = client.get(f"/games/{gid}").json()
    assert meta["places"] == {"0": 2, "1": 1} and meta["seats"][0]["left"] == "resigned"
    expect(b.locator(".status")).to_contain_text("The game is over: Ana resigned.")
    expect(b.locator(".place")).to_contain_text("2 · resigned")
    b.goto("/#/inbox")  # the inbox and the profile say what happened, in words
    expect(b.locator("#done-h + ul")).to_contain_text("Ana resigned")
    if SHOTS and game == "carcassonne":
        b.screenshot(path=str(SHOTS / "resigned-inbox-390.png"))
    a.goto(f"/#/player/{ana['player_id']}")
    expect(a.locator("#finished-h + ul")).to_contain_text("place 2 (resigned)")
    assert errors == []


def test_the_table_votes_about_a_player_away_too_long(web_server: WebServer, new_page: Any) -> None:
    """An untimed game whose player has not moved for the "abandoned" time: the other player's page offers the
    two choices, and ending the game says in words what happened. The service's clock is moved (this process
    runs it), never waited for."""
    ana, bo, gid = two_players(web_server, "carcassonne")
    with web_server.api() as client:
        assert client.get(f"/games/{gid}").json()["to_act"] == [0]  # Ana is to act, and never does
    page, away = new_page(390, 844), new_page(1280, 800)
    for who, opened in ((bo, page), (ana, away)):
        sign_in(opened, who)
        opened.goto(f"/#/game/{gid}")
        opened.wait_for_selector('.game[data-ready="1"][data-status="active"]')
    try:
        web_server.clock.advance(web_server.settings.abandoned_after_seconds + 60)
        votes = page.locator(".votes")
        expect(votes).to_contain_text("Ana has been away a long while", timeout=30_000)
        expect(page.locator(".seats")).to_contain_text("away")
        back = away.get_by_role("button", name="I'm back")  # the one away may stop it by coming back
        expect(back).to_be_visible()
        expect(away.get_by_role("button", name="End the game (Ana last)")).to_have_count(0)
        if SHOTS:
            page.screenshot(path=str(SHOTS / "absent-vote-390.png"))
            away.screenshot(path=str(SHOTS / "absent-back-1280.png"))
        votes.get_by_role("button", name="End the game (Ana last)").click()
        expect(page.locator(".game")).to_have_attribute("data-status", "scored")
        expect(page.locator(".status")).to_contain_text("Ana left the game; the table ended it")
        expect(page.locator(".log-list")).to_contain_text("Ana left the game; the table ended it.")
    finally:
        web_server.clock.reset()
    with web_server.api() as client:
        assert client.get(f"/games/{gid}").json()["places"] == {"0": 2, "1": 1}
