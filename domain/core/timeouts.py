"""Timeouts and away seats: the table's policy plays a timed-out turn, or every turn of a seat taken over.

A timed-out seat's turn is played by the table's policy (``autopilot``: a bot's move carried in the command;
``skip``: :func:`skip_move`, the game's declared pass or its first legal move).
"""

from __future__ import annotations

from typing import Any

from .errors import GameNotActive, IllegalMove, InvalidCommand, NotYourTurn
from .game import Game
from .kernel_messages import PlayFor, ReclaimSeat, SeatAutopiloted, SeatReclaimed, StaleVersion, TimeOut, TurnTimedOut
from .messages import Command, Event
from .record import Dice, GameRecord, Seat


def decide_play_for(record: GameRecord, command: TimeOut | PlayFor, dice: Dice) -> list[Event]:
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status} at version {record.version}")
    if command.at_version != record.version:
        raise StaleVersion(f"{command.type} for version {command.at_version}, but the game is at {record.version}")
    seat = command.for_seat
    if not 0 <= seat < len(record.seats) or seat not in record.to_act():
        raise NotYourTurn(f"seat {seat} is not to act at version {record.version}")
    pace = record.pace
    info = record.seats[seat]
    events: list[Event] = []
    if isinstance(command, TimeOut):
        if pace is None or not pace.timed:
            raise IllegalMove(f"game {record.game_id} is untimed; no seat times out")
        if info.overdue is not None:
            raise IllegalMove(f"seat {seat} timed out in this turn already (version {info.last_timeout})")
        policy = pace.on_timeout
        events.append(TurnTimedOut(seat=seat, policy=policy))
        if info.autopilot is None and info.timeouts + 1 >= pace.timeouts_to_takeover:
            level = pace.autopilot_level if policy == "autopilot" else None
            events.append(SeatAutopiloted(seat=seat, policy=policy, level=level))
    else:
        policy_or_none = record.played_for(seat)
        if policy_or_none is None:
            raise IllegalMove(f"seat {seat} is neither on autopilot nor in a timed-out turn "
                              f"at version {record.version}")
        policy = policy_or_none
    game = record.game
    if policy == "skip":
        move = skip_move(game, record.state, seat)
    else:
        if command.move is None:
            raise InvalidCommand(f"{command.type} for an autopiloted seat needs the autopilot's move")
        move = game.parse_command({**command.move, "seat": seat})
    events += game.decide(record.state, move, dice.rng(record.version))
    return events


def missed(info: Seat) -> bool:
    """The seat has something to take back: it is taken over, its holder missed a deadline since moving, or an
    untimed game marked it absent."""
    return info.autopilot is not None or info.timeouts > 0 or info.overdue is not None or info.absent


def decide_reclaim(record: GameRecord, command: ReclaimSeat) -> list[Event]:
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status}; seats are reclaimed while it runs")
    if not 0 <= command.seat < len(record.seats) or not missed(record.seats[command.seat]):
        raise IllegalMove(f"seat {command.seat} is not on autopilot, absent, nor has a missed turn "
                          f"at version {record.version}")
    return [SeatReclaimed(seat=command.seat)]


def skip_move(game: Game[Any], state: Any, seat: int) -> Command:
    """The move a skipped seat makes: a pass when the rules offer one, else the game's first legal move.

    Most of these games oblige a move (a drawn tile must be placed), so "skip"
    means giving up the turn where the rules allow it and the most neutral
    move (the first the game lists) where they do not.
    """
    legal = game.legal_commands(state, seat)
    if not legal:
        raise IllegalMove(f"seat {seat} has no legal move to skip with")
    for kind in game.pass_commands:
        for command in legal:
            if command.type == kind:
                return command
    return legal[0]
