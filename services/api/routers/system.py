"""Liveness, metrics and the catalogue of games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from domain.core import all_games

from ..deps import Context, get_context
from ..errors import unavailable_response
from ..schemas import ErrorBody, GameType, Health

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


@router.get("/metrics", response_class=Response,
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                             "description": "Prometheus text format"}})
def metrics() -> Response:
    """Prometheus metrics of this process."""
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


@router.get("/games/types", response_model=list[GameType], response_model_exclude_unset=True)
def game_types() -> list[dict[str, Any]]:
    """Registered games with their options, player counts and command schemas."""
    return [game.schema() for game in all_games()]
