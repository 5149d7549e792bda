"""Tiefenthal without a scroll (issue 32): a real game against a bot, played by clicking through the dice draft,
the planning and the turn phase (taking dice, buying a guest or a tavern card, ending the turn), at 1280 x 800 and
at 390 x 844 (touch). At every decision, with the page where the board left it, every highlighted target of the
decision and every button of the frame's action bar is inside the viewport (``getBoundingClientRect`` within
``innerWidth`` x ``innerHeight``, a board target neither under the action bar nor under the phone's sticky tabs). On a phone the board shows one of its
panels (Shop / My tavern / Others) at a time: a target in a panel not shown counts when that panel's tab is in
view and marked as holding targets; on a laptop every panel is shown, so every target must be on screen.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import WebServer
from tests.web.test_board_help_and_touch import LAPTOP, PHONE, _click_and_wait, _game, _tiefenthal_choice, touch_page

pytestmark = pytest.mark.browser
__all__ = ["touch_page"]  # the fixture, shared with the other board tests
# TAPROOM_UPDATE_SCREENSHOTS=1 writes the turn and draft screenshots of docs/browser.md at both sizes
SHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS")
    else None
)

# Every target of the decision and every action-bar button that lies outside the viewport, with where it is.
OFF_SCREEN = """(phone) => {
    const foot = document.querySelector('.action-bar');
    const footTop = foot ? foot.getBoundingClientRect().top : innerHeight;
    const tabs = document.querySelector('.tf-tabs');  // sticky on a phone: what lies under it is hidden
    const strip = tabs && tabs.getClientRects().length ? tabs.getBoundingClientRect() : null;
    const outside = (n, bottom) => { const r = n.getBoundingClientRect();
        const covered = strip && !tabs.contains(n) && r.bottom > strip.top + 1 && r.top < strip.bottom - 1;
        return covered || r.top < -1 || r.left < -1 || r.bottom > bottom + 1 || r.right > innerWidth + 1; };
    const where = (n) => (n.dataset.kind || n.dataset.action || n.tagName) + ': ' + n.textContent.trim().slice(0, 40);
    const off = [];
    for (const n of document.querySelectorAll('.tf .target')) {
      if (n.getClientRects().length) { if (outside(n, footTop)) off.push(where(n)); continue; }
      const panel = n.closest('[data-panel]');
      const tab = panel && document.querySelector(`.tf [data-tab="${panel.dataset.panel}"][data-has-targets]`);
      if (!phone || !tab || !tab.getClientRects().length || outside(tab, footTop)) off.push('hidden ' + where(n));
    }
    for (const n of document.querySelectorAll('.action-bar button')) if (outside(n, innerHeight)) off.push('bar ' + where(n));
    return off; }"""


def _decision(page: Any) -> str | None:
    """Wait for the player's next decision (its board drawn, the page settled where the board left it); None at
    the end of the game."""
    page.wait_for_function(
        """() => ['scored', 'ended'].includes(document.querySelector('.game')?.dataset.status)
        || (document.querySelector('.game')?.dataset.myTurn === '1'
            && document.querySelector('.tf .target, .action-bar [data-action^="tf-"]'))""",
        timeout=60_000,
    )
    if page.locator(".game").get_attribute("data-status") in ("scored", "ended"):
        return None
    return page.locator("[data-testid=tf-status] .tf-phase").inner_text().split("·")[-1].strip()


def _turn_choice(page: Any) -> tuple[Any, str]:
    """In the turn phase: take every die off (collecting), then buy what the money allows, then end the turn."""
    take = page.locator(".action-bar [data-action=tf-take]")
    if take.count():
        return take.first, "take"
    placed = page.locator(".tf .target[data-kind=die][data-placed='1']")
    if placed.count():
        return placed.first, "die"
    for kind in ("guest", "buy"):
        offer = page.locator(f".tf .target[data-kind={kind}]")
        if offer.count():
            return offer.first, kind
    return page.locator(".action-bar [data-action=tf-end]").first, "end"


def _screenshot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(SHOTS / name))


def _to_its_panel(page: Any, target: Any) -> None:
    """On a phone, an offer in the panel not shown is one tap away: on its tab (which the check above found in
    view and marked as holding targets)."""
    if not target.is_visible():
        panel = target.evaluate("(n) => n.closest('[data-panel]').dataset.panel")
        page.locator(f".tf [data-tab={panel}]").click()


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_every_decision_of_a_game_is_on_screen_without_a_scroll(
    touch_page: Callable[..., Any], web_server: WebServer, viewport: dict[str, int]
):
    page = touch_page(viewport)
    phone = viewport is PHONE
    size = viewport["width"]
    _game(web_server, page, "tiefenthal", {"rounds": 2}, f"tf-no-scroll-{size}")
    chooser = random.Random(7)
    done: list[str] = []
    shot: set[str] = set()
    for _ in range(120):
        phase = _decision(page)
        if phase is None:
            break
        # the board brings the decision on screen once the frame has drawn the action bar: two frames on
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        off = page.evaluate(OFF_SCREEN, phone)
        assert not off, (phase, off)
        for label, name in (("Dice draft", "draft"), ("Turn", "turn")):
            if (
                label in phase
                and name not in shot
                and page.locator(
                    ".tf .target[data-kind=guest], .tf .target[data-kind=buy], .tf .target[data-kind=pick]"
                ).count()
            ):
                shot.add(name)
                _screenshot(page, f"tiefenthal-{name}-{size}.png")
        if "Turn" in phase:
            target, kind = _turn_choice(page)
            _to_its_panel(page, target)
        else:
            target, kind = _tiefenthal_choice(page, chooser), "other"
        if target.get_attribute("data-cmd") is None and target.get_attribute("data-action") is None:
            target.click()  # a die chosen: its spaces light up, Take goes to the bar
            page.wait_for_selector(".tf .target[data-kind=space], .action-bar [data-action=tf-take]", state="attached")
            continue
        try:
            _click_and_wait(page, target)
        except Exception:  # the bot's simultaneous move redrew the target away: choose again
            continue
        done.append(kind)
    assert "take" in done and "end" in done, done
    assert {"guest", "buy"} & set(done), f"nothing was bought in the turn phase: {done}"
