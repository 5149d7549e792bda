"""The Tiefenthal board in a real browser: a whole 2-player game against a bot, played by clicking only what the
page highlights (the draft, dice onto spaces, takes, purchases, upgrades, bonus choices, the simultaneous
phases), the final scores on the page equal to the API's; and two people planning at once, each on their own
page, neither waiting for the other.

By default the game is the short development game of three rounds (``rounds: 3``);
``TAPROOM_FULL_TIEFENTHAL=1`` plays all eight rounds. ``TAPROOM_UPDATE_SCREENSHOTS=1`` writes docs/browser.md's
screenshots to ``docs/``.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.web.conftest import WebServer, open_game_against_bots, register_player, sign_in, unworded_events

pytestmark = pytest.mark.browser
DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOTS = DOCS if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else None
FULL = bool(os.environ.get("TAPROOM_FULL_TIEFENTHAL"))
SPEND = ("buy", "guest", "nobles", "upgrade", "counter")
# What the page offers: the board's highlighted targets, and its Done-style buttons in the frame's action bar
TARGETS = ".tf .target, .action-bar button[data-action^='tf-']"


def _wait_turn_or_end(page: Any) -> str:
    page.wait_for_function("""() => { const g = document.querySelector('.game');
        return g && (['ended', 'scored', 'abandoned'].includes(g.dataset.status)
                     || (g.dataset.myTurn === '1' && document.querySelector(TARGETS))); }""".replace("TARGETS", repr(TARGETS)),
                       timeout=60_000)
    return page.locator(".game").get_attribute("data-status")


def _targets(page: Any, kind: str, extra: str = "") -> Any:
    """The board's targets of a kind; the Done-style ones (finish, end, keep, take) are in the frame's action bar."""
    return page.locator(f".tf .target[data-kind={kind}]{extra}, .action-bar button[data-action=tf-{kind}]{extra}")


def _choose(page: Any, chooser: random.Random) -> Any:
    """A highlighted target: a space once a die is chosen, taking a chosen placed die, dice before finishing,
    spending now and then before ending the turn; single offers (keep, pick, choice) as they come."""
    for kind in ("take", "space"):
        found = _targets(page, kind)
        if found.count():
            return found.nth(chooser.randrange(found.count()))
    placed = _targets(page, "die", "[data-placed='1']")
    if placed.count():
        return placed.nth(0)
    loose = _targets(page, "die", "[data-placed='0']")
    finish = _targets(page, "finish")
    if loose.count() and (not finish.count() or chooser.random() < 0.85):
        return loose.nth(chooser.randrange(loose.count()))
    if finish.count():
        return finish.first
    spend = page.locator(", ".join(f".tf .target[data-kind={k}]" for k in SPEND))
    end = _targets(page, "end")
    guests = _targets(page, "guest")
    if guests.count() and chooser.random() < 0.8:  # guests bring victory points, so the final sheet is not all zeros
        return guests.nth(chooser.randrange(guests.count()))
    if spend.count() and (not end.count() or chooser.random() < 0.6):
        return spend.nth(chooser.randrange(spend.count()))
    if end.count():
        return end.first
    everything = page.locator(TARGETS)
    count = everything.count()
    return everything.nth(chooser.randrange(count)) if count else None  # redrawn since: wait and choose again


def _pin(target: Any) -> Any:
    """The element a lazy locator points at now, or None when the page redrew it away. A locator is resolved
    again at each use: in a simultaneous phase the bot's move redraws the targets, so its kind, its command and
    the element clicked could belong to three different targets."""
    try:
        return target.element_handle(timeout=2_000)
    except PlaywrightError:
        return None


def _click_command(page: Any, target: Any) -> bool:
    """Click a command and wait for the game to move on; False when the click went nowhere (the target was
    redrawn away under the pointer, or its command had just become stale), so the caller chooses again."""
    before = int(page.locator(".game").get_attribute("data-version"))
    try:
        target.click(timeout=5_000)
        page.wait_for_function("v => +document.querySelector('.game').dataset.version > v", arg=before,
                               timeout=15_000)
    except PlaywrightError:
        return False
    return True


@pytest.mark.slow
def test_a_whole_game_against_a_bot_by_clicking_what_is_highlighted(new_page: Any, web_server: WebServer):
    table = open_game_against_bots(web_server, new_page, "tiefenthal", {} if FULL else {"rounds": 3},
                                   "tf-click-through")
    player, gid, page, errors = table.player, table.game_id, table.page, table.errors
    expect(page.locator("[data-testid=tf-player-0] .tf-tiles")).to_be_visible()
    expect(page.locator("[data-testid=tf-player-1] .tf-tiles")).to_be_visible()
    chooser = random.Random(11)
    clicks: dict[str, int] = {}
    missed = 0  # clicks that went nowhere because the bot's move redrew the page first
    while _wait_turn_or_end(page) == "active":
        target = _choose(page, chooser)
        target = target and _pin(target)
        if target is None:
            missed += 1
            continue
        kind = target.get_attribute("data-kind") or (target.get_attribute("data-action") or "?").removeprefix("tf-")
        # a die chosen (no command yet): the page highlights where it may go
        if target.get_attribute("data-cmd") is None and target.get_attribute("data-action") is None:
            try:
                target.click(timeout=5_000)
            except PlaywrightError:
                missed += 1
                continue
            clicks[kind] = clicks.get(kind, 0) + 1
            continue
        if _click_command(page, target):
            clicks[kind] = clicks.get(kind, 0) + 1
        else:
            missed += 1
        assert missed <= 20, f"{missed} clicks went nowhere: the page is not following the game"
    # the decisions every game has were made by clicking (the others whenever they came up)
    for kind in ("pick", "die", "space", "finish", "take", "end"):
        assert clicks.get(kind, 0) >= 1, (kind, clicks)
    assert any(clicks.get(k) for k in SPEND), clicks
    expect(page.locator(".game")).to_have_attribute("data-status", "scored", timeout=30_000)
    with web_server.api(player["token"]) as client:
        meta = client.get(f"/games/{gid}").json()
    assert len(meta["scores"]) == 2
    # the frame's score sheet, once: the board no longer draws a second "Final scores" of its own
    expect(page.locator(".score-sheet")).to_have_count(1)
    expect(page.locator(".score-sheet tr.total td")).to_have_text(
        [str(int(score["total"])) for score in sorted(meta["scores"], key=lambda s: s["seat"])])
    expect(page.get_by_text("Final scores", exact=True)).to_have_count(1)
    _log_reads_as_sentences(page)
    assert unworded_events(page, gid, "tiefenthal") == []
    if SHOTS:
        page.locator(".board-area").screenshot(path=str(SHOTS / "tiefenthal-final.png"))
    assert not errors, errors


def _log_reads_as_sentences(page: Any) -> None:
    """The move log names cards, tiles and phases (the board's own sentences): no raw card ids, no "N items"
    of the frame's generic wording, and, the game being over, no card left unnamed."""
    log = page.locator(".log-list")
    expect(log).to_contain_text("filled the tavern: ")
    expect(log).to_contain_text("The taverns open: 2 players")
    text = log.inner_text()
    assert "items" not in text and not re.search(r"\(cards? [\d ]+\)", text), text[-1500:]
    lines = [line for line in text.splitlines() if "filled the tavern" in line]
    assert lines and not any("a card" in line for line in lines), lines[:5]


def test_two_players_plan_at_once_each_on_their_own_page(new_page: Any, web_server: WebServer):
    """Phase B and E are simultaneous: each page offers its moves while the other seat is still deciding, and
    shows who is still planning."""
    ana, ben = register_player(web_server, "Ana"), register_player(web_server, "Ben")
    with web_server.api(ana["token"]) as client:
        created = client.post("/games", json={"game": "tiefenthal", "options": {"rounds": 1}, "seed": "tf-together",
                                              "seats": [{"me": True}, {}]})
        assert created.status_code == 201, created.text
        gid = created.json()["game_id"]
    with web_server.api(ben["token"]) as client:
        joined = client.post(f"/games/{gid}/join", json={})
        assert joined.status_code in (200, 201), joined.text
    pages = []
    for who in (ana, ben):
        page = new_page(1280, 900)
        sign_in(page, who)
        page.goto(f"/#/game/{gid}")
        expect(page.locator("[data-testid=tf-board] [data-testid=tf-status]")).to_be_visible(timeout=20_000)
        pages.append(page)
    chooser = random.Random(3)

    def phase(page: Any) -> str:
        return page.locator("[data-testid=tf-status] .tf-phase").inner_text()

    # until planning: each seat acts when its page offers something (B at once, the draft in turn). Only the
    # offers of B and the draft: the other seat's last pick can start planning between the phase check and the
    # click, and planning's first command target is "Finish planning" (its dice are chosen, not commands).
    before_planning = (".tf .target[data-cmd]:not([data-kind=finish]):not([data-kind=space]):not([data-kind=take]),"
                       " .action-bar [data-action=tf-keep]")
    for _ in range(40):
        if "Planning" in phase(pages[0]) and "Planning" in phase(pages[1]):
            break
        acted = False
        for page in pages:
            if "Planning" in phase(page):
                continue
            if page.locator(".game").get_attribute("data-my-turn") == "1" and page.locator(before_planning).count():
                _click_command(page, page.locator(before_planning).first)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(200)
    expect(pages[0].locator("[data-testid=tf-planning-1]")).to_contain_text("planning", timeout=20_000)
    # Ana plans and finishes while Ben has not moved; Ben's page still offers his dice and shows Ana ready
    a = pages[0]
    sent: list[str] = []  # what Ana's page sent: a finish she never clicked would be a page fault, not a wait
    a.on("request", lambda r: sent.append((r.post_data_json or {}).get("type", "?"))
         if r.method == "POST" and r.url.endswith(f"/games/{gid}/commands") else None)
    ana_ready = a.locator("[data-testid=tf-planning-0]")
    finished = False
    while "ready" not in ana_ready.inner_text():
        # the page settles first: a move's answer and the stream's refresh may overlap; it then offers her dice,
        # the spaces for the chosen one, or only the finish (all placed), unless she is ready already
        a.wait_for_function("""() => document.querySelector('.tf .target, .action-bar [data-action^="tf-"]')
            || document.querySelector('[data-testid=tf-planning-0]')?.textContent.includes('ready')""", timeout=20_000)
        assert finished or "FinishPlanning" not in sent, f"Ana's page finished planning by itself: {sent}"
        if _targets(a, "space").count():
            _click_command(a, _targets(a, "space").nth(chooser.randrange(_targets(a, "space").count())))
        elif _targets(a, "die").count():
            _targets(a, "die").first.click()
        elif _targets(a, "finish").count():
            finished = True
            _click_command(a, _targets(a, "finish"))
    assert sent.count("FinishPlanning") == 1, sent
    b = pages[1]
    expect(b.locator("[data-testid=tf-planning-0]")).to_contain_text("ready", timeout=20_000)  # over the stream
    expect(b.locator("[data-testid=tf-planning-1]")).to_contain_text("planning")
    expect(_targets(b, "finish")).to_be_visible()
    expect(a.locator("[data-testid=tf-waiting]")).to_contain_text("Ben")
    _click_command(b, _targets(b, "finish"))
    expect(a.locator("[data-testid=tf-status] .tf-phase")).to_contain_text("Turns", timeout=20_000)


def test_a_focused_command_keeps_focus_while_another_seat_moves(new_page: Any, web_server: WebServer):
    """A keyboard player who tabbed to a command must still be on it when the board redraws for the other
    seat's move: the redraw used to drop focus on <body>, and the Enter that followed went nowhere."""
    ana, ben = register_player(web_server, "Ana"), register_player(web_server, "Ben")
    with web_server.api(ana["token"]) as client:
        created = client.post("/games", json={"game": "tiefenthal", "options": {"rounds": 1}, "seed": "tf-focus",
                                              "seats": [{"me": True}, {}]})
        assert created.status_code == 201, created.text
        gid = created.json()["game_id"]
    with web_server.api(ben["token"]) as client:
        assert client.post(f"/games/{gid}/join", json={}).status_code in (200, 201)
    page = new_page(375, 812)
    sign_in(page, ana)
    page.goto(f"/#/game/{gid}")
    # the first decision's buttons: on the board, or (Done-style, such as keeping the tavern) in the action bar
    commands = ".tf button.target[data-cmd], .action-bar button[data-action^='tf-']"
    page.wait_for_selector(f'.game[data-my-turn="1"] :is({commands})')
    target = page.locator(commands).first
    label = target.inner_text()
    target.focus()
    before = int(page.locator(".game").get_attribute("data-version"))
    with web_server.api(ben["token"]) as client:  # phase A is simultaneous: Ben decides while Ana's page waits
        legal = client.get(f"/games/{gid}/legal")
        assert legal.status_code == 200, legal.text
        first = legal.json()["commands"][0]
        moved = client.post(f"/games/{gid}/commands", json=first)
        assert moved.status_code == 200 and moved.json()["status"] == "accepted", moved.text
    expect(page.locator(".game")).to_have_attribute("data-version", str(before + 1))
    expect(page.locator("[data-testid=tf-planning-1], [data-testid=tf-waiting]").first).to_be_visible()
    focused = page.evaluate("(() => { const a = document.activeElement;"
                            " return a && a.matches('.tf [data-cmd], .action-bar [data-action]') ? a.innerText : null; })()")
    assert focused == label, f"focus moved off {label!r} to {focused!r} when the board redrew"
    page.keyboard.press("Enter")
    page.wait_for_function("v => +document.querySelector('.game').dataset.version > v", arg=before + 1)
