"""The FastAPI application factory."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import redis
from fastapi import Depends, FastAPI, Request
from fastapi_offline import FastAPIOffline
from prometheus_client import Counter, Histogram

from ..settings import Settings
from ..web import STATIC_DIR, RevalidatedStaticFiles
from . import docs
from .abuse import limit_requests
from .bounds import bounded_json_body
from .deps import Context
from .errors import error_responses, install_error_handlers
from .limits import BodySizeLimit
from .routers import games, invitations, lobby, notifications, players, players_async, social, system, web

REQUESTS = Counter("taproom_http_requests_total", "HTTP requests", ["method", "route", "status"])
REQUEST_SECONDS = Histogram("taproom_http_request_seconds", "HTTP request time", ["route"])


def create_app(client: redis.Redis, settings: Settings) -> FastAPI:
    context = Context(client, settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await context.aclose()  # the asyncio Redis client of the SSE streams

    # FastAPIOffline serves swagger-ui and redoc from its own package (fastapi-offline, MIT; swagger-ui is
    # Apache-2.0, redoc MIT): /docs and /redoc need no CDN.
    app = FastAPIOffline(title="Taproom", version="0.1.0", lifespan=lifespan, description=docs.OVERVIEW,
                         swagger_ui_parameters={"persistAuthorization": True}, responses=error_responses(500, 503),
                         dependencies=[Depends(limit_requests), Depends(bounded_json_body)])
    docs.install_docs(app)
    app.state.context = context
    install_error_handlers(app)

    @app.middleware("http")
    async def count_requests(request: Request, call_next):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        response = await call_next(request)
        route = request.scope.get("route")
        path = getattr(route, "path", "unmatched")
        REQUESTS.labels(request.method, path, str(response.status_code)).inc()
        REQUEST_SECONDS.labels(path).observe(time.perf_counter() - started)
        return response

    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.include_router(system.router)
    app.include_router(players.router)
    app.include_router(games.router)
    app.include_router(lobby.router)
    app.include_router(players_async.router)
    app.include_router(invitations.router)
    app.include_router(social.router)
    app.include_router(web.router)
    app.mount("/static", RevalidatedStaticFiles(directory=STATIC_DIR), name="static")  # the web client's files
    app.include_router(notifications.router)
    return app
