"""The HTTP API over the whole running pipeline (fakeredis, then the real Redis)."""

from __future__ import annotations

import asyncio
import threading
import time
from contextlib import AsyncExitStack, contextmanager

import httpx
import pytest

from services.adapters.api.routers.games import SSE_KEEPALIVE_SECONDS

from .conftest import until_taken

pytestmark = pytest.mark.cluster  # the real-Redis variants run on the Redis Cluster too (tests/services/conftest.py)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_for(api, path: str, headers=None, until=lambda body: True, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while True:
        body = api.get(path, headers=headers).json()
        if until(body) or time.monotonic() > deadline:
            return body
        time.sleep(0.02)


def settled(api, response, headers=None, timeout: float = 120.0):
    """``response``, or, when it is a 202 (the command still queued after the short wait, which a loaded
    machine's processor can miss: the API's contract, not an error), the answer of its ``poll`` address once
    the command is decided there: the outcome for a command, the game's view for a created game (404 until
    the processor creates it) or a join. ``timeout`` bounds a hang; it times nothing."""
    if response.status_code != 202:
        return response
    poll = response.json()["poll"]
    deadline = time.monotonic() + timeout
    while True:
        answer = api.get(poll, headers=headers)
        if answer.status_code not in (202, 404) or time.monotonic() > deadline:
            return answer
        time.sleep(0.02)


def player_token(api, name: str = "host") -> str:
    response = api.post("/players", json={"name": name})
    assert response.status_code == 201, response.text
    return response.json()["token"]


def new_game(api, seats=None, target=10, seed="s1"):
    seats = seats or [{"name": "ann"}, {"name": "bob"}]
    # games with bots need a player token
    headers = bearer(player_token(api)) if any(s.get("bot") for s in seats) else None
    body = {"game": "counter", "options": {"target": target}, "seats": seats, "seed": seed}
    response = until_taken(lambda: api.post("/games", headers=headers, json=body))
    assert response.status_code in (201, 202), response.text
    created = response.json()
    view = settled(api, response)  # a 202: still queued after the short wait (a loaded machine)
    if response.status_code == 202:  # the 201's own fields, from the game once created
        assert view.status_code == 200, view.text
        created |= {"version": view.json()["version"], "seed_commitment": view.json()["seed_commitment"]}
    return created


def test_health_types_docs_metrics(api):
    assert api.get("/health").json() == {"status": "ok", "redis": "ok"}
    assert any(t["id"] == "counter" for t in api.get("/games/types").json())
    assert api.get("/docs").status_code == 200
    assert "/games/{game_id}/commands" in api.get("/openapi.json").json()["paths"]
    api.get("/health")
    assert "taproom_http_requests_total" in api.get("/metrics").text


def test_create_view_play_and_history(api):
    game = new_game(api)
    ann, bob = (s["token"] for s in game["seats"])
    assert ann and bob and ann != bob
    view = wait_for(api, f"/games/{game['game_id']}/view", bearer(ann), lambda b: b.get("version", 0) >= 3)
    assert view["seat"] == 0 and view["to_act"] == [0] and view["board"]["total"] == 0
    legal = api.get(f"/games/{game['game_id']}/legal", headers=bearer(ann)).json()
    assert [c.get("amount") for c in legal["commands"]] == [1, 2, 3, None]
    assert legal["commands"][-1] == {"type": "taproom.Resign"}  # the kernel's, after the game's
    response = api.post(f"/games/{game['game_id']}/commands", headers=bearer(ann),
                        json={"command_id": "m1", "type": "Add", "amount": 2})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "accepted" and body["version"] == 5
    assert [e["type"] for e in body["events"]] == ["Added", "CardDealt"]
    assert body["events"][1]["payload"]["card"] != "hidden"  # the mover sees their own card
    history = api.get(f"/games/{game['game_id']}/events", params={"after": 3}, headers=bearer(bob)).json()
    assert history["events"][1]["payload"]["card"] == "hidden"  # another seat does not
    at = api.get(f"/games/{game['game_id']}/at/3").json()
    assert at["version"] == 3 and at["board"]["total"] == 0


def test_views_are_at_the_head_of_the_log_while_the_projector_lags(api, service):
    """A page refreshes when its stream delivers an event: the view it then reads must include that event,
    even before the projector has folded it (else the page stays a version behind until the next move)."""
    game = new_game(api)
    gid, (ann, bob) = game["game_id"], (s["token"] for s in game["seats"])
    projected = wait_for(api, f"/games/{gid}", until=lambda b: b.get("version", 0) >= 3)
    service.projector.handle_entries = lambda shard, entries: None  # the projector falls behind from here
    answer = api.post(f"/games/{gid}/commands", headers=bearer(ann), json={"type": "Add", "amount": 2})
    assert answer.status_code == 200, answer.text
    head = answer.json()["version"]
    assert head > projected["version"]
    public = api.get(f"/games/{gid}").json()
    assert public["version"] == head and public["board"]["total"] == 2
    for token in (ann, bob):
        seat_view = api.get(f"/games/{gid}/view", headers=bearer(token)).json()
        legal = api.get(f"/games/{gid}/legal", headers=bearer(token)).json()
        assert seat_view["version"] == legal["version"] == head and seat_view["to_act"] == [1]


def test_what_the_end_reveals_is_revealed_once_a_view_says_scored_while_the_projector_lags(api, service):
    """A page that sees the game scored asks for the revealed history and the verdict at once: they must not
    answer from a summary the projector has not brought to the end yet."""
    game = new_game(api, target=4)
    gid, (ann, bob) = game["game_id"], [s["token"] for s in game["seats"]]
    wait_for(api, f"/games/{gid}", until=lambda b: b.get("version", 0) >= 3)
    service.projector.handle_entries = lambda shard, entries: None  # the projector falls behind from here
    for token, amount in ((ann, 3), (bob, 3)):
        assert api.post(f"/games/{gid}/commands", headers=bearer(token),
                        json={"type": "Add", "amount": amount}).status_code == 200
    assert wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "scored")["status"] == "scored"
    history = api.get(f"/games/{gid}/events", headers=bearer(ann)).json()["events"]
    assert [e["payload"]["card"] for e in history if e["type"] == "CardDealt"].count("hidden") == 0
    verdict = api.get(f"/games/{gid}/verify").json()
    assert verdict["status"] == "scored" and verdict["seed"] and verdict["ok"], verdict


def test_players_join_open_seats_and_the_inbox_lists_their_turn_first(api):
    ann = api.post("/players", json={"name": "Ann"}).json()
    game = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 30}, "seats": [{"me": True}, {}], "seed": "x"}).json()
    gid = game["game_id"]
    lobby = wait_for(api, "/lobby", until=lambda b: any(g["game_id"] == gid for g in b["open"]))
    assert any(g["game_id"] == gid for g in lobby["open"])
    bob = api.post("/players", json={"name": "Bob"}).json()
    joined = api.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={})
    assert joined.status_code == 200 and joined.json()["seat"] == 1 and joined.json()["token"] is None
    full = api.post(f"/games/{gid}/join", json={"name": "Late"})
    # The lobby's projection may not show the game full yet: then the processor refuses the join (the game began)
    assert full.status_code == 409 and full.json()["code"] in ("no_open_seat", "seat_taken", "game_not_active")
    inbox = wait_for(api, "/inbox", bearer(ann["token"]), lambda b: bool(b["awaiting"]))
    assert [g["game_id"] for g in inbox["awaiting"]] == [gid]
    other = wait_for(api, "/inbox", bearer(bob["token"]), lambda b: bool(b["others"]))
    assert other["awaiting"] == [] and other["others"][0]["game_id"] == gid
    assert api.post(f"/games/{gid}/commands", headers=bearer(ann["token"]), json={"type": "Add", "amount": 1}).status_code == 200


def test_guest_joins_with_a_seat_token(api):
    game = new_game(api, seats=[{"name": "ann"}, {}])
    joined = api.post(f"/games/{game['game_id']}/join", json={"name": "guest"})
    assert joined.status_code == 200
    token = joined.json()["token"]
    view = wait_for(api, f"/games/{game['game_id']}/view", bearer(token), lambda b: b["status"] == "active")
    assert view["seat"] == 1 and view["status"] == "active"


def _version(api, gid):
    return wait_for(api, f"/games/{gid}", until=lambda b: "version" in b)["version"]


@pytest.mark.parametrize("case", ["malformed_json", "unknown_game", "wrong_token", "other_seat", "not_your_turn",
                                  "illegal", "stale", "oversized", "unknown_type", "no_token"])
def test_bad_input_gets_its_code_and_changes_nothing(api, case):
    game = new_game(api)
    gid = game["game_id"]
    ann, bob = (s["token"] for s in game["seats"])
    wait_for(api, f"/games/{gid}", until=lambda b: b.get("version") == 3)
    url = f"/games/{gid}/commands"
    if case == "malformed_json":
        r = api.post(url, headers={**bearer(ann), "content-type": "application/json"}, content=b"{not json")
        expected = (400, "malformed_json")
    elif case == "unknown_game":
        r = api.post("/games", json={"game": "chess", "seats": [{"name": "a"}]})
        expected = (400, "unknown_game")
    elif case == "wrong_token":
        r = api.post(url, headers=bearer("forged"), json={"type": "Add", "amount": 1})
        expected = (401, "unauthorized")
    elif case == "no_token":
        r = api.post(url, json={"type": "Add", "amount": 1})
        expected = (401, "unauthorized")
    elif case == "other_seat":
        r = api.post(url, params={"seat": 1}, headers=bearer(ann), json={"type": "Add", "amount": 1})
        expected = (403, "not_your_seat")
    elif case == "not_your_turn":
        r = api.post(url, headers=bearer(bob), json={"type": "Add", "amount": 1})
        expected = (409, "not_your_turn")
    elif case == "illegal":
        r = api.post(url, headers=bearer(ann), json={"type": "Add", "amount": 7})
        expected = (422, "illegal_move")
    elif case == "stale":
        r = api.post(url, headers=bearer(ann), json={"type": "Add", "amount": 1, "expected_version": 2})
        expected = (409, "stale_version")
    elif case == "unknown_type":
        r = api.post(url, headers=bearer(ann), json={"type": "Castle"})
        expected = (422, "invalid_command")
    else:
        r = api.post(url, headers=bearer(ann), content=b'{"type": "Add", "pad": "' + b"x" * 70_000 + b'"}')
        expected = (413, "body_too_large")
    assert (r.status_code, r.json()["code"]) == expected, r.text
    assert r.json()["message"]
    assert _version(api, gid) == 3


def test_unknown_game_id_is_404(api):
    r = api.get("/games/doesnotexist")
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"


def test_chosen_seed_refused_unless_development(api, service):
    service.settings  # the fixture allows it; a production settings object does not
    from fastapi.testclient import TestClient

    from services.adapters.api.app import create_app
    from services.infrastructure.settings import Settings

    strict = Settings(**{**service.settings.model_dump(), "allow_client_seed": False})
    with TestClient(create_app(service.clients(), strict, service.queue_clients())) as client:
        r = client.post("/games", json={"game": "counter", "seats": [{"name": "a"}], "seed": "mine"})
    assert r.status_code == 422 and r.json()["code"] == "seed_not_allowed"


def test_a_bot_game_finishes_scores_and_reveals_the_seed_only_at_the_end(api):
    game = new_game(api, seats=[{"bot": "random"}, {"bot": "random"}], target=12)
    gid = game["game_id"]
    seen = []
    while True:
        body = api.get(f"/games/{gid}").json()
        seen.append(body)
        if body.get("status") == "scored":
            break
        assert len(seen) < 500, "the bot game did not finish"
        time.sleep(0.02)
    assert all("seed" not in b for b in seen if b.get("status") != "scored")
    final = seen[-1]
    assert {s["seat"] for s in final["scores"]} == {0, 1} and final["places"]
    import hashlib

    assert hashlib.sha256(bytes.fromhex(final["seed"])).hexdigest() == game["seed_commitment"]
    history = api.get(f"/games/{gid}/events").json()["events"]
    assert history[-1]["type"] == "taproom.SeedRevealed"
    assert all(e["payload"].get("card") != "hidden" for e in history)  # revealed after the end
    with api.stream("GET", f"/games/{gid}/stream", params={"after": 0}) as s:  # ends by itself: the game is over
        text = "".join(s.iter_text())
    assert text.startswith(": connected\n\n") and text.endswith(
        'event: end\ndata: {"reason":"game_over","reconnect":false,"last_event_id":%d}\n\n' % len(history))
    assert text.count("event: game_event") == len(history) and '"card":"hidden"' not in text.replace(" ", "")
    with api.stream("GET", f"/games/{gid}/stream") as s:  # from the head of a finished game: just the end
        assert "".join(s.iter_text()) == (': connected\n\nevent: end\ndata: {"reason":"game_over","reconnect":false,'
                                          '"last_event_id":%d}\n\n' % len(history))


def test_seed_and_private_cards_never_reach_clients_before_the_end(api):
    game = new_game(api, target=50)
    gid = game["game_id"]
    ann, bob = (s["token"] for s in game["seats"])
    api.post(f"/games/{gid}/commands", headers=bearer(ann), json={"type": "Add", "amount": 1})
    wait_for(api, f"/games/{gid}", until=lambda b: b.get("version") == 5)
    seed_hex = None
    texts = [api.get(f"/games/{gid}").text, api.get(f"/games/{gid}/view", headers=bearer(bob)).text,
             api.get(f"/games/{gid}/events", headers=bearer(bob)).text, api.get(f"/games/{gid}/events").text,
             api.get(f"/games/{gid}/at/5", headers=bearer(bob)).text, api.get("/lobby").text]
    with api.stream("GET", f"/games/{gid}/stream", params={"after": 0, "timeout": 0.5}, headers=bearer(bob)) as s:
        texts.append("".join(s.iter_text()))
    ann_view = api.get(f"/games/{gid}/view", headers=bearer(ann)).json()
    card = ann_view["board"]["my_cards"][0]
    for text in texts:
        assert '"seed"' not in text and f'"card":{card}' not in text.replace(" ", "")
    assert "game_event" in texts[-1] and '"card":"hidden"' in texts[-1].replace(" ", "")
    assert seed_hex is None


def test_a_game_can_choose_a_pace_and_a_bad_pace_is_refused(api):
    game = api.post("/games", json={"game": "counter", "seats": [{"name": "a"}, {"name": "b"}], "pace": "1d"})
    assert game.status_code == 201, game.text
    meta = wait_for(api, f"/games/{game.json()['game_id']}", until=lambda b: b.get("version") == 3)
    assert meta["pace"]["on_timeout"] == "autopilot" and all(s["away"] is None for s in meta["seats"])
    bad = api.post("/games", json={"game": "counter", "seats": [{"name": "a"}], "pace": "1 fortnight"})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_options"
    bad_level = api.post("/games", json={"game": "counter", "seats": [{"name": "a"}],
                                         "pace": {"per_move_seconds": 60, "autopilot_level": "genius"}})
    assert bad_level.status_code == 422


def test_a_create_still_queued_answers_202_with_its_tokens(settings):
    """With no processor running the create stays queued: the seat tokens come with the 202."""
    import fakeredis
    from fastapi.testclient import TestClient

    from services.adapters.api.app import create_app

    slow = settings.model_copy(update={"command_wait_seconds": 0.05})
    with TestClient(create_app(fakeredis.FakeRedis(), slow)) as client:
        r = client.post("/games", json={"game": "counter", "seats": [{"name": "a"}, {"name": "b"}]})
    assert r.status_code == 202
    body = r.json()
    assert body["status"] == "queued" and body["poll"] == f"/games/{body['game_id']}"
    assert all(seat["token"] for seat in body["seats"])


@contextmanager
def served(app):
    """``app`` on a real uvicorn on 127.0.0.1 (its own thread and event loop): streaming and worker threads as
    in production, which the in-process test transports do not give."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}", loop
    finally:
        server.should_exit = True
        thread.join(10)
        pending = asyncio.all_tasks(loop)  # fakeredis ends a cancelled blocking read in a task of its own
        if pending:
            loop.run_until_complete(asyncio.wait(pending, timeout=5))
        loop.close()


async def _worker_threads_in_use() -> int:
    import anyio.to_thread

    return anyio.to_thread.current_default_thread_limiter().borrowed_tokens


async def _read_until(chunks, marker: bytes, seen: bytes = b"") -> bytes:
    while marker not in seen:
        seen += await anext(chunks)
    return seen


def test_open_streams_hold_no_worker_thread(service, clients, settings):
    """60 idle SSE pages (more than the 40 worker threads): sync routes still answer, every page gets the move,
    and closed pages end their streams."""
    from services.adapters.api.app import create_app

    app = create_app(clients(), settings, clients.queue())
    ctx = app.state.context
    pages = 60
    # A page's stream may be silent for up to SSE_KEEPALIVE_SECONDS (then says ": keep-alive"): a reader
    # that gives up sooner fails on a loaded machine, where the move reaches the 60 pages slowly.
    patience = httpx.Timeout(10, read=SSE_KEEPALIVE_SECONDS + 30)
    with served(app) as (base, loop):
        with httpx.Client(base_url=base, timeout=10) as http:
            game = new_game(http)
            gid, ann = game["game_id"], game["seats"][0]["token"]
            wait_for(http, f"/games/{gid}", until=lambda b: b.get("version") == 3)

        async def scenario() -> list[bytes]:
            async with httpx.AsyncClient(base_url=base, timeout=patience,
                                         limits=httpx.Limits(max_connections=pages + 10)) as client:
                async with AsyncExitStack() as stack:
                    streams = [await stack.enter_async_context(client.stream("GET", f"/games/{gid}/stream"))
                               for _ in range(pages)]
                    chunks = [s.aiter_raw() for s in streams]
                    seen = [await _read_until(c, b": connected\n\n") for c in chunks]
                    assert ctx.open_streams == pages
                    in_use = asyncio.run_coroutine_threadsafe(_worker_threads_in_use(), loop).result(5)
                    assert in_use == 0  # idle streams wait on the event loop, not in the thread pool
                    # sync routes (worker threads) answer while every page is open (they hung before)
                    assert (await client.get("/health")).json()["status"] == "ok"
                    assert (await client.get(f"/games/{gid}")).json()["version"] == 3
                    moved = await client.post(f"/games/{gid}/commands", headers=bearer(ann),
                                              json={"type": "Add", "amount": 1})
                    # 202: still queued after the short wait (a loaded machine): the pages get it when it is applied
                    assert moved.status_code in (200, 202), moved.text
                    seen = [await _read_until(c, b"id: 5\n", s) for c, s in zip(chunks, seen)]
                return seen

        texts = asyncio.run(scenario())
        for text in texts:
            assert b"id: 4\nevent: game_event\ndata: " in text and b'"card":"hidden"' in text.replace(b" ", b"")
        deadline = time.monotonic() + 10  # the pages are closed: their streams stop
        while ctx.open_streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ctx.open_streams == 0


def test_games_load_side_by_side_and_are_kept_nowhere(fake_client, settings):
    """A game whose load is stuck does not hold up another game; a second load of the same game folds it again
    (no API process keeps a record: what it answers is never older than the log)."""
    from services.adapters.api.deps import Context

    from .helpers import Kernel

    kernel = Kernel(fake_client, settings)
    slow_game, other_game = kernel.create(), kernel.create()
    ctx = Context(fake_client, settings)
    entered, release, calls = threading.Event(), threading.Event(), []
    real_read_raw = ctx.store.read_raw

    def read_raw(game_id, *args, **kwargs):
        calls.append(game_id)
        if game_id == slow_game and calls.count(slow_game) == 1:  # the first load of slow_game hangs
            entered.set()
            assert release.wait(30)
        return real_read_raw(game_id, *args, **kwargs)

    ctx.store.read_raw = read_raw
    results: dict[str, int] = {}

    def load(name: str, game_id: str) -> threading.Thread:
        thread = threading.Thread(target=lambda: results.__setitem__(name, ctx.with_record(game_id, lambda r, v: v)),
                                  daemon=True)
        thread.start()
        return thread

    try:
        first = load("first", slow_game)
        assert entered.wait(5)
        other = load("other", other_game)
        other.join(5)
        assert not other.is_alive() and results["other"] == kernel.store.head(other_game)[0]
        second = load("second", slow_game)
        second.join(5)
        assert not second.is_alive() and calls.count(slow_game) == 2  # folded again, not waiting on the first
    finally:
        release.set()
    first.join(5)
    assert results["first"] == results["second"] == kernel.store.head(slow_game)[0]


def test_the_async_twin_is_on_the_same_server(client, prefix):
    """The SSE streams' asyncio client sees what the sync client writes (same server, same database)."""
    import fakeredis

    from services.adapters.api.aio import async_twin

    async def read(sync):
        twin = async_twin(sync)
        try:
            return await twin.get(f"{prefix}k")
        finally:
            await twin.aclose()

    for sync in (client, fakeredis.FakeRedis()):  # the second finds its in-process server by host and port
        sync.set(f"{prefix}k", b"v")
        assert asyncio.run(read(sync)) == b"v"


@pytest.mark.integration
def test_a_connection_closed_under_a_command_is_an_outage_not_a_crash():
    """Another request closing the twin's connection between its connected check and its write (redis-py's
    cluster client closes them all in a failover) reads as ``ConnectionError``: the API's 503, not a 500."""
    import redis

    from services.adapters.api.aio import async_twin

    from .conftest import real_redis

    async def closed_under_the_write() -> None:
        twin = async_twin(real_redis())
        connection = twin.connection_pool.make_connection()
        await connection.connect()

        async def another_task_closes_it() -> None:  # where the check of the connection's health would yield
            await connection.disconnect()

        connection.check_health = another_task_closes_it
        connection.health_check_interval = 30  # the checked write (an idle socket's is synchronous: no race)
        try:
            with pytest.raises(redis.ConnectionError, match="closed under the command"):
                await connection.send_command("PING")
            del connection.check_health
            await connection.send_command("PING")  # and the next command connects again
            assert await connection.read_response() == b"PONG"
        finally:
            await connection.disconnect()
            await twin.aclose()

    asyncio.run(closed_under_the_write())
