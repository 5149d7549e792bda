"""The web client runs under its strict Content-Security-Policy (issue 37, item 6): no page reports a violation.

Every page (start, lobby, inbox, a game of each title with its board drawn, settings, a profile) is opened in
chromium; the browser reports each violation as a ``securitypolicyviolation`` event and a console error, and
both are collected (the listener is added by the test harness, which the page's policy does not govern)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, register_player, sign_in

pytestmark = pytest.mark.browser

BOARDS = {"carcassonne": ({}, ".carc-svg"), "heaven-and-ale": ({}, "[data-testid=ha-board]"),
          "tiefenthal": ({"rounds": 1}, "[data-testid=tf-status]")}
COLLECT = """document.addEventListener("securitypolicyviolation", (e) => {
  (window.__violations = window.__violations || []).push(`${e.violatedDirective} ${e.blockedURI}`);
});"""


def _watched(page: Any) -> list[str]:
    found: list[str] = []
    page.add_init_script(COLLECT)
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda exc: found.append(f"script error: {exc}"))
    return found


def _violations(page: Any) -> list[str]:
    return page.evaluate("window.__violations || []")


def test_no_page_of_the_client_breaks_its_content_security_policy(new_page: Any, web_server: WebServer):
    player = register_player(web_server, "Csp")
    games = {}
    with web_server.api(player["token"]) as client:
        for title, (options, _) in BOARDS.items():
            created = client.post("/games", json={"game": title, "options": options, "seed": f"csp-{title}",
                                                  "seats": [{"me": True}, {"bot": "random"}]})
            assert created.status_code == 201, created.text
            games[title] = created.json()["game_id"]
    page = new_page(1280, 900)
    console = _watched(page)
    page.goto("/")
    expect(page.locator("#main")).to_be_visible()
    policy = page.evaluate("fetch('/').then((r) => r.headers.get('content-security-policy'))")
    assert "script-src 'self' 'sha256-" in policy and "unsafe-inline'; " not in policy.split("style-src-attr")[0]
    seen = {"start": _violations(page)}
    sign_in(page, player)
    for name, route, ready in [("inbox", "#/inbox", "#main"), ("lobby", "#/lobby", "#main"),
                               ("settings", "#/settings", "#main"), ("profile", "#/player/me", "#main"),
                               *((title, f"#/game/{gid}", BOARDS[title][1]) for title, gid in games.items())]:
        page.goto(f"/{route}")
        page.reload()  # each page from its first load, as a bookmark opens it
        expect(page.locator(ready).first).to_be_visible(timeout=20_000)
        page.wait_for_load_state("networkidle")
        seen[name] = _violations(page)
    assert {name: found for name, found in seen.items() if found} == {}
    assert console == [], console
