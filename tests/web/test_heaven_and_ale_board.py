"""The Heaven & Ale board in a real browser: a whole 2-player game with Kegs & More against a bot, played by
clicking only what the page highlights; the final scores on the page equal the API's.

By default the game is the short development game of one round (``rounds: 1``);
``TAPROOM_FULL_HEAVEN_AND_ALE=1`` plays the full three rounds of a 2-player game (about a minute longer).
``TAPROOM_UPDATE_SCREENSHOTS=1`` writes the screenshots shown in the README to ``docs/``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, register_player, sign_in

pytestmark = pytest.mark.browser
DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOTS = DOCS if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else None
FULL = bool(os.environ.get("TAPROOM_FULL_HEAVEN_AND_ALE"))
# Buttons that end or skip something: clicked less often, so the game sees buying, discs, sheds and the cart.
QUIET = {"coin", "pass", "end", "decline"}


def shown(total: float) -> str:
    """A score as the page prints it (halves from stored kegs keep one decimal)."""
    return str(int(total)) if total == int(total) else f"{total:.1f}"


def _wait_turn_or_end(page: Any) -> str:
    page.wait_for_function("""() => { const g = document.querySelector('.game');
        return g && (['ended', 'scored', 'abandoned'].includes(g.dataset.status)
                     || (g.dataset.myTurn === '1' && document.querySelector('.ha .target'))); }""", timeout=30_000)
    return page.locator(".game").get_attribute("data-status")


def _choose(page: Any, chooser: random.Random, clicked: dict[str, int]) -> Any:
    """One of the highlighted targets: a garden spot once a tile is picked, a kind of decision not made yet,
    actions before skips, and emergency coins only when nothing else is offered."""
    spots = page.locator(".ha .target[data-kind=spot]")
    if spots.count():
        return spots.nth(chooser.randrange(spots.count()))
    targets = page.locator(".ha .target")
    kinds = [targets.nth(i).get_attribute("data-kind") for i in range(targets.count())]
    new = [i for i, k in enumerate(kinds) if k not in QUIET and not clicked.get(k)]
    if new:
        return targets.nth(chooser.choice(new))
    active = [i for i, k in enumerate(kinds) if k not in QUIET]
    quiet = [i for i, k in enumerate(kinds) if k in QUIET and k != "coin"]
    if active and (not quiet or chooser.random() < 0.8):
        return targets.nth(chooser.choice(active))
    if quiet:
        return targets.nth(chooser.choice(quiet))
    return targets.nth(chooser.randrange(targets.count()))  # only emergency coins can pay for the space


def _screenshots(page: Any) -> None:
    page.locator(".board-area").screenshot(path=str(SHOTS / "heaven-and-ale-in-progress.png"))
    page.set_viewport_size({"width": 375, "height": 800})
    page.locator("[data-testid=ha-player-0]").scroll_into_view_if_needed()
    page.evaluate("document.querySelector('[data-testid=ha-actions]').scrollIntoView()")
    page.screenshot(path=str(SHOTS / "heaven-and-ale-phone.png"))
    page.evaluate("document.querySelector('[data-testid=ha-player-0]').scrollIntoView()")
    page.screenshot(path=str(SHOTS / "heaven-and-ale-phone-garden.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.slow
def test_a_whole_kegs_and_more_game_against_a_bot_by_clicking_what_is_highlighted(new_page: Any,
                                                                                   web_server: WebServer):
    player = register_player(web_server, "Ana")
    with web_server.api(player["token"]) as client:
        options = {"kegs_and_more": True} if FULL else {"kegs_and_more": True, "rounds": 1}
        created = client.post("/games", json={"game": "heaven-and-ale", "options": options,
                                              "seed": "ha-click-through", "seats": [{"me": True}, {"bot": "random"}]})
        assert created.status_code == 201, created.text
        gid = created.json()["game_id"]
    page = new_page(1280, 900)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, player)
    page.goto(f"/#/game/{gid}")
    expect(page.locator("[data-testid=ha-board] .ha-track")).to_be_visible()
    chooser = random.Random(7)
    clicks: dict[str, int] = {}
    shot_taken = False
    while _wait_turn_or_end(page) == "active":
        target = _choose(page, chooser, clicks)
        kind = target.get_attribute("data-kind") or "?"
        if target.get_attribute("data-cmd") is None:  # picks a tile or a starting space: the page offers more
            target.click()
            if SHOTS and not shot_taken and kind == "pick-tile" and clicks.get("spot", 0) >= 5:
                _screenshots(page)  # a game under way, the garden spots for the picked tile highlighted
                shot_taken = True
            continue
        before = int(page.locator(".game").get_attribute("data-version"))
        target.click()
        page.wait_for_function("v => +document.querySelector('.game').dataset.version > v", arg=before,
                               timeout=30_000)
        clicks[kind] = clicks.get(kind, 0) + 1
    # the decisions every game has were made by clicking (the others whenever they came up)
    for kind in ("storage", "slot", "move", "spot"):
        assert clicks.get(kind, 0) >= 1, (kind, clicks)
    expect(page.locator(".game")).to_have_attribute("data-status", "scored", timeout=30_000)
    expect(page.locator("[data-testid=ha-final]")).to_be_visible()
    with web_server.api(player["token"]) as client:
        meta = client.get(f"/games/{gid}").json()
    assert len(meta["scores"]) == 2
    for score in meta["scores"]:
        expect(page.locator(f"[data-testid=ha-score-{score['seat']}]")).to_have_text(shown(score["total"]))
    if SHOTS:
        page.locator(".board-area").screenshot(path=str(SHOTS / "heaven-and-ale-final.png"))
    assert not errors, errors
