"""Asynchronous play for players: webhooks, notifications, vacations, taking a seat back, votes about a
taken-over seat, a game's clock.

Include with ``app.include_router(players_async.router)``. Asynchronous-play
settings come from ``app.state.async_settings`` when set (tests), else from
the environment.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from domain.core import Command
from domain.core.lifecycle import ReclaimSeat, Vote, WithdrawVote
from services.adapters.api.bounds import MAX_INT
from services.adapters.api.deps import Context, Principal, get_context, require_player, require_principal, resolve_seat
from services.adapters.api.errors import ApiError, error_responses, queued_response
from services.adapters.api.schemas import (
    Clock,
    CommandQueued,
    Notifications,
    SeatActionAccepted,
    VacationStatus,
    WebhookStatus,
)
from services.application import games, vacations
from services.application.clocks.turns import TurnClocks
from services.application.clocks.vacation import Vacations
from services.application.commands import actor_of
from services.application.notifications.notify import SIGNATURE_HEADER, Notifier, Webhooks
from services.application.results import Queued, accepted_or_raise
from services.infrastructure.eventstore import Keys
from services.infrastructure.secretbox import SecretsUnavailable, secret_box
from services.infrastructure.settings import AsyncSettings, get_settings

router = APIRouter(tags=["asynchronous play"])


class WebhookRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(min_length=8, max_length=2000, description="http(s) URL that receives signed JSON POSTs")


class WebhookCreated(BaseModel):
    url: str
    secret: str = Field(description="shown once: HMAC-SHA256 key of every delivery's body")
    signature_header: str = SIGNATURE_HEADER
    signature_format: str = "sha256=<hex of HMAC-SHA256(secret, raw body)>"


class VoteRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    about_seat: int = Field(ge=0, le=2**53 - 1, description="the seat the autopilot took over")
    choice: Literal["end", "replace"] = Field(description="what the game's pace lets the table vote for "
                                                          "(``pace.takeover_vote``)")


class VacationRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    days: float = Field(gt=0, le=366, description="starting now; counted against this year's allowance")


def _settings(request: Request) -> AsyncSettings:
    # The app's own settings (create_app's) before the environment's: a development flag given there counts.
    context = getattr(request.app.state, "context", None)
    return getattr(request.app.state, "async_settings", None) or (context.settings if context else None) \
        or get_settings()


def _keys(ctx: Context) -> Keys:
    return ctx.keys


@router.put("/players/me/webhook", response_model=WebhookCreated, status_code=201,
            responses=error_responses(400, 401, 403, 413, 422))
def register_webhook(body: WebhookRequest, request: Request, player: Principal = Depends(require_player),
                     ctx: Context = Depends(get_context)) -> WebhookCreated:
    """Register (or replace) the caller's webhook; the signing secret is returned once."""
    settings = _settings(request)
    try:
        box = secret_box(settings)
    except SecretsUnavailable as exc:
        raise ApiError("unavailable", str(exc)) from None
    secret = Webhooks(ctx.redis, _keys(ctx), box).register(player.player_id or "", body.url,
                                                           allow_private=settings.webhook_allow_private,
                                                           allow_loopback=settings.webhook_allow_loopback)
    return WebhookCreated(url=body.url, secret=secret)


@router.get("/players/me/webhook", response_model=WebhookStatus, responses=error_responses(401, 403))
def show_webhook(player: Principal = Depends(require_player), ctx: Context = Depends(get_context)) -> dict[str, Any]:
    url = Webhooks(ctx.redis, _keys(ctx)).url(player.player_id or "")
    return {"registered": url is not None, "url": url}


@router.delete("/players/me/webhook", status_code=204, response_class=Response,
               responses=error_responses(401, 403))
def remove_webhook(player: Principal = Depends(require_player), ctx: Context = Depends(get_context)) -> Response:
    Webhooks(ctx.redis, _keys(ctx)).remove(player.player_id or "")
    return Response(status_code=204)


@router.get("/players/me/notifications", response_model=Notifications, responses=error_responses(401, 403, 422))
def notifications(request: Request, limit: int = Query(50, ge=1, le=200), player: Principal = Depends(require_player),
                  ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """The caller's latest messages ("your turn", "deadline in N hours", "game over"), newest first."""
    notifier = Notifier(ctx.redis, _keys(ctx), None, _settings(request), ctx.root.clock)  # type: ignore[arg-type]
    return {"notifications": notifier.recent(player.player_id or "", limit)}


def _vacations(ctx: Context, request: Request) -> Vacations:
    return Vacations(ctx.redis, _keys(ctx), _settings(request).vacation_days_per_year, ctx.root.clock)


@router.get("/players/me/vacation", response_model=VacationStatus, responses=error_responses(401, 403))
def vacation_status(request: Request, player: Principal = Depends(require_player),
                    ctx: Context = Depends(get_context)) -> dict[str, Any]:
    return vacations.vacation_status(ctx.root, player.player_id or "",
                                     days_per_year=_settings(request).vacation_days_per_year)


@router.post("/players/me/vacation", status_code=201, response_model=VacationStatus,
             responses=error_responses(400, 401, 403, 409, 413, 422))
def start_vacation(body: VacationRequest, request: Request, player: Principal = Depends(require_player),
                   ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """Pause the clocks of all the caller's seats for ``days`` days, starting now."""
    return vacations.start_vacation(ctx.root, player.player_id or "", body.days,
                                    days_per_year=_settings(request).vacation_days_per_year)


@router.delete("/players/me/vacation", response_model=VacationStatus, responses=error_responses(401, 403, 404))
def end_vacation(request: Request, player: Principal = Depends(require_player),
                 ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """End the current vacation now; unused days return to the allowance."""
    return vacations.end_vacation(ctx.root, player.player_id or "",
                                  days_per_year=_settings(request).vacation_days_per_year)


@router.post("/games/{game_id}/reclaim", response_model=SeatActionAccepted,
             responses={202: {"model": CommandQueued}, **error_responses(401, 403, 404, 409, 422, 503)})
def reclaim_seat(game_id: str, seat: int | None = Query(None, ge=0, le=MAX_INT),
                 principal: Principal = Depends(require_principal),
                 ctx: Context = Depends(get_context)) -> Any:
    """Take your seat back from the autopilot, or after a missed deadline (any move of yours does it too);
    your count of consecutive timeouts starts again from zero."""
    return _send_as_seat(ctx, game_id, principal, seat, ReclaimSeat())


@router.post("/games/{game_id}/votes", response_model=SeatActionAccepted,
             responses={202: {"model": CommandQueued}, **error_responses(400, 401, 403, 404, 409, 413, 422, 503)})
def vote(game_id: str, body: VoteRequest, seat: int | None = Query(None, ge=0, le=MAX_INT),
         principal: Principal = Depends(require_principal), ctx: Context = Depends(get_context)) -> Any:
    """Vote about a seat the autopilot took over: end the game as it stands, or replace its player with a
    bot (the game's pace fixes which); or about a seat an untimed game has waited for too long (``absent`` in
    the views): end the game (that seat last) or give the seat to a bot, either. It passes when every other human
    seat has voted for the same choice."""
    return _send_as_seat(ctx, game_id, principal, seat, Vote(about_seat=body.about_seat, choice=body.choice))


@router.delete("/games/{game_id}/votes/{about_seat}", response_model=SeatActionAccepted,
               responses={202: {"model": CommandQueued}, **error_responses(401, 403, 404, 409, 422, 503)})
def withdraw_vote(game_id: str, about_seat: int = Path(ge=0, le=MAX_INT),
                  seat: int | None = Query(None, ge=0, le=MAX_INT),
                  principal: Principal = Depends(require_principal),
                  ctx: Context = Depends(get_context)) -> Any:
    """Take back your vote about ``about_seat`` (before it passes)."""
    return _send_as_seat(ctx, game_id, principal, seat, WithdrawVote(about_seat=about_seat))


def _send_as_seat(ctx: Context, game_id: str, principal: Principal, seat: int | None,
                  command: Command) -> Any:
    """Send a kernel command as the caller's seat and wait for its outcome (202 with a poll link if queued)."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    assert chosen is not None
    actor = actor_of(principal.player_id if principal.kind == "player" else None, chosen)
    result = games.seat_command(ctx.root, game_id, command.model_copy(update={"seat": chosen}), actor=actor)
    if isinstance(result, Queued):
        return queued_response(result)
    accepted = accepted_or_raise(result)
    return {"status": "accepted", "seat": chosen, "version": accepted.version}


@router.get("/games/{game_id}/clock", response_model=Clock, response_model_exclude_unset=True,
            responses=error_responses(404, 422))
def game_clock(game_id: str, request: Request, ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """The game's pace and, per seat, waiting since / deadline (vacations included) / time bank left."""
    keys = _keys(ctx)
    clocks = TurnClocks(ctx.redis, keys, _vacations(ctx, request), ctx.root.clock)

    def table(record: Any, version: int) -> dict[str, Any]:
        pace = record.pace.model_dump() if record.pace else None
        return {"game_id": game_id, "version": version, "status": record.status, "pace": pace,
                "seats": clocks.table(record)}

    return ctx.with_record(game_id, table)
