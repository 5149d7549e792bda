"""Leaving a game for good: resigning, a seat the table votes out, a game that ended idle (pure).

A human seat may ``taproom.Resign`` at any point of an active game, its turn or not. With two seats still in,
the game ends (``SeatLeft`` then ``GameEnded``); with more, a bot at the game's autopilot level plays the seat
to the end (``SeatLeft.level``). Either way the seat takes last place.

An untimed game never times a seat out, so the service watches how long a seat has been to act: past its
"abandoned" time it sends ``MarkAbsent`` (``SeatAbsent``: the player was told before), and the other human
seats may vote about the absent seat (:mod:`.votes`): end the game (the seat last) or give it to a bot (the
seat last too: it left the game). Any command of the absent seat takes it back (``SeatReclaimed``). Past the
idle limit the service sends ``EndIdleGame``: the seats the game waits for leave and the game ends. The domain
reads no clock: the service decides when; the commands name the version they were decided at, so a move in
between makes them stale.

**Last place, the one rule** (:func:`final_places`): the seats still in rank among themselves by the game's
score (ties share a place); below all of them come the seats that left, whatever their score, the latest to
leave first: in a 4-player game where Ann resigned and later Ben did, Ben is third and Ann fourth (the one who
stayed longer ranks higher). Seats that left at one moment (a game ended idle waiting for several) rank
among themselves by score. Every place the service shows or rates comes from ``GameScored.places``, which
the kernel computes with this rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .errors import GameNotActive, IllegalMove, NotYourTurn
from .game import Score, rank
from .kernel_messages import EndIdleGame, GameEnded, MarkAbsent, Resign, SeatAbsent, SeatLeft, StaleVersion
from .messages import Event
from .record import GameRecord, may_resign

RESIGNED_SEAT_LEVEL = "random"
"""The bot that plays a resigned (or voted-out) seat of a game without a pace; a paced game's is its
``autopilot_level`` (the pace's default is the same level)."""


class AlreadyLeft(IllegalMove):
    code = "already_resigned"


def successor_level(record: GameRecord) -> str:
    """The bot level that takes over a seat whose player left (the game's autopilot level)."""
    return record.pace.autopilot_level if record.pace is not None else RESIGNED_SEAT_LEVEL


def still_in(record: GameRecord) -> list[int]:
    return [i for i, s in enumerate(record.seats) if not s.left]


def leave(record: GameRecord, seat: int, how: str) -> list[Event]:
    """``seat`` leaves: the game ends when at most one seat would still be in, else a bot takes the seat."""
    ends = len([s for s in still_in(record) if s != seat]) <= 1
    left = SeatLeft(seat=seat, how=how, level=None if ends else successor_level(record))
    return [left, GameEnded()] if ends else [left]


def decide_resign(record: GameRecord, command: Resign) -> list[Event]:
    seat = command.seat
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status}; only a game being played can be resigned")
    if 0 <= seat < len(record.seats) and record.seats[seat].left:
        raise AlreadyLeft(f"seat {seat} has left game {record.game_id} already")
    if not may_resign(record, seat):
        raise IllegalMove(f"seat {seat} is not a player's seat in game {record.game_id}; only players resign")
    return leave(record, seat, "resigned")


def _check_now(record: GameRecord, at_version: int, what: str) -> None:
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status} at version {record.version}")
    if at_version != record.version:
        raise StaleVersion(f"{what} for version {at_version}, but the game is at {record.version}")
    if record.pace is not None and record.pace.timed:
        raise IllegalMove(f"game {record.game_id} is timed: its seats time out instead")


def decide_mark_absent(record: GameRecord, command: MarkAbsent) -> list[Event]:
    _check_now(record, command.at_version, command.type)
    for seat in command.for_seats:
        if seat not in record.to_act():
            raise NotYourTurn(f"seat {seat} is not to act at version {record.version}")
        info = record.seats[seat]
        if info.bot is not None or info.absent:
            raise IllegalMove(f"seat {seat} is a bot's or marked absent already at version {record.version}")
    return [SeatAbsent(seat=seat) for seat in sorted(set(command.for_seats))]


def decide_end_idle(record: GameRecord, command: EndIdleGame) -> list[Event]:
    _check_now(record, command.at_version, command.type)
    waited_for = [s for s in record.to_act() if record.seats[s].bot is None]
    if not waited_for:
        raise IllegalMove(f"game {record.game_id} waits for no player at version {record.version}")
    return [*(SeatLeft(seat=s, how="idle", together=i > 0) for i, s in enumerate(waited_for)), GameEnded()]


def final_places(scores: Sequence[Score], left: Mapping[int, int]) -> dict[int, int]:
    """Place per seat (1 = first): the seats still in by :func:`~domain.core.game.rank`, then those that left
    (``left``: seat -> order of leaving, 1 = first to leave), the latest to leave first; seats of one order of
    leaving (they left together) by score among themselves."""
    staying = [s for s in scores if s.seat not in left]
    places = rank(staying)
    above = len(staying)
    for order in sorted(set(left.values()), reverse=True):  # seats that left at one moment: by score among them
        group = [s for s in scores if left.get(s.seat) == order]
        for seat, place in rank(group).items():
            places[seat] = above + place
        above += len(group)
    return places


def places_of(record: GameRecord, scores: Sequence[Score]) -> dict[int, int]:
    """The final places of ``record`` (see :func:`final_places`)."""
    return final_places(scores, {i: s.left for i, s in enumerate(record.seats) if s.left})
