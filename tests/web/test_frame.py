"""The frame every game shares, as a newcomer meets it, at a laptop's and a phone's size: picking a name where
playing needs one, errors in words, the page of an unknown game, the connection and the count of waiting games,
the invitation link's Copy button, ratings on their display scale."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, register_player, sign_in

pytestmark = pytest.mark.browser

SIZES = [pytest.param((1280, 800), id="laptop"), pytest.param((390, 844), id="phone")]

# What a player must never read: an API code (snake_case), a route, an HTTP verb, a Python class name.
DEVELOPER_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|(^|\s|\()/[a-z]+|\b(GET|POST|PUT|DELETE)\b|Error\b|\(\w+\)$")


def in_view(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def shown_errors(page: Any) -> list[str]:
    return [t for t in page.get_by_role("alert").all_inner_texts() if t.strip()]


def assert_in_words(texts: list[str]) -> None:
    assert texts, "no error was shown"
    for text in texts:
        assert not DEVELOPER_WORDS.search(text), f"a code or route reached the page: {text!r}"


def counter_game(server: WebServer, token: str, seats: list[dict[str, Any]], target: int = 30) -> dict[str, Any]:
    with server.api(token) as client:
        created = client.post("/games", json={"game": "counter", "options": {"target": target}, "seats": seats})
        assert created.status_code == 201, created.text
        return created.json()


# -- a newcomer's way in --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_a_visitor_names_themself_in_the_new_game_form_and_plays_at_once(new_page: Any, size: tuple[int, int]):
    page = new_page(*size)
    page.goto("/#/lobby?game=counter")
    name = page.get_by_label("Your name")
    expect(name).to_be_visible()
    assert in_view(page, name), "the name field is below the fold"
    name.fill("Newt")
    page.get_by_label("Seat 2", exact=True).select_option("bot")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r".*#/game/\w+$"))
    expect(page.locator('.game[data-my-turn="1"]')).to_be_visible()
    expect(page.locator(".seats")).to_contain_text("Newt (you)")
    assert not shown_errors(page)


@pytest.mark.parametrize("size", SIZES)
def test_a_visitor_joins_an_open_game_by_giving_a_name(new_page: Any, web_server: WebServer, size: tuple[int, int]):
    host = register_player(web_server, "Hal")
    game = counter_game(web_server, host["token"], [{"me": True}, {}])
    page = new_page(*size)
    page.goto(f"/#/game/{game['game_id']}")
    page.get_by_label("Your name").fill("Jo")
    page.get_by_role("button", name="Join this game").click()
    expect(page.locator(".seats")).to_contain_text("Jo (you)")


@pytest.mark.parametrize("size", SIZES)
def test_a_visitor_joins_from_the_lobby_by_giving_a_name_beside_the_game(new_page: Any, web_server: WebServer,
                                                                         size: tuple[int, int]):
    host = register_player(web_server, "Hal")
    game = counter_game(web_server, host["token"], [{"me": True}, {}])
    page = new_page(*size)
    game_id = game["game_id"]
    page.goto("/#/lobby")
    row = page.locator("li.row", has=page.locator(f'a[href="#/game/{game_id}"]'))
    row.get_by_role("button", name="Join", exact=True).click()
    row.get_by_label("Your name").fill("Kit")
    row.get_by_role("button", name="Join as Kit").click()
    page.wait_for_url(f"**/#/game/{game_id}")
    expect(page.locator(".seats")).to_contain_text("Kit (you)")


@pytest.mark.parametrize("size", SIZES)
def test_the_start_page_asks_a_name_before_listing_the_games(new_page: Any, size: tuple[int, int]):
    page = new_page(*size)
    page.goto("/")
    cards = page.locator(".cards .card")
    expect(cards.first).to_be_visible()
    name = page.get_by_label("Your name")
    assert in_view(page, name), "the register form is below the fold"
    assert name.bounding_box()["y"] < cards.last.bounding_box()["y"]
    if size[0] < 760:  # stacked: the form comes before every game card
        assert name.bounding_box()["y"] < cards.first.bounding_box()["y"]


def test_titles_promise_only_what_the_defaults_give(api: Any, page: Any):
    """A boolean option named as an expansion and off by default must not be named in the game's title."""
    checked = 0
    for game in api.get("/games/types").json():
        for option in game["options"].get("properties", {}).values():
            title = option.get("title", "")
            if option.get("type") == "boolean" and title.endswith(" expansion"):
                checked += 1
                name = title.removesuffix(" expansion")
                if option.get("default") is not True:
                    assert name not in game["title"], (game["title"], name)
        assert game["summary"], f"{game['id']} has no summary for the start page"
    assert checked >= 2
    page.goto("/")
    expect(page.locator(".cards h3").first).to_be_visible()
    assert not any("+" in t for t in page.locator(".cards h3").all_inner_texts())


# -- errors in words ------------------------------------------------------------------------------------------------

# Answers as the API gives them, developer words and all: the page must say each in words.
FORGED = [
    (409, {"code": "not_your_turn", "message": "seat 0 may not act at version 7 (POST /games/x/commands)"}),
    (429, {"code": "rate_limited", "message": "too many requests from 127.0.0.1: 60/minute (rate_limit_command)"}),
    (503, {"code": "unavailable", "message": "the service cannot reach its store (ConnectionError); try again"}),
    (500, {"code": "internal_error", "message": "internal error"}),
    (422, {"code": "illegal_move", "message": "amount 5 is not in legal_amounts"}),
]


def answer_with(status: int, body: dict[str, Any]) -> Any:
    return lambda route: route.fulfill(status=status, json=body)


@pytest.mark.parametrize("size", SIZES)
def test_errors_read_as_words_with_what_to_do_never_a_code_or_route(new_page: Any, web_server: WebServer,
                                                                   size: tuple[int, int]):
    page = new_page(*size)
    # a handle nobody has, from the new-game form of a visitor (who registers on the way)
    page.goto("/#/lobby?game=counter")
    page.get_by_label("Your name").fill("Ivy")
    page.get_by_label("Seat 2", exact=True).select_option("handle")
    page.get_by_label("Seat 2 player's handle").fill("@nobody-has-this")
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("alert")).to_contain_text("Nobody here has the handle @nobody-has-this")
    assert_in_words(shown_errors(page))

    # the visitor goes on with a friend by link instead: registered and seated in the same step
    page.get_by_label("Seat 2", exact=True).select_option("invite")
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("link", name="Go to the game").click()
    expect(page.locator('.game[data-my-turn="1"]')).to_be_visible()
    # each refusal a move can meet, as the server words it for developers
    for status, body in FORGED:
        page.route("**/commands", answer_with(status, body))
        page.get_by_role("button", name="Add: amount 1").click()
        expect(page.get_by_role("alert")).to_be_visible()
        assert_in_words(shown_errors(page))
        page.unroute("**/commands")

    # a sign-in this server does not know
    page.evaluate("localStorage.setItem('taproom.token', 'not-a-token-this-server-knows')")
    page.goto("/#/inbox")
    expect(page.get_by_role("alert")).to_contain_text("does not know your sign-in")
    assert_in_words(shown_errors(page))


# -- an unknown game ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_an_unknown_game_says_so_with_links_back_and_asks_once(new_page: Any, web_server: WebServer,
                                                                size: tuple[int, int]):
    page = new_page(*size)
    asked: list[str] = []
    page.on("request", lambda r: "/games/no-such-game" in r.url and asked.append(r.url))
    page.clock.install()
    page.goto("/#/game/no-such-game")
    expect(page.get_by_role("heading", name="No game here")).to_be_visible()
    expect(page.get_by_role("link", name="Go to the lobby")).to_have_attribute("href", "#/lobby")
    expect(page.get_by_role("link", name="Start page")).to_be_visible()
    expect(page).to_have_title(re.compile("Game not found"))
    first = len(asked)
    page.clock.run_for(120_000)  # two minutes of timers: a retry loop would ask again and again
    page.evaluate("fetch('/games/types').then((r) => r.json())")  # a round trip: earlier requests are out
    assert len(asked) == first, asked
    assert_in_words(page.locator(".not-found").all_inner_texts())
    # signed in, the way back includes the player's games
    sign_in(page, register_player(web_server, "Una"))
    page.goto("/#/game/no-such-game")
    expect(page.get_by_role("link", name="Your games")).to_have_attribute("href", "#/inbox")


def test_a_failing_load_retries_with_growing_waits_and_says_so(new_page: Any, web_server: WebServer):
    host = register_player(web_server, "Hal")
    game = counter_game(web_server, host["token"], [{"me": True}, {}])
    page = new_page(390, 844)
    page.clock.install()
    busy = {"code": "unavailable", "message": "the service cannot reach its store (ConnectionError); try again"}
    page.route(re.compile(rf".*/games/{game['game_id']}$"), lambda route: route.fulfill(status=503, json=busy))
    page.goto(f"/#/game/{game['game_id']}")
    expect(page.get_by_role("alert")).to_contain_text("Trying again in 2 s")
    page.clock.run_for(2_000)
    expect(page.get_by_role("alert")).to_contain_text("Trying again in 4 s")
    assert_in_words(shown_errors(page))
    page.unroute(re.compile(rf".*/games/{game['game_id']}$"))
    page.clock.run_for(4_000)
    expect(page.locator(".game[data-ready]")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)


# -- live state -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_the_connection_indicator_follows_the_browser_going_offline(new_page: Any, web_server: WebServer,
                                                                    size: tuple[int, int]):
    ana = register_player(web_server, "Ana")
    game = counter_game(web_server, ana["token"], [{"me": True}, {"name": "Guest"}])
    page = new_page(*size)
    sign_in(page, ana)
    page.goto(f"/#/game/{game['game_id']}")
    conn = page.locator(".status .conn")
    expect(conn).to_have_attribute("data-conn", "live")
    page.context.set_offline(True)
    expect(conn).to_have_attribute("data-conn", "offline")
    expect(conn).to_contain_text("offline")
    page.context.set_offline(False)
    expect(conn).to_have_attribute("data-conn", "live", timeout=20_000)


def test_a_board_names_a_player_who_joined_without_a_reload(new_page: Any, web_server: WebServer):
    ana, bo = register_player(web_server, "Ana"), register_player(web_server, "Bo")
    with web_server.api(ana["token"]) as client:
        game_id = client.post("/games", json={"game": "carcassonne", "seats": [{"me": True}, {}]}).json()["game_id"]
    page = new_page(1280, 800)
    sign_in(page, ana)
    page.goto(f"/#/game/{game_id}")
    expect(page.locator(".game[data-ready]")).to_be_visible()
    with web_server.api(bo["token"]) as client:
        assert client.post(f"/games/{game_id}/join", json={}).status_code == 200
    expect(page.locator(".seats")).to_contain_text("Bo")
    expect(page.locator(".board-module")).to_contain_text("Bo")
    expect(page.locator(".board-module")).not_to_contain_text("Seat 2")


def awaiting(server: WebServer, token: str) -> int:
    with server.api(token) as client:
        return len(client.get("/inbox").json()["awaiting"])


def wait_awaiting(server: WebServer, token: str, count: int) -> None:
    deadline = time.monotonic() + 20
    while awaiting(server, token) != count:
        assert time.monotonic() < deadline, f"the inbox never listed {count} games awaiting"
        time.sleep(0.1)


@pytest.mark.parametrize("size", SIZES)
def test_the_nav_and_the_title_count_games_waiting_on_every_page(new_page: Any, web_server: WebServer,
                                                                 size: tuple[int, int]):
    ana = register_player(web_server, "Ana")
    counter_game(web_server, ana["token"], [{"me": True}, {"name": "Guest"}])
    wait_awaiting(web_server, ana["token"], 1)
    page = new_page(*size)
    sign_in(page, ana)
    for path in ("/#/lobby", "/#/", "/#/settings"):
        page.goto(path)
        expect(page.locator("nav .count")).to_have_text("1")
        expect(page).to_have_title(re.compile(r"^\(1\) "))
    counter_game(web_server, ana["token"], [{"me": True}, {"name": "Guest"}])
    wait_awaiting(web_server, ana["token"], 2)
    page.evaluate("window.dispatchEvent(new Event('online'))")  # as a phone coming back to the network
    expect(page.locator("nav .count")).to_have_text("2")
    expect(page).to_have_title("(2) Settings — Taproom")


# -- smaller things -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_an_invitation_link_has_a_copy_button(new_page: Any, web_server: WebServer, size: tuple[int, int]):
    page = new_page(*size)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_in(page, register_player(web_server, "Eve"))
    page.goto("/#/lobby")
    page.get_by_label("Game", exact=True).select_option("counter")
    page.get_by_label("Seat 2", exact=True).select_option("invite")
    page.get_by_label("Seat 2 player's name").fill("Dee")
    page.get_by_role("button", name="Create game").click()
    link = page.get_by_label(re.compile("Dee")).input_value()
    page.get_by_role("button", name="Copy").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link and "?seat=" in link


def test_a_newcomer_rating_is_shown_on_a_scale_never_negative_and_marked_provisional(page: Any,
                                                                                     web_server: WebServer):
    ana = register_player(web_server, "Ana")
    with web_server.api(ana["token"]) as client:
        game_id = counter_game(web_server, ana["token"], [{"me": True}, {"bot": "random"}], target=4)["game_id"]
        deadline = time.monotonic() + 30
        while client.get(f"/games/{game_id}").json()["status"] != "scored":
            assert time.monotonic() < deadline, "the game did not end"
            legal = client.get(f"/games/{game_id}/legal").json()["commands"]
            adds = [c for c in legal if c["type"] == "Add"]
            if adds:
                client.post(f"/games/{game_id}/commands", json=min(adds, key=lambda c: c["amount"]))
            time.sleep(0.05)
    sign_in(page, ana)
    page.goto("/#/player/me")
    rating = page.locator("li[data-game=counter] .rating strong")
    expect(rating).to_have_text(re.compile(r"^\d+\?$"))  # a positive figure, marked provisional
    assert 0 < int(rating.inner_text().rstrip("?")) < 2000
    expect(page.locator("li[data-game=counter] .provisional-mark")).to_have_text("provisional")
    page.goto("/#/leaderboard/counter")  # provisional: not listed until 10 rated games (docs/playing.md, "Fair play")
    expect(page.locator("main")).to_contain_text(re.compile(r"a player appears here after\s+10 rated games|"
                                                            r"Only\s+established players are listed"))
    assert page.locator("table.leaderboard tr", has_text="Ana").count() == 0
    cells = page.locator("table.leaderboard tbody td:nth-child(3)")
    assert not any("-" in t for t in cells.all_inner_texts())
