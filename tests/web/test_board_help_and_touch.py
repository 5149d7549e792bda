"""The Heaven & Ale and Tiefenthal boards for a newcomer on a laptop and on a phone (issue 32):

* every element says what it is and does now: on hover, on keyboard focus (the arrow keys walk a group) and
  on a long press, which shows the hint and does not play the move;
* on a touch screen (390 x 844, ``has_touch``, ``is_mobile``) every interactive element is at least 44 x 44 CSS px
  (WCAG 2.5.5), measured with ``getBoundingClientRect``;
* after a choice, the prompt and the next choice's targets are inside the viewport, at 1280 x 800 and 390 x 844,
  with the player's own garden or tavern in view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.web.conftest import WebServer, register_player, sign_in
from tests.web.test_heaven_and_ale_board import HARNESS, _scenarios

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
MIN_TARGET_PX = 44

# What a finger can press: the boards' commands and choices, and every button, toggle and pick of theirs.
INTERACTIVE = "[data-cmd], [data-pick-tile], [data-pick-slot], [data-select], button, summary"
MEASURE = """([roots, selector]) => [...document.querySelectorAll(roots)].flatMap((root) => [...root.querySelectorAll(selector)])
    .filter((n) => n.getClientRects().length)  // drawn (not inside a folded details)
    .map((n) => { const r = n.getBoundingClientRect();
                  return { what: n.dataset.kind || n.tagName + ':' + n.textContent.trim().slice(0, 30),
                           w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10 }; })"""


@pytest.fixture
def touch_page(browser: Any, web_server: WebServer) -> Iterator[Callable[..., Any]]:
    """``touch_page(viewport)``: a page in a fresh context; a phone-sized one is a touch screen (coarse pointer)."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int]) -> Any:
        phone = viewport["width"] < 600
        context = browser.new_context(base_url=web_server.url, viewport=viewport, has_touch=phone, is_mobile=phone)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def _too_small(page: Any, root: str) -> list[dict[str, Any]]:
    """The interactive elements under ``root`` (and in the frame's action bar, where the boards put their
    Done-style buttons) smaller than a finger's target."""
    found = page.evaluate(MEASURE, [f"{root}, .action-bar", INTERACTIVE])
    assert found, "nothing to measure"
    return [t for t in found if t["w"] < MIN_TARGET_PX or t["h"] < MIN_TARGET_PX]


VISIBLE_AREA = """() => { // the part of the viewport neither the board's sticky prompt nor the frame's action bar covers
    const bar = document.querySelector('.ha-bar, .tf-bar'), foot = document.querySelector('.action-bar');
    return { top: bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0,
             bottom: foot ? Math.min(innerHeight, foot.getBoundingClientRect().top) : innerHeight }; }"""


def _inside_viewport(page: Any, selector: str) -> bool:
    """Whether the element is wholly inside the viewport, and not under a sticky bar unless it is in one."""
    return page.evaluate("""([sel, area]) => { const n = document.querySelector(sel); if (!n) return false;
        const r = n.getBoundingClientRect();
        const { top, bottom } = n.closest('.ha-bar, .tf-bar, .action-bar') ? { top: 0, bottom: innerHeight } : eval(area)();
        return r.top >= top - 1 && r.left >= -1 && r.bottom <= bottom + 1 && r.right <= innerWidth + 1; }""",
                         [selector, VISIBLE_AREA])


def _long_press(page: Any, selector: str) -> None:
    """A finger held on the element until the hint is up, then lifted (Chromium's touch input, as a phone sends it)."""
    box = page.locator(selector).first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    expect(page.locator(".ha-wrap .board-tip, .tf-wrap .board-tip")).to_be_visible()
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


# -- Heaven & Ale, in the board harness (every kind of decision, built through the engine) ----------------------
def _mount_heaven_and_ale(page: Any, scenario: tuple[Any, int]) -> list[dict[str, Any]]:
    from domain.heaven_and_ale import GAME

    state, seat = scenario
    legal = [c.model_dump(mode="json", exclude={"seat"}) for c in GAME.legal_commands(state, seat)]
    page.evaluate(HARNESS, [GAME.view(state, seat), legal, seat])
    expect(page.locator("#ha-harness .ha-track").first).to_be_visible()
    return legal


def test_heaven_and_ale_targets_are_finger_sized_on_a_phone(touch_page: Callable[..., Any]):
    page = touch_page(PHONE)
    page.goto("/")
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    for name, scenario in _scenarios().items():
        _mount_heaven_and_ale(page, scenario)
        # the phone draws the compact track: all of it inside the screen's width, nothing to scroll sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        assert not _too_small(page, "#ha-harness"), (name, _too_small(page, "#ha-harness"))
        for pick in page.locator("#ha-harness [data-pick-tile], #ha-harness [data-pick-slot]").all():
            pick.click()  # the garden spots (or the colours) it offers are finger-sized too
            assert not _too_small(page, "#ha-harness"), (name, _too_small(page, "#ha-harness"))
            pick.click()


def test_heaven_and_ale_hints_on_hover_keyboard_and_long_press(touch_page: Callable[..., Any]):
    scenarios = _scenarios()
    page = touch_page(LAPTOP)
    page.goto("/")
    _mount_heaven_and_ale(page, scenarios["buy"])
    hint = page.locator(".ha-wrap .board-tip, .tf-wrap .board-tip")
    # hover: a tile on offer says what it costs (the view's price) and does
    page.locator("#ha-harness [data-pick-tile]").first.hover()
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Costs shady")
    expect(hint).to_contain_text("Activated")
    # keyboard: the track is one Tab stop and the arrow keys walk its spaces, each saying what it offers
    page.locator("#ha-harness .ha-track [data-space='0']").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#ha-harness .ha-track [data-space='1']")).to_be_focused()
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Space 1")
    expect(hint).to_contain_text("On offer")
    expect(hint).to_contain_text("ducats")
    described = page.locator("#ha-harness .ha-track [data-space='1']").get_attribute("aria-describedby")
    assert described and described == hint.get_attribute("id")
    page.keyboard.press("Escape")
    expect(hint).to_be_hidden()
    # a picked tile: each highlighted garden spot says what placing it there costs
    page.locator("#ha-harness [data-pick-tile]").first.click()
    page.locator("#ha-harness .target[data-kind=spot]").first.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    expect(hint).to_contain_text("Garden spot")

    phone = touch_page(PHONE)
    phone.goto("/")
    _mount_heaven_and_ale(phone, scenarios["move"])
    # a long press on a highlighted space reads it and does not move the figure there
    _long_press(phone, "#ha-harness .target[data-kind=move]")
    expect(phone.locator(".ha-wrap .board-tip")).to_contain_text("Highlighted: you can move your figure here.")
    phone.locator("#ha-harness .target[data-kind=move]").first.tap()  # a plain tap plays it
    phone.wait_for_function("() => window.__sent.length > 0")
    assert phone.evaluate("window.__sent.map((c) => c.type)") == ["Move"]


# -- the real game page: after a choice, the next one is in view ---------------------------------------------
def _game(web_server: WebServer, page: Any, game: str, options: dict[str, Any], seed: str) -> str:
    player = register_player(web_server, "Ana")
    with web_server.api(player["token"]) as client:
        created = client.post("/games", json={"game": game, "options": options, "seed": seed,
                                              "seats": [{"me": True}, {"bot": "random"}]})
        assert created.status_code == 201, created.text
        gid = created.json()["game_id"]
    sign_in(page, player)
    page.goto(f"/#/game/{gid}")
    return gid


def _click_and_wait(page: Any, target: Any) -> None:
    """Play a command and wait for the game to move on; on a touch screen move confirmation is on by default,
    so the move waits in the action bar for its Confirm tap (which must be in view)."""
    before = int(page.locator(".game").get_attribute("data-version"))
    target.click()
    page.wait_for_function("""v => +document.querySelector('.game').dataset.version > v
        || document.querySelector('.action-bar [data-action=send]')""", arg=before, timeout=30_000)
    confirm = page.locator(".action-bar [data-action=send]")
    if confirm.count():
        # the bar draws the button, then the page settles its layout (the board scrolls the choice into view):
        # wait for Confirm to be in view, as a player's eye would, and fail if it never is
        try:
            page.wait_for_function("""([sel, area]) => { const n = document.querySelector(sel); if (!n) return false;
                const r = n.getBoundingClientRect();
                return r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; }""",
                                   arg=[".action-bar [data-action=send]", VISIBLE_AREA], timeout=5_000)
        except PlaywrightTimeout:
            pass  # the assertion below says what is wrong
        assert _inside_viewport(page, ".action-bar [data-action=send]"), "Confirm is off screen"
        confirm.click()
    page.wait_for_function("v => +document.querySelector('.game').dataset.version > v", arg=before, timeout=30_000)


def _my_turn(page: Any, board: str) -> None:
    page.wait_for_selector(f".game[data-my-turn='1'] .{board} .target", state="attached", timeout=30_000)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_heaven_and_ale_after_picking_a_tile_the_prompt_and_own_garden_are_in_view(
        touch_page: Callable[..., Any], web_server: WebServer, viewport: dict[str, int]):
    page = touch_page(viewport)
    _game(web_server, page, "heaven-and-ale", {"kegs_and_more": True, "rounds": 1}, "ha-in-view")
    for _ in range(40):  # place, arrange, then move to a space with tiles
        _my_turn(page, "ha")
        step = page.locator(".ha").get_attribute("data-step")
        if step == "buy":
            break
        if step == "move":
            assert _inside_viewport(page, ".ha .target[data-kind=move]"), "the track's targets are off screen"
            _click_and_wait(page, page.locator(".ha .target[data-kind=move][aria-label*=Tiles]").first)
        else:
            _click_and_wait(page, page.locator(".ha .target[data-cmd]:not([data-kind=coin])").first)
    assert _inside_viewport(page, "[data-testid=bar-prompt]")
    assert _inside_viewport(page, ".ha [data-pick-tile]")
    assert _inside_viewport(page, ".action-bar [data-action=ha-end]") or not page.locator("[data-action=ha-end]").count()
    page.locator(".ha [data-pick-tile]").first.click()
    expect(page.locator("[data-testid=bar-prompt]")).to_contain_text("highlighted spot")
    # the choice made, the garden's highlighted spots are on screen with the prompt, without a scroll by hand
    page.wait_for_function("() => document.querySelector('.ha-own .target[data-kind=spot]')")
    assert _inside_viewport(page, "[data-testid=bar-prompt]")
    assert _inside_viewport(page, ".ha-own .target[data-kind=spot]")
    assert _inside_viewport(page, ".ha-own .ha-garden")  # the whole own garden, not only one spot
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


# -- Tiefenthal: a game on a phone, every decision measured -------------------------------------------------
def _tiefenthal_choice(page: Any, chooser: random.Random) -> Any:
    for kind in ("space", "pick", "keep", "choice"):
        found = page.locator(f".tf .target[data-kind={kind}]")
        if found.count():
            return found.nth(chooser.randrange(found.count()))
    loose = page.locator(".tf .target[data-kind=die][data-placed='0']")
    if loose.count():
        return loose.first
    for kind in ("take", "finish", "end", "keep"):
        found = page.locator(f".action-bar [data-action=tf-{kind}]")
        if found.count():
            return found.first
    return page.locator(".tf .target[data-cmd]").first


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_tiefenthal_every_decision_is_in_view_and_finger_sized(touch_page: Callable[..., Any],
                                                                  web_server: WebServer, viewport: dict[str, int]):
    page = touch_page(viewport)
    phone = viewport is PHONE
    _game(web_server, page, "tiefenthal", {"rounds": 1}, f"tf-in-view-{viewport['width']}")
    chooser = random.Random(5)
    seen: set[str] = set()
    for _ in range(80):
        page.wait_for_function("""() => ['scored', 'ended'].includes(document.querySelector('.game')?.dataset.status)
            || (document.querySelector('.game')?.dataset.myTurn === '1'
                && document.querySelector('.tf .target, .action-bar [data-action^="tf-"]'))""",
                               timeout=60_000)
        if page.locator(".game").get_attribute("data-status") in ("scored", "ended"):
            break
        phase = page.locator("[data-testid=tf-status] .tf-phase").inner_text()
        seen.add(phase.split("·")[-1].strip())
        assert _inside_viewport(page, "[data-testid=bar-prompt]"), phase
        # a highlighted choice is on screen too: on the board, or the Done-style button in the bar
        assert page.evaluate("""(area) => { const { top, bottom } = eval(area)();
            return [...document.querySelectorAll('.tf .target, .action-bar [data-action^="tf-"]')].some((n) => {
              const r = n.getBoundingClientRect(); const free = n.closest('.action-bar');
              return r.height && r.top >= (free ? 0 : top) - 1 && r.bottom <= (free ? innerHeight : bottom) + 1; }); }""",
                             VISIBLE_AREA), phase
        if phone:
            assert not _too_small(page, ".tf"), (phase, _too_small(page, ".tf"))
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], phase
        target = _tiefenthal_choice(page, chooser)
        if target.get_attribute("data-cmd") is None and target.get_attribute("data-action") is None:
            target.click()  # a die chosen: its spaces light up
            page.wait_for_selector(".tf .target[data-kind=space], .action-bar [data-action=tf-take]", state="attached")
            continue
        try:
            _click_and_wait(page, target)
        except Exception:  # the bot's simultaneous move redrew the target away: choose again
            continue
    assert any("Dice draft" in s for s in seen) and any("Planning" in s for s in seen), seen


def test_tiefenthal_hints_on_keyboard_focus_and_long_press(touch_page: Callable[..., Any], web_server: WebServer):
    page = touch_page(PHONE)
    _game(web_server, page, "tiefenthal", {"rounds": 1}, "tf-hints")
    page.wait_for_selector(".game[data-my-turn='1'] [data-testid=tf-player-0] .tf-tiles [data-tip]")
    hint = page.locator(".ha-wrap .board-tip, .tf-wrap .board-tip")
    tile = "[data-testid=tf-player-0] .tf-tiles [data-tip]"
    _long_press(page, tile)
    expect(hint).to_contain_text("Now:")
    version = page.locator(".game").get_attribute("data-version")
    # keyboard: the tiles are one group, the arrow keys walk it and each tile says what a die there gives
    page.locator(tile).first.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator(tile).nth(1)).to_be_focused()
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Now:")
    page.keyboard.press("ArrowRight")
    expect(hint).to_contain_text("taking a die off it")
    # reading the board played nothing
    assert page.locator(".game").get_attribute("data-version") == version


def test_heaven_and_ale_a_shed_choice_brings_the_garden_on_screen_on_a_phone(touch_page: Callable[..., Any]):
    """The shed's choices are outlined on the player's garden: choosing one on a phone shows the garden with
    them, even when the board starts below the fold."""
    from domain.heaven_and_ale import GAME

    state, seat = _scenarios()["shed"]
    page = touch_page(PHONE)
    page.goto("/")
    legal = _mount_heaven_and_ale(page, (state, seat))
    page.evaluate("""([view, legal]) => {
        const spacer = document.createElement('div');
        spacer.style.height = '2000px';
        document.querySelector('#ha-harness').before(spacer);
        window.scrollTo(0, 0);
        window.__board.update({ view, legal, version: 2, head: 2, status: 'active', readOnly: false, lastEvents: [] });
    }""", [GAME.view(state, seat), legal])
    assert _inside_viewport(page, "#ha-harness .ha-own .ha-garden")
    assert _inside_viewport(page, "#ha-harness [data-kind=shed]")
