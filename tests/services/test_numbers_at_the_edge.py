"""Every number a route reads from its path, query or headers is bounded where it is parsed (issue 37, item 1).

The routes are taken from the OpenAPI schema, so a route added later is held to the same rule: each integer
parameter and each stream-id parameter, given a number no part of the service can store (past 64 bits, 5,000
digits, digits of another script), is refused with 422 ``invalid_request`` naming it, never a 500, whoever
asks (a registered player or nobody).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from services.adapters.api.bounds import MAX_INT, STREAM_ID_PATTERN, parse_bounded_int, parse_stream_id

from .test_api import bearer, new_game, player_token

OVERFLOWING_INTEGERS = [str(2**64), str(MAX_INT + 1), "9" * 5000, "²", "１２"]
OVERFLOWING_STREAM_IDS = [f"1-{2**64}", f"{2**64}-0", f"{'9' * 25}-1", "１-1", "1-²"]


def _operations(api) -> list[tuple[str, str, dict[str, Any]]]:
    schema = api.get("/openapi.json").json()
    return [(method.upper(), path, op) for path, item in schema["paths"].items() for method, op in item.items()
            if method in ("get", "post", "put", "delete")]


def _is_stream_id(parameter: dict[str, Any]) -> bool:
    schema = parameter["schema"]
    options = schema.get("anyOf", [schema])
    return any(o.get("pattern") == STREAM_ID_PATTERN for o in options)


def _is_integer(parameter: dict[str, Any]) -> bool:
    schema = parameter["schema"]
    return any(o.get("type") == "integer" for o in schema.get("anyOf", [schema])) or \
        parameter["name"] == "Last-Event-ID"


def numeric_parameters(api) -> list[tuple[str, str, str, str, str]]:
    """(method, path, where, name, kind) of every numeric parameter of every route."""
    found = []
    for method, path, op in _operations(api):
        for parameter in op.get("parameters", []):
            kind = "stream_id" if _is_stream_id(parameter) else "integer" if _is_integer(parameter) else None
            if kind:
                found.append((method, path, parameter["in"], parameter["name"], kind))
    return found


@pytest.fixture
def table(api):
    player = player_token(api)
    created = new_game(api)
    return {"player": player, "game_id": created["game_id"]}


def _header_bytes(value: str) -> bytes:
    """A header as it arrives: a server reads header bytes as latin-1 (``²`` is one byte there)."""
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:
        return value.encode()


def _send(api, method: str, path: str, where: str, name: str, value: str, token: str | None, game_id: str):
    url = re.sub(r"\{game_id\}", game_id, path)
    url = re.sub(r"\{game\}", "counter", url)
    url = re.sub(r"\{(\w+)\}", lambda m: value if m.group(1) == name else "x1", url)
    params = {name: value} if where == "query" else {}
    if path.endswith("/stream"):
        params["timeout"] = "0.05"  # a stream a value opened by mistake ends at once
    headers = {**(bearer(token) if token else {}), **({name: _header_bytes(value)} if where == "header" else {})}
    body = {} if method in ("POST", "PUT") else None
    return api.request(method, url, params=params, headers=headers, json=body)


def test_every_numeric_parameter_of_every_route_is_refused_past_its_bound(api, table):
    parameters = numeric_parameters(api)
    names = {(m, p, n) for m, p, _, n, _ in parameters}
    # the routes the attack run named, and their like: the list is read from the schema, not written here
    assert {("GET", "/games/{game_id}/chat", "after"), ("GET", "/games/{game_id}/stream", "Last-Event-ID"),
            ("GET", "/games/{game_id}/events", "after"), ("GET", "/games/{game_id}/at/{version}", "version"),
            ("DELETE", "/games/{game_id}/votes/{about_seat}", "about_seat")} <= names
    failures = []
    for method, path, where, name, kind in parameters:
        values = OVERFLOWING_STREAM_IDS if kind == "stream_id" else OVERFLOWING_INTEGERS
        for token in (table["player"], None):
            for value in values:
                answer = _send(api, method, path, where, name, value, token, table["game_id"])
                body = answer.json() if answer.headers.get("content-type", "").startswith("application/json") else {}
                if answer.status_code >= 500 or (answer.status_code == 422 and name not in body.get("message", "")):
                    failures.append(f"{method} {path} {where} {name}={value[:30]!r} token={bool(token)}: "
                                    f"{answer.status_code} {answer.text[:200]}")
                elif token and answer.status_code != 422:
                    failures.append(f"{method} {path} {where} {name}={value[:30]!r}: {answer.status_code} "
                                    f"{answer.text[:200]} (422 expected)")
    assert failures == [], "\n".join(failures)


def test_the_chat_after_an_id_past_64_bits_is_422_for_anybody(api, table):
    """The attack run's case: it answered 500 to anonymous callers."""
    answer = api.get(f"/games/{table['game_id']}/chat", params={"after": "1-18446744073709551616"})
    assert (answer.status_code, answer.json()["code"]) == (422, "invalid_request"), answer.text
    assert "after" in answer.json()["message"]
    assert api.get(f"/games/{table['game_id']}/chat", params={"after": "1-9999999999999999999"}).status_code == 200


def test_a_last_event_id_in_another_script_is_422(api, table):
    answer = api.get(f"/games/{table['game_id']}/stream", headers={"Last-Event-ID": _header_bytes("²")})
    assert (answer.status_code, answer.json()["code"]) == (422, "invalid_request"), answer.text


@pytest.mark.parametrize("text, expected", [("0", 0), ("12", 12), (str(MAX_INT), MAX_INT), (str(MAX_INT + 1), None),
                                            ("", None), ("²", None), ("１２", None), ("-1", None), ("+1", None),
                                            ("1_000", None), (" 1", None), ("9" * 5000, None)])
def test_parse_bounded_int_reads_plain_ascii_digits_within_the_bound(text, expected):
    assert parse_bounded_int(text) == expected


@pytest.mark.parametrize("text, ok", [("0-0", True), ("1-18446744073709551615", True), ("1-18446744073709551616", False),
                                      ("18446744073709551616-0", False), ("1", False), ("1-", False), ("１-1", False),
                                      ("01-1", True), ("1-2-3", False)])
def test_parse_stream_id_takes_what_redis_can_store(text, ok):
    assert (parse_stream_id(text) is not None) == ok
