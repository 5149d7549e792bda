"""Chat you can moderate: report a message, block a player (thin adapters over
:mod:`services.application.moderation`)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Path
from pydantic import BaseModel, ConfigDict, Field

from services.adapters.api.bounds import STREAM_ID_PATTERN
from services.adapters.api.chat_stream import speaker_of
from services.adapters.api.deps import Context, Principal, get_context, require_player, require_principal
from services.adapters.api.errors import error_responses
from services.adapters.api.routers.games import GameId
from services.adapters.api.routers.social import chat_service
from services.application.chat import Chat
from services.application.moderation import Blocks, Reports

router = APIRouter(tags=["social"])
PlayerIdPath = Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")


class NewReport(BaseModel):
    model_config = ConfigDict(extra="forbid")
    channel: Literal["seats", "spectators"] = "seats"
    message_id: str = Field(pattern=STREAM_ID_PATTERN, max_length=41, description="the message's `id`")
    reason: str = Field(default="", max_length=1000, description="optional, in your words")


class ReportOut(BaseModel):
    report_id: str
    game_id: str
    message_id: str
    created: bool = Field(description="false: you had reported this message already (nothing changed)")
    ts: float


class BlockedPlayer(BaseModel):
    player_id: str
    name: str
    handle: str | None


class BlockList(BaseModel):
    blocked: list[BlockedPlayer]
    limit: int = Field(description="the most players one may block (`max_blocks`)")


class BlockRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="a player's id (a chat author "
                           "`player:<id>` names it)")


def blocks_service(ctx: Context = Depends(get_context)) -> Blocks:
    return Blocks(ctx.redis, ctx.keys, ctx.settings.max_blocks)


@router.post("/games/{game_id}/chat/reports", response_model=ReportOut, status_code=201,
             responses=error_responses(400, 401, 403, 404, 409, 413, 422))
def report_message(body: NewReport, game_id: str = GameId, principal: Principal = Depends(require_principal),
                   ctx: Context = Depends(get_context), chat: Chat = Depends(chat_service)) -> ReportOut:
    """Report a chat message you can read to the service's operators (they list reports with `taproom
    reports`): a copy of the message, you and your reason are kept with the game. Reporting a message again
    changes nothing."""
    meta = ctx.meta(game_id)
    speaker = speaker_of(ctx, principal, game_id, meta)
    assert speaker is not None
    report, created = Reports(ctx.store, chat, ctx.settings.chat_report_reason_chars).report(
        game_id, body.channel, body.message_id, speaker, meta.status, body.reason)
    return ReportOut(report_id=report.report_id, game_id=game_id, message_id=report.message_id, created=created,
                     ts=report.ts)


def _list(service: Blocks, player_id: str) -> BlockList:
    return BlockList(blocked=[BlockedPlayer(player_id=p.player_id, name=p.name, handle=p.handle)
                              for p in service.blocked(player_id)], limit=service.cap)


@router.get("/players/me/blocks", response_model=BlockList, responses=error_responses(401, 403))
def list_blocks(player: Principal = Depends(require_player), service: Blocks = Depends(blocks_service)) -> BlockList:
    """The players you blocked."""
    return _list(service, player.player_id or "")


@router.post("/players/me/blocks", response_model=BlockList,
             responses=error_responses(400, 401, 403, 404, 409, 413, 422))
def block(body: BlockRequest, player: Principal = Depends(require_player),
          service: Blocks = Depends(blocks_service)) -> BlockList:
    """Block a player: their chat is hidden for you (live and in replays, in every game) and their invitations
    to you are refused; they are not told. Blocking twice is one block. At most `max_blocks` players (409
    `too_many_blocks`)."""
    service.block(player.player_id or "", body.player_id)
    return _list(service, player.player_id or "")


@router.delete("/players/me/blocks/{player_id}", response_model=BlockList, responses=error_responses(401, 403, 422))
def unblock(player_id: str = PlayerIdPath, player: Principal = Depends(require_player),
            service: Blocks = Depends(blocks_service)) -> BlockList:
    """Unblock a player (their chat shows again, their invitations reach you)."""
    service.unblock(player.player_id or "", player_id)
    return _list(service, player.player_id or "")
