"""The coach in a real browser: a finished Carcassonne game's page asks for the analysis, shows each seat's
accuracy, its losses over the game and the turning points, and stepping to one moves the history there."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, register_player, sign_in

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ANALYSIS_WAIT_MS = 600_000
"""The analysis is a real job on the service's coach worker (a loaded test machine makes it slow): wait for the
page to say it is done, however long that takes within this bound."""


def _finished_game(web_server: WebServer) -> tuple[dict[str, Any], str]:
    """A short Carcassonne game between Ana and a guest, both playing the first legal command (never a figure
    when they can pass: plenty for the coach to say)."""
    ana = register_player(web_server, "Ana")
    with web_server.api(ana["token"]) as client:
        created = client.post("/games", json={"game": "carcassonne", "options": {"stack_size": 8}, "seed": "coach-web",
                                              "seats": [{"me": True}, {"name": "Guest"}]}).json()
        game_id, guest = created["game_id"], created["seats"][1]["token"]
    with web_server.api(ana["token"]) as a, web_server.api(guest) as b:
        for _ in range(200):
            if a.get(f"/games/{game_id}").json()["status"] != "active":
                break
            for seat in (a, b):
                legal = [c for c in seat.get(f"/games/{game_id}/legal").json()["commands"]
                         if not c["type"].startswith("taproom.")]  # moves, not Resign or Undo
                if legal:
                    passing = [c for c in legal if c["type"] == "Pass"]
                    seat.post(f"/games/{game_id}/commands", json=(passing or legal)[0])
        deadline = time.monotonic() + 30
        while a.get(f"/games/{game_id}").json()["status"] != "scored":
            assert time.monotonic() < deadline, "the game was not scored"
            time.sleep(0.1)
    return ana, game_id


def test_the_coach_finds_the_turning_points_and_steps_to_one(new_page: Any, web_server: WebServer) -> None:
    ana, game_id = _finished_game(web_server)
    page = new_page(1280, 800)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, ana)
    page.goto(f"/#/game/{game_id}")
    coach = page.locator("section.coach")
    expect(coach).to_have_attribute("data-coach", "none")
    coach.get_by_role("button", name="Ask the coach").click()
    expect(coach).to_have_attribute("data-coach", "done", timeout=ANALYSIS_WAIT_MS)
    seats = coach.locator(".coach-seat")
    expect(seats).to_have_count(2)
    expect(seats.first).to_contain_text("accuracy")
    turning = coach.locator("button.turning")
    assert 1 <= turning.count() <= 10
    first = turning.first
    text = first.inner_text()
    assert text.startswith("Turn ") and "would have scored about" in text
    head = int(page.locator(".game").get_attribute("data-version"))
    first.click()
    expect(page.locator(".game")).not_to_have_attribute("data-version", str(head))
    version = int(page.locator(".game").get_attribute("data-version") or head)
    compare = coach.locator(".compare")
    expect(compare).to_contain_text("Played:")
    expect(compare).to_contain_text("Better (the coach")
    assert "cannot name" not in compare.inner_text()
    assert version < head
    SHOTS.mkdir(parents=True, exist_ok=True)
    coach.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "coach-1280.png"))
    # the better move drawn as a ghost on the board, then what was played, then back to before the decision
    choices = compare.get_by_role("group", name="What the board shows")
    choices.get_by_role("button", name="The coach's move").click()
    board_area = page.locator("section.board-area")
    expect(board_area).to_have_class("board-area ghosted")
    expect(page.locator(".ghost-note")).to_contain_text("not what was played")
    expect(page.locator(".game")).not_to_have_attribute("data-version", str(version))
    page.locator(".board-module").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "coach-ghost-1280.png"))
    choices.get_by_role("button", name="As played").click()
    expect(board_area).to_have_class("board-area")
    expect(choices.get_by_role("button", name="As played")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".game")).not_to_have_attribute("data-version", str(version))  # after the played command
    assert int(page.locator(".game").get_attribute("data-version")) > version
    choices.get_by_role("button", name="Before").click()
    expect(page.locator(".game")).to_have_attribute("data-version", str(version))
    phone = new_page(390, 844)
    sign_in(phone, ana)
    phone.goto(f"/#/game/{game_id}")
    phone_coach = phone.locator("section.coach")
    expect(phone_coach).to_have_attribute("data-coach", "done")
    phone_coach.locator("button.turning").first.click()
    expect(phone_coach.locator(".compare")).to_contain_text("Better (the coach")
    phone_coach.scroll_into_view_if_needed()
    phone.screenshot(path=str(SHOTS / "coach-390.png"))
    phone_coach.get_by_role("button", name="The coach's move").click()
    expect(phone.locator("section.board-area")).to_have_class("board-area ghosted")
    expect(phone.locator(".ghost-note")).to_be_in_viewport()  # a phone scrolls up to the board to show it
    phone.screenshot(path=str(SHOTS / "coach-ghost-390.png"))
    assert not errors, errors


def test_a_casual_games_hint_button_suggests_a_move_in_words_and_on_the_board(new_page: Any, web_server: WebServer) -> None:
    ana = register_player(web_server, "Ana")
    with web_server.api(ana["token"]) as client:
        created = client.post("/games", json={"game": "carcassonne", "options": {"stack_size": 4}, "seed": "hint-web",
                                              "rated": False, "hints": True,
                                              "seats": [{"me": True}, {"name": "Guest"}]})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
    page = new_page(1280, 800)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, ana)
    page.goto(f"/#/game/{game_id}")
    expect(page.locator(".game")).to_have_attribute("data-my-turn", "1", timeout=60_000)
    page.get_by_role("button", name="Hint").click()
    suggestion = page.locator(".hint-text")
    expect(suggestion).to_contain_text("The coach suggests:", timeout=60_000)
    assert "placed a tile" in suggestion.inner_text()
    # the same mark as the tutorial's coach: the move framed on the board itself
    expect(page.locator(".board-module .coach-pick")).to_have_count(1)
    expect(suggestion).to_contain_text("Marked in green on the board")
    page.screenshot(path=str(SHOTS / "coach-hint-1280.png"))
    expect(page.locator(".log-list")).to_contain_text("asked the coach for a hint")
    phone = new_page(390, 844)
    sign_in(phone, ana)
    phone.goto(f"/#/game/{game_id}")
    expect(phone.locator(".game")).to_have_attribute("data-my-turn", "1", timeout=60_000)
    phone.get_by_role("button", name="Hint").click()
    expect(phone.locator(".hint-text")).to_contain_text("The coach suggests:", timeout=60_000)
    expect(phone.locator(".board-module .coach-pick")).to_have_count(1)
    phone.screenshot(path=str(SHOTS / "coach-hint-390.png"))
    assert not errors, errors
