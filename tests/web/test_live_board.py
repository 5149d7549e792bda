"""The game page follows its stream alone: a move reaches the other player's board from the stream's view frame,
with no ``/view`` or ``/legal`` request; and two players behind one address play on at the service's default
rate limits without a 429."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import expect

from services.infrastructure.settings import Settings
from tests.web.conftest import WebServer, register_player, serve, sign_in, web_settings

pytestmark = pytest.mark.browser


@dataclass
class Table:
    """Two players of one counter game, each in a browser context of their own, and what each page asked."""

    game_id: str
    pages: list[Any]
    requests: list[list[str]] = field(default_factory=lambda: [[], []])
    statuses: list[tuple[int, str]] = field(default_factory=list)

    def refreshes(self, index: int) -> list[str]:
        return [url for url in self.requests[index] if re.search(rf"/games/{self.game_id}/(view|legal)(\?|$)", url)]

    def move(self, mover: int, amount: int) -> None:
        """``mover`` clicks a move; the other page shows it, its turn now."""
        other = self.pages[1 - mover]
        before = int(other.locator(".game").get_attribute("data-version"))
        self.pages[mover].get_by_role("button", name=f"Add: amount {amount}").click()
        other.wait_for_function("v => +document.querySelector('.game').dataset.version > v", arg=before)
        expect(other.locator(".game")).to_have_attribute("data-my-turn", "1")


def seat_two(server: WebServer, new_page: Any) -> Table:
    ana, bo = register_player(server, "Ana"), register_player(server, "Bo")
    with server.api(ana["token"]) as client:
        created = client.post("/games", json={"game": "counter", "options": {"target": 1000},
                                              "seats": [{"me": True}, {}]})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
    with server.api(bo["token"]) as client:
        assert client.post(f"/games/{game_id}/join", json={}).status_code == 200
    table = Table(game_id, [new_page(), new_page(390, 844)])
    for index, (page, player) in enumerate(zip(table.pages, (ana, bo))):
        page.on("request", lambda r, i=index: table.requests[i].append(r.url))
        page.on("response", lambda r: table.statuses.append((r.status, r.url)))
        sign_in(page, player)
        page.goto(f"/#/game/{game_id}")
        expect(page.locator(".conn.live")).to_be_visible()  # its stream is open
    expect(table.pages[0].locator(".game")).to_have_attribute("data-my-turn", "1")
    return table


def test_a_move_reaches_the_other_board_from_the_stream_with_no_view_or_legal_request(browser: Any,
                                                                                      web_server: WebServer,
                                                                                      new_page: Any):
    table = seat_two(web_server, new_page)
    loaded = [len(table.refreshes(0)), len(table.refreshes(1))]
    for turn in range(6):
        table.move(turn % 2, 1 + turn % 3)
    assert [len(table.refreshes(0)), len(table.refreshes(1))] == loaded, (table.refreshes(0), table.refreshes(1))
    # the move log came with the same stream: both pages list every move
    for page in table.pages:
        expect(page.locator(".log-list li", has_text="added")).to_have_count(6)


ADDRESS_RATE = "60/minute"
"""A tenth of the default rate of the address's requests without a token: the pages of a larger household (or
more tabs) share it. The page asked about six requests a move of it before (two pages refreshing ``/view`` and
``/legal`` after every move): 40 moves met 429 within a minute."""


@pytest.fixture(scope="module")
def default_limits_server() -> Iterator[WebServer]:
    """The service at its default rate limits but the address's, lowered (every browser here is one address,
    127.0.0.1: a household)."""
    defaults = {name: f.default for name, f in Settings.model_fields.items() if name.startswith("rate_limit_")}
    yield from serve(web_settings(**{**defaults, "rate_limit_address": ADDRESS_RATE}))


def test_two_players_behind_one_address_play_on_at_the_limits(browser: Any, default_limits_server: WebServer):
    contexts: list[Any] = []

    def new_page(width: int = 1280, height: int = 900) -> Any:
        context = browser.new_context(base_url=default_limits_server.url, viewport={"width": width, "height": height})
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    try:
        table = seat_two(default_limits_server, new_page)
        for turn in range(40):  # as fast as the pages go: far quicker than people play
            table.move(turn % 2, 1 + turn % 3)
        assert not [url for status, url in table.statuses if status == 429]
    finally:
        for context in contexts:
            context.close()
