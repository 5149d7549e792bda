"""The kernel side of asynchronous play (pure): time-outs, away seats, taking a seat back, expiry."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.core import SYSTEM_SEAT, GameNotActive, IllegalMove, InvalidCommand, NotYourTurn, RuleError
from domain.core.lifecycle import (
    ClaimSeat,
    CreateGame,
    ExpireGame,
    GameRecord,
    Pace,
    PlayFor,
    ReclaimSeat,
    StaleVersion,
    TimeOut,
    execute,
    parse_command,
    parse_pace,
)
from tests.fixture_game import Add


class Dice:
    def rng(self, version: int) -> Any:
        return random.Random(version)

    def reveal(self) -> bytes:
        return b"\0" * 32


def new_game(pace: Any, seats: int = 2, open_seats: int = 0) -> GameRecord:
    specs = [{"name": f"p{i}", "player_id": f"pl{i}"} for i in range(seats - open_seats)] + [{}] * open_seats
    command = parse_command(None, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": 20},
                                   "seats": specs, "seed_commitment": "c", "pace": pace})
    _, record = execute(None, "g1", command, Dice())
    return record


def run(record: GameRecord, command: Any) -> list[str]:
    events, _ = execute(record, "g1", command, Dice())
    return [e.type for e in events]


def test_timeout_autopilots_the_seat_and_plays_the_bots_move() -> None:
    record = new_game({"per_move_seconds": 3600})
    assert record.pace == Pace(per_move_seconds=3600) and record.status == "active"
    kinds = run(record, TimeOut(for_seat=0, at_version=record.version, move={"type": "Add", "amount": 3}))
    assert kinds == ["taproom.TurnTimedOut", "taproom.SeatAutopiloted", "Added", "CardDealt"]
    assert record.seats[0].autopilot == "autopilot" and record.state.points == [3, 0]
    run(record, Add(seat=1, amount=1))
    # the away seat is played by PlayFor until its holder comes back
    assert run(record, PlayFor(for_seat=0, at_version=record.version, move={"type": "Add", "amount": 2})) == \
        ["Added", "CardDealt"]
    assert record.state.points == [5, 1]


def test_the_holder_takes_the_seat_back_by_command_or_by_moving() -> None:
    record = new_game("1h")
    run(record, TimeOut(for_seat=0, at_version=record.version, move={"type": "Add", "amount": 1}))
    assert run(record, ReclaimSeat(seat=0)) == ["taproom.SeatReclaimed"]
    assert record.seats[0].autopilot is None
    with pytest.raises(IllegalMove):
        run(record, ReclaimSeat(seat=0))  # not away any more
    run(record, TimeOut(for_seat=1, at_version=record.version, move={"type": "Add", "amount": 1}))
    run(record, Add(seat=0, amount=1))
    assert run(record, Add(seat=1, amount=1))[0] == "taproom.SeatReclaimed"  # a move of the holder
    with pytest.raises(IllegalMove):
        run(record, PlayFor(for_seat=0, at_version=record.version, move={"type": "Add", "amount": 1}))


def test_skip_plays_a_pass_or_the_first_legal_move_without_a_bot() -> None:
    record = new_game({"per_move_seconds": 60, "on_timeout": "skip"})
    kinds = run(record, TimeOut(for_seat=0, at_version=record.version))
    assert kinds == ["taproom.TurnTimedOut", "taproom.SeatAutopiloted", "Added", "CardDealt"]
    assert record.state.points == [1, 0] and record.seats[0].autopilot == "skip"  # counter has no pass: Add 1


def test_timeouts_are_checked_like_any_command() -> None:
    record = new_game("1d")
    version = record.version
    with pytest.raises(StaleVersion):
        run(record, TimeOut(for_seat=0, at_version=version - 1, move={"type": "Add", "amount": 1}))
    with pytest.raises(NotYourTurn):
        run(record, TimeOut(for_seat=1, at_version=version, move={"type": "Add", "amount": 1}))
    with pytest.raises(InvalidCommand):
        run(record, TimeOut(for_seat=0, at_version=version))  # autopilot needs the bot's move
    with pytest.raises(InvalidCommand):
        run(record, TimeOut(seat=0, for_seat=0, at_version=version, move={"type": "Add", "amount": 1}))
    with pytest.raises(IllegalMove):
        run(record, TimeOut(for_seat=0, at_version=version, move={"type": "Add", "amount": 7}))
    assert record.version == version and record.seats[0].autopilot is None  # nothing changed
    untimed = new_game(None)
    with pytest.raises(IllegalMove):
        run(untimed, TimeOut(for_seat=0, at_version=untimed.version, move={"type": "Add", "amount": 1}))


def test_only_an_open_game_expires() -> None:
    record = new_game(None, open_seats=1)
    assert run(record, ExpireGame()) == ["taproom.GameExpired", "taproom.SeedRevealed"]  # nothing dealt: shown
    assert record.status == "expired"
    with pytest.raises(GameNotActive):
        run(record, ClaimSeat(seat=1, name="late"))
    started = new_game(None)
    with pytest.raises(GameNotActive):
        run(started, ExpireGame())


def test_paces_and_untimed_records_serialize_as_before() -> None:
    assert "pace" not in CreateGame(game="counter", seats=[], seed_commitment="").model_dump()
    events, _ = execute(None, "g1", parse_command(None, {"type": "taproom.CreateGame", "game": "counter",
                                                         "seats": [{"name": "a"}], "seed_commitment": ""}), Dice())
    assert "pace" not in events[0].model_dump(mode="json")
    assert parse_pace("3d") == Pace(per_move_seconds=3 * 86400)
    for bad in ("2w", {"per_move_seconds": 60, "bank_seconds": 60}, {"increment_seconds": 5}):
        with pytest.raises(RuleError):
            parse_pace(bad)
    assert SYSTEM_SEAT == -1
