"""Click to the other board: how long a move clicked on one player's page takes to show on the other's, in a
real browser (Debian's chromium through Playwright).

The service runs embedded in this process (API, processor, projector, reactor, workers; ``tests/web``'s
``serve``) on a private redis-server (``appendfsync always``, as deployed; ``--backend fake`` for the in-process
one). Two browser contexts sit at one ``counter`` game; they take turns: the mover clicks "Add", and the time
runs from the click event on the mover's page to the moment the other page's game frame shows the new version
(a MutationObserver on ``data-version``, which the frame writes in the same commit as the board's redraw). Both
times are the machine's wall clock (``Date.now()``, 1 ms), shared by the two pages.

Besides p50 / p95 / max it prints what the pages asked meanwhile: ``/view`` and ``/legal`` requests (refreshes)
and 429 answers. The rate limits are the service's defaults (every browser here is one address, 127.0.0.1: two
players behind one router); ``--limits generous`` raises them.

Usage: .venv/bin/python bench/click_to_board.py [--samples 40] [--warmup 4] [--backend redis|fake]
Run it from another checkout (``cd ../base && .venv/bin/python ../mine/bench/click_to_board.py``) to measure
that checkout's service and page: the imports come from the working directory.
Target (issue 41): p50 <= 50 ms, p95 <= 100 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

sys.path.insert(0, os.getcwd())  # the checkout being measured (see Usage)

from playwright.sync_api import sync_playwright

from services.infrastructure.settings import Settings
from tests.web.conftest import (
    CHROMIUM_ARGS,
    GENEROUS_LIMITS,
    chromium_path,
    free_port,
    register_player,
    serve,
    web_settings,
)

CLICKED = "document.addEventListener('click', () => { window.__clicked = Date.now(); }, true);"
SHOWN = """
  window.__shown = {};
  new MutationObserver(() => {
    const g = document.querySelector('.game');
    if (g && !(g.dataset.version in window.__shown)) window.__shown[g.dataset.version] = Date.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-version'], childList: true });
"""


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """A redis-server of this run's own on a free loopback port, AOF fsynced on every write (deploy/redis.conf)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not on PATH (or use --backend fake)")
    directory, port = tempfile.mkdtemp(prefix="taproom-click-"), free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", directory, "--save", "",
                             "--appendonly", "yes", "--appendfsync", "always"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=port).ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(directory, ignore_errors=True)


def table(browser: Any, srv: Any) -> tuple[str, list[Any], dict[str, list[Any]]]:
    """Two players at one counter game, each page open on it; and what the pages asked (url) and were answered."""
    ana, bo = register_player(srv, "Ana"), register_player(srv, "Bo")
    with srv.api(ana["token"]) as client:
        game_id = client.post("/games", json={"game": "counter", "options": {"target": 100000},
                                              "seats": [{"me": True}, {}]}).json()["game_id"]
    with srv.api(bo["token"]) as client:
        assert client.post(f"/games/{game_id}/join", json={}).status_code == 200
    seen: dict[str, list[Any]] = {"requests": [], "statuses": []}
    pages = []
    for player in (ana, bo):
        context = browser.new_context(base_url=srv.url, viewport={"width": 1280, "height": 900})
        context.add_init_script(f"localStorage.setItem('taproom.token', {player['token']!r});"
                                f"localStorage.setItem('taproom.name', {player['name']!r});" + CLICKED + SHOWN)
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.on("request", lambda r: seen["requests"].append(r.url))
        page.on("response", lambda r: seen["statuses"].append(r.status))
        page.goto(f"/#/game/{game_id}")
        page.wait_for_selector(".conn.live")
        pages.append(page)
    pages[0].wait_for_selector('.game[data-my-turn="1"]')
    return game_id, pages, seen


def sample(mover: Any, other: Any) -> float:
    """One move: the mover clicks, the other page shows it; milliseconds from the click to the other board."""
    mover.wait_for_selector('.game[data-my-turn="1"] button:has-text("Add: amount 1"):enabled')
    before = int(other.locator(".game").get_attribute("data-version"))
    other.evaluate("window.__shown = {}")
    mover.get_by_role("button", name="Add: amount 1").click()
    other.wait_for_function("v => +document.querySelector('.game').dataset.version > v", arg=before, polling=5)
    clicked = mover.evaluate("window.__clicked")
    shown = other.evaluate("v => Math.min(...Object.entries(window.__shown).filter(([k]) => +k > v)"
                           ".map(([, t]) => t))", before)
    other.wait_for_selector('.game[data-my-turn="1"]')
    return float(shown - clicked)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument("--backend", choices=("redis", "fake"), default="redis")
    parser.add_argument("--limits", choices=("default", "generous"), default="default")
    args = parser.parse_args()
    executable = chromium_path()
    if executable is None:
        raise SystemExit("no chromium (apt-get install -y chromium)")
    limits = GENEROUS_LIMITS if args.limits == "generous" else {
        name: f.default for name, f in Settings.model_fields.items() if name.startswith("rate_limit_")}
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(private_redis()) if args.backend == "redis" else None
        server = serve(web_settings(redis_url=url, **limits))
        srv = next(server)
        stack.callback(server.close)
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        game_id, pages, seen = table(browser, srv)
        for turn in range(args.warmup):
            sample(pages[turn % 2], pages[1 - turn % 2])
        asked = len(seen["requests"]), len(seen["statuses"])
        times = [sample(pages[(args.warmup + i) % 2], pages[1 - (args.warmup + i) % 2]) for i in range(args.samples)]
        refreshes = [u for u in seen["requests"][asked[0]:] if re.search(rf"/games/{game_id}/(view|legal)(\?|$)", u)]
        refused = sum(1 for status in seen["statuses"][asked[1]:] if status == 429)
    print(f"# {os.getcwd()}: {args.samples} samples ({args.warmup} warm-up), backend {args.backend}, "
          f"limits {args.limits}, {os.cpu_count()} cores")
    print(f"click to the other board: p50 {statistics.median(times):.0f} ms, p95 {percentile(times, 95):.0f} ms, "
          f"max {max(times):.0f} ms, mean {statistics.fmean(times):.0f} ms")
    print(f"while sampling: {len(refreshes)} /view or /legal requests "
          f"({len(refreshes) / args.samples:.1f} a move), {refused} answers 429")


if __name__ == "__main__":
    main()
