"""Votes about a seat taken over by the autopilot (end the game as it stands, or replace the player), or about a
seat an untimed game has waited for too long (end the game, the seat last; or give the seat to a bot)."""

from __future__ import annotations

from .errors import GameNotActive, IllegalMove, InvalidCommand
from .kernel_messages import GameEnded, SeatLeft, Vote, VoteCast, VotePassed, VoteWithdrawn, WithdrawVote
from .leaving import successor_level
from .messages import Event
from .record import GameRecord, vote_choices, voters


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
    allowed = vote_choices(record, about)
    if not allowed:
        raise IllegalMove(f"seat {about} is not taken over by the autopilot nor absent at version "
                          f"{record.version} (or the game's pace allows no vote)")
    if command.choice not in allowed:
        raise IllegalMove(f"game {record.game_id}'s pace lets seats vote to {allowed[0]}, not to {command.choice}")
    eligible = voters(record, about)
    if command.seat not in eligible:
        raise IllegalMove(f"seat {command.seat} may not vote about seat {about}; voters: {eligible}")
    if command.seat in target.votes:
        raise IllegalMove(f"seat {command.seat} has voted about seat {about} already")
    events: list[Event] = [VoteCast(seat=command.seat, about_seat=about, choice=command.choice)]
    agreed = not target.absent or all(choice == command.choice for choice in target.choices)
    if agreed and set(eligible) <= {*target.votes, command.seat}:  # unanimous: nobody is voted out by a minority
        events += _passed(record, about, command.choice)
    return events


def _passed(record: GameRecord, about: int, choice: str) -> list[Event]:
    """The table agreed. About an absent seat, the seat leaves (last place) and a bot plays it or the game
    ends; about a taken-over seat, as before leaving existed (the game ends as it stands, or a bot plays it)."""
    if record.seats[about].absent:
        level = successor_level(record) if choice == "replace" else None
        passed = VotePassed(about_seat=about, choice=choice, level=level)
        left = SeatLeft(seat=about, how="abandoned", level=level)
        return [passed, left] if level is not None else [passed, left, GameEnded()]
    level = record.pace.autopilot_level if record.pace and choice == "replace" else None
    ended: list[Event] = [GameEnded()] if choice == "end" else []
    return [VotePassed(about_seat=about, choice=choice, level=level), *ended]
