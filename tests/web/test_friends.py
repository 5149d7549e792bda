"""The friends page in Chromium: follow by handle (and the refusals in words), who is online now and their games
to watch, a one-tap invitation to a free seat of my open game, a new game with a friend from the lobby's form;
and the HTML part of a "your turn" e-mail as a mail client would show it.

``TAPROOM_UPDATE_SCREENSHOTS=1`` writes the screenshots to ``docs/screenshots/``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, sign_in

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" \
    if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else Path(os.environ.get("TMPDIR", "/tmp"))


def player(web_server: WebServer, name: str, handle: str) -> dict[str, Any]:
    with web_server.api() as client:
        made = client.post("/players", json={"name": name, "handle": handle})
        assert made.status_code == 201, made.text
        return made.json()


def create(web_server: WebServer, token: str, seats: list[dict[str, Any]]) -> str:
    with web_server.api(token) as client:
        made = client.post("/games", json={"game": "counter", "options": {"target": 1000}, "seats": seats})
        assert made.status_code == 201, made.text
        return str(made.json()["game_id"])


def invitations(web_server: WebServer, token: str) -> list[tuple[str, int]]:
    with web_server.api(token) as client:
        return [(i["game_id"], i["seat"]) for i in client.get("/players/me/invitations").json()["invitations"]]


def test_follow_see_who_is_online_and_invite_in_one_tap(new_page: Any, web_server: WebServer) -> None:
    tag = os.urandom(3).hex()
    ann = player(web_server, "Ann", f"ann{tag}")
    bob = player(web_server, "Bob", f"bob{tag}")
    cyd = player(web_server, "Cyd", f"cyd{tag}")
    bobs_game = create(web_server, bob["token"], [{"me": True}, {"bot": "random"}])
    with web_server.api(bob["token"]) as client:
        assert client.get("/inbox").status_code == 200  # a page of bob's is open: online
    my_open = create(web_server, ann["token"], [{"me": True}, {}])

    for width, height in ((1280, 800), (390, 844)):
        page = new_page(width, height)
        sign_in(page, ann)
        if width == 1280:
            page.get_by_role("navigation", name="Main").get_by_role("link", name="Friends").click()
        else:
            page.goto("/#/friends")
        expect(page.get_by_role("heading", name="Friends")).to_be_visible()
        field = page.get_by_label("Follow a player by handle")
        if width == 1280:
            expect(page.get_by_text("You follow nobody yet")).to_be_visible()
            for wanted, words in (("nobody-here", "Nobody here has that handle"),
                                  (f"@ann{tag}", "That is your own handle: follow someone else.")):
                field.fill(wanted)
                page.get_by_role("button", name="Follow", exact=True).click()
                expect(page.get_by_role("alert")).to_contain_text(words)
            for handle in (f"@bob{tag}", f"cyd{tag}"):
                field.fill(handle)
                page.get_by_role("button", name="Follow", exact=True).click()
                expect(page.get_by_role("status")).to_contain_text("You follow")
        rows = page.locator(".friend")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text("Bob")  # online ones first
        expect(rows.nth(0)).to_contain_text("Online now")
        expect(rows.nth(1)).to_contain_text("Offline")
        watch = rows.nth(0).get_by_role("link", name="Watch Counter")
        expect(watch).to_have_attribute("href", f"#/game/{bobs_game}")
        page.screenshot(path=str(SHOTS / f"friends-{width}.png"), full_page=True)
        if width == 1280:  # one tap: bob gets seat 2 of my open game
            rows.nth(0).get_by_role("button", name="Invite to my Counter").click()
            expect(page.get_by_role("status")).to_contain_text("Bob is invited to seat 2 of your Counter")
            assert invitations(web_server, bob["token"]) == [(my_open, 1)]
            expect(rows.nth(0).get_by_role("button", name="Invite to my Counter")).to_have_count(0)

    # a new game with a friend: the lobby's form has their seat filled in; another friend is one tap away
    page = new_page(1280, 800)
    sign_in(page, ann)
    page.goto("/#/friends")
    page.locator(".friend").nth(1).get_by_role("link", name="New game with Cyd").click()
    expect(page.get_by_label("Seat 2 player's handle")).to_have_value(f"cyd{tag}")
    picks = page.get_by_role("group", name="Invite a friend")
    picks.get_by_role("button", name="Bob").click()
    expect(page.get_by_label("Seat 2 player's handle")).to_have_value(f"cyd{tag}")
    expect(page.get_by_label("Seat 3 player's handle")).to_have_value(f"bob{tag}")
    page.screenshot(path=str(SHOTS / "friends-new-game-1280.png"), full_page=True)
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/#/game/*")
    created = page.url.rsplit("/", 1)[1]
    assert invitations(web_server, cyd["token"]) == [(created, 1)]
    assert (created, 2) in invitations(web_server, bob["token"])


def test_the_html_part_of_a_your_turn_email(new_page: Any) -> None:
    """Rendered as a mail client would (no script, no style sheet): heading, who moved, the deadline, one button."""
    from zoneinfo import ZoneInfo

    from services.application.notifications.compose import compose
    from services.application.notifications.mail import describe
    from services.infrastructure.settings import AsyncSettings

    settings = AsyncSettings(public_url="https://taproom.example")
    data = {"game_id": "3f9a1c2b7d", "seat": 1, "version": 12, "mover": "Bob <the bold>", "title": "Carcassonne",
            "deadline": 1796290200.0}
    title, line = describe("your_turn", data)
    content = compose("your_turn", data, title, line, settings, ZoneInfo("Europe/Berlin"),
                      "https://taproom.example/email/unsubscribe?token=abc")
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(width, height)
        page.set_content(content.html)
        expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
        expect(page.get_by_text("Bob <the bold> moved.")).to_be_visible()
        expect(page.get_by_text("Deadline: ")).to_contain_text("(Europe/Berlin)")
        button = page.get_by_role("link", name="Play your move")
        expect(button).to_have_attribute("href", "https://taproom.example/#/game/3f9a1c2b7d")
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44  # a target a thumb can hit
        page.screenshot(path=str(SHOTS / f"email-your-turn-{width}.png"), full_page=True)


def test_the_pages_an_emails_links_open(new_page: Any, web_server: WebServer) -> None:
    """The unsubscribe link (a button; a GET changes nothing) and a link that no longer works: pages in words,
    with the way to the settings, never JSON."""
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(width, height)
        page.goto("/email/unsubscribe?token=abc")
        expect(page.get_by_role("heading", name="Unsubscribe")).to_be_visible()
        expect(page.get_by_role("button", name="Stop these e-mails")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"email-unsubscribe-{width}.png"), full_page=True)
        page.get_by_role("button", name="Stop these e-mails").click()  # an unknown token: a page says so
        expect(page.get_by_role("heading", name="This link does not work")).to_be_visible()
        expect(page.get_by_text("unknown or expired")).to_be_visible()
        page.get_by_role("link", name="Your notification settings").click()
        page.wait_for_url("**/#/settings")
        expect(page.get_by_role("heading", name="Settings")).to_be_visible()


def test_the_game_page_in_chromium_marks_its_player_present_until_it_closes(new_page: Any,
                                                                             web_server: WebServer) -> None:
    """What holds a "your turn" e-mail back is the game page's own stream (its ticket names the player): open,
    the player is present at that game for every process; closed, they are away."""
    import time

    from services.application.presence import Presence
    from services.infrastructure.bootstrap import keys_for

    tag = os.urandom(3).hex()
    ann = player(web_server, "Ann", f"ann{tag}")
    gid = create(web_server, ann["token"], [{"me": True}, {"bot": "random"}])
    presence = Presence(web_server.client, keys_for(web_server.settings), web_server.clock)
    page = new_page(1280, 800)
    sign_in(page, ann)
    page.goto(f"/#/game/{gid}")
    expect(page.locator(".conn.live")).to_be_visible()  # the page says its stream is live
    # the response's headers (which make the page say "live") may leave just before the stream's first write
    deadline = time.monotonic() + 10
    while not presence.watching(ann["player_id"], gid):
        assert time.monotonic() < deadline, "the open game page does not count as open"
        time.sleep(0.05)
    page.goto("/#/inbox")  # leaving the game page closes its stream
    deadline = time.monotonic() + 10  # the server notices within its next read of the stream
    while presence.watching(ann["player_id"], gid):
        assert time.monotonic() < deadline, "the closed game page still counts as open"
        time.sleep(0.05)
    assert presence.away_since(ann["player_id"], gid) is not None
