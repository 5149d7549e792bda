"""Each game in German, in Chromium with a German browser (locale de-DE, the page's language set to "de"): play
into the game by clicking what the board highlights and, after every move, read the board (its text, tips and
labels), the action bar's prompt and buttons, and the move log's sentences; then the how-to-play page. It fails
on a string the catalog lacks (the machinery's strict mode records it in ``window.__I18N_MISSING__``) and on an
English word of the game's own interface: a word that occurs in the English strings (the boards' msgids, the
engine's words, the English guide) and nowhere in the German ones. Player names and the games' titles are the
allow-list. Beside it, a plain catalog check: every msgid the boards ask for has a German entry, none empty.

``TAPROOM_UPDATE_SCREENSHOTS=1`` writes each game mid-play and its how-to page to ``docs/screenshots/de/``.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, register_player, sign_in
from tests.web.i18n_msgids import GAMES, catalog, code_msgids, engine_msgids

SHOTS = (Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "de"
         if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else None)
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
OPTIONS = {"carcassonne": {"hills_and_sheep": True, "stack_size": 30}, "heaven-and-ale": {"kegs_and_more": True},
           "tiefenthal": {"rounds": 3}}
STEPS = {"carcassonne": 8, "heaven-and-ale": 10, "tiefenthal": 16}
# names and titles, not words of the interface
ALLOWED = {"ana", "bot", "taproom", "heaven", "ale", "carcassonne", "tiefenthal", "kegs", "more"}
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
PLACEHOLDER = re.compile(r"\{\w+\}")
# what the player may click, most specific first (a second step of a choice before its first)
CHOICES = {
    "carcassonne": [".carc-hotspot", "[data-testid=action-bar] [data-action=confirm]:not([disabled])",
                    ".carc-target", "[data-testid=action-bar] [data-action=gather]",
                    "[data-testid=action-bar] [data-action=pass]"],
    # the nearest space first: the game stays in its first rounds (the starting area ends a round)
    "heaven-and-ale": [".ha .target[data-kind=spot]", ".ha .target[data-kind=pick-tile]",
                       ".ha .target[data-kind=slot-colour]", ".ha .target[data-kind=move]",
                       ".ha .target:not([data-kind=slot])", "[data-testid=action-bar] [data-action^=ha-]",
                       ".ha .target[data-kind=slot]"],
    "tiefenthal": [".tf .target[data-kind=space]", ".tf .target[data-kind=die]", ".tf .target[data-kind=pick]",
                   ".tf .target[data-kind=guest]", ".tf .target[data-kind=choice]",
                   "[data-testid=action-bar] [data-action^=tf-]"],
}

pytestmark = pytest.mark.browser


def _words(texts: Any) -> set[str]:
    out: set[str] = set()
    for text in texts:
        if isinstance(text, dict):
            out |= _words(text.values())
        elif isinstance(text, str):
            out |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}
    return out


def _english_only(game: str, extra_en: list[str] = (), extra_de: list[str] = ()) -> set[str]:  # type: ignore[assignment]
    """The words of the game's English strings that no German string of it uses."""
    english = _words([*code_msgids(game), *engine_msgids(game), *extra_en])
    german = _words([*catalog("de", game).values(), *extra_de])
    return english - german - ALLOWED


def _german_page(browser: Any, web_server: WebServer, width: int, height: int) -> Any:
    context = browser.new_context(base_url=web_server.url, viewport={"width": width, "height": height}, locale="de-DE")
    context.set_default_timeout(10_000)
    context.add_init_script("localStorage.setItem('taproom.locale', 'de'); window.__I18N_STRICT__ = true;")
    return context, context.new_page()


def _board_texts(page: Any) -> list[str]:
    """What a player reads of the game's own: the board, its tips and labels, and the action bar's prompt and the
    board's buttons there."""
    texts: list[str] = page.evaluate("""() => {
        const out = [];
        const board = document.querySelector(".board-module");
        if (board) {
            out.push(board.innerText);
            for (const n of board.querySelectorAll("[data-tip], [aria-label], [title]")) {
                for (const a of ["data-tip", "aria-label", "title"]) if (n.getAttribute(a)) out.push(n.getAttribute(a));
            }
        }
        const bar = document.querySelector("[data-testid=action-bar]");
        if (bar) {
            out.push(bar.querySelector("[data-testid=bar-prompt]")?.innerText || "");
            for (const b of bar.querySelectorAll("button[data-action]")) {
                if (!["undo", "send", "unstage"].includes(b.dataset.action)) out.push(b.innerText, b.title || "");
            }
        }
        return out;
    }""")
    return texts


def _log_sentences(page: Any, game_id: str, game: str) -> list[str]:
    """The move log's sentences the board words (the game's own events), as the page shows them in German."""
    sentences: list[str] = page.evaluate("""async ([gameId, game]) => {
        const m = await import(`/static/boards/${game}.js`);
        if (m.wordsReady) await Promise.race([m.wordsReady, new Promise((r) => setTimeout(r, 3000))]);
        const history = await (await fetch(`/games/${gameId}/events?after=0&limit=5000`)).json();
        const shown = [...document.querySelectorAll(".log-list li")].map((li) => li.innerText);
        const mine = history.events.filter((e) => !e.type.startsWith("taproom.")).map((e) => m.describe(e, {}))
            .filter(Boolean);
        return [...mine, ...shown.filter((s) => mine.includes(s))];
    }""", [game_id, game])
    return sentences


def _english(texts: list[str], english_only: set[str]) -> dict[str, str]:
    """Each English word found, with the text it was found in."""
    found: dict[str, str] = {}
    for text in texts:
        for word in _words([text]) & english_only:
            at = re.search(rf"(?i)\b{word}\b", text)
            found.setdefault(word, text[max(0, at.start() - 60):at.end() + 60] if at else text[:120])
    return found


def _missing(page: Any) -> list[str]:
    missing: list[str] = page.evaluate("window.__I18N_MISSING__ || []")
    return missing


def _wait_for_choice_or_end(page: Any, game: str) -> bool:
    selector = ", ".join(CHOICES[game])
    page.wait_for_function("""(sel) => {
        const ended = ["ended", "scored"].includes(document.querySelector(".game")?.dataset.status);
        const free = [...document.querySelectorAll(sel)].some((n) => n.getClientRects().length && !n.disabled);
        return ended || free;
    }""", arg=selector, timeout=30_000)
    return page.locator(".game").get_attribute("data-status") not in ("ended", "scored")


def _click_something(page: Any, game: str, chooser: random.Random) -> None:
    for selector in CHOICES[game]:
        found = page.locator(selector)
        visible = [found.nth(k) for k in range(found.count()) if found.nth(k).is_visible()]
        if not visible:
            continue
        target = visible[0] if "move" in selector else chooser.choice(visible[:6])
        before = int(page.locator(".game").get_attribute("data-version") or 0)
        sends = (target.get_attribute("data-cmd") is not None or target.get_attribute("data-action") is not None
                 or "carc-hotspot" in (target.get_attribute("class") or ""))
        target.click()
        if sends:
            page.wait_for_function("v => +document.querySelector('.game').dataset.version > v", arg=before,
                                   timeout=20_000)
        return


def _open_game(browser: Any, web_server: WebServer, game: str, size: str) -> tuple[Any, Any, str]:
    player = register_player(web_server, "Ana")
    with web_server.api(player["token"]) as client:
        created = client.post("/games", json={"game": game, "options": OPTIONS[game], "seed": f"de-{game}",
                                              "seats": [{"me": True}, {"bot": "random"}]})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
    context, page = _german_page(browser, web_server, *SIZES[size])
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, player)
    page.goto(f"/#/game/{game_id}")
    page.wait_for_selector(".board-module *")
    page.context.errors = errors  # type: ignore[attr-defined]
    return context, page, game_id


def test_every_board_msgid_has_a_german_entry() -> None:
    for game in GAMES:
        german = catalog("de", game)
        wanted = code_msgids(game)
        lacking = [m for m in [*wanted, *engine_msgids(game)] if m not in german]
        assert not lacking, (game, lacking)
        empty = [m for m, v in german.items() if not v or (isinstance(v, dict) and not (v.get("one") and v.get("other")))]
        assert not empty, (game, empty)
        plural_forms = [m for m, kind in wanted.items() if kind == "tn" and not isinstance(german[m], dict)]
        assert not plural_forms, (game, plural_forms)  # a tn() entry holds its plural forms
        # a German entry keeps every placeholder of its msgid (a missing {name} would drop a player's name)
        for msgid, text in german.items():
            for form in (text.values() if isinstance(text, dict) else [text]):
                lost = set(PLACEHOLDER.findall(msgid)) - set(PLACEHOLDER.findall(form)) - {"{count}", "{n}"}
                assert not lost, (game, msgid, lost)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_each_game_reads_in_german_board_prompts_log_and_how_to(browser: Any, web_server: WebServer,
                                                                 game: str, size: str) -> None:
    context, page, game_id = _open_game(browser, web_server, game, size)
    try:
        assert page.evaluate("document.documentElement.lang") == "de"
        english_only = _english_only(game)
        chooser = random.Random(game)
        found: dict[str, str] = {}
        for _ in range(STEPS[game]):
            if not _wait_for_choice_or_end(page, game):
                break
            found |= _english(_board_texts(page), english_only)
            _click_something(page, game, chooser)
        page.wait_for_timeout(300)  # the last redraw (no condition to wait on: the board may have nothing new)
        found |= _english(_board_texts(page), english_only)
        log = _log_sentences(page, game_id, game)
        assert len(log) >= 3, log
        found |= _english(log, english_only)
        if SHOTS is not None:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{game}-{SIZES[size][0]}.png"))
        assert not found, found
        assert not _missing(page), _missing(page)
        assert not page.context.errors, page.context.errors  # type: ignore[attr-defined]

        # the how-to page: the German guide, every section
        page.goto(f"/#/rules/{game}")
        page.wait_for_selector(".howto section[data-section=choices] tbody tr")
        guides = page.evaluate("""async (game) => {
            const strings = (g) => JSON.stringify(g).match(/"(?:[^"\\\\]|\\\\.)*"/g).map((s) => JSON.parse(s));
            const [en, de] = await Promise.all([import(`/static/howto/${game}.js`), import(`/static/howto/${game}.de.js`)]);
            return { en: strings(en.default), de: strings(de.default) };
        }""", game)
        english_only = _english_only(game, guides["en"], guides["de"])
        texts = page.locator(".howto section[data-section]:not([data-section=choices]), .howto tbody").all_inner_texts()
        assert texts and page.locator(".howto h1, .howto h2").first.inner_text() != ""
        assert "Aufbau" in " ".join(texts) or "Spielende" in " ".join(texts)
        assert not _english(texts, english_only), _english(texts, english_only)
        assert not _missing(page), _missing(page)
        if SHOTS is not None:
            page.screenshot(path=str(SHOTS / f"howto-{game}-{SIZES[size][0]}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_tutorial_coach_speaks_german(browser: Any, web_server: WebServer, game: str) -> None:
    """"Learn to play" in German: the coach's words for the decision and its suggested move come from the German
    guide (howto/<game>.de.js), with no English word of the game's."""
    context, page = _german_page(browser, web_server, 1280, 800)
    try:
        page.goto(f"/#/learn/{game}")
        page.fill("#learn-name", "Ana")
        start = page.locator("form:has(#learn-name) button[type=submit]")
        expect(start).to_be_enabled()  # once the guide is in
        start.click()
        page.wait_for_url("**/#/game/*", timeout=30_000)
        advice = page.locator(".coach-advice[data-command]")
        advice.wait_for(timeout=60_000)
        said = advice.inner_text()
        guides = page.evaluate("""async (game) => {
            const strings = (g) => JSON.stringify(g).match(/"(?:[^"\\\\]|\\\\.)*"/g).map((s) => JSON.parse(s));
            const [en, de] = await Promise.all([import(`/static/howto/${game}.js`), import(`/static/howto/${game}.de.js`)]);
            return { en: strings(en.default), de: strings(de.default) };
        }""", game)
        english_only = _english_only(game, guides["en"], guides["de"])
        assert said.strip() and "{" not in said and "undefined" not in said, said
        assert "Vorschlag" in said, said  # the frame's word, then the German guide's move
        assert not _english([said], english_only), (said, _english([said], english_only))
        assert not _missing(page), _missing(page)
    finally:
        context.close()
