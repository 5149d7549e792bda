"""Request and response bodies of the HTTP API."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from projections.read_models import GameMeta, GameStatus


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=64, description="display name; others may have the same")
    handle: str | None = Field(default=None, min_length=1, max_length=64,
                               description="unique (ignoring case): 3-20 letters, digits or '_', starting with a "
                                           "letter; omitted: one is made from the name")
    client_key: str | None = Field(
        default=None, min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_-]+$",
        description="a secret of the client's own choosing (e.g. 22+ random URL-safe characters) that makes the "
                    "registration safe to send again: within a day, the same body under the same key answers the "
                    "same player, token and recovery code (not a second account), as long as the token has not "
                    "been rotated since (then 409 client_key_used); another name or handle under it: 409 "
                    "client_key_reused. Keep it as secret as the token")


class PlayerCreated(BaseModel):
    player_id: str
    name: str
    handle: str
    token: str = Field(description="shown once: acts for all the player's seats")
    recovery_code: str = Field(description="shown once: replaces a lost token (POST /players/recover)")


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=64, description="a human's name; omit (with no bot) for an open seat")
    bot: str | None = Field(default=None, description="bot level: random, greedy or search")
    me: bool = Field(default=False, description="bind this seat to the calling player")


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(min_length=1, max_length=8)
    hot_seat: bool = Field(default=False, description="one device, several seats: lets the caller take more than "
                                                      "one seat (me=true) of this game")
    seed: str | None = Field(default=None, description="development only: a chosen seed (refused unless the server allows it)")
    tutorial: bool = Field(default=False, description="a guided first game: your own seat (me=true) against bots, "
                                                      "untimed; always a casual game with hints (rated and hints "
                                                      "are set for it), a client shows its coach panel")
    rated: bool = Field(default=True, description="false: a casual game, left out of the ratings and leaderboards")
    min_reliability: int | None = Field(default=None, ge=0, le=100, description="admit only registered players whose "
                                        "reliability (per cent of their finished games played to the end without a "
                                        "takeover) is at least this; others are refused with `reliability_too_low`")
    hints: bool = Field(default=False, description="let the seats ask the search bot for a hint on their turn "
                        "(POST /games/{id}/hint); only in a casual game (rated false), else `hints_in_rated_game`")
    pace: str | dict[str, Any] | None = Field(
        default=None,
        description="time per turn: '1h' | '1d' | '3d' | 'bank', or {per_move_seconds | bank_seconds + "
                    "increment_seconds, on_timeout: autopilot|skip, autopilot_level, open_expiry_seconds, "
                    "takeover_after (consecutive timeouts before the autopilot keeps the seat; default 3), "
                    "takeover_vote: end|replace|none (what the other seats may then vote for; default end)}; "
                    "a timeout plays the overdue turn only; none: untimed")


class SeatCreated(BaseModel):
    seat: int
    name: str | None
    bot: str | None = None
    token: str | None = None


class GameCreatedResponse(BaseModel):
    game_id: str
    version: int
    seed_commitment: str
    seats: list[SeatCreated]


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=64)
    seat: int | None = Field(default=None, ge=0, le=2**53 - 1)


class JoinResponse(BaseModel):
    game_id: str
    seat: int
    version: int
    token: str | None = None


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ErrorBody(BaseModel):
    """Every error: a stable machine-readable code and a message for people."""

    code: str = Field(examples=["not_your_turn"])
    message: str = Field(examples=["seat 1 may not act now; waiting for seat(s) [0]"])


class GameView(GameMeta):
    """A game as one seat (or the public) sees it at one version."""

    seat: int | None = Field(description="the seat this view is for; null: the public view")
    board: dict[str, Any] | None = Field(description="the game's own view for this seat: see the game's "
                                                     "conventions in the API description")
    clock: dict[str, Any] | None = Field(default=None, description="timed games: `now`, `takeover_after` and "
                                                                   "each waiting seat's deadline (live views only)")


class InboxGame(GameMeta):
    my_seats: list[int]
    my_turn: bool


class Lobby(BaseModel):
    open: list[GameMeta] = Field(description="games with open seats, oldest first")
    finished: list[GameMeta] = Field(description="recently scored games, latest first")


class Inbox(BaseModel):
    awaiting: list[InboxGame] = Field(description="games where one of your seats is to act, longest waiting first")
    others: list[InboxGame]
    invitations: list[dict[str, Any]] = Field(default_factory=list, description="invitations standing for you, "
                                              "as `GET /players/me/invitations` lists them")


class EventOut(_Open):
    """A stored event envelope, hidden fields replaced by "hidden" for a caller who may not see them."""

    game_id: str
    version: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    visibility: Literal["public", "private"]
    command_id: str
    actor: str
    ts: float
    prev_hash: str
    hash: str


class History(BaseModel):
    game_id: str
    version: int = Field(description="the game's version now")
    seat: int | None = Field(description="the seat the events are redacted for (null: public)")
    events: list[EventOut]


class LegalCommands(BaseModel):
    version: int
    seat: int
    commands: list[dict[str, Any]] = Field(description="ready-to-send command bodies (add a command_id): the game's "
                                                       "own while the seat is to act, then the kernel's (`taproom.*`) "
                                                       "that apply now, `taproom.Resign` at any point of an active game")


class CommandAccepted(BaseModel):
    status: Literal["accepted"]
    command_id: str
    version: int = Field(description="the game's version after the command")
    events: list[EventOut] | None = Field(default=None, description="the events the command caused, redacted "
                                                                    "for the caller")
    to_act: list[int] | None = Field(default=None, description="the seats to act now (submissions only)")
    legal: LegalCommands | None = Field(default=None, description="the caller's legal commands now, when its seat "
                                                                  "is still to act (submissions only): no "
                                                                  "`/legal` request needed before the next move")


class CommandQueued(_Open):
    """Still queued after the short wait: poll the link (the command is not lost)."""

    status: Literal["queued"]
    command_id: str
    poll: str | None = None


class Health(BaseModel):
    status: str
    redis: str


class GameType(_Open):
    id: str
    title: str
    summary: str = Field("", description="a few sentences for a newcomer choosing a game")
    min_players: int
    max_players: int
    options: dict[str, Any] = Field(description="JSON schema of the game's options")
    commands: dict[str, Any] = Field(description="JSON schema of each command type")
    has_description: bool = Field(False, description="the game serves a static description for clients at "
                                                     "`GET /games/types/{game}/description`")


class ClockSeat(_Open):
    seat: int
    away: str | None = None
    bank_seconds: float | None = None
    waiting_since: float | None = None
    deadline: float | None = None


class Clock(BaseModel):
    game_id: str
    version: int
    status: GameStatus
    pace: dict[str, Any] | None
    seats: list[ClockSeat]


class SeatActionAccepted(BaseModel):
    """A seat's kernel command (reclaim, vote) was accepted."""

    status: Literal["accepted"]
    seat: int
    version: int


class Notifications(BaseModel):
    notifications: list[dict[str, Any]]


class VacationStatus(_Open):
    year: int
    days_per_year: float
    days_used: float
    days_left: float
    on_vacation: bool
    until: float | None


class WebhookStatus(BaseModel):
    registered: bool
    url: str | None
