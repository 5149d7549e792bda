"""The lobby (open games, recent results) and each player's inbox."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query

from projections.read_models import GameMeta, load_meta
from services.adapters.api.deps import Context, Principal, get_context, require_player
from services.adapters.api.errors import error_responses
from services.adapters.api.routers.invitations import invitations, pending_out
from services.adapters.api.schemas import Inbox, InboxGame, Lobby
from services.infrastructure.redisconn import mget

router = APIRouter(tags=["lobby"])


def _metas(ctx: Context, game_ids: list[str]) -> list[GameMeta]:
    if not game_ids:
        return []
    raws = mget(ctx.redis, [ctx.keys.meta(g) for g in game_ids])
    return [load_meta(r) for r in raws if r]


def _inbox_game(meta: GameMeta, player_id: str | None) -> InboxGame:
    """The meta as stored (the fields it has, no defaults added) with the caller's seats in the game."""
    mine = [s.seat for s in meta.seats if s.player_id == player_id]
    fields = {name: getattr(meta, name) for name in meta.model_fields_set}
    return InboxGame(**fields, my_seats=mine, my_turn=any(s in meta.to_act for s in mine))


@router.get("/lobby", response_model=Lobby, response_model_exclude_unset=True, responses=error_responses(422))
def lobby(limit: int = Query(50, ge=1, le=200), ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """Open games (oldest first) and the most recently finished ones."""
    open_ids = [g.decode() for g in ctx.redis.zrange(ctx.keys.lobby(), 0, limit - 1)]
    done_ids = [g.decode() for g in ctx.redis.zrevrange(ctx.keys.finished(), 0, limit - 1)]
    return {"open": _metas(ctx, open_ids), "finished": _metas(ctx, done_ids)}


@router.get("/inbox", response_model=Inbox, response_model_exclude_unset=True,
            responses=error_responses(401, 403, 422))
def inbox(limit: int = Query(100, ge=1, le=500), player: Principal = Depends(require_player),
          ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """The caller's games: those awaiting them first (oldest waiting first), then the rest, latest first;
    and the invitations standing for them (accept or decline). Every page asks once a minute while it is
    shown, so asking also marks the caller online (their friends see it)."""
    ctx.presence.seen(player.player_id or "")
    ids = [g.decode() for g in ctx.redis.zrange(ctx.keys.inbox(player.player_id or ""), 0, limit - 1)]
    games = [_inbox_game(meta, player.player_id) for meta in _metas(ctx, ids)]
    return {"awaiting": [g for g in games if g.my_turn], "others": [g for g in games if not g.my_turn],
            "invitations": [i.model_dump() for i in pending_out(invitations(ctx).pending(player.player_id or ""))]}
