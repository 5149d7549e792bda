"""Liveness, metrics and the catalogue of games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from domain.core import all_games

from ..deps import Context, get_context
from ..errors import ApiError

router = APIRouter(tags=["system"])


@router.get("/health")
def health(ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """Liveness: the service answers and Redis is reachable."""
    try:
        ctx.redis.ping()
    except Exception as exc:
        raise ApiError("unavailable", f"redis unreachable: {type(exc).__name__}") from None
    return {"status": "ok", "redis": "ok"}


@router.get("/metrics")
def metrics() -> Response:
    """Prometheus metrics of this process."""
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


@router.get("/games/types")
def game_types() -> list[dict[str, Any]]:
    """Registered games with their options, player counts and command schemas."""
    return [game.schema() for game in all_games()]
