"""The Carcassonne board module in a real browser: every tile drawn as the engine defines it, and a whole
game with Hills & Sheep played against a bot by clicking only what the page highlights.

``TAPROOM_FULL_CARCASSONNE=1`` plays the full stack instead of the short development stack;
``TAPROOM_UPDATE_SCREENSHOTS=1`` writes the screenshots shown in docs/browser.md to ``docs/``.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from domain.carcassonne.tiles import KIND_NAMES, TILES
from tests.web.conftest import WebServer, open_game_against_bots, unworded_events

pytestmark = pytest.mark.browser
DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOTS = DOCS if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else None

# Sample points in tile units (0..100, north up): each edge's midpoint and each half-edge's middle, just inside.
EDGE_POINTS = {"N": (50, 4), "E": (96, 50), "S": (50, 96), "W": (4, 50)}
HALF_POINTS = {"NL": (25, 5), "NR": (75, 5), "EL": (95, 25), "ER": (95, 75),
               "SL": (75, 95), "SR": (25, 95), "WL": (5, 75), "WR": (5, 25)}
PX = 200  # each tile is drawn 200 px wide, so a tile unit is 2 px

SAMPLE_ALL_TILES = """
async ([points, px, only, mirror]) => {
  const { tileSvg, anchor, turn } = await import("/static/boards/carcassonne-tiles.js");
  const desc = await (await fetch("/games/types/carcassonne/description")).json();
  // a deliberately wrong drawing for the self-check: east and west swapped
  const SWAP = { E: "W", W: "E", NL: "NR", NR: "NL", EL: "WR", WR: "EL", ER: "WL", WL: "ER", SL: "SR", SR: "SL" };
  const flip = (xs) => (xs || []).map((x) => SWAP[x] || x);
  const mirrored = (t) => ({ ...t, river: flip(t.river), features: t.features.map((f) => ({ ...f,
    edges: f.edges && flip(f.edges), shared_edges: f.shared_edges && flip(f.shared_edges), halves: f.halves && flip(f.halves) })) });
  const box = document.createElement("div");
  box.style.cssText = `position:fixed;left:0;top:0;width:${px}px;height:${px}px;z-index:2147483647;background:#fff`;
  document.body.appendChild(box);
  const out = [];
  for (const tile of Object.values(desc.tiles).filter((t) => !only || t.id === only)) {
    for (let r = 0; r < 4; r++) {
      box.replaceChildren(tileSvg(mirror ? mirrored(tile) : tile, r, px));
      const hits = {};
      for (const [name, [x, y]] of Object.entries(points)) {
        const hit = document.elementFromPoint(x * px / 100, y * px / 100);
        const feature = hit && hit.closest("[data-kind]");
        hits[name] = feature ? [feature.dataset.kind, feature.dataset.feature] : null;
      }
      const drawn = [...box.querySelectorAll("[data-kind]")].map((n) => [n.dataset.kind, n.dataset.feature]);
      // where a figure of each feature stands (and its click spot lies) must be on that feature
      const spots = {};
      for (const f of tile.features) {
        const [x, y] = turn(anchor(tile, f), r);
        const hit = document.elementFromPoint(x * px / 100, y * px / 100)?.closest("[data-kind]");
        spots[f.id] = hit ? hit.dataset.feature : null;
      }
      out.push({ tile: tile.id, rotation: r, hits, drawn, spots });
    }
  }
  box.remove();
  return out;
}
"""


def expected(tile: str, rotation: int) -> dict[str, tuple[str, set[str]]]:
    """What the engine says lies at each sample point: a kind and the feature ids allowed there."""
    rt = TILES[tile].rotations[rotation]
    ids = [f.local_id for f in rt.features]
    out: dict[str, tuple[str, set[str]]] = {}
    for e, name in enumerate("NESW"):
        code = rt.edges[e]
        if code == "C":
            if len(rt.cities_at[e]) == 1:  # an edge two cities share is checked by its halves
                out[name] = ("city", {ids[rt.cities_at[e][0]]})
        elif code == "R":
            out[name] = ("road", {ids[rt.road_at[e]]})
        elif code == "I":
            out[name] = ("river", {"river"})
        else:
            out[name] = ("field", {ids[rt.field_at[2 * e]], ids[rt.field_at[2 * e + 1]]})
    for h, name in enumerate(HALF_POINTS):
        if rt.field_at[h] >= 0:
            out[name] = ("field", {ids[rt.field_at[h]]})
        else:
            out[name] = ("city", {ids[i] for i in rt.cities_at[h // 2]})
    monastery = [f for f in rt.features if KIND_NAMES[f.kind] == "monastery"]
    if monastery and not rt.rivers:
        out["centre"] = ("monastery", {monastery[0].local_id})
    return out


def mismatches(drawn: list[dict[str, Any]]) -> list[str]:
    wrong = []
    for entry in drawn:
        features = {(KIND_NAMES[f.kind], f.local_id) for f in TILES[entry["tile"]].rotations[entry["rotation"]].features}
        shown = {tuple(d) for d in entry["drawn"]} - {("river", "river")}
        if shown != features:  # every feature drawn once under its own id and kind, nothing else
            wrong.append(f"{entry['tile']} r{entry['rotation']}: drawn {sorted(shown)}, engine {sorted(features)}")
        misplaced = {f: at for f, at in entry["spots"].items() if at != f}
        if misplaced:  # a figure's spot lies on another feature (the drawn feature there is named)
            wrong.append(f"{entry['tile']} r{entry['rotation']}: figure spots on the wrong feature {misplaced}")
        for name, (kind, allowed) in expected(entry["tile"], entry["rotation"]).items():
            hit = entry["hits"][name]
            if hit is None or hit[0] != kind or hit[1] not in allowed:
                wrong.append(f"{entry['tile']} r{entry['rotation']} {name}: drawn {hit}, engine {kind} {sorted(allowed)}")
    return wrong


POINTS = {**EDGE_POINTS, **HALF_POINTS, "centre": (50, 50)}


def test_every_tile_type_is_drawn_as_the_engine_defines_it_at_every_rotation(page: Any):
    page.goto("/")
    drawn = page.evaluate(SAMPLE_ALL_TILES, [POINTS, PX, None, False])
    assert len(drawn) == 4 * len(TILES)
    wrong = mismatches(drawn)
    assert not wrong, "\n".join(wrong[:30])


@pytest.mark.parametrize("tile", ["I", "J", "HS_CC_V_MULTI", "RV_CITYCURVE"])
def test_the_check_catches_a_mirrored_tile(page: Any, tile: str):
    page.goto("/")
    drawn = page.evaluate(SAMPLE_ALL_TILES, [POINTS, PX, tile, True])
    assert len(drawn) == 4 and all(mismatches([entry]) for entry in drawn)


def _wait_turn_or_end(page: Any) -> str:
    page.wait_for_function("""() => { const g = document.querySelector('.game');
        return g && (g.dataset.myTurn === '1' || ['ended', 'scored', 'abandoned'].includes(g.dataset.status)); }""",
                           timeout=30_000)
    return page.locator(".game").get_attribute("data-status")


def _act(page: Any, action: Any) -> None:
    """Click, then wait for the game to move on (a new version on the page)."""
    before = int(page.locator(".game").get_attribute("data-version"))
    action()
    page.wait_for_function("v => +document.querySelector('.game').dataset.version > v", arg=before, timeout=30_000)


SHORT = {"hills_and_sheep": True, "stack_size": 14}
EVERYTHING = {"hills_and_sheep": True, "river": True, "abbot": True, "stack_size": 8}


@pytest.mark.slow
@pytest.mark.parametrize("options", [SHORT, EVERYTHING], ids=["hills-and-sheep", "river-abbot-hills-and-sheep"])
def test_a_whole_game_against_a_bot_by_clicking_what_is_highlighted(new_page: Any, web_server: WebServer,
                                                                     options: dict[str, Any]):
    if os.environ.get("TAPROOM_FULL_CARCASSONNE"):
        options = {k: v for k, v in options.items() if k != "stack_size"}
    shots = SHOTS if options is SHORT else None
    kinds_seen: set[str] = set()
    table = open_game_against_bots(web_server, new_page, "carcassonne", options, "click-through")
    player, gid, page, errors = table.player, table.game_id, table.page, table.errors
    expect(page.locator(".carc-svg")).to_be_visible()
    chooser = random.Random(11)
    turns = figures = rotations = tended = recalls = 0
    shot_taken = False
    while _wait_turn_or_end(page) == "active":
        if page.locator(".carc-target").count():
            targets = page.locator(".carc-target")
            targets.nth(chooser.randrange(targets.count())).click()
            preview = page.locator("[data-testid=carc-preview] [data-rotation]")
            fitting = page.locator(".carc-target.selected").get_attribute("data-rotations").split()
            assert preview.get_attribute("data-rotation") in fitting
            if len(fitting) > 1:  # rotating goes through the fitting turns only
                seen = {preview.get_attribute("data-rotation")}
                for _ in range(len(fitting) - 1):
                    page.keyboard.press("r") if rotations % 2 else page.click("[data-action=rotate]")
                    seen.add(preview.get_attribute("data-rotation"))
                    rotations += 1
                assert seen == set(fitting)
            _act(page, lambda: page.click("[data-action=confirm]"))
            turns += 1
        elif page.locator("[data-action=recall]").count() and chooser.random() < 0.3:
            _act(page, lambda: page.click("[data-action=recall]"))
            recalls += 1
        elif page.locator(".carc-hotspot").count() or page.locator("[data-action=pass]").count():
            # the board draws its spots in its own update and fills the action bar right after, in one set with
            # "No figure": read the figure buttons once the bar holds it, or the seeded path would fork on timing
            page.wait_for_selector("[data-action=pass]")
            kinds = [k for k in ("shepherd", "abbot", "follower") if page.locator(f"[data-action=figure-{k}]").count()]
            kinds_seen.update(kinds)
            if kinds and chooser.random() < 0.8:
                page.click(f"[data-action=figure-{chooser.choice(kinds)}]")
                spots = page.locator(".carc-hotspot")
                spot = spots.nth(chooser.randrange(spots.count()))
                _act(page, spot.click)
                figures += 1
            else:
                _act(page, lambda: page.click("[data-action=pass]"))
            if not shot_taken and turns >= 5 and shots:
                page.screenshot(path=str(shots / "carcassonne-in-progress.png"))
                page.set_viewport_size({"width": 375, "height": 800})
                page.screenshot(path=str(shots / "carcassonne-phone.png"))
                page.set_viewport_size({"width": 1280, "height": 900})
                shot_taken = True
        elif page.locator("[data-action=gather], [data-action=grow]").count():
            action = "gather" if chooser.random() < 0.5 else "grow"
            if not page.locator(f"[data-action={action}]").count():
                action = "grow" if action == "gather" else "gather"
            _act(page, lambda: page.click(f"[data-action={action}]"))
            tended += 1
        else:
            page.wait_for_timeout(100)  # the legal commands are still on their way
    assert turns >= 5 and figures >= 1
    assert "shepherd" in kinds_seen and ("abbot" in kinds_seen) == bool(options.get("abbot"))
    expect(page.locator(".game")).to_have_attribute("data-status", "scored", timeout=20_000)
    expect(page.locator("[data-testid=carc-status]")).to_have_text("Game over")
    with web_server.api(player["token"]) as client:
        meta = client.get(f"/games/{gid}").json()
    api_scores = [int(s["total"]) for s in sorted(meta["scores"], key=lambda s: s["seat"])]
    assert api_scores == meta["board"]["scores"]
    for seat, score in enumerate(api_scores):
        expect(page.locator(f"[data-testid=carc-score-{seat}]")).to_have_text(str(score))
    described = page.locator("[data-testid=carc-described]")
    expect(described).to_contain_text(f"{len(meta['board']['board'])} tiles on the table")
    assert described.locator("li").count() >= len(meta["board"]["board"])
    assert unworded_events(page, gid, "carcassonne") == []
    assert not errors, errors
    if shots:
        page.locator(".board-area").screenshot(path=str(shots / "carcassonne-finished.png"))
    assert re.search(r"Game over", page.locator("[data-testid=carc-status]").text_content())


def _two_seats_at_the_first_draw(new_page: Any, web_server: WebServer,
                                 seed: str) -> tuple[str, str, list[str], Any, Any]:
    """A new game of Ann and Ben, Ann to place: its id, the drawn tile as Ann's view names it, the seat tokens
    and each seat's page."""
    with web_server.api() as client:
        created = client.post("/games", json={"game": "carcassonne", "options": {"hills_and_sheep": True},
                                              "seed": seed, "seats": [{"name": "Ann"}, {"name": "Ben"}]})
        assert created.status_code == 201, created.text
        body = created.json()
    gid, tokens = body["game_id"], [s["token"] for s in body["seats"]]
    with web_server.api(tokens[0]) as client:
        drawn = client.get(f"/games/{gid}/view").json()["board"]["tile"]
    assert drawn in TILES
    pages = []
    for token in tokens:
        page = new_page(1280, 900)
        page.goto("/")
        page.evaluate("([g, t]) => localStorage.setItem('taproom.seatTokens', JSON.stringify({[g]: t}))", [gid, token])
        page.goto(f"/#/game/{gid}")
        expect(page.locator("[data-testid=carc-drawn]")).to_be_visible()
        pages.append(page)
    ann, ben = pages
    return gid, drawn, tokens, ann, ben


def _can_place(page: Any) -> None:
    expect(page.locator("[data-testid=carc-status]")).to_have_text("Your turn: place the tile")
    assert page.locator(".carc-target").count() > 0
    expect(page.locator("[data-action=rotate]")).to_have_count(1)
    expect(page.locator("[data-action=confirm]")).to_have_count(1)


def _cannot_place(page: Any, web_server: WebServer, gid: str, token: str) -> None:
    expect(page.locator("[data-testid=carc-status]")).to_contain_text("is playing")
    assert page.locator(".carc-target").count() == 0 and page.locator("[data-testid=carc-preview]").count() == 0
    assert page.locator("[data-action=rotate]").count() == 0 and page.locator("[data-action=confirm]").count() == 0
    with web_server.api(token) as client:
        # nothing of the game's: only leaving it (Resign is offered throughout)
        assert client.get(f"/games/{gid}/legal").json()["commands"] == [{"type": "taproom.Resign"}]


def _tile_words(page: Any, tile: str) -> str:
    """The drawn tile's card says what the tile shows in words (the board's tileWords, in the page's language)."""
    words: str = page.evaluate("""async (tile) => {
        const [words, api] = await Promise.all([import("/static/boards/carcassonne-words.js"),
            fetch("/games/types/carcassonne/description").then((r) => r.json())]);
        const text = words.tileWords(api.tiles[tile]);
        return text[0].toUpperCase() + text.slice(1);
    }""", tile)
    return words


def test_every_seat_sees_the_drawn_tile_face_up_and_only_the_seat_to_act_gets_moves(new_page: Any,
                                                                                      web_server: WebServer):
    gid, drawn, tokens, ann, ben = _two_seats_at_the_first_draw(new_page, web_server, "who-sees")
    name = _tile_words(ann, drawn)
    for page in (ann, ben):  # shown around, as at the table: the same face on both pages
        expect(page.locator("[data-testid=carc-drawn]")).to_contain_text(name)
        expect(page.locator(f"[data-testid=carc-drawn] [data-tile='{drawn}']")).to_have_count(1)
        assert "A tile has been drawn" not in page.locator("[data-testid=carc-drawn]").text_content()
    _can_place(ann)
    _cannot_place(ben, web_server, gid, tokens[1])


def test_with_the_hidden_draw_house_rule_the_other_seat_sees_the_tile_face_down(new_page: Any, web_server: WebServer,
                                                                                monkeypatch: pytest.MonkeyPatch):
    from domain.carcassonne import rules

    monkeypatch.setattr(rules, "DRAWN_TILE_PRIVATE", True)  # the service runs in this process: it reads the flag
    gid, drawn, tokens, ann, ben = _two_seats_at_the_first_draw(new_page, web_server, "who-sees-hidden")
    name = _tile_words(ann, drawn)
    expect(ann.locator("[data-testid=carc-drawn]")).to_contain_text(name)
    expect(ann.locator(f"[data-testid=carc-drawn] [data-tile='{drawn}']")).to_have_count(1)
    _can_place(ann)
    expect(ben.locator("[data-testid=carc-drawn]")).to_contain_text("A tile has been drawn")
    assert ben.locator("[data-testid=carc-drawn] [data-tile]").count() == 0  # a face-down tile, no drawing of it
    assert name not in ben.locator("[data-testid=carc-drawn]").text_content()
    _cannot_place(ben, web_server, gid, tokens[1])


def _world(page: Any) -> tuple[float, float, float]:
    transform = page.locator(".carc-svg .world").get_attribute("transform")
    tx, ty, k = (float(v) for v in re.findall(r"-?[\d.]+", transform))
    return tx, ty, k


def test_the_board_pans_and_zooms_and_a_drag_is_not_a_click(page: Any, web_server: WebServer):
    with web_server.api() as client:
        body = client.post("/games", json={"game": "carcassonne", "options": {}, "seed": "pan",
                                           "seats": [{"name": "Ann"}, {"name": "Ben"}]}).json()
    page.goto("/")
    page.evaluate("([g, t]) => localStorage.setItem('taproom.seatTokens', JSON.stringify({[g]: t}))",
                  [body["game_id"], body["seats"][0]["token"]])
    page.goto(f"/#/game/{body['game_id']}")
    target = page.locator(".carc-target").first
    expect(target).to_be_visible()
    box = page.locator(".carc-svg").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    _, _, k0 = _world(page)
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -300)  # wheel up zooms in around the pointer
    assert _world(page)[2] > k0
    tx1, ty1, k1 = _world(page)
    t = target.bounding_box()
    page.mouse.move(t["x"] + t["width"] / 2, t["y"] + t["height"] / 2)
    page.mouse.down()
    page.mouse.move(t["x"] + 80, t["y"] + 60, steps=5)
    page.mouse.up()  # a drag that starts on a target pans and chooses nothing
    tx2, ty2, k2 = _world(page)
    assert (round(tx2 - tx1), round(ty2 - ty1), k2) == (round(80 - t["width"] / 2), round(60 - t["height"] / 2), k1)
    assert page.locator(".carc-target.selected").count() == 0
    page.click("[data-action=zoom-out]")
    assert _world(page)[2] < k1
    page.click("[data-action=fit]")
    target.click()  # a plain click still chooses
    expect(page.locator(".carc-target.selected")).to_have_count(1)
