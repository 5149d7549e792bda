"""The hot routes answer alike on both ways to them: the ASGI hot path (``services.adapters.api.hot``) and FastAPI's
routes (``create_app(..., hot_path=False)``). Each case is played on a fresh game per way, then the answers
are compared: status, body (game ids and clocks aside) and headers (content type and length, Retry-After).
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
import redis
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.adapters.api.routers import play
from tests.services.helpers import game_moves

from .test_api import bearer, settled, wait_for

pytestmark = pytest.mark.cluster  # the real-Redis variants run on the Redis Cluster too (conftest.py)

HEADERS = ("content-type", "content-length", "retry-after", "content-encoding")


@pytest.fixture
def ways(service, clients, settings):
    tight = settings.model_copy(update={"rate_limit_command": "3/minute"})
    queue = getattr(clients, "queue", clients)
    with ExitStack() as stack:
        yield {name: stack.enter_context(TestClient(create_app(clients(), tight, queue(), hot_path=hot)))
               for name, hot in (("hot", True), ("fastapi", False))}


def _game(api: TestClient) -> tuple[str, str, str]:
    r = api.post("/games", json={"game": "counter", "options": {"target": 30}, "seed": "same",
                                 "seats": [{"name": "ann"}, {"name": "bob"}]})
    assert settled(api, r).status_code in (200, 201), r.text  # a 202: still queued after the short wait (load)
    game = r.json()
    wait_for(api, f"/games/{game['game_id']}", until=lambda b: b.get("version") == 3, timeout=120)
    return game["game_id"], game["seats"][0]["token"], game["seats"][1]["token"]


def _same(answers: dict[str, tuple[httpx.Response, str]]) -> httpx.Response:
    """The answers of the two ways, compared; returns the hot path's."""
    shown = {}
    for name, (response, game_id) in answers.items():
        text = response.text.replace(game_id, "GAME")
        try:
            body: Any = _calm(response.json(), game_id)
        except ValueError:
            body = text
        headers = {h: response.headers.get(h) for h in HEADERS}
        if headers["content-encoding"] is None:  # a gzipped answer's length is of the bytes sent, not read
            assert headers["content-length"] == str(len(response.content))
        if response.status_code < 300:  # times and hashes in a body vary in length from game to game
            headers["content-length"] = "varies"
        shown[name] = (response.status_code, body, headers)
    assert shown["hot"] == shown["fastapi"]
    return answers["hot"][0]


def _calm(body: Any, game_id: str) -> Any:
    """The body with what differs between two games played alike taken out (ids, hashes, times)."""
    if isinstance(body, dict):
        return {k: _calm(v, game_id) for k, v in body.items()
                if k not in ("ts", "hash", "prev_hash", "now", "clock", "updated", "command_id", "game_id",
                             "seed_commitment")}
    if isinstance(body, list):
        return [_calm(v, game_id) for v in body]
    if isinstance(body, str):
        return re.sub(r"retry in \d+ s", "retry in N s", body.replace(game_id, "GAME"))
    return body


def _both(ways: dict[str, TestClient], send) -> httpx.Response:
    answers = {}
    for name, api in ways.items():
        game_id, ann, bob = _game(api)
        answers[name] = (send(api, game_id, ann, bob), game_id)
    return _same(answers)


CASES = {
    "legal": lambda api, g, ann, bob: api.get(f"/games/{g}/legal", headers=bearer(ann)),
    "legal_other_seat": lambda api, g, ann, bob: api.get(f"/games/{g}/legal", params={"seat": 1}, headers=bearer(bob)),
    "legal_wrong_seat": lambda api, g, ann, bob: api.get(f"/games/{g}/legal", params={"seat": 1}, headers=bearer(ann)),
    "legal_seat_twice": lambda api, g, ann, bob: api.get(f"/games/{g}/legal?seat=1&seat=0", headers=bearer(ann)),
    "legal_bad_seat": lambda api, g, ann, bob: api.get(f"/games/{g}/legal", params={"seat": "x"}, headers=bearer(ann)),
    "legal_huge_seat": lambda api, g, ann, bob: api.get(f"/games/{g}/legal?seat=99999999999999999999",
                                                        headers=bearer(ann)),
    "legal_no_token": lambda api, g, ann, bob: api.get(f"/games/{g}/legal"),
    "legal_not_bearer": lambda api, g, ann, bob: api.get(f"/games/{g}/legal", headers={"Authorization": "Basic x"}),
    "legal_unknown_token": lambda api, g, ann, bob: api.get(f"/games/{g}/legal", headers=bearer("forged")),
    "legal_unknown_game": lambda api, g, ann, bob: api.get("/games/nosuchgame/legal", headers=bearer(ann)),
    "legal_bad_game_id": lambda api, g, ann, bob: api.get("/games/no$such/legal", headers=bearer(ann)),
    "move": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                              json={"command_id": "m1", "type": "Add", "amount": 2}),
    "move_seat_in_body": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                                           json={"type": "Add", "amount": 1, "seat": 0}),
    "move_seat_mismatch": lambda api, g, ann, bob: api.post(f"/games/{g}/commands?seat=1", headers=bearer(ann),
                                                            json={"type": "Add", "amount": 1, "seat": 0}),
    "malformed_json": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", content=b"{not json",
                                                        headers={**bearer(ann), "content-type": "application/json"}),
    "json_the_json_module_reads": lambda api, g, ann, bob: api.post(
        f"/games/{g}/commands", content=b'{"type": "Add", "amount": NaN}',
        headers={**bearer(ann), "content-type": "application/json"}),
    "not_an_object": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann), json=[1, 2]),
    "empty_body": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann)),
    "text_body": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", content=b'{"type": "Add"}',
                                                   headers={**bearer(ann), "content-type": "text/plain"}),
    "integer_past_64_bits": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                                              json={"type": "Add", "amount": 2**70}),
    "integer_out_of_range": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                                              json={"type": "Add", "amount": 2**60}),
    "unknown_game": lambda api, g, ann, bob: api.post("/games/nosuchgame/commands", headers=bearer(ann),
                                                      json={"type": "Add", "amount": 1}),
    "illegal_move": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                                      json={"type": "Add", "amount": 7}),
    "unknown_type": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                                      json={"type": "Castle"}),
    "kernel_type": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                                     json={"type": "taproom.Resign"}),
    "wrong_seat": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", params={"seat": 1}, headers=bearer(ann),
                                                    json={"type": "Add", "amount": 1}),
    "not_your_turn": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(bob),
                                                       json={"type": "Add", "amount": 1}),
    "stale_version": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                                       json={"type": "Add", "amount": 1, "expected_version": 2}),
    "bad_command_id": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                                        json={"type": "Add", "amount": 1, "command_id": 5}),
    "oversized": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", headers=bearer(ann),
                                                   content=b'{"type": "Add", "pad": "' + b"x" * 70_000 + b'"}'),
    "move_no_token": lambda api, g, ann, bob: api.post(f"/games/{g}/commands", json={"type": "Add", "amount": 1}),
    "public_view": lambda api, g, ann, bob: api.get(f"/games/{g}"),
    "public_view_unknown": lambda api, g, ann, bob: api.get("/games/nosuchgame"),
    "seat_view": lambda api, g, ann, bob: api.get(f"/games/{g}/view", headers=bearer(bob)),
    "seat_view_wrong_seat": lambda api, g, ann, bob: api.get(f"/games/{g}/view?seat=0", headers=bearer(bob)),
    "seat_view_no_token": lambda api, g, ann, bob: api.get(f"/games/{g}/view"),
    "types_are_not_a_game": lambda api, g, ann, bob: api.get("/games/types"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_both_ways_answer_alike(ways, case):
    _both(ways, CASES[case])


def test_a_spent_rate_answers_alike(ways):
    def spend(api: TestClient, g: str, ann: str, bob: str) -> httpx.Response:
        for amount in (1, 1):  # ann and bob in turn: 2 of the 3 per minute...
            token = ann if amount == 1 and game_moves(api.get(f"/games/{g}/legal", headers=bearer(ann)).json()) \
                else bob
            api.post(f"/games/{g}/commands", headers=bearer(token), json={"type": "Add", "amount": 1})
        for _ in range(3):  # ...then ann's own rate runs out
            r = api.post(f"/games/{g}/commands", headers=bearer(ann), json={"type": "Add", "amount": 1})
        return r

    answer = _both(ways, spend)
    assert answer.status_code == 429 and answer.json()["code"] == "rate_limited"
    assert int(answer.headers["Retry-After"]) >= 1


def test_an_unreachable_store_answers_alike(ways, monkeypatch):
    def away(*_: Any, **__: Any) -> Any:
        raise redis.ConnectionError("Redis is away")

    games = {name: _game(api) for name, api in ways.items()}
    monkeypatch.setattr(play, "admit", away)
    for send in (CASES["legal"], CASES["move"], CASES["seat_view"], CASES["public_view"]):
        answer = _same({name: (send(api, *games[name]), games[name][0]) for name, api in ways.items()})
        assert answer.status_code == 503 and answer.json()["code"] == "unavailable"
        assert answer.headers["Retry-After"]


def test_regular_requests_take_the_hot_path(ways, monkeypatch):
    """The hot path answers regular requests itself; FastAPI's routes see only what it hands over."""
    seen: list[str] = []
    call_of = play.call_of
    monkeypatch.setattr(play, "call_of", lambda request: seen.append(request.url.path) or call_of(request))
    api = ways["hot"]
    g, ann, bob = _game(api)
    for send in ("legal", "move", "seat_view", "public_view", "illegal_move", "malformed_json", "oversized"):
        CASES[send](api, g, ann, bob)
    assert seen == []
    api.get(f"/games/{g}/legal?seat=0&seat=0", headers=bearer(ann))  # a seat said twice: FastAPI's to read
    CASES["json_the_json_module_reads"](api, g, ann, bob)  # NaN: orjson refuses it, FastAPI's json reads it
    assert seen == [f"/games/{g}/legal", f"/games/{g}/commands"]


def test_each_request_is_counted_once_by_its_route(ways):
    """The front (``TaproomApi``) counts and limits a hot route's request itself, and the app's own middleware
    lets it through, also when the hot path hands it to FastAPI: one count per request, under its route."""
    from services.adapters.api.app import REQUESTS

    api = ways["hot"]
    g, ann, bob = _game(api)

    def counted(method: str, route: str) -> float:
        return sum(sample.value for metric in REQUESTS.collect() for sample in metric.samples
                   if sample.name.endswith("_total") and sample.labels["method"] == method
                   and sample.labels["route"] == route)

    cases = [("GET", "/games/{game_id}/legal", lambda: CASES["legal"](api, g, ann, bob)),
             ("POST", "/games/{game_id}/commands", lambda: CASES["move"](api, g, ann, bob)),
             ("POST", "/games/{game_id}/commands", lambda: CASES["malformed_json"](api, g, ann, bob)),
             ("GET", "/games/{game_id}/view", lambda: CASES["seat_view"](api, g, ann, bob)),
             ("GET", "/games/{game_id}/legal",
              lambda: api.get(f"/games/{g}/legal?seat=0&seat=0", headers=bearer(ann)))]  # FastAPI's to read
    for method, route, send in cases:
        before = counted(method, route)
        send()
        assert counted(method, route) == before + 1, (method, route)


@pytest.mark.integration
def test_a_rotated_token_is_refused_at_once_by_every_api_process(prefix, settings):
    """Two apps on one real Redis, as two API processes: once a player's token is rotated through one, the
    other refuses the old token on its very next request, though it had just let it in (and knows its caller)."""
    from .conftest import client_factory

    with client_factory("real", prefix) as clients:
        from services.adapters.runtime import Service

        service = Service(settings, clients, workers=1).start()
        try:
            with TestClient(create_app(clients(), settings)) as first, TestClient(create_app(clients(), settings)) as second:
                old = first.post("/players", json={"name": "Ann"}).json()["token"]
                game = first.post("/games", headers=bearer(old), json={
                    "game": "counter", "options": {"target": 30}, "seats": [{"me": True}, {"name": "bob"}]}).json()
                g = game["game_id"]
                wait_for(second, f"/games/{g}", until=lambda b: b.get("version") == 3)
                for path in (f"/games/{g}/legal", f"/games/{g}/view"):
                    assert second.get(path, headers=bearer(old)).status_code == 200
                new = first.post("/players/me/token", headers=bearer(old)).json()["token"]
                for path in (f"/games/{g}/legal", f"/games/{g}/view"):
                    refused = second.get(path, headers=bearer(old))
                    assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
                    assert second.get(path, headers=bearer(new)).status_code == 200
                refused = second.post(f"/games/{g}/commands", headers=bearer(old), json={"type": "Add", "amount": 1})
                assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
                moved = second.post(f"/games/{g}/commands", headers=bearer(new), json={"type": "Add", "amount": 1})
                assert moved.status_code == 200, moved.text
        finally:
            service.stop()


def test_redis_forgetting_the_rate_script_costs_nothing(ways, clients):
    """After a restart or SCRIPT FLUSH Redis lacks the rate script: the request loads it and goes on."""
    api = ways["hot"]
    g, ann, _ = _game(api)
    for target in {id(c): c for c in (clients(), getattr(clients, "queue", clients)())}.values():
        if not hasattr(target, "nodes_manager"):  # the counters are never on a cluster
            target.script_flush()
    assert api.get(f"/games/{g}/legal", headers=bearer(ann)).status_code == 200
    assert api.post(f"/games/{g}/commands", headers=bearer(ann), json={"type": "Add", "amount": 1}).status_code == 200
