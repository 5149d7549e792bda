"""The Heaven & Ale board in a real browser: a whole 2-player game with Kegs & More against a bot, played by
clicking only what the page highlights; the final scores on the page equal the API's.

By default the game is the short development game of one round (``rounds: 1``);
``TAPROOM_FULL_HEAVEN_AND_ALE=1`` plays the full three rounds of a 2-player game (about a minute longer).
``TAPROOM_UPDATE_SCREENSHOTS=1`` writes the screenshots shown in docs/browser.md to ``docs/``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, open_game_against_bots, register_player, unworded_events

pytestmark = pytest.mark.browser
DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOTS = DOCS if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else None
FULL = bool(os.environ.get("TAPROOM_FULL_HEAVEN_AND_ALE"))
# Buttons that end or skip something: clicked less often, so the game sees buying, discs, sheds and the cart.
QUIET = {"coin", "pass", "end", "decline"}
# What the page offers: the board's highlighted targets, and its Done-style buttons in the frame's action bar
TARGETS = ".ha .target, .action-bar button[data-action^='ha-']"


def kind_of(target: Any) -> str:
    """A target's kind: its data-kind on the board, or the action bar button's id without the board's prefix."""
    return target.get_attribute("data-kind") or (target.get_attribute("data-action") or "?").removeprefix("ha-")


def shown(total: float) -> str:
    """A score as the page prints it (halves from stored kegs keep one decimal)."""
    return str(int(total)) if total == int(total) else f"{total:.1f}"


def _the_score_sheet_is_drawn_once_with(page: Any, scores: list[dict[str, Any]]) -> None:
    """The frame's score sheet shows the API's totals, and nothing else on the page draws a second one (the board
    used to draw its own "Final scores" under the frame's)."""
    sheet = page.locator(".score-sheet")
    expect(sheet).to_have_count(1)
    totals = sheet.locator("tr.total td")
    expect(totals).to_have_text([shown(s["total"]) for s in sorted(scores, key=lambda s: s["seat"])])
    expect(page.get_by_text("Final scores", exact=True)).to_have_count(1)


def _wait_turn_or_end(page: Any) -> str:
    page.wait_for_function("""() => { const g = document.querySelector('.game');
        return g && (['ended', 'scored', 'abandoned'].includes(g.dataset.status)
                     || (g.dataset.myTurn === '1' && document.querySelector(TARGETS))); }""".replace("TARGETS", repr(TARGETS)),
                       timeout=30_000)
    return page.locator(".game").get_attribute("data-status")


def _choose(page: Any, chooser: random.Random, clicked: dict[str, int]) -> Any:
    """One of the highlighted targets: a garden spot once a tile is picked, a kind of decision not made yet,
    actions before skips, and emergency coins only when nothing else is offered."""
    spots = page.locator(".ha .target[data-kind=spot]")
    if spots.count():
        return spots.nth(chooser.randrange(spots.count()))
    targets = page.locator(TARGETS)
    kinds = [kind_of(targets.nth(i)) for i in range(targets.count())]
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


@pytest.mark.slow
def test_a_whole_kegs_and_more_game_against_a_bot_by_clicking_what_is_highlighted(new_page: Any,
                                                                                   web_server: WebServer):
    options = {"kegs_and_more": True} if FULL else {"kegs_and_more": True, "rounds": 1}
    table = open_game_against_bots(web_server, new_page, "heaven-and-ale", options, "ha-click-through")
    player, gid, page, errors = table.player, table.game_id, table.page, table.errors
    expect(page.locator("[data-testid=ha-board] .ha-track")).to_be_visible()
    chooser = random.Random(7)
    clicks: dict[str, int] = {}
    while _wait_turn_or_end(page) == "active":
        target = _choose(page, chooser, clicks)
        kind = kind_of(target)
        if target.get_attribute("data-cmd") is None and target.get_attribute("data-action") is None:  # picks a tile or a starting space: the page offers more
            target.click()
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
    with web_server.api(player["token"]) as client:
        meta = client.get(f"/games/{gid}").json()
    assert len(meta["scores"]) == 2
    _the_score_sheet_is_drawn_once_with(page, meta["scores"])
    assert unworded_events(page, gid, "heaven-and-ale") == []
    if SHOTS:
        page.locator(".board-area").screenshot(path=str(SHOTS / "heaven-and-ale-final.png"))
    assert not errors, errors


# -- every legal command of every kind of decision is offered, and clicking it sends exactly that command -------
HARNESS = """
async ([view, legal, seat]) => {
  const m = await import("/static/boards/heaven-and-ale.js");
  window.__board?.destroy();
  document.querySelector("#ha-harness")?.remove();
  const root = document.createElement("div");
  root.id = "ha-harness";
  document.body.prepend(root);
  window.__sent = [];
  const desc = await (await fetch("/games/types/heaven-and-ale/description")).json();
  const ctx = { game: "heaven-and-ale", gameId: "harness", seat, t: (x) => x,
    seatInfo: [{ seat: 0, name: "Ana", colour: "#c0392b" }, { seat: 1, name: "Bo", colour: "#2e86c1" }],
    api: { submit: async (c) => { window.__sent.push(c); return { status: "accepted" }; }, description: async () => desc } };
  window.__board = m.mount(root, ctx);
  window.__board.update({ view, legal, version: 1, head: 1, status: "active", readOnly: false, lastEvents: [] });
}
"""


def _scenarios() -> dict[str, tuple[Any, int]]:
    """Positions where each kind of decision is due, built through the engine's own commands."""
    from domain.heaven_and_ale import GAME
    from domain.heaven_and_ale import commands as c
    from domain.heaven_and_ale.garden import SPOT_INDEX
    from domain.heaven_and_ale.supply import TILE_CODES
    from tests.domain.heaven_and_ale.helpers import Table, clear_board, plant, put_tile

    out: dict[str, tuple[Any, int]] = {}
    t = Table(2, "ui-setup", kegs_and_more=True)
    out["placing"] = (GAME.clone(t.state), GAME.to_act(t.state)[0])
    while t.state.phase == "placing":
        t.do(t.legal(GAME.to_act(t.state)[0])[0])
    out["arranging"] = (GAME.clone(t.state), 0)

    def table(seed: str) -> tuple[Table, int]:
        t = Table(2, seed, kegs_and_more=True).start()
        s = t.state
        clear_board(s)
        s.keg_reserve += sum(s.kegs) + sum(s.bales) * 0
        s.bale_reserve += sum(s.bales)
        s.kegs, s.bales = [0] * 28, [0] * 28
        s.die_space = -1
        return t, t.seat

    t, seat = table("ui-move")
    put_tile(t.state, 1, TILE_CODES["hops-2"])
    put_tile(t.state, 1, TILE_CODES["water-4"])
    put_tile(t.state, 3, TILE_CODES["monk-2"])
    out["move"] = (GAME.clone(t.state), seat)
    t.do(c.Move(seat=seat, space=1))
    out["buy"] = (GAME.clone(t.state), seat)

    t, seat = table("ui-shed")  # shed D's neighbours S2 S3 S5 S7 S8 S6: fertility 5 x 3 + 1 = 16, type 2
    t.state.players[seat].storage_tiles[3] = None
    for spot in ("S2", "S3", "S5", "S7", "S8"):
        plant(t.state, seat, SPOT_INDEX[spot], TILE_CODES["hops-3"])
    put_tile(t.state, 1, TILE_CODES["wood-1"])
    t.do(c.Move(seat=seat, space=1))
    t.do(c.BuyTile(seat=seat, tile="wood-1", spot="S6"))
    assert t.state.step == "shed"
    out["shed"] = (GAME.clone(t.state), seat)

    t, seat = table("ui-storage")
    t.state.players[seat].storage_tiles[3] = "kegbale"
    for spot in ("S2", "S3", "S5", "S7", "S8"):
        plant(t.state, seat, SPOT_INDEX[spot], TILE_CODES["hops-3"])
    put_tile(t.state, 1, TILE_CODES["wood-1"])
    t.do(c.Move(seat=seat, space=1))
    t.do(c.BuyTile(seat=seat, tile="wood-1", spot="S6"))
    assert t.state.step == "storage"
    out["storage"] = (GAME.clone(t.state), seat)

    t, seat = table("ui-disc")
    plant(t.state, seat, SPOT_INDEX["H3"], TILE_CODES["wood-2"])
    plant(t.state, seat, SPOT_INDEX["S4"], TILE_CODES["wood-5"])
    t.state.players[seat].discs[1] = True  # wood: a disc on x completes the pair (x, wood)
    t.state.discs[4] = 1
    t.do(c.Move(seat=seat, space=4))
    assert t.state.step == "disc"
    out["disc"] = (GAME.clone(t.state), seat)
    t.do(c.TakeDisc(seat=seat, spot="x", number=2))
    assert t.state.step == "privilege"
    out["privilege"] = (GAME.clone(t.state), seat)

    t, seat = table("ui-goods")
    s = t.state
    put_tile(s, 1, TILE_CODES["wood-1"])
    s.kegs[1], s.bales[1] = 2, 1
    s.keg_reserve, s.bale_reserve = s.keg_reserve - 2, s.bale_reserve - 1
    s.die_space, s.die_value = 1, 3
    t.do(c.Move(seat=seat, space=1))
    t.do(c.Pass(seat=seat))
    assert t.state.step == "goods"
    out["goods"] = (GAME.clone(t.state), seat)
    t.do(c.TakeGoods(seat=seat, kegs=1, bales=1))
    assert t.state.step == "cart"
    out["cart"] = (GAME.clone(t.state), seat)

    t, seat = table("ui-barrel")
    s = t.state
    s.players[seat].brewmaster = 1
    s.space, s.step, s.players[seat].pos = 14, "barrel", 14
    out["barrel"] = (GAME.clone(s), seat)
    return out


def _reachable(page: Any) -> set[int]:
    """Every command index the board lets you click: directly, or after picking a tile or a starting space."""
    root = page.locator("#ha-harness")
    cmds = root.locator("[data-cmd]")
    assert cmds.evaluate_all("ns => ns.every((n) => n.classList.contains('target'))"), "an offered move is not highlighted"
    found = {int(x) for x in cmds.evaluate_all("ns => ns.map((n) => n.dataset.cmd)")}
    for pick in ("data-pick-tile", "data-pick-slot"):
        picks = root.locator(f"[{pick}]")
        for k in range(picks.count()):
            picks.nth(k).click()
            found |= {int(x) for x in cmds.evaluate_all("ns => ns.map((n) => n.dataset.cmd)")}
            picks.nth(k).click()  # and put it back
    return found


def _click_path(page: Any, command: dict[str, Any], index: int) -> None:
    root = page.locator("#ha-harness")
    page.wait_for_function("() => !document.querySelector('#ha-harness button:disabled')")  # the last send is done
    if command["type"] == "BuyTile":
        root.locator(f"[data-pick-tile='{command['tile']}']").click()
    elif command["type"] == "EnterStartingArea" and command.get("colour"):
        root.locator("[data-pick-slot=resource]").click()
    elif command["type"] == "UseEmergencyCoin" and not root.locator(".ha-coins[open]").count():
        root.locator(".ha-coins > summary").click()
    root.locator(f"[data-cmd='{index}']").click()


def test_every_legal_command_of_every_decision_is_offered_and_sent_as_is(page: Any):
    from domain.heaven_and_ale import GAME

    page.goto("/")
    for name, (state, seat) in _scenarios().items():
        legal = [c.model_dump(mode="json", exclude={"seat"}) for c in GAME.legal_commands(state, seat)]
        assert legal, name
        view = GAME.view(state, seat)
        page.evaluate(HARNESS, [view, legal, seat])
        expect(page.locator("#ha-harness .ha-track")).to_be_visible()
        assert _reachable(page) == set(range(len(legal))), name
        first_of_type: dict[str, int] = {}
        for i, command in enumerate(legal):
            first_of_type.setdefault(command["type"], i)
        for kind, i in first_of_type.items():
            _click_path(page, legal[i], i)
            page.wait_for_function("n => window.__sent.length === n", arg=len(page.evaluate("window.__sent")) or 1)
            assert page.evaluate("window.__sent.at(-1)") == legal[i], (name, kind)
        if name in ("shed", "disc"):  # the engine's previews are on the buttons
            choices = view[f"{name}_choices"]
            texts = page.locator(f"#ha-harness [data-kind={name}]").all_text_contents()
            assert len(texts) == len(choices) and any("+" in t for t in texts), texts


def test_a_spectator_watches_a_base_game_of_bots_offered_nothing_and_steps_back(page: Any, web_server: WebServer):
    host = register_player(web_server, "Host")  # games with bots need a player token (rate limits)
    with web_server.api() as client:
        created = client.post("/games", json={"game": "heaven-and-ale", "options": {"rounds": 1}, "seed": "ha-watch",
                                              "seats": [{"bot": "random"}, {"bot": "random"}]},
                              headers={"Authorization": f"Bearer {host['token']}"})
        assert created.status_code == 201, created.text
        gid = created.json()["game_id"]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/#/game/{gid}")
    expect(page.locator(".game")).to_have_attribute("data-status", "scored", timeout=60_000)
    with web_server.api() as client:
        meta = client.get(f"/games/{gid}").json()
    _the_score_sheet_is_drawn_once_with(page, meta["scores"])
    assert page.locator(".ha .target").count() == 0  # a spectator is offered nothing
    assert page.locator("[data-testid^=ha-delivery]").count() == 0  # no Kegs & More in this game
    head = int(page.locator(".game").get_attribute("data-head"))
    for _ in range(6):  # the history slider: back before the end (the kernel's closing events come last)
        page.keyboard.press("ArrowLeft")
    expect(page.locator(".game")).to_have_attribute("data-version", str(head - 6))
    assert page.locator(".ha .target").count() == 0
    assert not errors, errors
