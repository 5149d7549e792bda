"""The kernel's own commands and events (``taproom.*``, so no game can collide with them)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer

from .errors import RuleError
from .game import Score
from .messages import Command, Event
from .pace import Pace, TimeoutPolicy
from .seating import EndInvitation, InvitationEnded, InviteToSeat, SeatInvited
from .undo import MoveUndone, Undo


class StaleVersion(RuleError):
    code = "stale_version"


class SeatSpec(BaseModel):
    """A seat at creation: a named human (player_id may be bound), a bot, or open (name None)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str | None = Field(default=None, max_length=64)
    bot: str | None = None
    player_id: str | None = None


def _without_none_pace(data: dict[str, Any]) -> dict[str, Any]:
    """Records made before paces, creators and the hot-seat flag existed carry none of these keys; a game
    without them keeps it that way (so old records serialize, hash and verify as they were)."""
    for key in ("pace", "creator", "hot_seat", "tutorial", "rated", "hints"):
        if data.get(key, 0) is None:
            del data[key]
    return data


# -- kernel commands -------------------------------------------------------

class CreateGame(Command):
    type: Literal["taproom.CreateGame"] = "taproom.CreateGame"
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec]
    seed_commitment: str
    pace: Pace | str | None = None
    creator: str | None = None
    hot_seat: bool | None = None
    """False: a player holds one seat; True: one device may play several; None: a game from before the rule."""
    tutorial: bool | None = None
    """True: a guided first game (one player's seat against bots, untimed): always casual with hints, the flag only
    tells a client to show the tutorial's coach panel beside the board."""
    rated: bool | None = None
    """False: a casual game, left out of the ratings; None (a game from before the option) and True: rated."""
    hints: bool | None = None
    """True: a seat may ask the search bot for a hint (``taproom.Hint``); only in an unrated game."""
    min_reliability: int | None = Field(default=None, ge=0, le=100)
    """Only players whose reliability (per cent of their games finished without a takeover) is at least this may
    take a seat; the service checks it (the kernel records it)."""

    @model_serializer(mode="wrap")
    def _dump(self, handler: Any) -> dict[str, Any]:
        return _without_none_pace(handler(self))


class ClaimSeat(Command):
    type: Literal["taproom.ClaimSeat"] = "taproom.ClaimSeat"
    name: str = Field(max_length=64)
    player_id: str | None = None


class ScoreGame(Command):
    type: Literal["taproom.ScoreGame"] = "taproom.ScoreGame"


class TimeOut(Command):
    """System: ``for_seat`` ran out of time at ``at_version``; the table's policy plays this turn.

    ``move`` is the autopilot's move (a bot chose it from the seat's view);
    the skip policy needs none (the kernel picks the neutral move).
    """

    type: Literal["taproom.TimeOut"] = "taproom.TimeOut"
    for_seat: int
    at_version: int
    move: dict[str, Any] | None = None


class PlayFor(Command):
    """System: the away policy's move for a seat that timed out and has not come back."""

    type: Literal["taproom.PlayFor"] = "taproom.PlayFor"
    for_seat: int
    at_version: int
    move: dict[str, Any] | None = None


class ReclaimSeat(Command):
    """The holder of ``seat`` takes it back from the autopilot (and clears its count of timeouts)."""

    type: Literal["taproom.ReclaimSeat"] = "taproom.ReclaimSeat"


class Vote(Command):
    """``seat`` votes to end the game as it stands, or to replace the player of the taken-over
    ``about_seat`` with a bot; ``choice`` must be what the game's pace allows (about a seat marked absent in
    an untimed game, either)."""

    type: Literal["taproom.Vote"] = "taproom.Vote"
    about_seat: int
    choice: Literal["end", "replace"]


class WithdrawVote(Command):
    type: Literal["taproom.WithdrawVote"] = "taproom.WithdrawVote"
    about_seat: int


class Hint(Command):
    """A seat to act asks the search bot for a move (a game created with ``hints``): the log records that it
    asked (``HintAsked``, seen by every seat); the answer goes to the asking seat alone, never into the log."""

    type: Literal["taproom.Hint"] = "taproom.Hint"


class ExpireGame(Command):
    """System: an open game nobody filled in time is closed."""

    type: Literal["taproom.ExpireGame"] = "taproom.ExpireGame"


class Resign(Command):
    """The seat's holder leaves the game for good: last place; with two seats the game ends, with more a bot
    at the game's autopilot level plays the seat to the end (see :mod:`domain.core.leaving`)."""

    type: Literal["taproom.Resign"] = "taproom.Resign"


class MarkAbsent(Command):
    """System: at ``at_version``, each of ``for_seats`` of an untimed game has been to act for the service's
    "abandoned" time (several at once in a simultaneous phase); the other human seats may now vote to end the
    game or give the seat to a bot."""

    type: Literal["taproom.MarkAbsent"] = "taproom.MarkAbsent"
    for_seats: list[int] = Field(min_length=1)
    at_version: int


class EndIdleGame(Command):
    """System: nobody the game waits for has moved since ``at_version`` for the service's idle limit; the
    game ends as it stands, the seats it waited for last."""

    type: Literal["taproom.EndIdleGame"] = "taproom.EndIdleGame"
    at_version: int


KERNEL_COMMANDS: dict[str, type[Command]] = {
    c.model_fields["type"].default: c
    for c in (CreateGame, ClaimSeat, ScoreGame, TimeOut, PlayFor, ReclaimSeat, ExpireGame, InviteToSeat,
              EndInvitation, Vote, WithdrawVote, Undo, Resign, MarkAbsent, EndIdleGame, Hint)
}
SYSTEM_ONLY = (ScoreGame, TimeOut, PlayFor, ExpireGame, MarkAbsent, EndIdleGame)
PLAYER_KERNEL_COMMANDS: tuple[str, ...] = ("taproom.ReclaimSeat", "taproom.Vote", "taproom.WithdrawVote", "taproom.Undo",
                                           "taproom.Resign", "taproom.Hint")
"""Kernel commands a seat's holder may send like a move (the others are the service's own)."""


# -- kernel events ---------------------------------------------------------

class GameCreated(Event):
    type: Literal["taproom.GameCreated"] = "taproom.GameCreated"
    game: str
    options: dict[str, Any]
    seats: list[SeatSpec]
    seed_commitment: str
    pace: Pace | None = None
    creator: str | None = None
    hot_seat: bool | None = None
    tutorial: bool | None = None
    rated: bool | None = None
    hints: bool | None = None
    min_reliability: int | None = None

    @model_serializer(mode="wrap")
    def _dump(self, handler: Any) -> dict[str, Any]:
        return _without_none_pace(handler(self))


class SeatClaimed(Event):
    type: Literal["taproom.SeatClaimed"] = "taproom.SeatClaimed"
    seat: int
    name: str
    player_id: str | None = None


class GameStarted(Event):
    type: Literal["taproom.GameStarted"] = "taproom.GameStarted"


class GameEnded(Event):
    type: Literal["taproom.GameEnded"] = "taproom.GameEnded"


class GameScored(Event):
    type: Literal["taproom.GameScored"] = "taproom.GameScored"
    scores: list[Score]
    places: dict[int, int]


class SeedRevealed(Event):
    type: Literal["taproom.SeedRevealed"] = "taproom.SeedRevealed"
    seed: str  # hex


class TurnTimedOut(Event):
    type: Literal["taproom.TurnTimedOut"] = "taproom.TurnTimedOut"
    seat: int
    policy: TimeoutPolicy


class SeatAutopiloted(Event):
    """The seat is away: ``policy`` plays its turns until its holder reclaims it."""

    type: Literal["taproom.SeatAutopiloted"] = "taproom.SeatAutopiloted"
    seat: int
    policy: TimeoutPolicy
    level: str | None = None


class SeatReclaimed(Event):
    """The holder is back: the away policy stops, the count of timeouts and the votes about the seat clear."""

    type: Literal["taproom.SeatReclaimed"] = "taproom.SeatReclaimed"
    seat: int


class SeatReturned(Event):
    """The timed-out turn is over: the seat is its holder's again (its next turn has a fresh deadline)."""

    type: Literal["taproom.SeatReturned"] = "taproom.SeatReturned"
    seat: int


class VoteCast(Event):
    type: Literal["taproom.VoteCast"] = "taproom.VoteCast"
    seat: int
    about_seat: int
    choice: Literal["end", "replace"]


class VoteWithdrawn(Event):
    type: Literal["taproom.VoteWithdrawn"] = "taproom.VoteWithdrawn"
    seat: int
    about_seat: int


class VotePassed(Event):
    """Every other human seat agreed: the game ends as it stands (``GameEnded`` follows), or a bot at
    ``level`` takes ``about_seat`` for good."""

    type: Literal["taproom.VotePassed"] = "taproom.VotePassed"
    about_seat: int
    choice: Literal["end", "replace"]
    level: str | None = None


class HintAsked(Event):
    """``seat`` asked the search bot for a hint (what it answered is the seat's alone)."""

    type: Literal["taproom.HintAsked"] = "taproom.HintAsked"
    seat: int


class GameExpired(Event):
    type: Literal["taproom.GameExpired"] = "taproom.GameExpired"


LeftHow = Literal["resigned", "abandoned", "idle"]


class SeatLeft(Event):
    """``seat``'s player left the game for good and takes last place (of those still in): they ``resigned``, or
    ``abandoned`` it (the table voted them out), or the game ended ``idle`` while it waited for them. ``level``: the
    bot that plays the seat to the end (None: the game ends, or nobody plays it any more)."""

    type: Literal["taproom.SeatLeft"] = "taproom.SeatLeft"
    seat: int
    how: LeftHow
    level: str | None = None
    together: bool = False
    """Left at the same moment as the seat of the ``SeatLeft`` before it (a game ended idle waiting for both):
    they share one rank of leaving and are placed among themselves by score."""


class SeatAbsent(Event):
    """``seat`` of an untimed game has been to act for the service's "abandoned" time: the vote about it opens."""

    type: Literal["taproom.SeatAbsent"] = "taproom.SeatAbsent"
    seat: int


KERNEL_EVENTS: dict[str, type[Event]] = {
    e.model_fields["type"].default: e
    for e in (GameCreated, SeatClaimed, GameStarted, GameEnded, GameScored, SeedRevealed,
              TurnTimedOut, SeatAutopiloted, SeatReclaimed, GameExpired, SeatInvited, InvitationEnded,
              SeatReturned, VoteCast, VoteWithdrawn, VotePassed, MoveUndone, SeatLeft, SeatAbsent, HintAsked)
}
