"""The hot routes as a plain ASGI endpoint in front of FastAPI's routing.

A game's clients hit ``GET /games/{id}/legal``, ``POST /games/{id}/commands`` and the views on every move. For
those, FastAPI's router (a regular expression per route in turn), its dependency solver, request objects and
exception middleware cost more CPU than the answer itself. :class:`HotPath` sits between the app's own
middleware (size limit, metrics) and FastAPI: it recognises a regular request to a hot route, parses it
itself and calls the same answer function as the FastAPI route (``services.adapters.api.routers.play``), which also
counts the rates, so both ways answer alike: same bodies, status codes, ``{code, message}`` errors and
headers. Whatever it does not fully understand (a malformed game id or seat, an odd content type, a body
that orjson cannot read or is not an object, HEAD, a root path) it hands to FastAPI untouched, body and all,
which answers it as it always did. The FastAPI routes stay, and with them the OpenAPI documentation.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

import orjson
import structlog
from fastapi.routing import iter_route_contexts

from services.adapters.api.admission import Call
from services.adapters.api.bounds import MAX_INT, out_of_range, parse_bounded_int
from services.adapters.api.errors import ApiError, answer_for, error_response
from services.adapters.api.routers import play

log = structlog.get_logger("taproom.api")

Receive = Callable[[], Awaitable[dict[str, Any]]]
FRONT = "taproom.front"
"""Scope key of a request the app's front (:class:`services.adapters.api.app.TaproomApi`) has taken: its body already
limited, its metrics already counted, the hot path already tried; the app's own middleware lets it through."""
Send = Callable[[dict[str, Any]], Awaitable[None]]

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # the routes' GameId pattern
_TAILS = {("GET", ""): "/games/{game_id}", ("GET", "legal"): "/games/{game_id}/legal",
          ("GET", "view"): "/games/{game_id}/view", ("POST", "commands"): "/games/{game_id}/commands"}


class Unusual(Exception):
    """A request the hot path leaves to FastAPI."""


class HotPath:
    """ASGI middleware: answers regular requests to the hot routes, hands everything else to ``app``."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._routes: dict[str, Any] = {}
        self._literal: frozenset[str] | None = None

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        template = hot_route(scope) if scope["type"] == "http" and FRONT not in scope else None
        if template is not None and scope["path"].split("/", 3)[2] in self._literals(scope["app"]):
            template = None  # /games/types and its like: routes of their own
        if template is None:
            await self.app(scope, receive, send)
            return
        try:
            game_id = scope["path"].split("/", 3)[2]
            seat = _seat(scope["query_string"]) if template != "/games/{game_id}" else None
        except Unusual:
            await self.app(scope, receive, send)
            return
        body: dict[str, Any] | None = None
        if scope["method"] == "POST":
            raw, messages = await _read_body(receive)
            try:
                body = _json_object(scope, raw)
            except Unusual:
                await self.app(scope, _replay(messages, receive), send)
                return
            receive = _replay([], receive)
        app = scope["app"]
        scope["route"] = self._route(app, scope["method"], template)  # what the metrics label the request by
        response = await self._answer(app.state.context, scope, template, game_id, seat, body)
        await response(scope, receive, send)

    async def _answer(self, ctx: Any, scope: dict[str, Any], template: str, game_id: str, seat: int | None,
                      body: dict[str, Any] | None) -> Any:
        call = Call(scope["method"], template, _address(scope), _header(scope, b"authorization"))
        try:
            if body is not None:
                where = out_of_range(body)  # as the app-wide dependency checks every JSON body
                if where is not None:
                    raise ApiError("invalid_request", f"{where}: integer out of range (at most {MAX_INT} in magnitude)")
                return await play.command_answer(ctx, call, game_id, seat, body)
            if template == "/games/{game_id}/legal":
                return await play.legal_answer(ctx, call, game_id, seat)
            return await play.view_answer(ctx, call, game_id, seat, public=template == "/games/{game_id}")
        except Exception as exc:  # every error answers as the app's handlers answer it
            answer = answer_for(exc)
            if answer is None:
                log.exception("unexpected error", route=template)
                return error_response("internal_error", "internal error", 500)
            return answer

    def _literals(self, app: Any) -> frozenset[str]:
        """The names under /games/ that other routes own (``types``): never a game id here."""
        if self._literal is None:
            self._literal = frozenset(path.split("/")[2] for r in iter_route_contexts(app.router.routes)
                                      if (path := str(r.path or "")).startswith("/games/")
                                      and not path.split("/")[2].startswith("{"))
        return self._literal

    def _route(self, app: Any, method: str, template: str) -> Any:
        route = self._routes.get(method + template)
        if route is None:
            route = next(r.original_route for r in iter_route_contexts(app.router.routes)
                         if r.path == template and method in (r.methods or ()))
            self._routes[method + template] = route
        return route


def hot_route(scope: dict[str, Any]) -> str | None:
    """The template of the hot route a request is for, or None."""
    if scope.get("root_path"):
        return None
    parts = scope["path"].split("/")
    if len(parts) not in (3, 4) or parts[1] != "games" or not _GAME_ID.fullmatch(parts[2]):
        return None
    return _TAILS.get((scope["method"], parts[3] if len(parts) == 4 else ""))


def _seat(query: bytes) -> int | None:
    """``?seat=``: None when absent; Unusual when it is not one plain integer in range (FastAPI says why)."""
    if not query:
        return None
    seats = [v for k, v in parse_qsl(query.decode("latin-1"), keep_blank_values=True) if k == "seat"]
    if not seats:
        return None
    seat = parse_bounded_int(seats[0]) if len(seats) == 1 else None
    if seat is None:
        raise Unusual
    return seat


async def _read_body(receive: Receive) -> tuple[bytes | None, list[dict[str, Any]]]:
    """The whole body (the size limit in front has read and bounded it), and the messages it came in."""
    messages, chunks = [], []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return None, messages
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), messages


def _json_object(scope: dict[str, Any], raw: bytes | None) -> dict[str, Any]:
    content_type = _header(scope, b"content-type")
    if raw is None or not raw or (content_type is not None
                                  and content_type.split(";", 1)[0].strip().lower() != "application/json"):
        raise Unusual
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise Unusual from None  # FastAPI reads it with the json module (which accepts a little more) and says why
    if not isinstance(body, dict) or _big_float(body):
        raise Unusual
    return body


def _big_float(value: Any) -> bool:
    """Whether a float past 2**53 is in ``value``: orjson reads an integer literal past 64 bits as a float,
    where FastAPI's json module reads the integer (and the bound refuses it, naming the field)."""
    if isinstance(value, float):
        return not -MAX_INT <= value <= MAX_INT
    if isinstance(value, dict):
        return any(_big_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_big_float(v) for v in value)
    return False


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _address(scope: dict[str, Any]) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


def _replay(messages: list[dict[str, Any]], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> dict[str, Any]:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed
