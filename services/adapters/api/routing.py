"""How every request finds its route: an index of the app's routes by their path's shape, and the app-wide
checks of a request (its rates, its body's integers) as one step between the route found and the route run.

FastAPI finds a route by trying each of the app's routes in turn, through the contexts of the routers they were
included with (about 25 regex tries and twice as many scope updates for ``POST /games/{id}/commands``: a fifth
of the API's CPU on the hot routes), and runs app-wide dependencies through its dependency solver on every
request. Here the routes are grouped once, at the first request, by (first path segment, number of segments):
a request tries only the routes of its group, in the app's order, so the first full match is the one FastAPI
would pick. Whatever finds no full match there (a 404, a 405, a trailing slash to redirect) takes FastAPI's
own dispatch, which answers it as before. Every route of the app, the documentation's and the static files'
included, is found this way: one way through each request.

The app-wide checks (:func:`admit_request`) run for every route found, as the app's dependencies did, without
dependency solving: the request's rates (the hot routes count theirs in their own admission, see
``abuse.SELF_LIMITED``) and, for a route with a JSON body, its integers bounded (``bounds``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import redis
from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.routing import BaseRoute, Match, Mount
from starlette.types import Receive, Send

from services.adapters.api.abuse import limit_scope
from services.adapters.api.bounds import check_bounded, parse_json

Scope = MutableMapping[str, Any]
Before = Callable[[Scope, BaseRoute, Any], Awaitable[Any]]
MAX_SEGMENTS = 12
"""Paths with more segments than any route has are looked up in FastAPI's own dispatch (they find nothing)."""
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _shape(route: BaseRoute) -> tuple[str, int, bool]:
    """A route's first path segment ("" for a parameter: any), its number of segments, and whether it takes
    more (a mount, a ``{...:path}`` parameter)."""
    path = route.path if isinstance(route, (Mount, APIRoute)) else getattr(route, "path", "")
    segments = path.split("/")[1:]
    first = segments[0] if segments and "{" not in segments[0] else ""
    if isinstance(route, Mount):
        return first, len(segments) + 1, True
    return first, len(segments), ":path}" in path


class RouteIndex:
    """The app's router, finding a route among the few of a request's path shape (see the module)."""

    def __init__(self, app: FastAPI, before: Before) -> None:
        self.app = app
        self.router = app.router
        self.fallback = app.router.middleware_stack  # FastAPI's own dispatch: lifespan, 404, 405, redirects
        self.before = before
        self._groups: dict[tuple[str, int], list[BaseRoute]] | None = None

    def _build(self) -> dict[tuple[str, int], list[BaseRoute]]:
        routes: list[BaseRoute] = []
        for context in iter_route_contexts(self.router.routes):
            route = context.original_route
            if getattr(route, "path", None) != context.path:  # a prefix at inclusion: FastAPI's dispatch knows it
                raise TypeError(f"routes included under a prefix are not indexed: {context.path}")
            routes.append(route)
        shapes = [(_shape(route), route) for route in routes]
        firsts = {first for (first, _, _), _ in shapes} | {""}
        groups: dict[tuple[str, int], list[BaseRoute]] = {}
        for first in firsts:
            for count in range(1, MAX_SEGMENTS + 1):
                group = [route for (f, n, more), route in shapes
                         if f in (first, "") and (n == count or (more and count >= n))]
                if group:
                    groups[(first, count)] = group
        return groups

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("root_path"):
            await self.fallback(scope, receive, send)
            return
        groups = self._groups
        if groups is None:
            groups = self._groups = self._build()
        path: str = scope["path"]
        count = path.count("/")
        first = path[1:path.find("/", 1)] if count > 1 else path[1:]
        for route in groups.get((first, count), ()) or groups.get(("", count), ()):
            match, child = route.matches(scope)
            if match is Match.FULL:
                scope.update(child)
                scope.setdefault("router", self.router)
                receive = await self.before(scope, route, receive)
                await route.handle(scope, receive, send)
                return
        await self.fallback(scope, receive, send)


def install(app: FastAPI) -> None:
    """Route every request of ``app`` through a :class:`RouteIndex`, with :func:`admit_request` before each route
    (call once every route is added)."""

    async def before(scope: Scope, route: BaseRoute, receive: Any) -> Any:
        return await admit_request(app.state.context, scope, route, receive)

    app.router.middleware_stack = RouteIndex(app, before)


async def admit_request(ctx: Any, scope: Scope, route: BaseRoute, receive: Any) -> Any:
    """The app-wide checks of a request whose route was found: its rates counted (429 ``rate_limited``), and a
    JSON body's integers bounded (422 ``invalid_request``); the ``receive`` the route then reads its body from.
    The app's own routes only (as its dependencies were): the static files and the OpenAPI document pass."""
    if not isinstance(route, APIRoute):
        return receive
    try:
        await limit_scope(ctx, scope)
    except (redis.ConnectionError, redis.TimeoutError, ConnectionError, TimeoutError):
        pass  # nothing can be counted while Redis is away; the route answers for itself (503)
    if scope["method"] not in BODY_METHODS or getattr(route, "body_field", None) is None:
        return receive
    chunks: list[bytes] = []
    message = await receive()
    while message["type"] == "http.request":  # BodySizeLimit has bounded its size
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
        message = await receive()
    if message["type"] != "http.request":  # the client left: the route sees that
        return _replay(message, receive)
    body = b"".join(chunks)
    if body:
        check_bounded(parse_json(body))
    return _replay({"type": "http.request", "body": body, "more_body": False}, receive)


def _replay(message: dict, receive: Any) -> Any:
    pending = [message]

    async def replayed() -> dict:
        return pending.pop() if pending else await receive()

    return replayed
