"""Browser-test fixtures, shared with the board modules' tests.

* ``web_server``: the whole service (API, processor, projector, reactor, workers) embedded in this process on
  an in-process Redis, served by uvicorn on a free port of 127.0.0.1; one per test session. Client seeds are
  allowed (development setting) and the fixture game ``counter`` is registered next to the real games.
* ``browser`` (one per test module): Debian's chromium driven by Playwright (never Playwright's own browser download). Without
  chromium or the ``playwright`` package the browser tests are skipped locally and **fail** when ``CI`` is
  set, like the Redis integration tests.
* ``page``: a fresh browser context (its own localStorage) and page, with ``base_url`` set, so
  ``page.goto("/")`` works; ``new_page()`` opens more contexts (two players of one game).
* ``api``: an httpx client on the server, for setting up games without clicking.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
import uuid
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

import fakeredis
import httpx
import pytest

from domain.core import register
from services.infrastructure.clock import ShiftedClock
from services.infrastructure.settings import Settings
from tests.fixture_game import COUNTER

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def chromium_path() -> str | None:
    return os.environ.get("TAPROOM_CHROMIUM") or shutil.which("chromium") or (
        "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI runs the browser tests: {reason}")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class WebServer:
    url: str
    settings: Settings
    client: Any  # a redis client on the embedded server
    clock: ShiftedClock  # the service's clock: tests move it forward (and put it back), never wait for it

    def api(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=15)


# Every browser, test and script here talks from 127.0.0.1, so the per-address limits of a public server
# would trip in the first minute; these raise them (settings the service does not know are ignored).
# Every rate limit the settings have, so a new one (create_game_per_address tripped the whole browser suite
# once its games outgrew 60 an hour) is raised too.
GENEROUS_LIMITS: dict[str, Any] = {
    **{name: "100000/minute" for name in Settings.model_fields if name.startswith("rate_limit_")},
    "max_bot_games_per_player": 10000, "max_streams_per_caller": 10000, "max_streams_per_address": 10000,
}


COMMAND_WAIT_SECONDS = 30.0
"""How long a request waits for its command's outcome before answering 202: long, as in tests/services (the
processor is a thread of the test process, which a loaded machine can hold up for seconds)."""


def web_settings(**overrides: Any) -> Settings:
    prefix = f"w{uuid.uuid4().hex[:6]}:"
    values: dict[str, Any] = dict(redis_url=None, key_prefix=prefix, shards=4, allow_client_seed=True,
                                  rq_queue=f"q-{prefix.strip(':')}", command_wait_seconds=COMMAND_WAIT_SECONDS, lease_ms=2000,
                                  **GENEROUS_LIMITS)
    values.update(overrides)
    return Settings(**values)


def serve(settings: Settings) -> Generator[WebServer, None, None]:
    """Run the embedded service and its HTTP API on a free port until the generator is closed."""
    import uvicorn

    from services.adapters.api.app import create_app
    from services.adapters.runtime import Service
    from services.infrastructure.bootstrap import client_factory

    register(COUNTER)
    clients = client_factory(settings, fakeredis.FakeServer())
    clock = ShiftedClock()
    service = Service(settings, clients, workers=2, clock=clock).start()
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(clients(), settings, clock=clock), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="taproom-web-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the test web server did not start"
        time.sleep(0.05)
    try:
        yield WebServer(f"http://127.0.0.1:{port}", settings, clients(), clock)
    finally:
        server.should_exit = True
        thread.join(10)
        service.stop()


@pytest.fixture(scope="session")
def web_server() -> Iterator[WebServer]:
    yield from serve(web_settings())


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # Module scope: Playwright's sync API keeps an event loop running on this thread while it is open, and
    # asyncio.run() in any test that ran meanwhile would fail; one module's tests share one browser.
    executable = chromium_path()
    if executable is None:
        _missing("no chromium (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_page(browser: Any, web_server: WebServer) -> Iterator[Callable[..., Any]]:
    """``new_page(width=1280, height=900)``: a page in a fresh context (its own storage), closed after the test."""
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 900) -> Any:
        context = browser.new_context(base_url=web_server.url, viewport={"width": width, "height": height})
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Callable[..., Any]) -> Any:
    return new_page()


@pytest.fixture
def api(web_server: WebServer) -> Iterator[httpx.Client]:
    with web_server.api() as client:
        yield client


def register_player(server: WebServer, name: str) -> dict[str, Any]:
    with server.api() as client:
        created = client.post("/players", json={"name": name})
        assert created.status_code == 201, created.text
        return created.json()


def sign_in(page: Any, player: dict[str, Any]) -> None:
    """Put a player's token into the page's storage, as the sign-in link does."""
    page.goto(f"/#/signin/{player['token']}?name={player['name']}&player={player['player_id']}")
    page.wait_for_url("**/#/inbox")


@dataclass
class BotTable:
    """A game a fresh player plays against bots, open in a signed-in page that records its script errors."""
    player: dict[str, Any]
    game_id: str
    page: Any
    errors: list[str]


def open_game_against_bots(web_server: WebServer, new_page: Callable[..., Any], game: str, options: dict[str, Any],
                           seed: str, bots: tuple[str, ...] = ("random",), name: str = "Ana") -> BotTable:
    """The start every board's click-through test shares: register, create (me + bots), sign in, open the game."""
    player = register_player(web_server, name)
    with web_server.api(player["token"]) as client:
        created = client.post("/games", json={"game": game, "options": options, "seed": seed,
                                              "seats": [{"me": True}, *({"bot": level} for level in bots)]})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
    page = new_page(1280, 900)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, player)
    page.goto(f"/#/game/{game_id}")
    return BotTable(player, game_id, page, errors)


def unworded_events(page: Any, game_id: str, board: str) -> list[str]:
    """The types of the game's own events (kernel ``taproom.*`` ones aside) in its whole history that the board
    module ``boards/<board>.js`` leaves to the frame's generic wording (its ``describe`` answers null): each
    should read as a sentence of the game's, not "turn began (seat 0)"."""
    return page.evaluate("""async ([gameId, board]) => {
        const m = await import(`/static/boards/${board}.js`);
        const history = await (await fetch(`/games/${gameId}/events?after=0&limit=5000`)).json();
        const missing = new Set();
        for (const e of history.events) {
            if (!e.type.startsWith("taproom.") && m.describe(e, {}) == null) missing.add(e.type);
        }
        return [...missing].sort();
    }""", [game_id, board])
