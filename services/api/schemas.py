"""Request and response bodies of the HTTP API."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=64, description="display name; others may have the same")
    handle: str | None = Field(default=None, min_length=1, max_length=64,
                               description="unique (ignoring case): 3-20 letters, digits or '_', starting with a "
                                           "letter; omitted: one is made from the name")


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
    seat: int | None = None


class JoinResponse(BaseModel):
    game_id: str
    seat: int
    version: int
    token: str | None = None


class CommandResponse(BaseModel):
    status: str
    command_id: str
    version: int | None = None
    events: list[dict[str, Any]] | None = None
    poll: str | None = None
