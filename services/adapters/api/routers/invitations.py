"""Invitations: the creator of an open game reserves a seat for a registered player, found by handle.

The invitation shows in the invitee's inbox until it is accepted (the seat
is theirs), declined or withdrawn (the seat opens again), or lapses
(``TAPROOM_INVITATION_TTL_SECONDS``; the seat opens again). While it stands
nobody else can take the seat. Guests still join with a seat token.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from services.adapters.api.deps import Context, Principal, get_context, require_player
from services.adapters.api.errors import error_responses
from services.adapters.api.routers.games import GameId
from services.adapters.api.routers.players import PublicPlayer
from services.application.invitations import Invitations, Pending

router = APIRouter(tags=["invitations"])
SeatNumber = Path(ge=0, le=63)


class InviteRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    handle: str = Field(min_length=1, max_length=64, description="the invited player's handle (any case)")
    seat: int | None = Field(default=None, ge=0, description="the seat to reserve; default: the first open one")


class InvitationCreated(BaseModel):
    game_id: str
    seat: int
    invitee: PublicPlayer
    expires_at: float = Field(description="seconds since the epoch; unanswered by then, the seat opens again")
    version: int


class SeatChange(BaseModel):
    game_id: str
    seat: int
    version: int


class InvitationOut(BaseModel):
    game_id: str
    game: str
    seat: int
    expires_at: float
    invited_by: PublicPlayer | None
    seats: list[dict[str, Any]] = Field(description="the game's seats as the lobby shows them")
    accept: str = Field(description="POST here to take the seat")
    decline: str = Field(description="POST here to say no (the seat opens again)")


class InvitationList(BaseModel):
    invitations: list[InvitationOut]


def invitations(ctx: Context = Depends(get_context)) -> Invitations:
    return Invitations(ctx.redis, ctx.keys, ctx.bus, ctx.with_record, ctx.settings.command_wait_seconds,
                       ctx.settings.invitation_ttl_seconds, ctx.root.clock)


def pending_out(found: list[Pending]) -> list[InvitationOut]:
    out = []
    for p in found:
        inviter = p.invited_by
        base = f"/games/{p.game_id}/invitations/{p.seat}"
        out.append(InvitationOut(
            game_id=p.game_id, game=p.game, seat=p.seat, expires_at=p.expires_at, seats=p.seats,
            invited_by=PublicPlayer(player_id=inviter.player_id, name=inviter.name, handle=inviter.handle)
            if inviter and inviter.handle else None,
            accept=f"{base}/accept", decline=f"{base}/decline"))
    return out


@router.post("/games/{game_id}/invitations", response_model=InvitationCreated, status_code=201,
             responses=error_responses(400, 401, 403, 404, 409, 413, 422))
def invite(body: InviteRequest, game_id: str = GameId, player: Principal = Depends(require_player),
           service: Invitations = Depends(invitations)) -> InvitationCreated:
    """Reserve a seat of your open game for a registered player (by handle); it appears in their inbox."""
    seat, invitation, version = service.invite(game_id, player.player_id or "", body.handle, body.seat)
    return InvitationCreated(game_id=game_id, seat=seat, expires_at=invitation.expires_at, version=version,
                             invitee=PublicPlayer(player_id=invitation.player_id, name=invitation.name,
                                                  handle=invitation.handle or body.handle))


@router.delete("/games/{game_id}/invitations/{seat}", response_model=SeatChange,
               responses=error_responses(401, 403, 404, 409, 422))
def withdraw(game_id: str = GameId, seat: int = SeatNumber, player: Principal = Depends(require_player),
             service: Invitations = Depends(invitations)) -> SeatChange:
    """Withdraw the invitation standing for a seat of your game (the seat opens again)."""
    return SeatChange(game_id=game_id, seat=seat, version=service.withdraw(game_id, seat, player.player_id or ""))


@router.post("/games/{game_id}/invitations/{seat}/accept", response_model=SeatChange,
             responses=error_responses(401, 403, 404, 409, 410, 422))
def accept(game_id: str = GameId, seat: int = SeatNumber, player: Principal = Depends(require_player),
           service: Invitations = Depends(invitations)) -> SeatChange:
    """Take the seat you are invited to (your player token then acts for it)."""
    return SeatChange(game_id=game_id, seat=seat, version=service.accept(game_id, seat, player.player_id or ""))


@router.post("/games/{game_id}/invitations/{seat}/decline", response_model=SeatChange,
             responses=error_responses(401, 403, 404, 409, 410, 422))
def decline(game_id: str = GameId, seat: int = SeatNumber, player: Principal = Depends(require_player),
            service: Invitations = Depends(invitations)) -> SeatChange:
    """Say no to an invitation; the seat opens again for anyone."""
    return SeatChange(game_id=game_id, seat=seat, version=service.decline(game_id, seat, player.player_id or ""))


@router.get("/players/me/invitations", response_model=InvitationList, responses=error_responses(401, 403, 422))
def my_invitations(limit: int = Query(100, ge=1, le=500), player: Principal = Depends(require_player),
                   service: Invitations = Depends(invitations)) -> InvitationList:
    """Invitations standing for you, soonest to lapse first (also listed in ``GET /inbox``)."""
    return InvitationList(invitations=pending_out(service.pending(player.player_id or "", limit)))
