"""Screenshots of each page of the web client at desktop (1280 px) and phone (375 px) widths, in Debian's
chromium against the embedded service: docs/screenshots/<page>-<width>.png (shown in the README).

Usage: .venv/bin/python bench/web_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from playwright.sync_api import sync_playwright

from tests.web.conftest import CHROMIUM_ARGS, chromium_path, register_player, serve, web_settings


def wait_scored(srv, game_id: str) -> None:
    with srv.api() as client:
        deadline = time.monotonic() + 60
        while client.get(f"/games/{game_id}").json()["status"] != "scored":
            assert time.monotonic() < deadline
            time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    server = serve(web_settings())
    srv = next(server)
    ana = register_player(srv, "Ana")
    with srv.api(ana["token"]) as client:
        live = client.post("/games", json={"game": "tiefenthal", "seed": "shots",
                                           "seats": [{"me": True}, {"bot": "greedy"}]}).json()["game_id"]
        client.post("/games", json={"game": "carcassonne", "seats": [{"me": True}, {}, {"bot": "greedy"}]})
        client.post("/games", json={"game": "heaven-and-ale", "seats": [{"me": True}, {"name": "Bo"}]})
        done = client.post("/games", json={"game": "counter", "seed": "shots", "options": {"target": 9},
                                           "seats": [{"me": True}, {"bot": "random"}]}).json()["game_id"]
        while client.get(f"/games/{done}").json()["status"] == "active":
            client.post(f"/games/{done}/commands", json={"type": "Add", "amount": 3})
            time.sleep(0.3)
    with srv.api() as client:  # someone else's open game, for the lobby
        bo = register_player(srv, "Bo")
        srv.api(bo["token"]).post("/games", json={"game": "carcassonne", "seats": [{"me": True}, {}]})
    wait_scored(srv, done)

    pages = [("start", "/#/", ".card"), ("lobby", "/#/lobby", ".new-game"), ("inbox", "/#/inbox", "#turn-h"),
             ("game", f"/#/game/{live}", "[data-testid=tf-board]"), ("game-end", f"/#/game/{done}", '[data-check="replay"].pass'),
             ("fairness", f"/#/game/{done}", '[data-check="replay"].pass')]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for width, height in ((1280, 900), (375, 812)):
            context = browser.new_context(base_url=srv.url, viewport={"width": width, "height": height})
            context.add_init_script(f"localStorage.setItem('taproom.token', {ana['token']!r});"
                                    "localStorage.setItem('taproom.name', 'Ana');")
            page = context.new_page()
            for name, path, ready in pages:
                page.goto(path)
                page.wait_for_selector(ready)
                page.wait_for_timeout(300)
                if name == "fairness":
                    page.locator(".fairness").scroll_into_view_if_needed()
                # long pages whole; the game pages as a player first sees them
                page.screenshot(path=os.path.join(args.out, f"{name}-{width}.png"),
                                full_page=name in ("start", "lobby", "inbox"))
                print(os.path.join(args.out, f"{name}-{width}.png"))
            context.close()
        browser.close()
    server.close()


if __name__ == "__main__":
    main()
