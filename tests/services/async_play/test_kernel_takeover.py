"""Forgiving timeouts in the kernel (pure): a timeout plays the overdue turn only, consecutive timeouts
hand the seat over, reclaiming resets the count, the table votes to end or replace; turns per game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.catalog import load_games
from domain.core import GameNotActive, IllegalMove, get_game
from domain.core.lifecycle import (
    TAKEOVER_AFTER,
    TAKEOVER_VOTE,
    GameRecord,
    Pace,
    PlayFor,
    ReclaimSeat,
    ScoreGame,
    TimeOut,
    Vote,
    WithdrawVote,
    execute,
    kernel_commands,
    new_game_pace,
    parse_command,
    turn_of,
)
from domain.core.rng import SeedDice, seed_from_text
from tests.fixture_game import Add

from .test_kernel import new_game, run

load_games()

FORGIVING = {"per_move_seconds": 3600, "takeover_after": 3, "takeover_vote": "end"}


def play_timeout(record: GameRecord, seat: int, amount: int = 1) -> list[str]:
    return run(record, TimeOut(for_seat=seat, at_version=record.version, move={"type": "Add", "amount": amount}))


def test_a_single_timeout_plays_exactly_the_overdue_turn_and_gives_the_seat_back() -> None:
    record = new_game(FORGIVING)
    assert play_timeout(record, 0) == ["taproom.TurnTimedOut", "Added", "CardDealt", "taproom.SeatReturned"]
    seat = record.seats[0]
    assert seat.autopilot is None and seat.overdue is None and seat.timeouts == 1
    assert record.to_act() == [1] and record.state.points == [1, 0]
    run(record, Add(seat=1, amount=2))
    # the seat's next turn is its holder's: no policy plays it
    assert record.to_act() == [0] and record.played_for(0) is None
    with pytest.raises(IllegalMove):
        run(record, PlayFor(for_seat=0, at_version=record.version, move={"type": "Add", "amount": 1}))


def test_consecutive_timeouts_hand_the_seat_over_and_a_move_of_the_holder_breaks_the_run() -> None:
    record = new_game({**FORGIVING, "takeover_after": 2})
    play_timeout(record, 0)
    run(record, Add(seat=1, amount=1))
    # the holder moves: the run of timeouts ends (the count is reset with the seat's own move)
    assert run(record, Add(seat=0, amount=1))[0] == "taproom.SeatReclaimed"
    assert record.seats[0].timeouts == 0
    run(record, Add(seat=1, amount=1))
    play_timeout(record, 0)
    run(record, Add(seat=1, amount=1))
    kinds = play_timeout(record, 0)  # the second in a row
    assert kinds[:2] == ["taproom.TurnTimedOut", "taproom.SeatAutopiloted"] and "taproom.SeatReturned" not in kinds
    assert record.seats[0].autopilot == "autopilot" and record.seats[0].timeouts == 2
    run(record, Add(seat=1, amount=1))
    assert record.played_for(0) == "autopilot"  # every turn now, until the holder comes back
    assert run(record, ReclaimSeat(seat=0)) == ["taproom.SeatReclaimed"]
    assert record.seats[0].autopilot is None and record.seats[0].timeouts == 0
    with pytest.raises(IllegalMove):
        run(record, ReclaimSeat(seat=0))  # nothing left to take back


def test_reclaiming_after_one_timeout_resets_the_count() -> None:
    record = new_game(FORGIVING)
    play_timeout(record, 0)
    assert [c.type for c in kernel_commands(record, 0)] == ["taproom.ReclaimSeat", "taproom.Resign"]
    assert run(record, ReclaimSeat(seat=0)) == ["taproom.SeatReclaimed"]
    assert record.seats[0].timeouts == 0 and [c.type for c in kernel_commands(record, 0)] == ["taproom.Resign"]


def test_a_timed_out_turn_of_several_steps_is_finished_by_the_policy_then_returned() -> None:
    """Carcassonne: a turn is a tile and then its figure choice; the timeout places the tile and the
    policy finishes the turn, however many steps it takes; then the other seat is to act."""
    record = real_game("carcassonne", {**FORGIVING, "on_timeout": "skip"})
    dice = SeedDice(seed_from_text("carc"))
    turn = turn_of(record, 0)
    events, _ = execute(record, "g1", TimeOut(for_seat=0, at_version=record.version), dice)
    assert [e.type for e in events][:2] == ["taproom.TurnTimedOut", "TilePlaced"]
    assert record.seats[0].overdue == turn and record.played_for(0) == "skip" and record.to_act() == [0]
    steps = 0
    while record.played_for(0) is not None:
        events, _ = execute(record, "g1", PlayFor(for_seat=0, at_version=record.version), dice)
        steps += 1
    assert events[-1].type == "taproom.SeatReturned" and 1 <= steps <= 3
    assert record.to_act() == [1] and record.seats[0].timeouts == 1 and record.seats[0].autopilot is None


def test_a_timeout_in_a_simultaneous_phase_plays_only_the_late_seats_part() -> None:
    """Tiefenthal's planning (phase E): both seats plan at once; seat 0's timeout finishes its planning only."""
    record = real_game("tiefenthal", {**FORGIVING, "on_timeout": "skip"})
    dice = SeedDice(seed_from_text("tief"))
    chooser = random.Random(3)
    while not (record.state.phase == "E" and record.to_act() == [0, 1]):
        seat = chooser.choice(record.to_act())
        move = chooser.choice(record.game.legal_commands(record.state, seat))
        execute(record, "g1", move, dice)
    events, _ = execute(record, "g1", TimeOut(for_seat=0, at_version=record.version), dice)
    while record.played_for(0) is not None:
        events, _ = execute(record, "g1", PlayFor(for_seat=0, at_version=record.version), dice)
    assert events[-1].type == "taproom.SeatReturned"
    assert 0 not in record.to_act() and 1 in record.to_act() and record.seats[1].timeouts == 0


@pytest.mark.parametrize("game_id", ["heaven-and-ale", "tiefenthal", "carcassonne"])
def test_a_seat_that_begins_a_new_turn_at_once_is_in_a_new_turn(game_id: str) -> None:
    """The turn key separates two turns of one seat in a row (Heaven & Ale's rearmost figure moves again):
    whenever a command begins a turn for the seat that was to act, the seat's turn identity changes."""
    starts = {"heaven-and-ale": "TurnBegan", "tiefenthal": "TurnStarted", "carcassonne": "TileDrawn"}[game_id]
    game = get_game(game_id)
    seen_again = 0
    for seed in range(3):
        record = real_game(game_id, None, seed=f"turns{seed}")
        dice = SeedDice(seed_from_text(f"turns{seed}"))
        chooser = random.Random(seed)
        while record.status == "active":
            seat = chooser.choice(record.to_act())
            before = turn_of(record, seat)
            events, _ = execute(record, "g1", chooser.choice(game.legal_commands(record.state, seat)), dice)
            began = [e for e in events if e.type == starts and getattr(e, "seat", None) == seat]
            if began and seat in record.to_act():
                seen_again += 1
                assert turn_of(record, seat) != before
    if game_id == "heaven-and-ale":
        assert seen_again > 0  # the case the key exists for does happen


def test_the_table_votes_to_end_a_taken_over_seats_game_and_it_still_scores() -> None:
    record = new_game({**FORGIVING, "takeover_after": 1}, seats=3)
    play_timeout(record, 0)
    assert record.seats[0].autopilot == "autopilot"
    assert [c.model_dump(exclude={"seat"}) for c in kernel_commands(record, 1)] == [
        {"type": "taproom.Vote", "about_seat": 0, "choice": "end"}, {"type": "taproom.Resign"}]
    assert run(record, Vote(seat=1, about_seat=0, choice="end")) == ["taproom.VoteCast"]
    assert record.seats[0].votes == (1,) and [c.type for c in kernel_commands(record, 1)] == [
        "taproom.WithdrawVote", "taproom.Resign"]
    assert run(record, WithdrawVote(seat=1, about_seat=0)) == ["taproom.VoteWithdrawn"]
    run(record, Vote(seat=1, about_seat=0, choice="end"))
    assert run(record, Vote(seat=2, about_seat=0, choice="end")) == \
        ["taproom.VoteCast", "taproom.VotePassed", "taproom.GameEnded"]
    assert record.status == "ended"
    assert run(record, ScoreGame()) == ["taproom.GameScored", "taproom.SeedRevealed"]
    assert [s.total for s in record.scores] == [float(p) for p in record.state.points]


@pytest.mark.parametrize("game_id", ["carcassonne", "heaven-and-ale", "tiefenthal"])
def test_a_game_ended_by_vote_midway_is_scored_as_it_stands(game_id: str) -> None:
    record = real_game(game_id, {**FORGIVING, "takeover_after": 1, "on_timeout": "skip"})
    dice = SeedDice(seed_from_text("vote"))
    chooser = random.Random(5)
    for _ in range(30):
        seat = chooser.choice(record.to_act())
        execute(record, "g1", chooser.choice(record.game.legal_commands(record.state, seat)), dice)
    seat = record.to_act()[0]
    execute(record, "g1", TimeOut(for_seat=seat, at_version=record.version), dice)
    events, _ = execute(record, "g1", Vote(seat=1 - seat, about_seat=seat, choice="end"), dice)
    assert [e.type for e in events] == ["taproom.VoteCast", "taproom.VotePassed", "taproom.GameEnded"]
    expected = record.game.scores(record.state)
    execute(record, "g1", ScoreGame(), dice)
    assert record.status == "scored" and record.scores == expected and set(record.places) == {0, 1}


def test_the_table_votes_to_replace_the_player_with_a_bot() -> None:
    record = new_game({**FORGIVING, "takeover_after": 1, "takeover_vote": "replace", "autopilot_level": "greedy"})
    play_timeout(record, 0)
    assert run(record, Vote(seat=1, about_seat=0, choice="replace")) == ["taproom.VoteCast", "taproom.VotePassed"]
    seat = record.seats[0]
    assert seat.bot == "greedy" and seat.autopilot is None and record.status == "active"
    assert kernel_commands(record, 0) == []
    with pytest.raises(IllegalMove):
        run(record, ReclaimSeat(seat=0))  # the seat is the bot's for good


def test_bad_votes_are_refused_and_change_nothing() -> None:
    record = new_game({**FORGIVING, "takeover_after": 1}, seats=3)
    version = record.version
    with pytest.raises(IllegalMove, match="not taken over"):
        run(record, Vote(seat=1, about_seat=0, choice="end"))
    play_timeout(record, 0)
    version = record.version
    bad: list[tuple[Any, str]] = [
        (Vote(seat=1, about_seat=0, choice="replace"), "not to replace"),
        (Vote(seat=0, about_seat=0, choice="end"), "may not vote"),
        (Vote(seat=1, about_seat=7, choice="end"), "no seat 7"),
        (WithdrawVote(seat=1, about_seat=0), "no vote"),
    ]
    for command, message in bad:
        with pytest.raises(Exception, match=message) as caught:
            run(record, command)
        assert caught.value.code in ("illegal_move", "invalid_command")
    run(record, Vote(seat=1, about_seat=0, choice="end"))
    with pytest.raises(IllegalMove, match="already"):
        run(record, Vote(seat=1, about_seat=0, choice="end"))
    assert record.version == version + 1 and record.seats[0].votes == (1,)
    # the holder comes back: the votes about the seat are void
    run(record, ReclaimSeat(seat=0))
    assert record.seats[0].votes == ()
    no_vote = new_game({**FORGIVING, "takeover_after": 1, "takeover_vote": "none"})
    play_timeout(no_vote, 0)
    with pytest.raises(IllegalMove, match="allows no vote"):
        run(no_vote, Vote(seat=1, about_seat=0, choice="end"))
    ended = new_game({"per_move_seconds": 60})
    ended.status = "ended"
    with pytest.raises(GameNotActive):
        run(ended, Vote(seat=1, about_seat=0, choice="end"))


def test_paces_from_before_the_setting_keep_their_meaning_and_new_games_get_the_defaults() -> None:
    """A stored pace without ``takeover_after`` (records made before it) means: the first timeout takes the
    seat over, nobody votes; so old records re-run by ``verify`` give the events they gave."""
    old = new_game({"per_move_seconds": 3600})
    assert "takeover_after" not in Pace(per_move_seconds=60).model_dump()
    assert play_timeout(old, 0)[:2] == ["taproom.TurnTimedOut", "taproom.SeatAutopiloted"]
    pace = new_game_pace("1d")
    assert pace is not None and pace.takeover_after == TAKEOVER_AFTER == 3 and pace.takeover_vote == TAKEOVER_VOTE
    assert new_game_pace({"per_move_seconds": 5, "takeover_after": 5}).takeover_after == 5  # type: ignore[union-attr]
    assert new_game_pace(None) is None


def real_game(game_id: str, pace: Any, seed: str = "real") -> GameRecord:
    command = parse_command(None, {"type": "taproom.CreateGame", "game": game_id, "options": {},
                                   "seats": [{"name": "a", "player_id": "a"}, {"name": "b", "player_id": "b"}],
                                   "seed_commitment": "c", "pace": pace})
    _, record = execute(None, "g1", command, SeedDice(seed_from_text(seed)))
    return record

