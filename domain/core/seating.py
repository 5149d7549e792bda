"""Who may sit where: invitations to a seat, one seat per player unless the game is hot-seat (pure).

The creator of an open game may invite a registered player to an open seat.
While the invitation stands the seat is reserved: only the invited player
may claim it (accepting is claiming). Declining, withdrawing or expiring the
invitation opens the seat again. Time is data here: the service writes the
expiry into the invitation and the current time into an ``expired`` end, so
the domain never reads a clock.

A game created with ``hot_seat`` false lets each player hold one seat (a
hot-seat game is one device playing several seats, by choice). Games made
before the rule existed carry no ``hot_seat`` at all and keep their old
behaviour, so their records still verify.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import Field

from .errors import GameNotActive, IllegalMove, RuleError
from .messages import Command, Event

EndReason = Literal["declined", "withdrawn", "expired"]


class InviteToSeat(Command):
    """The creator (``by``) reserves ``for_seat`` for a registered player until ``expires_at``."""

    type: Literal["taproom.InviteToSeat"] = "taproom.InviteToSeat"
    for_seat: int
    player_id: str
    name: str = Field(max_length=64)
    handle: str | None = None
    expires_at: float
    by: str


class EndInvitation(Command):
    """An invitation ends unaccepted: declined by the invitee, withdrawn by the creator, or expired
    (the service's clock, ``now``, past the invitation's expiry)."""

    type: Literal["taproom.EndInvitation"] = "taproom.EndInvitation"
    for_seat: int
    player_id: str
    reason: EndReason
    by: str | None = None
    now: float | None = None


class SeatInvited(Event):
    type: Literal["taproom.SeatInvited"] = "taproom.SeatInvited"
    seat: int
    player_id: str
    name: str
    handle: str | None = None
    expires_at: float
    by: str


class InvitationEnded(Event):
    type: Literal["taproom.InvitationEnded"] = "taproom.InvitationEnded"
    seat: int
    player_id: str
    reason: EndReason


@dataclass(frozen=True)
class Invitation:
    player_id: str
    name: str
    handle: str | None
    expires_at: float
    by: str


class SeatOf(Protocol):
    """What the seating rules read of a seat (record.Seat has it: the rules need not import the record)."""

    @property
    def player_id(self) -> str | None: ...
    @property
    def invitation(self) -> Invitation | None: ...
    @property
    def taken(self) -> bool: ...


class TableOf(Protocol):
    """What the seating rules read of a game record (record.GameRecord has it)."""

    @property
    def game_id(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def creator(self) -> str | None: ...
    @property
    def hot_seat(self) -> bool | None: ...
    @property
    def seats(self) -> Sequence[SeatOf]: ...
    def open_seats(self) -> list[int]: ...


def one_seat_each(record: TableOf) -> bool:
    """True when each player may hold one seat (games made before the rule say None: no rule)."""
    return record.hot_seat is False


def check_creation(player_ids: list[str | None], hot_seat: bool | None) -> None:
    if hot_seat is not False:
        return
    bound = [p for p in player_ids if p]
    if len(bound) != len(set(bound)):
        raise RuleError("a player may take one seat of this game; create it as hot-seat to play several seats "
                        "on one device", code="already_seated")


def check_seat_free(record: TableOf, seat: int) -> None:
    """The seat exists and nobody holds it (the same code whether the API or the kernel notices first)."""
    if not 0 <= seat < len(record.seats):
        raise IllegalMove(f"game {record.game_id} has no seat {seat}; seats: 0 to {len(record.seats) - 1}")
    if record.seats[seat].taken:
        raise RuleError(f"seat {seat} is not open; open seats: {record.open_seats()}", code="seat_taken")


def check_claim(record: TableOf, seat: int, player_id: str | None) -> None:
    """A reserved seat is only for its invitee; a player holds one seat unless the game is hot-seat."""
    invitation = record.seats[seat].invitation
    if invitation is not None and invitation.player_id != player_id:
        raise RuleError(f"seat {seat} is reserved for an invited player", code="seat_reserved")
    if player_id and one_seat_each(record):
        held = [i for i, s in enumerate(record.seats) if s.player_id == player_id]
        if held:
            raise RuleError(f"you already hold seat {held[0]} of game {record.game_id} (not a hot-seat game)",
                            code="already_seated")


def superseded(record: TableOf, seat: int, player_id: str | None) -> list[Event]:
    """Taking one seat declines the player's invitations to the others (one seat each), so none stays
    reserved for a player who can no longer accept it."""
    if not player_id or not one_seat_each(record):
        return []
    return [InvitationEnded(seat=i, player_id=player_id, reason="declined") for i, s in enumerate(record.seats)
            if i != seat and s.invitation is not None and s.invitation.player_id == player_id]


def decide_invite(record: TableOf, command: InviteToSeat) -> list[Event]:
    seat = command.for_seat
    if record.status != "open":
        raise GameNotActive(f"game {record.game_id} is {record.status}; invitations are for open games")
    if record.creator is None or command.by != record.creator:
        raise RuleError(f"only the creator of game {record.game_id} invites players", code="forbidden")
    check_seat_free(record, seat)
    if record.seats[seat].invitation is not None:
        raise RuleError(f"seat {seat} already has an invitation standing", code="seat_reserved")
    if one_seat_each(record):
        if any(s.player_id == command.player_id for s in record.seats):
            raise RuleError(f"{command.name} already holds a seat of game {record.game_id}", code="already_seated")
        if any(s.invitation and s.invitation.player_id == command.player_id for s in record.seats):
            raise RuleError(f"{command.name} is already invited to game {record.game_id}", code="already_invited")
    return [SeatInvited(seat=seat, player_id=command.player_id, name=command.name, handle=command.handle,
                        expires_at=command.expires_at, by=command.by)]


def decide_end(record: TableOf, command: EndInvitation) -> list[Event]:
    seat = command.for_seat
    if record.status != "open":
        raise GameNotActive(f"game {record.game_id} is {record.status}; its invitations are over")
    invitation = record.seats[seat].invitation if 0 <= seat < len(record.seats) else None
    if invitation is None or invitation.player_id != command.player_id:
        raise RuleError(f"no invitation of that player stands for seat {seat}", code="invitation_not_found")
    if command.reason == "declined" and command.by != invitation.player_id:
        raise RuleError("only the invited player declines an invitation", code="forbidden")
    if command.reason == "withdrawn" and command.by != record.creator:
        raise RuleError("only the game's creator withdraws an invitation", code="forbidden")
    if command.reason == "expired" and (command.now is None or command.now < invitation.expires_at):
        raise IllegalMove(f"the invitation to seat {seat} has not expired yet")
    return [InvitationEnded(seat=seat, player_id=command.player_id, reason=command.reason)]


def invitation_of(event: SeatInvited) -> Invitation:
    return Invitation(player_id=event.player_id, name=event.name, handle=event.handle,
                      expires_at=event.expires_at, by=event.by)


def bot_seat_names(seats: list[tuple[str | None, str | None]]) -> list[str | None]:
    """Names for the bot seats among (name, bot level) pairs, distinct and saying the level: "Greedy bot",
    or "Random bot 1", "Random bot 2" when a level sits more than once; a name the creator gave is kept
    with the level after it. Human and open seats get None (their name is their own)."""
    counts: dict[str, int] = {}
    for _, level in seats:
        if level:
            counts[level] = counts.get(level, 0) + 1
    seen: dict[str, int] = {}
    names: list[str | None] = []
    for name, level in seats:
        if not level:
            names.append(None)
            continue
        seen[level] = seen.get(level, 0) + 1
        if name:
            names.append(f"{name[:40]} ({level} bot)")
        else:
            number = f" {seen[level]}" if counts[level] > 1 else ""
            names.append(f"{level.capitalize()} bot{number}")
    return names
