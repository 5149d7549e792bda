"""Liveness, metrics and the catalogue of games."""

from __future__ import annotations

import hashlib
import os
from functools import cache
from typing import Any

import orjson
from fastapi import APIRouter, Depends, Path, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest, multiprocess

from domain.core import all_games, get_game
from services.adapters.api.deps import Context, get_context
from services.adapters.api.errors import ApiError, error_responses, unavailable_response
from services.adapters.api.schemas import ErrorBody, GameType, Health

router = APIRouter(tags=["system"])


@router.get("/health", response_model=Health,
            responses={503: {"model": ErrorBody, "description": "a dependency is down: `{code, message, "
                                                                 "redis: \"down\"}` with `Retry-After`"}})
def health(ctx: Context = Depends(get_context)) -> Any:
    """Liveness: the service answers and Redis is reachable. While Redis is down: 503 ``unavailable`` naming
    the dependency (``"redis": "down"``) with ``Retry-After``; every other route answers 503 too."""
    try:
        ctx.redis.ping()
    except Exception as exc:
        return unavailable_response(f"redis unreachable: {type(exc).__name__}", status="unavailable", redis="down")
    return {"status": "ok", "redis": "ok"}


@router.get("/livez", response_model=Health)
def livez() -> Any:
    """Liveness of this API process alone (its event loop and a worker thread answer), whatever Redis does:
    the orchestrator's liveness probe, so a Redis outage (``/health`` answers 503) restarts no API process."""
    return {"status": "ok", "redis": "not checked"}


@router.get("/metrics", response_class=Response,
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                             "description": "Prometheus text format"}})
def metrics() -> Response:
    """Prometheus metrics of this process (of every API process when ``taproom api --workers N`` runs several:
    they share ``PROMETHEUS_MULTIPROC_DIR``)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


@router.get("/games/types", response_model=list[GameType], response_model_exclude_unset=True)
def game_types() -> list[dict[str, Any]]:
    """Registered games with their options, player counts and command schemas."""
    return [game.schema() for game in all_games()]


DESCRIPTION_MAX_AGE = 3600
"""Seconds a browser may reuse a description unasked; after that the ETag makes revalidation cheap."""


@cache
def _description(game_id: str) -> tuple[bytes, str] | None:
    """The description's JSON bytes and their ETag; computed once per process (it never changes while running)."""
    description = get_game(game_id).description()
    if description is None:
        return None
    body = orjson.dumps(description, option=orjson.OPT_SORT_KEYS)
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@router.get("/games/types/{game}/description", response_class=Response,
            responses={200: {"content": {"application/json": {"schema": {
                                 "type": "object", "additionalProperties": True,
                                 "description": "the game's own description (Carcassonne: `conventions`, `tiles` by id "
                                                "with each feature's `edges`/`halves`, `supply`, `sheep_tokens`)"}}},
                             "description": "the description, with `ETag` and `Cache-Control: public, max-age`"},
                       304: {"description": "not modified (`If-None-Match` matched the ETag)"},
                       **error_responses(400, 404, 422)})
def game_description(request: Request, game: str = Path(pattern=r"^[a-z0-9_-]{1,64}$")) -> Response:
    """The game's static description for clients: for Carcassonne every tile type's features and where
    they lie (edges, half-edges, pennants, hills, vineyards, gardens, river). Cacheable: ETag + max-age."""
    found = _description(get_game(game).id)
    if found is None:
        raise ApiError("no_description", f"game {game!r} provides no static description")
    body, etag = found
    headers = {"ETag": etag, "Cache-Control": f"public, max-age={DESCRIPTION_MAX_AGE}"}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
