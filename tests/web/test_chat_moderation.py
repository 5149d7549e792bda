"""Chat you can moderate, in the browser (issue 34): a finished game's replay shows the chat as it stood at the
version shown; a message is reported from its own link (with a reason); a player is blocked from a message
(their chat leaves the page, their invitation is refused) and unblocked from Settings.

Screenshots at 1280x800 and 390x844 go to ``docs/screenshots/`` with ``TAPROOM_UPDATE_SCREENSHOTS=1``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, register_player, sign_in

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else None
SIZES = ((1280, 800), (390, 844))


def shoot(page: Any, name: str, width: int) -> None:
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


def finished_game_with_chat(web_server: WebServer) -> tuple[dict, dict, str, dict[str, int]]:
    """Ana and Bo play a counter game to its end, talking on the way; returns the versions each line was said at."""
    ana, bo = register_player(web_server, "Ana"), register_player(web_server, "Bo")
    said: dict[str, int] = {}
    with web_server.api(ana["token"]) as a, web_server.api(bo["token"]) as b:
        gid = a.post("/games", json={"game": "counter", "options": {"target": 4}, "seed": "chat",
                                     "seats": [{"me": True}, {}]}).json()["game_id"]
        assert b.post(f"/games/{gid}/join", json={}).status_code == 200
        lines = iter([(a, "good luck, Bo"), (b, "you will need it more"), (a, "nice move"), (b, "thanks")])
        deadline = time.monotonic() + 30
        while a.get(f"/games/{gid}").json()["status"] != "scored":
            assert time.monotonic() < deadline, "the game did not end"
            for client in (a, b):
                legal = [c for c in client.get(f"/games/{gid}/legal").json()["commands"]
                         if not c["type"].startswith("taproom.")]
                if legal:
                    line = next(lines, None)
                    if line is not None and line[0] is client:
                        answer = client.post(f"/games/{gid}/chat", json={"text": line[1]}).json()
                        said[line[1]] = answer["version"]
                    client.post(f"/games/{gid}/commands", json={"type": "Add", "amount": 1})
        said["gg"] = b.post(f"/games/{gid}/chat", json={"text": "gg"}).json()["version"]
    return ana, bo, gid, said


def test_a_finished_games_replay_shows_the_chat_of_the_moment(web_server: WebServer, new_page: Any) -> None:
    ana, _, gid, said = finished_game_with_chat(web_server)
    early = said["you will need it more"]
    for width, height in SIZES:
        page = new_page(width, height)
        sign_in(page, ana)
        page.goto(f"/#/game/{gid}")
        chat = page.locator(".chat-list")
        expect(chat).to_contain_text("gg")  # live: all of it
        head = int(page.locator(".game").get_attribute("data-version"))
        for _ in range(head - early):
            page.keyboard.press("ArrowLeft")
        expect(page.get_by_role("heading", name=f"Chat at version {early}")).to_be_visible()
        expect(chat).to_contain_text("you will need it more")
        expect(chat).to_contain_text("good luck, Bo")
        expect(chat).not_to_contain_text("nice move")
        expect(chat).not_to_contain_text("gg")
        expect(page.locator("#chat-input")).to_have_count(0)  # the past is read, not written to
        page.locator(".chat").scroll_into_view_if_needed()
        shoot(page, "chat-replay", width)
        page.get_by_role("button", name="Back to live").click()
        expect(chat).to_contain_text("gg")


def test_report_a_message_and_block_its_author(web_server: WebServer, new_page: Any) -> None:
    ana, bo, gid, _ = finished_game_with_chat(web_server)
    for width, height in SIZES:
        page = new_page(width, height)
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        sign_in(page, ana)
        page.goto(f"/#/game/{gid}")
        chat = page.locator(".chat-list")
        expect(chat).to_contain_text("you will need it more")
        # report: the link opens a short form; the reason is optional
        chat.get_by_role("button", name="Report what Bo wrote").first.click()
        page.get_by_label("Why report it?").fill("taunting")
        page.locator(".chat").scroll_into_view_if_needed()
        shoot(page, "chat-report", width)
        page.get_by_role("button", name="Report", exact=True).click()
        expect(page.locator(".chat-note")).to_contain_text("the message is reported")
        first = chat.locator("li", has_text="you will need it more").get_attribute("data-id")
        with web_server.api(ana["token"]) as client:  # it is kept: the same report again changes nothing
            again = client.post(f"/games/{gid}/chat/reports", json={"message_id": first})
            assert again.status_code == 201 and not again.json()["created"], again.text
        # block: asked once, then Bo's lines leave the page
        chat.get_by_role("button", name="Block Bo").first.click()
        expect(page.get_by_text("Block Bo? You will not see their chat")).to_be_visible()
        shoot(page, "chat-block", width)
        page.get_by_role("button", name="Block", exact=True).click()
        expect(page.locator(".chat-note")).to_contain_text("Bo is blocked")
        expect(chat).not_to_contain_text("you will need it more")
        expect(chat).not_to_contain_text("gg")
        expect(chat).to_contain_text("good luck, Bo")
        # the replay hides him too
        page.keyboard.press("ArrowLeft")
        expect(page.get_by_role("heading", name="Chat at version")).to_be_visible()
        expect(chat).to_contain_text("good luck, Bo")
        expect(chat).not_to_contain_text("you will need it more")
        # his invitation to Ana is refused
        with web_server.api(bo["token"]) as client:
            other = client.post("/games", json={"game": "counter", "options": {"target": 2},
                                                "seats": [{"me": True}, {}]}).json()["game_id"]
            refused = client.post(f"/games/{other}/invitations", json={"handle": ana["handle"]})
            assert (refused.status_code, refused.json()["code"]) == (403, "invitation_refused"), refused.text
        # Settings lists him, and unblocks him
        page.goto("/#/settings")
        blocked = page.locator('[data-list="blocked"]')
        expect(blocked).to_contain_text("Bo")
        page.get_by_role("heading", name="Muted and blocked").scroll_into_view_if_needed()
        shoot(page, "settings-blocked", width)
        page.get_by_role("button", name="Unblock Bo").click()
        expect(page.get_by_text("You have blocked nobody.")).to_be_visible()
        page.goto(f"/#/game/{gid}")
        expect(chat).to_contain_text("you will need it more")
        assert not errors, errors
