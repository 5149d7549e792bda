"""Hostile inputs at the HTTP edge: integers no part can store, bodies over the limit however they are sent.

Each is refused with its documented code and changes nothing (issue 16, items 3 and 4).
"""

from __future__ import annotations

import pytest

from services.adapters.api.bounds import MAX_INT, out_of_range

from .test_api import _version, bearer, new_game, wait_for

HUGE = 2**70


@pytest.fixture
def game(api):
    created = new_game(api)
    wait_for(api, f"/games/{created['game_id']}", until=lambda b: b.get("version") == 3, timeout=60)
    return created


def test_out_of_range_names_the_first_offending_path():
    assert out_of_range({"a": [1, {"b": MAX_INT}], "c": True}) is None
    assert out_of_range({"a": [1, {"b": MAX_INT + 1}]}) == "body.a.1.b"
    assert out_of_range([-MAX_INT - 1]) == "body.0"


@pytest.mark.parametrize("where", ["events_after", "stream_after", "at_version", "seat_query", "command_field",
                                   "expected_version", "options", "join_seat", "pace"])
def test_an_integer_past_the_bound_is_422_naming_the_field(api, game, where):
    gid, ann = game["game_id"], game["seats"][0]["token"]
    if where == "events_after":
        r, field = api.get(f"/games/{gid}/events", params={"after": 2**64}), "after"
    elif where == "stream_after":  # used to open with ': connected' and close silently
        r, field = api.get(f"/games/{gid}/stream", params={"after": 2**64}), "after"
    elif where == "at_version":
        r, field = api.get(f"/games/{gid}/at/{2**64}"), "version"
    elif where == "seat_query":
        r, field = api.get(f"/games/{gid}/view", params={"seat": HUGE}, headers=bearer(ann)), "seat"
    elif where == "command_field":
        r = api.post(f"/games/{gid}/commands", headers=bearer(ann), json={"type": "Add", "amount": HUGE})
        field = "body.amount"
    elif where == "expected_version":
        r = api.post(f"/games/{gid}/commands", headers=bearer(ann),
                     json={"type": "Add", "amount": 1, "expected_version": HUGE})
        field = "body.expected_version"
    elif where == "options":
        r = api.post("/games", json={"game": "counter", "options": {"target": HUGE}, "seats": [{"name": "a"}]})
        field = "body.options.target"
    elif where == "join_seat":
        r, field = api.post(f"/games/{gid}/join", json={"name": "eve", "seat": HUGE}), "seat"
    else:
        r = api.post("/games", json={"game": "counter", "seats": [{"name": "a"}],
                                     "pace": {"per_move_seconds": HUGE}})
        field = "body.pace.per_move_seconds"
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid_request" and field in r.json()["message"], r.text
    assert _version(api, gid) == 3


def test_a_number_too_long_to_read_is_malformed_json(api, game):
    r = api.post(f"/games/{game['game_id']}/commands", headers={**bearer(game["seats"][0]["token"]),
                                                                 "content-type": "application/json"},
                 content=b'{"type": "Add", "amount": ' + b"9" * 5000 + b"}")
    assert (r.status_code, r.json()["code"]) == (400, "malformed_json"), r.text
    assert _version(api, game["game_id"]) == 3


def test_a_chunked_body_over_the_limit_is_413(api, game, settings):
    def chunks():
        yield b'{"type": "Add", "pad": "'
        for _ in range(settings.max_body_bytes // 1024 + 2):
            yield b"x" * 1024
        yield b'"}'

    r = api.post(f"/games/{game['game_id']}/commands", content=chunks(),
                 headers={**bearer(game["seats"][0]["token"]), "content-type": "application/json"})
    assert (r.status_code, r.json()["code"]) == (413, "body_too_large"), r.text
    assert _version(api, game["game_id"]) == 3


def test_a_chunked_body_under_the_limit_is_read_whole(api, game):
    def chunks():
        yield b'{"type": "Add", '
        yield b'"amount": 1}'

    r = api.post(f"/games/{game['game_id']}/commands", content=chunks(),
                 headers={**bearer(game["seats"][0]["token"]), "content-type": "application/json"})
    assert r.status_code == 200 and r.json()["version"] == 5, r.text


def test_every_integer_parameter_of_the_schema_is_bounded(api):
    """A new route's integer parameter without a maximum would let a huge number travel inward again."""
    spec = api.get("/openapi.json").json()
    unbounded = []
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            for parameter in operation.get("parameters", []):
                schemas = [parameter["schema"], *parameter["schema"].get("anyOf", [])]
                if any(s.get("type") == "integer" and "maximum" not in s for s in schemas):
                    unbounded.append(f"{method.upper()} {path} {parameter['name']}")
    assert unbounded == []
