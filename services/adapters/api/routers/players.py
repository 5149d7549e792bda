"""Players: register once, act with one token in every game; rotate it, recover it, be found by handle."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Header, Path, Request, Security
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import BaseModel, ConfigDict, Field

from services.adapters.api.deps import BEARER, Context, IdempotencyKey, Principal, get_context, require_player
from services.adapters.api.errors import ApiError, error_responses
from services.adapters.api.principals import bearer_token, principal_of
from services.adapters.api.schemas import NewPlayer, PlayerCreated
from services.application import players as application_players
from services.infrastructure.players import Credentials, Player, Players

router = APIRouter(tags=["players"])

async def known_or_none(request: Request, _: HTTPAuthorizationCredentials | None = Security(BEARER),
                        ctx: Context = Depends(get_context)) -> Principal | None:
    """The caller, or None for a token this service does not know (a retried rotation presents a revoked one)."""
    found = await principal_of(request, ctx) if bearer_token(request) is not None else None
    return Principal(**found) if found is not None else None


def require_player_now(principal: Principal | None) -> Principal:
    """``require_player`` for a route that first looked at a token it does not know (a retried rotation)."""
    if principal is None:
        raise ApiError("unauthorized", "this route needs 'Authorization: Bearer <token>'")
    if principal.kind != "player":
        raise ApiError("forbidden", "this route needs a player token (POST /players)")
    return principal


class PlayerProfile(BaseModel):
    """A player as the player sees themself (``GET /players/me``)."""

    player_id: str
    name: str
    handle: str | None = Field(description="unique; null only for players registered before handles existed")
    created: float = Field(description="registration time, seconds since the epoch (like every time in this API)")


class PublicPlayer(BaseModel):
    """What anyone may learn of a player from the handle (to invite them)."""

    player_id: str
    name: str
    handle: str


class NewToken(BaseModel):
    token: str = Field(description="shown once; the previous token no longer works")


class NewRecoveryCode(BaseModel):
    recovery_code: str = Field(description="shown once; the previous recovery code no longer works")


class RecoverRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    handle: str = Field(min_length=1, max_length=64)
    recovery_code: str = Field(min_length=1, max_length=64)


def players(ctx: Context = Depends(get_context)) -> Players:
    return Players(ctx.redis, ctx.keys)


def _profile(player: Player) -> PlayerProfile:
    return PlayerProfile(player_id=player.player_id, name=player.name, handle=player.handle, created=player.created)


def _created(made: Credentials) -> PlayerCreated:
    return PlayerCreated(player_id=made.player.player_id, name=made.player.name, handle=made.player.handle or "",
                         token=made.token, recovery_code=made.recovery_code)


@router.post("/players", response_model=PlayerCreated, status_code=201, responses=error_responses(400, 409, 413, 422))
def register_player(body: NewPlayer, ctx: Context = Depends(get_context)) -> PlayerCreated:
    """Register a player. The token (acts for all the player's seats) and the recovery code are shown once."""
    return _created(application_players.register_player(ctx.root, body.name, body.handle, body.client_key))


@router.get("/players/me", response_model=PlayerProfile, responses=error_responses(401, 403, 404))
def who_am_i(player: Principal = Depends(require_player), repo: Players = Depends(players)) -> PlayerProfile:
    """The calling player."""
    found = repo.get(player.player_id or "")
    if found is None:
        raise ApiError("not_found", "this token's player no longer exists")
    return _profile(found)


@router.post("/players/me/token", response_model=NewToken, status_code=201,
             responses=error_responses(401, 403, 409, 422))
def rotate_token(authorization: str = Header(), idempotency_key: str | None = IdempotencyKey,
                 principal: Principal | None = Depends(known_or_none),
                 repo: Players = Depends(players)) -> NewToken:
    """Replace the caller's token: the new one is shown once, the old one stops working at once. With an
    ``Idempotency-Key`` (a secret of the client's choosing) a rotation whose answer was lost or refused (503) may
    be sent again with the old token and the same key for a day: it answers the same new token (while it is the
    player's token), to whoever holds both only."""
    presented = authorization.partition(" ")[2].strip()
    if principal is None and idempotency_key:
        again = repo.rotated(presented, idempotency_key)
        if again is not None:
            return NewToken(token=again)
    player = require_player_now(principal)
    return NewToken(token=repo.rotate_token(player.player_id or "", presented, idempotency_key))


@router.post("/players/me/recovery-code", response_model=NewRecoveryCode, status_code=201,
             responses=error_responses(401, 403, 422))
def replace_recovery_code(authorization: str = Header(default=""), idempotency_key: str | None = IdempotencyKey,
                          player: Principal = Depends(require_player),
                          repo: Players = Depends(players)) -> NewRecoveryCode:
    """A new recovery code (shown once); the previous one stops working. With an ``Idempotency-Key`` a retry
    (its answer lost, or a 503) answers the same code while it is still the player's."""
    presented = authorization.partition(" ")[2].strip()
    return NewRecoveryCode(recovery_code=repo.new_recovery_code(player.player_id or "", presented, idempotency_key))


@router.post("/players/recover", response_model=PlayerCreated, responses=error_responses(400, 401, 413, 422))
def recover(body: RecoverRequest, idempotency_key: str | None = IdempotencyKey,
            repo: Players = Depends(players)) -> PlayerCreated:
    """Replace a lost token with the recovery code: a new token and a new recovery code (each shown once);
    the lost token and the spent code stop working. With an ``Idempotency-Key`` a retry with the spent code
    (its answer lost, or a 503) answers the same token and code while they are still the player's."""
    return _created(repo.recover(body.handle, body.recovery_code, idempotency_key))


@router.get("/players/by-handle/{handle}", response_model=PublicPlayer, responses=error_responses(404, 422))
def find_by_handle(handle: str = Path(max_length=64), repo: Players = Depends(players)) -> PublicPlayer:
    """Look a player up by handle (ignoring case), e.g. before inviting them."""
    found = repo.by_handle(handle)
    if found is None or found.handle is None:
        raise ApiError("player_not_found", f"no player with handle {handle!r}")
    return PublicPlayer(player_id=found.player_id, name=found.name, handle=found.handle)

