"""Playing together: table chat and mutes, rematch, leaderboards and player profiles (thin adapters over
:mod:`services.application.chat`, `.rematch` and `.ratings`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from domain.core import get_game
from services.adapters.api.abuse import BotGames, caller_of
from services.adapters.api.bounds import MAX_INT, STREAM_ID_PATTERN, bounded_stream_id
from services.adapters.api.chat_stream import speaker_of
from services.adapters.api.deps import (
    Context,
    IdempotencyKey,
    Principal,
    get_context,
    optional_principal,
    require_player,
    require_principal,
)
from services.adapters.api.durable import undo_on_refusal
from services.adapters.api.errors import ApiError, error_responses
from services.adapters.api.routers.games import GameId
from services.application.chat import FINISHED, Chat, readable
from services.application.ratings import DISPLAY_BASE, DISPLAY_SCALE, EARLY_END_LINE, PROVISIONAL_GAMES, Ratings
from services.application.rematch import Rematches
from services.infrastructure.players import Players

router = APIRouter(tags=["social"])
ChannelName = Literal["seats", "spectators"]


class ChatMessage(BaseModel):
    id: str = Field(description="the message's id in its channel (ascending)")
    channel: ChannelName
    author: str = Field(description="who wrote it, for muting: `player:<id>` or `seat:<game>:<n>` (a seat token)")
    name: str
    seat: int | None = Field(description="the author's seat (the seats' chat), null in the spectators' chat")
    text: str
    ts: float
    version: int | None = Field(default=None, description="the game's version when it was said (null: said "
                                "before messages were stamped); the replay shows it from that version on")


class ChatPage(BaseModel):
    game_id: str
    channel: ChannelName
    messages: list[ChatMessage]
    can_write: bool = Field(description="whether the caller may write in this channel now")


class NewChatMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=2000, description="trimmed; at most `chat_max_chars` characters")
    channel: ChannelName = "seats"
    seat: int | None = Field(default=None, ge=0, le=63, description="which of your seats speaks (hot-seat)")


class MuteRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    author: str = Field(min_length=1, max_length=120, description="a message's `author`")


class MutedAuthor(BaseModel):
    author: str
    name: str = Field(description="the player's name, or what the author was (a guest's seat)")


class Mutes(BaseModel):
    muted: list[str]
    authors: list[MutedAuthor] = Field(default_factory=list, description="the muted authors with their names")


class ReplayChat(BaseModel):
    game_id: str
    messages: list[ChatMessage] = Field(description="in the order of the game; each from its `version` on")


def chat_service(ctx: Context = Depends(get_context)) -> Chat:
    return Chat(ctx.store, ctx.settings.chat_max_chars, ctx.settings.chat_keep)


@router.get("/games/{game_id}/chat", response_model=ChatPage, responses=error_responses(401, 403, 404, 422))
def read_chat(game_id: str = GameId, channel: ChannelName = Query("seats"),
              after: Annotated[str | None, AfterValidator(bounded_stream_id)] = Query(
                  None, pattern=STREAM_ID_PATTERN, description="only messages after this id (a message's `id`)"),
              limit: int = Query(100, ge=1, le=500), principal: Principal | None = Depends(optional_principal),
              ctx: Context = Depends(get_context), chat: Chat = Depends(chat_service)) -> ChatPage:
    """A chat channel of the game, oldest first, without the authors you muted. The seats' chat is open to
    everyone; the spectators' chat to those without a seat, and to the seats once the game is over."""
    meta = ctx.meta(game_id)
    speaker = speaker_of(ctx, principal, game_id, meta)
    if not readable(channel, speaker, meta.status):
        raise ApiError("forbidden", "the seats read the spectators' chat once the game is over")
    muted = chat.hidden(speaker.key) if speaker else set()
    writable = speaker is not None and (bool(speaker.seats) if channel == "seats"
                                        else not speaker.seats and speaker.registered)
    return ChatPage(game_id=game_id, channel=channel, can_write=writable,
                    messages=[ChatMessage(**m) for m in chat.read(game_id, channel, muted, after, limit)])


@router.post("/games/{game_id}/chat", response_model=ChatMessage, status_code=201,
             responses=error_responses(400, 401, 403, 404, 409, 413, 422, 429))
def post_chat(request: Request, body: NewChatMessage, game_id: str = GameId,
              principal: Principal = Depends(require_principal), idempotency_key: str | None = IdempotencyKey,
              ctx: Context = Depends(get_context), chat: Chat = Depends(chat_service)) -> ChatMessage:
    """Say something at the table (`seats`, the seats only) or among the spectators (`spectators`, registered
    players without a seat). Rate-limited per caller (`rate_limit_chat`); open streams get it as `event: chat`.
    An archived game's chat is read-only (409 `game_archived`). With an `Idempotency-Key` a retry answers the
    same message (another message under the same key: 409 `idempotency_key_reused`); without one, a message
    refused for durability (503) is taken back."""
    meta = ctx.meta(game_id)
    speaker = speaker_of(ctx, principal, game_id, meta)
    assert speaker is not None
    said = chat.post(game_id, body.channel, speaker, body.text, body.seat, over=meta.status in FINISHED,
                     key=idempotency_key)
    if idempotency_key is None:
        undo_on_refusal(request, lambda: chat.retract(game_id, body.channel, said["id"]))
    return ChatMessage(**said)


@router.get("/games/{game_id}/chat/replay", response_model=ReplayChat, responses=error_responses(401, 403, 404, 422))
def replay_chat(game_id: str = GameId, upto: int | None = Query(None, ge=0, le=MAX_INT, description="only what was said by "
                                                                 "this version of the game"),
                principal: Principal | None = Depends(optional_principal), ctx: Context = Depends(get_context),
                chat: Chat = Depends(chat_service)) -> ReplayChat:
    """The game's chat for its replay: every kept message with the game's version when it was said, to whoever
    could read it then. The seats' chat for everyone; the spectators' chat for those without a seat, and for
    the seats only what was said once the game was over; without the authors you muted or blocked. Also for
    an archived game (read from its archive)."""
    meta = ctx.meta(game_id)
    speaker = speaker_of(ctx, principal, game_id, meta)
    hidden = chat.hidden(speaker.key) if speaker else set()
    found = chat.replay(game_id, speaker.seats if speaker else (), hidden, upto)
    return ReplayChat(game_id=game_id, messages=[ChatMessage(**m) for m in found])


@router.get("/chat/mutes", response_model=Mutes, responses=error_responses(401, 422))
def list_mutes(principal: Principal = Depends(require_principal), chat: Chat = Depends(chat_service)) -> Mutes:
    """The chat authors you muted (in every game)."""
    return _mutes(chat, caller_of(principal.__dict__, ""))


@router.post("/chat/mutes", response_model=Mutes, responses=error_responses(400, 401, 409, 422))
def mute(body: MuteRequest, principal: Principal = Depends(require_principal),
         ctx: Context = Depends(get_context), chat: Chat = Depends(chat_service)) -> Mutes:
    """Mute a chat author: their messages no longer reach you, in any game (they are not told). At most
    `max_chat_mutes` authors (409 `too_many_mutes`)."""
    viewer = caller_of(principal.__dict__, "")
    chat.mute(viewer, body.author, ctx.settings.max_chat_mutes)
    return _mutes(chat, viewer)


@router.delete("/chat/mutes/{author}", response_model=Mutes, responses=error_responses(401, 422))
def unmute(author: str = Path(max_length=120), principal: Principal = Depends(require_principal),
           chat: Chat = Depends(chat_service)) -> Mutes:
    viewer = caller_of(principal.__dict__, "")
    chat.unmute(viewer, author)
    return _mutes(chat, viewer)


def _mutes(chat: Chat, viewer: str) -> Mutes:
    muted = sorted(chat.muted(viewer))
    players = Players(chat.redis, chat.keys)

    def name(author: str) -> str:
        kind, _, rest = author.partition(":")
        found = players.get(rest) if kind == "player" else None
        if found is not None:
            return found.name
        return f"a guest (seat {int(rest.rpartition(':')[2]) + 1})" if kind == "seat" else "someone"

    return Mutes(muted=muted, authors=[MutedAuthor(author=a, name=name(a)) for a in muted])


# -- rematch ---------------------------------------------------------------------------

class RematchOut(BaseModel):
    game_id: str = Field(description="the new game")
    of: str = Field(description="the finished game it repeats")
    seat: int | None = Field(description="your seat in the new game (taken, or reserved for you to accept)")
    created: bool = Field(description="false: another player of the table asked first; this is their rematch")
    invited: list[int] = Field(description="seats reserved for the other players (they accept from their inbox)")


@router.post("/games/{game_id}/rematch", response_model=RematchOut, responses=error_responses(401, 403, 404, 409, 422, 503))
def rematch(game_id: str = GameId, player: Principal = Depends(require_player),
            ctx: Context = Depends(get_context)) -> RematchOut:
    """A new game with the same players, options and pace, the seats rotated one place (the second player sits
    first). You take your seat; the other registered players are invited (their inbox shows it) and accept; bots
    keep their levels. Asked again (by anyone of the table), it answers with the same new game."""
    service = Rematches(ctx.root, ctx.with_record, BotGames(ctx.guard, player.player_id))
    return RematchOut(**service.rematch(game_id, player.player_id or ""))


# -- ratings, leaderboards, profiles -------------------------------------------------------

class RatingRow(BaseModel):
    game: str
    rank: int | None = None
    identity: str = Field(description="`player:<id>` or `bot:<level>`")
    player_id: str | None
    bot: str | None
    name: str
    rating: float = Field(description="the ranking value: mu - 3 sigma (openskill's ordinal)")
    display: int = Field(description="the rating people read: 1000 + 40 (mu - 3 sigma), never below 0")
    provisional: bool = Field(description="fewer rated games than `PROVISIONAL_GAMES` (10): not on leaderboards")
    mu: float
    sigma: float
    games: int = Field(description="rated games")
    wins: int = Field(description="sole first places (a shared first place is a draw)")


class Leaderboard(BaseModel):
    game: str
    rows: list[RatingRow]


class ProfileGame(BaseModel):
    game_id: str
    game: str
    ts: float
    seat: int
    place: int
    left: Literal["resigned", "abandoned", "idle"] | None = Field(
        default=None, description="you left this game (resigned, or abandoned it): placed last, rated as such")
    seats: list[dict[str, Any]] = Field(description="each seat's `name` and `place`, and `left` for one that left")
    rating: float | None = Field(description="your rating in that game type after this game (null: not rated)")
    won: bool = Field(default=False, description="a sole first place (a shared first place is a draw)")
    away: bool = Field(default=False, description="the autopilot or a bot played your seat at the end: rated last")
    rated: bool = Field(default=False, description="this game changed your rating")
    replay: str = Field(description="where the web client replays it")


class ReliabilityOut(BaseModel):
    started: int = Field(description="finished games the player had a seat in")
    finished: int = Field(description="of those, the ones they played to the end themselves (no takeover at the "
                                      "end, not abandoned; resigning counts as finished)")
    percent: int | None = Field(description="finished / started, rounded down; null before the first game")


class Profile(BaseModel):
    player_id: str
    name: str
    handle: str | None
    games_played: int
    wins: int
    reliability: ReliabilityOut
    ratings: list[RatingRow] = Field(description="one row per game type played")
    history: dict[str, list[dict[str, float]]] = Field(description="game type -> [{ts, rating}] oldest first")
    finished: list[ProfileGame] = Field(description="finished games, newest first")


@router.get("/games/types/{game}/leaderboard", response_model=Leaderboard, responses=error_responses(400, 422))
def leaderboard(game: str = Path(max_length=64), limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0, le=100_000),
                ctx: Context = Depends(get_context)) -> Leaderboard:
    """The game's established ratings (at least 10 rated games), best first (players and bot levels alike)."""
    game_id = get_game(game).id
    rows = Ratings(ctx.redis, ctx.keys).leaderboard(game_id, limit, offset)
    return Leaderboard(game=game_id, rows=[RatingRow(game=game_id, rank=offset + i + 1, **r.to_dict())
                                           for i, r in enumerate(rows)])


class FairPlay(BaseModel):
    provisional_games: int = Field(description="rated games before a rating is established (no ? mark, listed on "
                                               "leaderboards)")
    early_end_percent: int = Field(description="a game the table ended by vote before this share of it was played "
                                               "rates only the absent player (as last)")
    display_base: int = Field(description="the display rating of a newcomer")
    display_scale: int = Field(description="display points per unit of openskill's mu - 3 sigma")


@router.get("/fair-play", response_model=FairPlay)
def fair_play() -> FairPlay:
    """The figures of the fair-play policy (docs/playing.md, "Fair play"), for the page that explains it."""
    return FairPlay(provisional_games=PROVISIONAL_GAMES, early_end_percent=round(100 * EARLY_END_LINE),
                    display_base=DISPLAY_BASE, display_scale=DISPLAY_SCALE)


@router.get("/players/{player_id}/profile", response_model=Profile, responses=error_responses(404, 422))
def profile(player_id: str = Path(pattern=r"^[A-Za-z0-9_-]{1,64}$"), ctx: Context = Depends(get_context)) -> Profile:
    """A player's public record: games played and won, a rating per game type and its history, the finished
    games with their replay links."""
    player = Players(ctx.redis, ctx.keys).get(player_id)
    if player is None:
        raise ApiError("player_not_found", f"no player {player_id!r}")
    ratings = Ratings(ctx.redis, ctx.keys)
    finished = ratings.finished_games(player_id)
    rows, history = [], {}
    for game in sorted({g["game"] for g in finished}):
        found = ratings.standing(game, f"player:{player_id}")
        if found is not None:
            rows.append(RatingRow(game=game, rank=ratings.rank(game, found.identity), **found.to_dict()))
        history[game] = [{"ts": g["ts"], "rating": g["rating"]} for g in reversed(finished)
                         if g["game"] == game and g["rating"] is not None]
    return Profile(player_id=player_id, name=player.name, handle=player.handle, games_played=len(finished),
                   wins=sum(1 for g in finished if g.get("won", g["place"] == 1)), ratings=rows, history=history,
                   reliability=ReliabilityOut(**ratings.reliability(player_id).to_dict()),
                   finished=[ProfileGame(**g, replay=f"/#/game/{g['game_id']}") for g in finished])
