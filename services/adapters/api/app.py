"""The FastAPI application factory."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import redis
from fastapi import FastAPI
from fastapi_offline import FastAPIOffline
from prometheus_client import Counter, Histogram
from starlette.middleware.gzip import GZipMiddleware, GZipResponder, IdentityResponder

from services.adapters.api import docs, routing
from services.adapters.api.deps import Context
from services.adapters.api.durable import DurableWrites
from services.adapters.api.errors import error_responses, install_error_handlers
from services.adapters.api.limits import BodySizeLimit
from services.adapters.api.localized import LocalizedErrors
from services.adapters.api.routers import (
    coach,
    friends,
    games,
    invitations,
    language,
    lobby,
    moderation,
    notifications,
    play,
    players,
    players_async,
    social,
    system,
    web,
)
from services.adapters.api.security_headers import SecurityHeaders
from services.application.notifications.prefs import Preferences
from services.infrastructure.clock import Clock
from services.infrastructure.durability import Durability
from services.infrastructure.settings import Settings
from services.web import client_assets
from services.web.assets import StaticAssets

REQUESTS = Counter("taproom_http_requests_total", "HTTP requests", ["method", "route", "status"])
REQUEST_SECONDS = Histogram("taproom_http_request_seconds", "HTTP request time", ["route"])


class RequestMetrics:
    """Counts requests by method, route and status, and times them: a pure ASGI middleware (no
    ``BaseHTTPMiddleware``, whose extra task and stream per request cost more than the routes themselves)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._children: dict[tuple[str, str, int], tuple[Any, Any]] = {}  # labels() costs a lookup and a lock

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = [500]

        async def sending(message: dict) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            path = getattr(scope.get("route"), "path", "unmatched")  # the router sets it on this scope
            key = (scope["method"], path, status[0])
            children = self._children.get(key)
            if children is None:
                children = (REQUESTS.labels(scope["method"], path, str(status[0])), REQUEST_SECONDS.labels(path))
                if len(self._children) < 1024:  # any method a client sends is a label: keep a bounded few
                    self._children[key] = children
            children[0].inc()
            children[1].observe(time.perf_counter() - started)


NO_TELEMETRY: dict[str, Any] = {"tracing": False, "metrics": False, "logs": False}
"""FastAPI's OpenTelemetry hooks off: nothing here exports them, and asking whether a provider is configured
cost every request a few lookups (the service's own metrics are ``RequestMetrics``'s)."""

GZIP_MIN_BYTES = 1000
"""Answers from this size on are gzipped for a client that takes it: below, the header costs about what it saves."""
GZIP_LEVEL = 6
"""zlib's default: most of level 9's saving on JSON for a fraction of its CPU (the static files are gzipped
once at start, at 9)."""


class Compression(GZipMiddleware):
    """Starlette's gzip middleware, its excluded content types normalized once, at start: Starlette normalizes
    them again in every request's responder (3 % of the API's CPU on the hot routes). The same answers."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        accepts = next((b"gzip" in value for name, value in scope["headers"] if name == b"accept-encoding"), False)
        responder: IdentityResponder
        if accepts:
            responder = GZipResponder(self.app, self.minimum_size, compresslevel=self.compresslevel,
                                      thread_minimum_size=self.thread_minimum_size, exclude_content_types=())
        else:
            responder = IdentityResponder(self.app, self.minimum_size, exclude_content_types=())
        responder.exclude_content_types = self.exclude_content_types
        await responder(scope, receive, send)


def app_from_env() -> FastAPI:
    """The app on ``REDIS_URL`` with the settings of the environment: what each of ``taproom api --workers N``'s
    processes builds for itself (uvicorn imports it by name)."""
    from domain.catalog import load_games
    from services.infrastructure.bootstrap import client_factory, queue_client_factory
    from services.infrastructure.logs import configure_logging
    from services.infrastructure.settings import get_settings

    settings = get_settings()
    configure_logging(settings.log_json, settings.log_level)
    load_games()
    clients = client_factory(settings)
    return create_app(clients(), settings, queue_client_factory(settings, clients)())


def create_app(client: redis.Redis, settings: Settings, queue_client: redis.Redis | None = None,
               clock: Clock | None = None) -> FastAPI:
    """``client``: the event store's Redis; ``queue_client``: rq's and the rate limits' (default: the same);
    ``clock``: what the API reads as now (wall time unless given: tests move a ``ShiftedClock``). Every request
    takes one way: FastAPI's routing and its routes (which also document themselves in OpenAPI)."""
    context = Context(client, settings, queue_client=queue_client, clock=clock)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await context.aclose()  # the asyncio Redis client of the SSE streams

    # FastAPIOffline serves swagger-ui and redoc from its own package (fastapi-offline, MIT; swagger-ui is
    # Apache-2.0, redoc MIT): /docs and /redoc need no CDN.
    app = FastAPIOffline(title="Taproom", version="0.1.0", lifespan=lifespan, description=docs.OVERVIEW,
                         swagger_ui_parameters={"persistAuthorization": True}, responses=error_responses(500, 503),
                         telemetry=NO_TELEMETRY)
    docs.install_docs(app)
    app.state.context = context
    install_error_handlers(app)

    # innermost: a write's success leaves once the write is as durable as a command (see its module)
    app.add_middleware(DurableWrites, durability=context.root.durability or Durability(client))
    def setting_of(player_id: str) -> str | None:
        return Preferences(context.redis, context.keys).language(player_id)

    app.add_middleware(RequestMetrics)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(LocalizedErrors, setting_of=setting_of)  # an error's message in the caller's language
    app.add_middleware(SecurityHeaders)  # every answer carries them, errors of the layers inside too
    # outermost, outside the security policy (it hashes the page's import map as sent, uncompressed): JSON answers
    # and the game descriptions; streams (text/event-stream) and the precompressed files pass
    app.add_middleware(Compression, minimum_size=GZIP_MIN_BYTES, compresslevel=GZIP_LEVEL)
    app.include_router(system.router)
    app.include_router(players.router)
    app.include_router(games.router)
    app.include_router(play.router)
    app.include_router(lobby.router)
    app.include_router(players_async.router)
    app.include_router(invitations.router)
    app.include_router(social.router)
    app.include_router(friends.router)
    app.include_router(moderation.router)
    app.include_router(coach.router)
    app.include_router(web.router)
    app.mount("/static", StaticAssets(client_assets()), name="static")  # the web client's files, read at start
    app.include_router(notifications.router)
    app.include_router(language.router)
    routing.install(app)  # every route found by one index, the app-wide checks (rates, bounds) before each
    return app
