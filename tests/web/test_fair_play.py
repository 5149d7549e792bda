"""Fair play in the browser: the profile's reliability and provisional mark, a leaderboard of established players,
the new-game form's fair-play options, the policy page (screenshots at 1280x800 and 390x844 with
``TAPROOM_UPDATE_SCREENSHOTS=1``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from domain.core.game import Score
from domain.core.lifecycle import GameRecord, Seat
from services.application.ratings import Ratings
from services.infrastructure.eventstore import Keys
from tests.web.conftest import WebServer, register_player, sign_in

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else None
SIZES = [(1280, 800), (390, 844)]


def seat(name: str, player_id: str | None = None, **kw: Any) -> Seat:
    return Seat(name=name, player_id=player_id, **kw)


def rate(ratings: Ratings, n: int, seats: list[Seat], places: list[int]) -> None:
    record = GameRecord(game_id=f"fp{n}", game_type="counter", options={}, seats=seats, seed_commitment="x",
                        status="scored")
    record.places = {i: p for i, p in enumerate(places)}
    record.scores = [Score(seat=i, total=float(-p)) for i, p in enumerate(places)]
    ratings.rate(record, ts=1_700_000_000.0 + n)


def seed_ratings(web_server: WebServer, ana: dict[str, Any]) -> None:
    """Ana: 3 games (provisional), one of them left to the autopilot; Bea and Cy: 12 games each (established)."""
    ratings = Ratings(web_server.client, Keys(web_server.settings.key_prefix, web_server.settings.shards))
    for n in range(12):
        rate(ratings, n, [seat("Bea", "bea"), seat("Cy", "cy")], [1, 2] if n % 3 else [2, 1])
    rate(ratings, 20, [seat("Ana", ana["player_id"]), seat("Bea", "bea")], [1, 2])
    rate(ratings, 21, [seat("Ana", ana["player_id"]), seat("Cy", "cy")], [1, 1])
    rate(ratings, 22, [seat("Ana", ana["player_id"], autopilot="autopilot"), seat("Cy", "cy")], [1, 2])


def test_profile_leaderboard_form_and_policy(web_server: WebServer, new_page: Any) -> None:
    ana = register_player(web_server, "Ana")
    seed_ratings(web_server, ana)
    for width, height in SIZES:
        page = new_page(width, height)
        sign_in(page, ana)
        page.goto("/#/player/me")
        expect(page.locator("[data-stat=reliability]")).to_contain_text("66%")
        expect(page.locator("[data-stat=reliability]")).to_contain_text("2 of 3 games played to the end")
        expect(page.locator(".profile .provisional-mark")).to_have_text("provisional")
        expect(page.locator(".profile")).to_contain_text("shared first place")
        expect(page.locator(".profile")).to_contain_text("away at the end")
        if SHOTS:
            page.screenshot(path=str(SHOTS / f"fair-profile-{width}.png"), full_page=True)

        page.goto("/#/leaderboard/counter")
        board = page.locator("table.leaderboard")
        expect(board).to_contain_text("Bea")
        expect(board).to_contain_text("Cy")
        expect(board).not_to_contain_text("Ana")  # provisional: not listed yet
        expect(page.locator("main")).to_contain_text("Only established players are listed")
        if SHOTS:
            page.screenshot(path=str(SHOTS / f"fair-leaderboard-{width}.png"), full_page=True)

        page.goto("/#/lobby")
        form = page.locator("form.new-game")
        expect(form.locator("fieldset.fair")).to_contain_text("Casual game (not rated)")
        form.locator("#ng-reliable").select_option("90")
        expect(form.locator("#ng-reliable")).to_have_value("90")
        if SHOTS:
            form.locator("fieldset.fair").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"fair-new-game-{width}.png"), full_page=False)

        page.locator("footer a", has_text="Fair play").click()
        expect(page.locator("h1")).to_have_text("Fair play")
        expect(page.locator("main")).to_contain_text("less than 50%")
        expect(page.locator("main")).to_contain_text("played 10 rated")
        if SHOTS:
            page.screenshot(path=str(SHOTS / f"fair-play-{width}.png"), full_page=True)


def test_an_unrated_game_with_a_reliability_floor_is_marked_in_the_lobby_and_on_its_page(
        web_server: WebServer, new_page: Any) -> None:
    ana = register_player(web_server, "Ana")
    page = new_page(1280, 800)
    sign_in(page, ana)
    page.goto("/#/lobby")
    form = page.locator("form.new-game")
    form.locator("#ng-casual").check()
    form.locator("#ng-reliable").select_option("80")
    form.locator("select#seat-1").select_option("open")
    form.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/#/game/*")
    flags = page.locator("h1 .flags")
    expect(flags).to_contain_text("unrated")
    expect(flags).to_contain_text("reliability 80%+")
    if SHOTS:
        page.screenshot(path=str(SHOTS / "fair-game-1280.png"), full_page=False)
    gid = page.url.rsplit("/", 1)[1]
    page.goto("/#/lobby")
    row = page.locator(".lobby-open li", has=page.locator(f'a[href="#/game/{gid}"]'))
    expect(row.locator(".flags")).to_contain_text("unrated")
    if SHOTS:
        page.screenshot(path=str(SHOTS / "fair-lobby-1280.png"), full_page=False)
