"""Friends: follow a player by handle, the friends list (who is online now, their games to watch), and the
caller's open games where a friend can be invited in one tap (``POST /games/{id}/invitations``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Path, Response
from pydantic import BaseModel, Field

from projections.read_models import GameMeta
from services.adapters.api.deps import Context, Principal, get_context, require_player
from services.adapters.api.errors import error_responses
from services.adapters.api.routers.players import PublicPlayer
from services.application.friends import Friends

router = APIRouter(tags=["friends"])
Handle = Path(min_length=1, max_length=64, description="the player's handle (any case; a leading @ is ignored)")


class FriendGame(BaseModel):
    game_id: str
    game: str = Field(description="the game type")
    status: str = Field(description="`open` (seats to fill) or `active`")
    seats: list[dict[str, Any]] = Field(description="the game's seats as the lobby shows them")
    watch: str = Field(description="the game's page in the web client (`/#/game/{id}`)")


class FriendOut(BaseModel):
    player_id: str
    name: str
    handle: str | None
    online: bool = Field(description="a page of theirs was open within `online_seconds` (90 s by default)")
    last_seen: float | None = Field(description="when, if online (seconds since the epoch)")
    games: list[FriendGame] = Field(description="their games being played, latest first")


class OpenGame(BaseModel):
    game_id: str
    game: str
    free_seats: list[int] = Field(description="seats a friend can be invited to")


class FriendsList(BaseModel):
    friends: list[FriendOut]
    open_games: list[OpenGame] = Field(description="the caller's own open games with a free seat")
    limit: int = Field(description="how many players one may follow")


def friends_service(ctx: Context = Depends(get_context)) -> Friends:
    return Friends(ctx.redis, ctx.keys, ctx.presence, ctx.root.clock, ctx.settings.max_follows_per_player)


def _game(meta: GameMeta) -> FriendGame:
    return FriendGame(game_id=meta.game_id, game=meta.game, status=meta.status,
                      seats=[s.model_dump(mode="json", exclude_unset=True) for s in meta.seats],
                      watch=f"/#/game/{meta.game_id}")


@router.get("/players/me/friends", response_model=FriendsList, responses=error_responses(401, 403))
def friends_list(player: Principal = Depends(require_player), service: Friends = Depends(friends_service)) -> Any:
    """The players you follow, online ones first, with their games being played; and your open games with a
    free seat, to invite one of them."""
    pid = player.player_id or ""
    friends = [FriendOut(player_id=f.player.player_id, name=f.player.name, handle=f.player.handle, online=f.online,
                         last_seen=f.last_seen, games=[_game(m) for m in f.games]) for f in service.friends(pid)]
    open_games = [OpenGame(game_id=m.game_id, game=m.game, free_seats=[s.seat for s in m.seats if s.open])
                  for m in service.open_seats_of(pid)]
    return FriendsList(friends=friends, open_games=open_games, limit=service.limit)


@router.put("/players/me/friends/{handle}", response_model=PublicPlayer,
            responses=error_responses(401, 403, 404, 409, 422))
def follow(handle: str = Handle, player: Principal = Depends(require_player),
           service: Friends = Depends(friends_service)) -> PublicPlayer:
    """Follow a player (again: nothing changes). ``404 player_not_found``: no such handle; ``422
    cannot_follow_self``; ``409 too_many_follows``: at the limit."""
    friend = service.follow(player.player_id or "", handle)
    return PublicPlayer(player_id=friend.player_id, name=friend.name, handle=friend.handle or "")


@router.delete("/players/me/friends/{handle}", status_code=204, response_class=Response,
               responses=error_responses(401, 403, 404, 422))
def unfollow(handle: str = Handle, player: Principal = Depends(require_player),
             service: Friends = Depends(friends_service)) -> Response:
    """Stop following a player. ``404 not_following``: you did not follow them."""
    service.unfollow(player.player_id or "", handle)
    return Response(status_code=204)
