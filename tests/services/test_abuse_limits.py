"""Limits on one client (issue 16, item 5): each rate refuses with 429 ``rate_limited`` and Retry-After, the caps
refuse with their own codes, and a refused request changes nothing.

The suite's settings raise every limit (see ``relaxed_limits``); these tests lower one at a time.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack, contextmanager

import httpx
import pytest
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.infrastructure.settings import Settings

from .test_api import _read_until, bearer, player_token, served, settled, wait_for

DEFAULTS = {name: field.default for name, field in Settings.model_fields.items()}


@contextmanager
def app_with(service, **limits):
    tight = service.settings.model_copy(update=limits)
    with TestClient(create_app(service.clients(), tight, service.clients.queue())) as client:
        yield client


def assert_rate_limited(response) -> int:
    assert response.status_code == 429, response.text
    assert response.json()["code"] == "rate_limited" and response.json()["message"]
    retry = int(response.headers["Retry-After"])
    assert retry >= 1
    return retry


def counter_game(api, headers=None, seats=None, target=10):
    seats = seats or [{"name": "ann"}, {"name": "bob"}]
    return api.post("/games", headers=headers, json={"game": "counter", "options": {"target": target},
                                                     "seats": seats, "seed": "s"})


def players_stored(service) -> int:
    client = service.clients()
    return sum(1 for _ in client.scan_iter(match=f"{service.settings.key_prefix}player:*"))


def test_registration_is_limited_per_address_at_the_default(service):
    """A single client registers the default number of players, then is refused; the refusal stores nothing."""
    allowed = int(DEFAULTS["rate_limit_register"].split("/")[0])
    with app_with(service, rate_limit_register=DEFAULTS["rate_limit_register"]) as api:
        for i in range(allowed):
            assert api.post("/players", json={"name": f"p{i}"}).status_code == 201
        assert_rate_limited(api.post("/players", json={"name": "one more"}))
    assert players_stored(service) == allowed


def test_every_request_counts_against_the_address(service):
    with app_with(service, rate_limit_address="5/minute") as api:
        for _ in range(5):
            assert api.get("/games/types").status_code == 200
        assert_rate_limited(api.get("/health"))


def test_players_behind_one_address_are_not_refused_for_each_others_requests(service):
    """A household behind one router: each player's requests count against their own rate, not the address's
    (which only anonymous requests share), on the app-wide routes and the hot ones alike."""
    with app_with(service, rate_limit_address="6/minute") as api:
        ann, bob = player_token(api, "ann"), player_token(api, "bob")
        game = counter_game(api, bearer(ann), seats=[{"me": True}, {"name": "bo"}], target=50).json()
        gid, bo = game["game_id"], game["seats"][1]["token"]
        for _ in range(8):  # past the address's rate, every one
            for token in (ann, bob):
                assert api.get("/players/me", headers=bearer(token)).status_code == 200
            assert api.get(f"/games/{gid}/legal", headers=bearer(ann)).status_code == 200
            assert api.get(f"/games/{gid}/view", headers=bearer(bo)).status_code == 200
        for _ in range(6):
            api.get("/games/types")
        assert_rate_limited(api.get("/games/types"))  # anonymous requests share the address's rate
        assert api.get("/players/me", headers=bearer(ann)).status_code == 200


def test_a_caller_has_a_rate_of_their_own(service):
    with app_with(service, rate_limit_caller="4/minute") as api:
        ann, bob = player_token(api, "ann"), player_token(api, "bob")
        for _ in range(4):
            assert api.get("/players/me", headers=bearer(ann)).status_code == 200
        assert_rate_limited(api.get("/players/me", headers=bearer(ann)))
        assert api.get("/players/me", headers=bearer(bob)).status_code == 200


def test_game_creation_is_limited_per_player(service):
    with app_with(service, rate_limit_create_game="2/minute") as api:
        ann, bob = player_token(api, "ann"), player_token(api, "bob")
        for _ in range(2):
            assert counter_game(api, bearer(ann)).status_code == 201
        assert_rate_limited(counter_game(api, bearer(ann)))
        for _ in range(2):  # another player from the same address has their own count
            assert counter_game(api, bearer(bob)).status_code == 201
        assert_rate_limited(counter_game(api, bearer(bob)))


def test_game_creation_is_limited_per_address_whoever_calls(service):
    with app_with(service, rate_limit_create_game_per_address="3/minute") as api:
        for name in ("ann", "bob", "cat"):
            assert counter_game(api, bearer(player_token(api, name))).status_code == 201
        assert_rate_limited(counter_game(api, bearer(player_token(api, "dan"))))


def test_joining_is_limited_per_caller(service):
    with app_with(service, rate_limit_join="1/minute") as api:
        games = [counter_game(api, seats=[{"name": "ann"}, {}]).json()["game_id"] for _ in range(2)]
        assert api.post(f"/games/{games[0]}/join", json={"name": "guest"}).status_code == 200
        assert_rate_limited(api.post(f"/games/{games[1]}/join", json={"name": "guest"}))
        meta = wait_for(api, f"/games/{games[1]}", until=lambda b: "seats" in b, timeout=60)
        assert [s["open"] for s in meta["seats"]] == [False, True]  # the refused join took nothing


def test_commands_are_limited_per_caller_and_a_refused_one_is_not_applied(service):
    with app_with(service, rate_limit_command="2/minute") as api:
        game = counter_game(api, target=50).json()
        gid, ann, bob = game["game_id"], game["seats"][0]["token"], game["seats"][1]["token"]
        wait_for(api, f"/games/{gid}", until=lambda b: b.get("version") == 3, timeout=60)
        for token in (ann, bob):
            assert api.post(f"/games/{gid}/commands", headers=bearer(token),
                            json={"type": "Add", "amount": 1}).status_code == 200
        third = api.post(f"/games/{gid}/commands", headers=bearer(ann), json={"type": "Add", "amount": 1})
        assert third.status_code == 200
        version = third.json()["version"]  # the public view may lag the answer: wait until it shows it
        wait_for(api, f"/games/{gid}", until=lambda b: b.get("version") == version, timeout=30)
        assert_rate_limited(api.post(f"/games/{gid}/commands", headers=bearer(ann), json={"type": "Add", "amount": 1}))
        time.sleep(0.3)
        assert api.get(f"/games/{gid}").json()["version"] == version


def test_opening_streams_is_limited_per_caller(service):
    with app_with(service, rate_limit_stream_open="2/minute") as api:
        gid = counter_game(api).json()["game_id"]
        for _ in range(2):
            with api.stream("GET", f"/games/{gid}/stream", params={"timeout": 0.1}) as stream:
                assert stream.status_code == 200
        assert_rate_limited(api.get(f"/games/{gid}/stream", params={"timeout": 0.1}))


@pytest.mark.integration
def test_a_rate_holds_across_api_processes(prefix, settings):
    """Two apps (as two API processes) on one real Redis share the count. (Embedded mode has one API process,
    so it counts in memory: the property only exists on a shared server, and only runs there.)"""
    from types import SimpleNamespace

    from .conftest import client_factory

    with client_factory("real", prefix) as clients:
        shared = SimpleNamespace(settings=settings, clients=clients)
        with app_with(shared, rate_limit_register="3/minute") as first, \
                app_with(shared, rate_limit_register="3/minute") as second:
            assert [first.post("/players", json={"name": "a"}).status_code for _ in range(2)] == [201, 201]
            assert second.post("/players", json={"name": "b"}).status_code == 201
            assert_rate_limited(second.post("/players", json={"name": "c"}))
            assert_rate_limited(first.post("/players", json={"name": "d"}))


def test_bot_games_need_a_player_token_and_are_capped_per_player(service):
    cap = DEFAULTS["max_bot_games_per_player"]
    bots = [{"bot": "random"}, {"bot": "random"}]
    with app_with(service, max_bot_games_per_player=cap) as api:
        anonymous = counter_game(api, seats=bots)
        assert (anonymous.status_code, anonymous.json()["code"]) == (401, "unauthorized")
        host = player_token(api)
        # open games with one bot seat stay unfinished: the cap counts them. A 202 (the creation still queued
        # after the short wait, on a loaded machine) is followed to the game's view: created there.
        created = [counter_game(api, bearer(host), seats=[{"bot": "random"}, {}]) for _ in range(cap)]
        assert all(r.status_code in (201, 202) and settled(api, r).status_code in (200, 201) for r in created)
        refused = counter_game(api, bearer(host), seats=bots)
        assert (refused.status_code, refused.json()["code"]) == (429, "too_many_bot_games"), refused.text
        assert int(refused.headers["Retry-After"]) >= 1  # every 429 says when to ask again
        other = counter_game(api, bearer(player_token(api, "other")), seats=bots)
        assert settled(api, other).status_code in (200, 201), other.text
        unbotted = counter_game(api, bearer(host))  # games without bots are not capped
        assert settled(api, unbotted).status_code in (200, 201), unbotted.text


def test_a_finished_bot_game_frees_its_place_under_the_cap(service):
    with app_with(service, max_bot_games_per_player=1) as api:
        host = player_token(api)
        # the bots play as soon as the game is created, and the create answers once it is: to 6 they could
        # finish (a handful of moves) before the next request is admitted on a loaded machine; to 30 they take
        # a dozen moves or more
        first = counter_game(api, bearer(host), seats=[{"bot": "random"}, {"bot": "random"}], target=30).json()
        assert counter_game(api, bearer(host), seats=[{"bot": "random"}, {}]).json()["code"] == "too_many_bot_games"
        scored = wait_for(api, f"/games/{first['game_id']}", until=lambda b: b.get("status") == "scored", timeout=300)
        assert scored["status"] == "scored"
        again = counter_game(api, bearer(host), seats=[{"bot": "random"}, {}])
        assert settled(api, again).status_code in (200, 201), again.text


def test_one_seat_per_player_per_game(service):
    with app_with(service) as api:
        ann = player_token(api, "ann")
        gid = counter_game(api, seats=[{}, {}, {}], target=10).json()["game_id"]
        first = api.post(f"/games/{gid}/join", headers=bearer(ann), json={})
        assert first.status_code == 200
        # joining again takes no second seat: it answers the one held (a retry whose answer was lost)
        again = api.post(f"/games/{gid}/join", headers=bearer(ann), json={})
        assert (again.status_code, again.json()["seat"]) == (200, first.json()["seat"])
        other = api.post(f"/games/{gid}/join", headers=bearer(ann), json={"seat": 2})
        assert (other.status_code, other.json()["code"]) == (409, "already_seated")
        guest = api.post(f"/games/{gid}/join", json={"name": "guest"}).json()
        as_seat = api.post(f"/games/{gid}/join", headers=bearer(guest["token"]), json={"name": "guest"})
        assert (as_seat.status_code, as_seat.json()["code"]) == (409, "already_seated")
        # a guest is known by client address: one guest seat per address and game
        another = api.post(f"/games/{gid}/join", json={"name": "guest 2"})
        assert (another.status_code, another.json()["code"]) == (409, "already_seated")
        meta = wait_for(api, f"/games/{gid}", until=lambda b: sum(not s["open"] for s in b["seats"]) == 2,
                        timeout=60)
        assert [s["open"] for s in meta["seats"]] == [False, False, True]
        both = counter_game(api, bearer(ann), seats=[{"me": True}, {"me": True}])
        assert (both.status_code, both.json()["code"]) == (409, "already_seated")


def test_open_streams_are_capped_per_caller_and_per_address(service, clients):
    tight = service.settings.model_copy(update={"max_streams_per_caller": 2, "max_streams_per_address": 3})
    app = create_app(clients(), tight, clients.queue())
    with served(app) as (base, _loop):
        with httpx.Client(base_url=base, timeout=10) as http:
            ann = player_token(http, "ann")
            gid = counter_game(http).json()["game_id"]

        async def scenario() -> None:
            async with httpx.AsyncClient(base_url=base, timeout=10) as client:
                url = f"/games/{gid}/stream"
                async with AsyncExitStack() as stack:
                    mine = [await stack.enter_async_context(client.stream("GET", url, headers=bearer(ann)))
                            for _ in range(2)]
                    chunks = [stream.aiter_raw() for stream in mine]  # held: a dropped iterator closes its page
                    for chunk in chunks:
                        await _read_until(chunk, b": connected")
                    third = await client.get(url, headers=bearer(ann))
                    assert (third.status_code, third.json()["code"]) == (429, "too_many_streams")
                    assert int(third.headers["Retry-After"]) >= 1
                    anonymous = await stack.enter_async_context(client.stream("GET", url))
                    chunks.append(anonymous.aiter_raw())
                    await _read_until(chunks[-1], b": connected")
                    over = await client.get(url)  # the address holds 3 now
                    assert (over.status_code, over.json()["code"]) == (429, "too_many_streams")
                    assert int(over.headers["Retry-After"]) >= 1
                # closed pages give their slots back
                deadline = time.monotonic() + 60  # generous: the suite shares two cores
                while True:
                    async with client.stream("GET", url, headers=bearer(ann), params={"timeout": 0.2}) as again:
                        if again.status_code == 200:
                            break
                    assert time.monotonic() < deadline, "closed streams kept their slots"
                    await asyncio.sleep(0.1)

        asyncio.run(scenario())


@contextmanager
def served_as_the_cli_serves(app, settings):
    """``app`` on uvicorn with the options ``taproom api`` and ``taproom serve`` give it (proxy headers)."""
    import threading

    import uvicorn

    from services.adapters.cli.main import uvicorn_options

    options = {**uvicorn_options(settings), "loop": "asyncio", "http": "h11"}
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, **options))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        loop.close()


@pytest.mark.parametrize("trusted", ["", "10.0.0.0/8"])
def test_a_forwarded_address_counts_only_from_a_trusted_proxy(service, trusted):
    """The attack run passed a registration limit of 10 with 15 spoofed ``X-Forwarded-For`` headers from
    127.0.0.1 (uvicorn trusts it by default): by default no proxy is trusted, and one that is configured
    must be the peer for its header to count."""
    tight = service.settings.model_copy(update={"rate_limit_register": "3/hour", "trusted_proxies": trusted})
    with served_as_the_cli_serves(create_app(service.clients(), tight, service.clients.queue()), tight) as base:
        with httpx.Client(base_url=base, timeout=10) as http:
            answers = [http.post("/players", json={"name": f"p{i}"}, headers={"X-Forwarded-For": f"203.0.113.{i}"})
                       for i in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429], [a.text for a in answers]


def test_a_trusted_proxy_gives_each_client_its_own_count(service):
    tight = service.settings.model_copy(update={"rate_limit_register": "1/hour", "trusted_proxies": "127.0.0.1"})
    with served_as_the_cli_serves(create_app(service.clients(), tight, service.clients.queue()), tight) as base:
        with httpx.Client(base_url=base, timeout=10) as http:
            first = [http.post("/players", json={"name": f"p{i}"}, headers={"X-Forwarded-For": f"203.0.113.{i}"})
                     for i in range(3)]
            again = http.post("/players", json={"name": "p0"}, headers={"X-Forwarded-For": "203.0.113.0"})
    assert [a.status_code for a in first] == [201, 201, 201] and again.status_code == 429
