"""Votes about a seat taken over by the autopilot: end the game as it stands, or replace the player."""

from __future__ import annotations

from .errors import GameNotActive, IllegalMove, InvalidCommand
from .kernel_messages import GameEnded, Vote, VoteCast, VotePassed, VoteWithdrawn, WithdrawVote
from .messages import Event
from .record import GameRecord, voters


def decide_vote(record: GameRecord, command: Vote | WithdrawVote) -> list[Event]:
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status}; votes are held while it runs")
    about = command.about_seat
    if not 0 <= about < len(record.seats):
        raise InvalidCommand(f"no seat {about} in game {record.game_id}")
    target = record.seats[about]
    if isinstance(command, WithdrawVote):
        if command.seat not in target.votes:
            raise IllegalMove(f"seat {command.seat} has no vote about seat {about} to withdraw")
        return [VoteWithdrawn(seat=command.seat, about_seat=about)]
    allowed = record.pace.vote if record.pace else "none"
    if allowed == "none":
        raise IllegalMove(f"game {record.game_id}'s pace allows no vote about a taken-over seat")
    if command.choice != allowed:
        raise IllegalMove(f"game {record.game_id}'s pace lets seats vote to {allowed}, not to {command.choice}")
    if target.autopilot is None:
        raise IllegalMove(f"seat {about} is not taken over by the autopilot at version {record.version}")
    eligible = voters(record, about)
    if command.seat not in eligible:
        raise IllegalMove(f"seat {command.seat} may not vote about seat {about}; voters: {eligible}")
    if command.seat in target.votes:
        raise IllegalMove(f"seat {command.seat} has voted about seat {about} already")
    events: list[Event] = [VoteCast(seat=command.seat, about_seat=about, choice=command.choice)]
    if set(eligible) <= {*target.votes, command.seat}:  # unanimous: nobody is voted out by a minority
        level = record.pace.autopilot_level if record.pace and command.choice == "replace" else None
        events.append(VotePassed(about_seat=about, choice=command.choice, level=level))
        if command.choice == "end":
            events.append(GameEnded())
    return events
