"""Players: register once, act with one token in every game."""

from __future__ import annotations

import time
import uuid

from fastapi import APIRouter, Depends

from ..deps import Context, get_context
from ..schemas import NewPlayer, PlayerCreated

router = APIRouter(tags=["players"])


@router.post("/players", response_model=PlayerCreated, status_code=201)
def register_player(body: NewPlayer, ctx: Context = Depends(get_context)) -> PlayerCreated:
    """Register a player; the token is shown once and acts for all the player's seats."""
    player_id = uuid.uuid4().hex[:16]
    ctx.redis.hset(ctx.keys.player(player_id), mapping={"name": body.name, "created": time.time()})
    token = ctx.issue_token({"kind": "player", "player_id": player_id})
    return PlayerCreated(player_id=player_id, name=body.name, token=token)
