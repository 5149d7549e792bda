"""Leaving a game for good (pure kernel): resigning with two and with more seats, the last-place rule, a seat an
untimed game marks absent and the table's vote about it, and a game that ends idle."""

from __future__ import annotations

import pytest

from domain.catalog import load_games
from domain.core import GameNotActive, IllegalMove, InvalidCommand, NotYourTurn, Score
from domain.core.leaving import RESIGNED_SEAT_LEVEL, final_places
from domain.core.lifecycle import (
    EndIdleGame,
    GameRecord,
    MarkAbsent,
    ReclaimSeat,
    Resign,
    ScoreGame,
    StaleVersion,
    Vote,
    WithdrawVote,
    execute,
    kernel_commands,
    parse_command,
)
from domain.core.record import decode_record, encode_record
from tests.fixture_game import Add
from tests.services.async_play.test_kernel import Dice, new_game, run

load_games()


def kinds(record: GameRecord, seat: int) -> list[tuple[str, object]]:
    return [(c.type, getattr(c, "choice", None)) for c in kernel_commands(record, seat)]


def score(record: GameRecord) -> dict[int, int]:
    run(record, ScoreGame())
    assert record.status == "scored"
    return record.places


def test_resigning_a_two_player_game_ends_it_and_puts_the_resigner_last_whatever_the_score() -> None:
    record = new_game(None)
    run(record, Add(seat=0, amount=3))
    run(record, Add(seat=1, amount=1))  # seat 0 leads 3 to 1
    assert ("taproom.Resign", None) in kinds(record, 0) and ("taproom.Resign", None) in kinds(record, 1)
    assert run(record, Resign(seat=0)) == ["taproom.SeatLeft", "taproom.GameEnded"]
    assert record.status == "ended" and record.seats[0].left == 1 and record.seats[0].left_how == "resigned"
    assert record.seats[0].bot is None  # nobody plays on: the game is over
    assert score(record) == {1: 1, 0: 2}
    with pytest.raises(GameNotActive) as refused:
        run(record, Resign(seat=1))
    assert refused.value.code == "game_not_active"


def test_resigning_out_of_turn_with_three_seats_gives_the_seat_to_a_bot_and_the_game_goes_on() -> None:
    record = new_game(None, seats=3)
    assert record.to_act() == [0]
    assert run(record, Resign(seat=2)) == ["taproom.SeatLeft"]  # not its turn: resigning is always allowed
    seat = record.seats[2]
    assert record.status == "active" and seat.bot == RESIGNED_SEAT_LEVEL and seat.player_id == "pl2"
    assert seat.left == 1 and kernel_commands(record, 2) == []  # nothing more to send: not even a second resign
    with pytest.raises(IllegalMove) as twice:
        run(record, Resign(seat=2))
    assert twice.value.code == "already_resigned"


def test_a_paced_games_resigned_seat_is_played_at_its_autopilot_level() -> None:
    record = new_game({"per_move_seconds": 3600, "autopilot_level": "greedy"}, seats=3)
    run(record, Resign(seat=1))
    assert record.seats[1].bot == "greedy"


def test_the_last_two_to_stay_end_it_and_the_later_resigner_ranks_above_the_earlier() -> None:
    record = new_game(None, seats=4)
    run(record, Add(seat=0, amount=1))
    run(record, Add(seat=1, amount=3))
    run(record, Resign(seat=1))  # first to leave, with the best score
    run(record, Resign(seat=3))
    assert record.status == "active"
    assert run(record, Resign(seat=0)) == ["taproom.SeatLeft", "taproom.GameEnded"]  # only seat 2 is left in
    assert score(record) == {2: 1, 0: 2, 3: 3, 1: 4}


def test_final_places_rank_those_still_in_by_score_with_ties_then_the_leavers_latest_first() -> None:
    scores = [Score.of(s, {"points": p}) for s, p in enumerate([5, 9, 5, 30, 1])]
    assert final_places(scores, {3: 1, 4: 2}) == {1: 1, 0: 2, 2: 2, 4: 4, 3: 5}
    assert final_places(scores, {}) == {3: 1, 1: 2, 0: 3, 2: 3, 4: 5}
    # two seats that left together (a game ended idle waiting for both) are placed by score among themselves
    assert final_places(scores, {1: 2, 3: 2, 0: 1}) == {2: 1, 4: 2, 3: 3, 1: 4, 0: 5}


def test_resign_is_a_players_command_refused_for_a_bot_seat_and_parsed_from_json() -> None:
    record = new_game(None)
    record.seats[1].bot = "random"
    with pytest.raises(IllegalMove):
        run(record, Resign(seat=1))
    assert isinstance(parse_command(None, {"type": "taproom.Resign", "seat": 0}), Resign)
    with pytest.raises(InvalidCommand):
        parse_command(None, {"type": "taproom.MarkAbsent", "seat": 0})  # its fields are the service's


def test_an_absent_seat_is_voted_out_and_the_game_ends_with_it_last() -> None:
    record = new_game(None, seats=3)
    run(record, Add(seat=0, amount=3))
    assert record.to_act() == [1]
    with pytest.raises(StaleVersion):
        run(record, MarkAbsent(for_seats=[1], at_version=record.version - 1))
    with pytest.raises(NotYourTurn):
        run(record, MarkAbsent(for_seats=[2], at_version=record.version))
    assert run(record, MarkAbsent(for_seats=[1], at_version=record.version)) == ["taproom.SeatAbsent"]
    # both choices are offered to the others; the absent seat may come back
    assert kinds(record, 0) == [("taproom.Vote", "end"), ("taproom.Vote", "replace"), ("taproom.Resign", None)]
    assert ("taproom.ReclaimSeat", None) in kinds(record, 1)
    assert run(record, Vote(seat=0, about_seat=1, choice="end")) == ["taproom.VoteCast"]
    assert ("taproom.WithdrawVote", None) in kinds(record, 0)
    assert run(record, Vote(seat=2, about_seat=1, choice="end")) == [
        "taproom.VoteCast", "taproom.VotePassed", "taproom.SeatLeft", "taproom.GameEnded"]
    assert record.seats[1].left_how == "abandoned"
    assert score(record)[1] == 3


def test_a_split_vote_passes_once_everyone_agrees_on_one_choice() -> None:
    record = new_game(None, seats=3)
    run(record, MarkAbsent(for_seats=[0], at_version=record.version))
    run(record, Vote(seat=1, about_seat=0, choice="end"))
    assert run(record, Vote(seat=2, about_seat=0, choice="replace")) == ["taproom.VoteCast"]  # no agreement yet
    run(record, WithdrawVote(seat=1, about_seat=0))
    assert record.seats[0].votes == (2,) and record.seats[0].choices == ("replace",)
    assert run(record, Vote(seat=1, about_seat=0, choice="replace")) == [
        "taproom.VoteCast", "taproom.VotePassed", "taproom.SeatLeft"]
    seat = record.seats[0]
    assert seat.bot == RESIGNED_SEAT_LEVEL and seat.left == 1 and not seat.absent and record.status == "active"


def test_the_absent_player_comes_back_by_moving_and_the_votes_about_them_clear() -> None:
    record = new_game(None, seats=3)
    run(record, MarkAbsent(for_seats=[0], at_version=record.version))
    run(record, Vote(seat=1, about_seat=0, choice="end"))
    assert run(record, Add(seat=0, amount=1))[0] == "taproom.SeatReclaimed"
    assert not record.seats[0].absent and record.seats[0].votes == ()
    run(record, Add(seat=1, amount=1))
    run(record, Add(seat=2, amount=1))
    run(record, MarkAbsent(for_seats=[0], at_version=record.version))
    assert run(record, ReclaimSeat(seat=0)) == ["taproom.SeatReclaimed"]


def test_a_timed_game_marks_no_seat_absent_it_times_seats_out() -> None:
    record = new_game("1d")
    with pytest.raises(IllegalMove):
        run(record, MarkAbsent(for_seats=[0], at_version=record.version))
    with pytest.raises(IllegalMove):
        run(record, Vote(seat=1, about_seat=0, choice="end"))  # nobody is away: no vote is open


def test_an_idle_game_ends_with_the_seats_it_waited_for_last() -> None:
    record = new_game(None, seats=3)
    run(record, Add(seat=0, amount=1))
    run(record, Add(seat=1, amount=3))
    with pytest.raises(StaleVersion):
        run(record, EndIdleGame(at_version=record.version - 1))
    assert run(record, EndIdleGame(at_version=record.version)) == ["taproom.SeatLeft", "taproom.GameEnded"]
    assert score(record) == {1: 1, 0: 2, 2: 3}


def test_leaving_replays_from_the_log_and_survives_a_snapshot() -> None:
    record = new_game(None, seats=3)
    log = []
    for command in (Resign(seat=1), MarkAbsent(for_seats=[0], at_version=record.version + 1)):
        events, record = execute(record, "g1", command, Dice())
        log += events
    copy = decode_record(encode_record(record))
    assert copy.seats == record.seats and copy.seats[1].left == 1 and copy.seats[0].absent
    replayed = new_game(None, seats=3)
    from domain.core.lifecycle import apply
    for event in log:
        replayed = apply(replayed, "g1", event)
    assert replayed.seats == record.seats
