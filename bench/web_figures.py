"""Web client figures, measured in Debian's chromium against the embedded service on 127.0.0.1.

* time from navigation to an interactive game page (the board drawn and the move buttons there);
* bytes transferred for a game page, first load (empty cache) and again (cached; the server answers 304s);
* per real game, mid-game (a game against a bot played some way in): bytes of a first load (empty cache),
  the same without compression, and a returning player's load (a new visit with the browser's cache: the
  fingerprinted files are not asked for at all, the page itself is revalidated, the game's state is read);
* latency from a move accepted by the server to the other player's page showing it, p50 / p99.

Usage: .venv/bin/python bench/web_figures.py [--moves 120] [--loads 7] [--game-moves 40]
Goals: interactive under 1 s, under 300 KB first load, push p99 under 250 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from playwright.sync_api import sync_playwright

from tests.web.conftest import CHROMIUM_ARGS, chromium_path, register_player, serve, web_settings

# When the page became interactive (the move buttons drawn), on the page's own clock from navigation start.
INTERACTIVE = """
  new MutationObserver((_, observer) => {
    if (document.querySelector('button.command')) { window.__interactive = performance.now(); observer.disconnect(); }
  }).observe(document, { subtree: true, childList: true });
"""

# Record when each version first shows on the page (the clock is the machine's, shared with this script).
SHOWN = """
  window.__shown = {};
  new MutationObserver(() => {
    const g = document.querySelector('.game');
    if (g && !(g.dataset.version in window.__shown)) window.__shown[g.dataset.version] = Date.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-version'], childList: true });
"""


def signed_in(browser, url, player):
    context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 900},
                                  bypass_csp=True)  # its wait_for_function predicates are strings (eval)
    context.add_init_script(f"localStorage.setItem('taproom.token', {player['token']!r});"
                            f"localStorage.setItem('taproom.name', {player['name']!r});")
    return context


def played_some_way(srv, player, game: str, moves: int) -> str:
    """A game of ``game`` against a random bot, ``moves`` of the player's commands in (random legal ones)."""
    rng = random.Random(game)
    with srv.api(player["token"]) as client:
        game_id = client.post("/games", json={"game": game, "seats": [{"me": True}, {"bot": "random"}],
                                              "seed": f"figures-{game}"}).json()["game_id"]
        made, deadline = 0, time.monotonic() + 120
        while made < moves and time.monotonic() < deadline:
            meta = client.get(f"/games/{game_id}").json()
            if meta["status"] not in ("open", "active"):
                break
            legal = [c for c in client.get(f"/games/{game_id}/legal").json()["commands"]
                     if not c["type"].startswith("taproom.")]
            if not legal:
                time.sleep(0.05)  # the bot's turn
                continue
            if client.post(f"/games/{game_id}/commands", json=rng.choice(legal)).status_code == 200:
                made += 1
    return game_id


def page_bytes(browser, url, player, game_id, compressed: bool = True) -> tuple[int, int, int]:
    """(first load, returning load, requests that reached the server on return) of a game page, bytes as
    received (CDP's encodedDataLength: headers and bodies)."""
    context = signed_in(browser, url, player)
    if not compressed:
        context.set_extra_http_headers({"Accept-Encoding": "identity"})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    counted = {"bytes": 0, "requests": 0}

    def finished(event):  # a file from the browser's cache finishes too, with no byte received: not counted
        counted["bytes"] += event["encodedDataLength"]
        counted["requests"] += event["encodedDataLength"] > 0

    cdp.on("Network.loadingFinished", finished)
    page.goto(f"/#/game/{game_id}")
    page.wait_for_selector(".game[data-ready]")
    page.wait_for_load_state("networkidle")
    first = counted["bytes"]
    counted.update(bytes=0, requests=0)
    page.goto("about:blank")
    page.goto(f"/#/game/{game_id}")  # a new visit, the browser's cache kept
    page.wait_for_selector(".game[data-ready]")
    page.wait_for_load_state("networkidle")
    returning, requests = counted["bytes"], counted["requests"]
    context.close()
    return first, returning, requests


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--loads", type=int, default=7)
    parser.add_argument("--game-moves", type=int, default=40, help="the player's moves into each real game")
    args = parser.parse_args()
    server = serve(web_settings())
    srv = next(server)
    ana, bo = register_player(srv, "Ana"), register_player(srv, "Bo")
    with srv.api(ana["token"]) as client:
        game_id = client.post("/games", json={"game": "counter", "options": {"target": 100_000},
                                              "seats": [{"me": True}, {}]}).json()["game_id"]
    with srv.api(bo["token"]) as client:
        client.post(f"/games/{game_id}/join", json={}).raise_for_status()

    real_games = {game: played_some_way(srv, ana, game, args.game_moves)
                  for game in ("carcassonne", "heaven-and-ale", "tiefenthal")}

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)

        weights = {}
        for game, real_id in real_games.items():
            with srv.api(ana["token"]) as client:
                events = client.get(f"/games/{real_id}").json()["version"]
            first_gz, returning_gz, asked = page_bytes(browser, srv.url, ana, real_id)
            first_plain, _, _ = page_bytes(browser, srv.url, ana, real_id, compressed=False)
            weights[game] = (events, first_gz, first_plain, returning_gz, asked)

        # 1. navigation to an interactive game page (fresh context: nothing cached)
        times = []
        for _ in range(args.loads):
            context = signed_in(browser, srv.url, ana)
            context.add_init_script(INTERACTIVE)
            page = context.new_page()
            page.goto(f"/#/game/{game_id}")
            page.wait_for_function("window.__interactive !== undefined")
            times.append(page.evaluate("window.__interactive") / 1000)
            context.close()

        # 2. bytes over the wire (CDP's encodedDataLength: headers and bodies as received)
        context = signed_in(browser, srv.url, ana)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        received = {"bytes": 0}
        cdp.on("Network.loadingFinished", lambda e: received.__setitem__("bytes", received["bytes"] + e["encodedDataLength"]))
        page.goto(f"/#/game/{game_id}")
        page.wait_for_selector("button.command")
        page.wait_for_timeout(500)
        first = received["bytes"]
        received["bytes"] = 0
        page.reload()
        page.wait_for_selector("button.command")
        page.wait_for_timeout(500)
        cached = received["bytes"]
        context.close()

        # 3. push latency: Ana's and Bo's moves as accepted by the server, then seen on Bo's page
        context = signed_in(browser, srv.url, bo)
        context.add_init_script(SHOWN)
        page = context.new_page()
        page.goto(f"/#/game/{game_id}")
        page.wait_for_selector(".game[data-ready]")
        accepted = {}
        with srv.api(ana["token"]) as a, srv.api(bo["token"]) as b:
            for i in range(args.moves):
                client = a if i % 2 == 0 else b
                result = client.post(f"/games/{game_id}/commands", json={"type": "Add", "amount": 1})
                now_ms = time.time() * 1000
                result.raise_for_status()
                version = result.json()["version"]
                accepted[version] = now_ms
                page.wait_for_function("v => v in window.__shown", arg=str(version), timeout=30_000)
        shown = page.evaluate("window.__shown")
        latencies = [shown[str(v)] - t for v, t in accepted.items()]
        context.close()
        browser.close()
    server.close()

    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1/5/15 min)")
    print(f"interactive game page: median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms over {len(times)} fresh loads (goal < 1000 ms)")
    print(f"game page bytes: first load {first / 1024:.1f} KB, cached reload {cached / 1024:.1f} KB (goal < 300 KB)")
    for game, (events, first_gz, first_plain, returning_gz, asked) in weights.items():
        print(f"{game} page at version {events}: first load {first_gz / 1024:.1f} KB "
              f"(uncompressed {first_plain / 1024:.1f} KB), returning {returning_gz / 1024:.1f} KB "
              f"({asked} requests reached the server)")
    print(f"move accepted -> other player's page: p50 {percentile(latencies, 50):.0f} ms, "
          f"p99 {percentile(latencies, 99):.0f} ms, max {max(latencies):.0f} ms over {len(latencies)} moves "
          f"(goal p99 < 250 ms)")


if __name__ == "__main__":
    main()
