"""A Carcassonne turn on a phone and on a laptop: the action bar keeps the turn's controls in view, targets are
finger-sized on a touch screen, the board pans and pinches, moves wait for Confirm when move confirmation is
on, every board element explains itself on focus, and the log speaks in words.

``TAPROOM_UPDATE_SCREENSHOTS=1`` writes the screenshots shown in docs/browser.md to ``docs/screenshots/``.
"""

from __future__ import annotations

import os
import random
import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else None
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"laptop": (LAPTOP, False), "phone": (PHONE, True)}
FINGER = 44  # CSS px, WCAG 2.5.5


@pytest.fixture
def device(browser: Any, web_server: WebServer) -> Iterator[Callable[..., Any]]:
    """``device(viewport, touch)``: a page in a fresh context; a touch context is a phone (coarse pointer)."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int], touch: bool) -> Any:
        context = browser.new_context(base_url=web_server.url, viewport=viewport, has_touch=touch, is_mobile=touch)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.errors = errors
        return page

    yield make
    for context in contexts:
        context.close()


class Game:
    """A game of Ann (seat 0) and Ben, moved on through the API until Ann's page is wanted."""

    def __init__(self, server: WebServer, seed: str) -> None:
        self.server = server
        with server.api() as client:
            body = client.post("/games", json={"game": "carcassonne", "options": {"hills_and_sheep": True},
                                               "seed": seed, "seats": [{"name": "Ann"}, {"name": "Ben"}]}).json()
        self.id = body["game_id"]
        self.tokens = [s["token"] for s in body["seats"]]
        self.chooser = random.Random(seed)

    def legal(self, seat: int) -> list[dict[str, Any]]:
        with self.server.api(self.tokens[seat]) as client:
            commands = client.get(f"/games/{self.id}/legal").json()["commands"]
        return [c for c in commands if not c["type"].startswith("taproom.")]  # the game's own, not Resign

    def view(self, seat: int) -> dict[str, Any]:
        with self.server.api(self.tokens[seat]) as client:
            return client.get(f"/games/{self.id}/view").json()

    def play_until(self, ready: Callable[[Game], bool], limit: int = 60) -> None:
        """Both seats play random legal moves (figures often) until ``ready`` holds with Ann to place a tile."""
        for _ in range(limit):
            legal = self.legal(0)
            if legal and legal[0]["type"] == "PlaceTile" and ready(self):
                return
            seat = 0 if legal else 1
            legal = legal or self.legal(1)
            figures = [c for c in legal if c["type"] == "PlaceFigure"]
            command = self.chooser.choice(figures if figures and self.chooser.random() < 0.6 else legal)
            with self.server.api(self.tokens[seat]) as client:
                sent = client.post(f"/games/{self.id}/commands", json={"command_id": str(uuid.uuid4()), **command})
                assert sent.status_code < 300, sent.text
        raise AssertionError("the game never reached the wanted position")

    def open(self, page: Any, confirm: bool | None = None) -> Any:
        page.goto("/")
        page.evaluate("([g, t, c]) => { localStorage.setItem('taproom.seatTokens', JSON.stringify({[g]: t}));"
                      " if (c !== null) localStorage.setItem('taproom.confirmMoves', c ? '1' : '0'); }",
                      [self.id, self.tokens[0], confirm])
        page.goto(f"/#/game/{self.id}")
        expect(page.locator(".carc-target").first).to_be_attached()
        return page


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return page.locator(selector).evaluate_all(
        "ns => ns.map(n => { const r = n.getBoundingClientRect();"
        " return {w: r.width, h: r.height, top: r.top, left: r.left, bottom: r.bottom, right: r.right}; })")


def in_view(page: Any, selector: str) -> None:
    """Every match lies wholly inside the viewport (no scroll needed to reach it)."""
    size = page.viewport_size
    found = boxes(page, selector)
    assert found, f"nothing matches {selector}"
    for b in found:
        assert b["top"] >= 0 and b["left"] >= 0 and b["bottom"] <= size["height"] and b["right"] <= size["width"], \
            f"{selector} is out of view: {b} in {size}"


def finger_sized(page: Any, selector: str) -> None:
    found = boxes(page, selector)
    assert found, f"nothing matches {selector}"
    small = [b for b in found if b["w"] < FINGER or b["h"] < FINGER]
    assert not small, f"{selector}: {len(small)} of {len(found)} under {FINGER}x{FINGER}: {small[:3]}"


def version(page: Any) -> int:
    return int(page.locator(".game").get_attribute("data-version"))


def tap(page: Any, locator: Any, touch: bool) -> None:
    locator.tap() if touch else locator.click()


def choose_a_square(page: Any, touch: bool) -> None:
    # a square the board shows (on a phone, zoomed for fingers, some lie off the board until panned)
    square = page.locator(".carc-target").evaluate_all("""ns => {
        const b = document.querySelector('.carc-svg').getBoundingClientRect();
        return ns.findIndex(n => { const r = n.getBoundingClientRect();
            return r.left >= b.left && r.right <= b.right - 62 && r.top >= b.top && r.bottom <= b.bottom - 90; }); }""")
    assert square >= 0, "no candidate square is fully on the board"
    tap(page, page.locator(".carc-target").nth(square), touch)
    expect(page.locator(".carc-target.selected")).to_have_count(1)


@pytest.mark.parametrize("size", SIZES)
def test_a_turn_needs_no_scroll_and_every_target_fits_a_finger(device: Any, web_server: WebServer, size: str):
    viewport, touch = SIZES[size]
    game = Game(web_server, f"turn-{size}")
    game.play_until(lambda g: len(g.view(0)["board"]["board"]) >= 7)
    page = game.open(device(viewport, touch), confirm=False)
    if touch:
        finger_sized(page, ".carc-target")
        finger_sized(page, ".carc-zoom button")
    choose_a_square(page, touch)
    in_view(page, ".action-bar [data-action=rotate]")
    in_view(page, ".action-bar [data-action=confirm]")
    in_view(page, "[data-testid=bar-preview]")
    if SHOTS:
        page.mouse.move(0, 0)  # no hover tip in the picture
        page.screenshot(path=str(SHOTS / f"carcassonne-tile-step-{viewport['width']}.png"))
    before = version(page)
    tap(page, page.locator("[data-action=confirm]"), touch)
    expect(page.locator(".carc-hotspot").first).to_be_visible()
    assert version(page) > before
    # the follower step: the board zooms onto the new tile; each spot a finger-sized target, in view
    if touch:
        finger_sized(page, ".carc-hotspot")
        finger_sized(page, ".action-bar button")
    in_view(page, ".carc-hotspot")
    in_view(page, ".action-bar [data-action=pass]")
    in_view(page, ".action-bar [data-action=undo]")
    if SHOTS:
        page.screenshot(path=str(SHOTS / f"carcassonne-follower-step-{viewport['width']}.png"))
    # Undo (the game's) takes the tile back: the square is offered again
    tap(page, page.locator(".action-bar [data-action=undo]"), touch)
    expect(page.locator(".carc-target").first).to_be_attached()
    assert not page.errors, page.errors


@pytest.mark.parametrize("size", SIZES)
def test_with_confirmation_on_a_move_waits_for_confirm_and_can_be_taken_back(device: Any, web_server: WebServer,
                                                                             size: str):
    viewport, touch = SIZES[size]
    game = Game(web_server, f"confirm-{size}")
    page = game.open(device(viewport, touch), confirm=None if touch else True)  # a phone has it on by default
    expect(page.locator("[data-testid=confirm-moves]")).to_be_checked()
    choose_a_square(page, touch)
    before = version(page)
    tap(page, page.locator("[data-action=confirm]"), touch)
    bar = page.locator(".action-bar")
    expect(bar).to_have_attribute("data-staged", "1")
    in_view(page, ".action-bar [data-action=send]")
    in_view(page, ".action-bar [data-action=unstage]")
    assert game.view(0)["version"] == before and game.legal(0)[0]["type"] == "PlaceTile"  # nothing was sent
    # Undo of the staged choice: nothing sent, the square still chosen, Place offered again
    tap(page, page.locator("[data-action=unstage]"), touch)
    expect(bar).not_to_have_attribute("data-staged", "1")
    expect(page.locator(".carc-target.selected")).to_have_count(1)
    expect(page.locator("[data-testid=carc-error]")).to_have_text("")
    assert game.view(0)["version"] == before
    # Place, Confirm: now it is sent
    tap(page, page.locator("[data-action=confirm]"), touch)
    tap(page, page.locator("[data-action=send]"), touch)
    expect(page.locator(".carc-hotspot").first).to_be_visible()
    assert game.view(0)["version"] > before
    # a figure is staged the same way: its spot is shown as chosen until Confirm
    tap(page, page.locator(".carc-hotspot").first, touch)
    expect(page.locator(".carc-hotspot.staged")).to_have_count(1)
    expect(bar).to_have_attribute("data-staged", "1")
    # the bar names the move
    expect(page.locator("[data-testid=bar-prompt]")).to_contain_text(re.compile(r"Your \w+ goes (in|on) the"))
    # the switch in the bar turns confirmation off (and withdraws what waited: nothing is sent behind the back)
    page.locator("[data-testid=confirm-moves]").uncheck()
    expect(bar).not_to_have_attribute("data-staged", "1")
    assert game.legal(0)[0]["type"] != "PlaceTile" and any(c["type"] == "Pass" for c in game.legal(0))
    assert page.evaluate("localStorage.getItem('taproom.confirmMoves')") == "0"
    assert not page.errors, page.errors


def _world(page: Any) -> tuple[float, float, float]:
    transform = page.locator(".carc-svg .world").get_attribute("transform")
    tx, ty, k = (float(v) for v in re.findall(r"-?[\d.]+", transform))
    return tx, ty, k


def _touches(cdp: Any, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": i, "radiusX": 2, "radiusY": 2, "force": 1} for i, (x, y) in enumerate(points)]})


def test_on_a_phone_the_board_pans_and_pinches_and_the_page_still_scrolls(device: Any, web_server: WebServer):
    game = Game(web_server, "pinch")
    page = game.open(device(PHONE, True), confirm=False)
    cdp = page.context.new_cdp_session(page)
    board = page.locator(".carc-svg").bounding_box()
    cx, cy = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
    tx0, ty0, k0 = _world(page)
    # one finger pans
    _touches(cdp, "touchStart", [(cx, cy)])
    for step in range(1, 6):
        _touches(cdp, "touchMove", [(cx + 12 * step, cy + 8 * step)])
    _touches(cdp, "touchEnd", [])
    tx1, ty1, k1 = _world(page)
    assert (round(tx1 - tx0), round(ty1 - ty0), k1) == (60, 40, k0)
    assert page.evaluate("window.scrollY") == 0  # the board took the swipe; the page did not move
    # two fingers spreading apart zoom in around their middle
    _touches(cdp, "touchStart", [(cx - 40, cy), (cx + 40, cy)])
    for step in range(1, 6):
        _touches(cdp, "touchMove", [(cx - 40 - 4 * step, cy), (cx + 40 + 4 * step, cy)])
    _touches(cdp, "touchEnd", [])
    assert _world(page)[2] == pytest.approx(k1 * 1.5, rel=0.02)
    assert page.locator(".carc-target.selected").count() == 0  # neither gesture chose a square
    # a long press on a square says what it is, and choosing it takes a tap of its own
    page.locator("[data-action=fit]").tap()
    square = page.locator(".carc-target").first.bounding_box()
    sx, sy = square["x"] + square["width"] / 2, square["y"] + square["height"] / 2
    _touches(cdp, "touchStart", [(sx, sy)])
    expect(page.locator(".board-tip")).to_contain_text("Free square")
    _touches(cdp, "touchEnd", [])
    assert page.locator(".carc-target.selected").count() == 0
    page.locator(".carc-target").first.tap()
    expect(page.locator(".carc-target.selected")).to_have_count(1)
    # outside the board a swipe scrolls the page as usual (the board alone takes the gestures)
    assert page.evaluate("window.scrollY") == 0
    head = page.locator(".game-head h1").bounding_box()
    x, y = head["x"] + 20, head["y"] + 60
    _touches(cdp, "touchStart", [(x, y)])
    for step in range(1, 10):
        _touches(cdp, "touchMove", [(x, y - 20 * step)])
    _touches(cdp, "touchEnd", [])
    page.wait_for_function("() => window.scrollY > 0")
    assert not page.errors, page.errors


def test_every_board_element_says_what_it_is_on_focus_and_the_prompt_what_it_does(device: Any,
                                                                                  web_server: WebServer):
    game = Game(web_server, "tips")
    game.play_until(lambda g: bool(g.view(0)["board"].get("completions")))
    completion = game.view(0)["board"]["completions"][0]
    page = game.open(device(LAPTOP, False), confirm=False)
    tip = page.locator(".board-tip")
    page.locator(".carc-svg g.placed[data-x='0'][data-y='0']").focus()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("the start tile")
    square = page.locator(f".carc-target[data-x='{completion['x']}'][data-y='{completion['y']}']")
    square.focus()
    expect(tip).to_contain_text("Free square")
    expect(tip).to_contain_text("completes")
    assert square.get_attribute("aria-describedby") == tip.get_attribute("id")
    page.keyboard.press("Enter")  # the keyboard chooses the square, and keeps its focus there
    expect(page.locator(".carc-target.selected")).to_have_count(1)
    for _ in range(4):  # turned the way that completes, the prompt says what it completes and for whom
        if page.locator("[data-testid=carc-preview] [data-rotation]").get_attribute("data-rotation") == str(completion["rotation"]):
            break
        page.keyboard.press("r")
    feature = completion["completes"][0]
    expect(page.locator("[data-testid=bar-prompt]")).to_contain_text(f"completes a {feature['kind']}")
    page.locator("[data-action=confirm]").focus()
    page.keyboard.press("Enter")
    spot = page.locator(".carc-hotspot").first
    spot.focus()
    expect(tip).to_contain_text("place a")
    expect(tip).to_contain_text(" here")
    assert "—" in spot.get_attribute("aria-label")
    spot.hover()
    expect(tip).to_be_visible()
    assert not page.errors, page.errors


def test_the_log_names_places_and_points_in_words(device: Any, web_server: WebServer):
    game = Game(web_server, "words")
    game.play_until(lambda g: len(g.view(0)["board"]["board"]) >= 6)
    page = game.open(device(LAPTOP, False), confirm=False)
    log = page.locator(".log-list")
    expect(log).to_contain_text("of the start tile")
    text = log.inner_text()
    assert not re.search(r"\(-?\d+, -?\d+\)", text), text  # no coordinates
    assert "+0" not in text
    words = page.evaluate("""async () => {
        const m = await import('/static/boards/carcassonne.js');
        const seats = [{ name: 'Ann' }, { name: 'Ben' }];
        const say = (type, payload) => m.describe({ type, payload }, { seats });
        return [
          say('TilePlaced', { seat: 0, x: -4, y: 2, rotation: 0, tile: 'D' }),
          say('FeatureScored', { kind: 'field', completed: false, x: 0, y: 0, feature: 'f0', tiles: 3, points: 0,
                                 winners: [0], returned: [] }),
          say('FeatureScored', { kind: 'city', completed: true, x: 0, y: 1, feature: 'c0', tiles: 2, points: 4,
                                 winners: [0, 1], returned: [] }),
          say('FollowerPlaced', { seat: 1, x: 0, y: -1, feature: 'r0' }),
        ]; }""")
    assert words == [
        "Ann placed a tile with a city and a road two north and four west of the start tile",
        "Ann: the field touches no completed city, no points",
        "Ann and Ben scored four points each for the completed city of two tiles",
        "Ben put a thief on the road just south of the start tile",
    ]
