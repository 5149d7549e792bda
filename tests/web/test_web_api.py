"""The routes the web client adds: the site at /, stream tickets, the audit verdict, rules notes."""

from __future__ import annotations

import gzip
import re
import time

import orjson

from tests.web.conftest import WebServer, register_player


def finished_counter_game(server: WebServer, token: str) -> str:
    with server.api(token) as client:
        created = client.post("/games", json={"game": "counter", "options": {"target": 3}, "seed": "web-api",
                                              "seats": [{"me": True}]})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        assert client.post(f"/games/{game_id}/commands", json={"type": "Add", "amount": 3}).status_code == 200
        deadline = time.monotonic() + 20
        while client.get(f"/games/{game_id}").json()["status"] != "scored":
            assert time.monotonic() < deadline, "the game was not scored"
            time.sleep(0.1)
    return game_id


def test_site_is_served_at_root_with_its_files(web_server: WebServer):
    with web_server.api() as client:
        page = client.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert page.headers["cache-control"] == "no-cache"  # a new release is seen at the next visit
        # never a 304: one would carry a security policy without the import map's hash, stored over the page's
        again = client.get("/", headers={"If-None-Match": page.headers.get("etag") or '"x"'})
        assert again.status_code == 200 and "'sha256-" in again.headers["content-security-policy"]
        app = re.search(r'<script type="module" src="(/static/js/app\.[0-9a-f]{10}\.js)">', page.text)
        assert app, "the page names its modules by fingerprint"
        registry = client.get("/static/boards/registry.js")
        assert registry.status_code == 200 and "export const BOARDS" in registry.text
        for path in ("/static/js/app.js", "/static/vendor/preact.module.js", "/static/app.css"):
            got = client.get(path)
            assert got.status_code == 200 and got.headers["cache-control"] == "no-cache", path
            again = client.get(path, headers={"If-None-Match": got.headers["etag"]})
            assert again.status_code == 304, path
        missing = client.get("/static/nope.js")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_fingerprinted_files_are_immutable_gzipped_and_mapped_for_every_import(web_server: WebServer):
    with web_server.api() as client:
        page = client.get("/", headers={"Accept-Encoding": "gzip"})
        assert page.headers["content-encoding"] == "gzip"  # httpx reads it back as text
        imports = orjson.loads(re.search(r'<script type="importmap">(.*?)</script>', page.text, re.S).group(1))["imports"]
        plain = client.get("/static/js/api.js").content
        # every module's plain address (what relative imports resolve to) maps to its fingerprinted one
        fingerprinted = imports["/static/js/api.js"]
        assert re.fullmatch(r"/static/js/api\.[0-9a-f]{10}\.js", fingerprinted)
        assert re.fullmatch(r"/static/vendor/preact\.module\.[0-9a-f]{10}\.js", imports["preact"])
        with client.stream("GET", fingerprinted, headers={"Accept-Encoding": "gzip"}) as got:
            raw = b"".join(got.iter_raw())
            assert got.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert got.headers["content-encoding"] == "gzip" and got.headers["vary"] == "Accept-Encoding"
        assert gzip.decompress(raw) == plain and len(raw) < len(plain) / 2
        # a client that takes no gzip gets the bytes as they are
        identity = client.get(fingerprinted, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in identity.headers and identity.content == plain
        # an address with an old hash still answers (an old page), but is not cached for good
        old = client.get(re.sub(r"\.[0-9a-f]{10}\.js$", ".0000000000.js", fingerprinted))
        assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
        worker = client.get("/sw.js", headers={"Accept-Encoding": "gzip"})
        assert worker.headers["service-worker-allowed"] == "/" and "text/javascript" in worker.headers["content-type"]


def test_large_json_answers_are_gzipped_and_command_answers_are_not(web_server: WebServer):
    ana = register_player(web_server, "Ana")
    with web_server.api(ana["token"]) as client:
        types = client.get("/games/types", headers={"Accept-Encoding": "gzip"})
        assert types.headers["content-encoding"] == "gzip" and types.json()
        description = client.get("/games/types/carcassonne/description", headers={"Accept-Encoding": "gzip"})
        assert description.headers["content-encoding"] == "gzip"
        created = client.post("/games", json={"game": "carcassonne", "seats": [{"me": True}, {"bot": "random"}]})
        game_id = created.json()["game_id"]
        view = client.get(f"/games/{game_id}/view", headers={"Accept-Encoding": "gzip"})  # the hot path's read
        assert view.status_code == 200 and view.headers["content-encoding"] == "gzip"
        legal = client.get(f"/games/{game_id}/legal", headers={"Accept-Encoding": "gzip"}).json()["commands"]
        place = next(c for c in legal if c["type"] != "taproom.Undo")
        answer = client.post(f"/games/{game_id}/commands", json=place, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code in (200, 202) and "content-encoding" not in answer.headers
        small = client.get("/health", headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in small.headers  # below a kilobyte: not worth it


def test_stream_ticket_opens_one_game_for_its_seat(web_server: WebServer):
    ana = register_player(web_server, "Ana")
    other = register_player(web_server, "Olga")
    with web_server.api(ana["token"]) as client:
        game_id = client.post("/games", json={"game": "counter", "seats": [{"me": True}, {"name": "Bo"}]}).json()["game_id"]
        second = client.post("/games", json={"game": "counter", "seats": [{"me": True}]}).json()["game_id"]
        ticket = client.post(f"/games/{game_id}/stream-ticket")
        assert ticket.status_code == 200 and ticket.json()["expires_in"] == 60
        value = ticket.json()["ticket"]
        assert value != ana["token"]
    with web_server.api() as anonymous:
        assert anonymous.post(f"/games/{game_id}/stream-ticket").json()["code"] == "unauthorized"
        with anonymous.stream("GET", f"/games/{game_id}/stream", params={"after": 0, "ticket": value,
                                                                          "timeout": 2}) as stream:
            assert stream.status_code == 200
            messages = [orjson.loads(line[6:]) for line in stream.iter_lines() if line.startswith("data: {")]
        events = [m for m in messages if "game_id" in m]  # game_event messages (the stream ends with 'end')
        # the ticket acts as Ana's seat: her own secret card would be visible, and the history arrives in order
        assert [e["version"] for e in events] == list(range(1, len(events) + 1)) and events
        wrong_game = anonymous.get(f"/games/{second}/stream", params={"ticket": value, "timeout": 1})
        assert wrong_game.status_code == 401 and wrong_game.json()["code"] == "unauthorized"
        bogus = anonymous.get(f"/games/{game_id}/stream", params={"ticket": "not-a-ticket", "timeout": 1})
        assert bogus.status_code == 401 and "expired" in bogus.json()["message"]
    with web_server.api(other["token"]) as client:  # no seat here: spectators need no ticket
        refused = client.post(f"/games/{game_id}/stream-ticket")
        assert refused.status_code == 403 and refused.json()["code"] == "not_your_seat"


def test_stream_ticket_expires(web_server: WebServer):
    ana = register_player(web_server, "Ana")
    with web_server.api(ana["token"]) as client:
        game_id = client.post("/games", json={"game": "counter", "seats": [{"me": True}]}).json()["game_id"]
        pattern = f"{web_server.settings.key_prefix}sticket:*"
        before = set(web_server.client.scan_iter(match=pattern))
        value = client.post(f"/games/{game_id}/stream-ticket").json()["ticket"]
    # only this test's ticket: the session's server also holds other tests' tickets, which may lapse meanwhile
    keys = set(web_server.client.scan_iter(match=pattern)) - before
    assert len(keys) == 1 and all(0 < web_server.client.ttl(k) <= 60 for k in keys)
    web_server.client.delete(*keys)  # what expiry does after 60 s
    with web_server.api() as anonymous:
        gone = anonymous.get(f"/games/{game_id}/stream", params={"ticket": value, "timeout": 1})
        assert gone.status_code == 401 and gone.json()["code"] == "unauthorized"


def test_verify_gives_the_servers_verdict(web_server: WebServer):
    ana = register_player(web_server, "Ana")
    game_id = finished_counter_game(web_server, ana["token"])
    with web_server.api() as client:
        verdict = client.get(f"/games/{game_id}/verify").json()
        assert verdict["ok"] and verdict["chain_ok"] and verdict["seed_ok"] and verdict["replay_ok"]
        assert verdict["problems"] == [] and verdict["seed"] and verdict["seed_commitment"]
        assert client.get("/games/nothere/verify").json()["code"] == "game_not_found"


def test_verify_before_the_end_checks_the_chain_only(web_server: WebServer):
    ana = register_player(web_server, "Ana")
    with web_server.api(ana["token"]) as client:
        game_id = client.post("/games", json={"game": "counter", "seats": [{"me": True}]}).json()["game_id"]
        verdict = client.get(f"/games/{game_id}/verify").json()
    assert verdict["chain_ok"] and verdict["seed"] is None and verdict["seed_revealed"] is False
    assert verdict["seed_ok"] is None and verdict["replay_ok"] is None


def test_rules_notes(web_server: WebServer):
    with web_server.api() as client:
        notes = client.get("/games/types/tiefenthal/rules")
        assert notes.status_code == 200 and notes.text.startswith("# ")
        unknown = client.get("/games/types/nosuchgame/rules")
        assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_game"


def test_index_preloads_every_module():
    """index.html lists every module for modulepreload (so a page loads in one round, not one per import level)."""
    from services.web import STATIC_DIR

    index = (STATIC_DIR / "index.html").read_text()
    # a board module and a game's guide (howto/) are loaded when a page needs that game, like the board
    modules = [p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*.js")
               if (p.parent.name not in ("boards", "howto") or p.name == "registry.js")
               and p.name != "sw.js"]  # the service worker is registered, not imported by the page
    assert modules
    for module in modules:
        # a classic script the page names itself (the first requests' prefetch) loads at once as well
        assert f'href="/static/{module}"' in index or f'<script src="/static/{module}"' in index, \
            f"index.html does not preload {module}"
