"""Vacations pause a player's clocks: deadlines move back by the time on vacation, within an allowance."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core import IllegalMove
from services.application.clocks.vacation import Interval, Vacations, paused_within, push_back

from .conftest import DAY, HOUR, Table


def test_push_back_and_pause_arithmetic() -> None:
    assert push_back(0, 100, []) == 100
    assert push_back(0, 100, [Interval(50, 150)]) == 200  # 50 s ran, 100 s paused, 50 s more
    assert push_back(0, 100, [Interval(-50, 30), Interval(200, 300)]) == 130  # a later pause is not reached
    assert push_back(0, 100, [Interval(10, 20), Interval(30, 40)]) == 120
    assert paused_within(0, 100, [Interval(-10, 10), Interval(90, 200)]) == 20


def test_a_vacation_pushes_the_deadline_back(table: Table, clock) -> None:
    gid = table.create([{"name": "alice", "player_id": "alice"}, {"name": "bob", "player_id": "bob"}],
                       pace={"per_move_seconds": HOUR})
    clocks = table.reactor.async_play.clocks
    since = clocks.wait(gid, 0).since
    clock.advance(600)
    vacations = table.reactor.async_play.vacations
    vacations.start("alice", 2)
    assert abs(clocks.deadline(table.record(gid), 0, clocks.wait(gid, 0)) - (since + HOUR + 2 * DAY)) < 2
    table.tick(HOUR)  # the original deadline: the job runs, finds it moved, and schedules itself again
    assert not table.events(gid, "taproom.TurnTimedOut")
    table.tick(2 * DAY - 600 - 120)  # two minutes before the new deadline
    assert not table.events(gid, "taproom.TurnTimedOut")
    table.tick(240)
    assert [e["seat"] for e in table.events(gid, "taproom.TurnTimedOut")] == [0]


def test_ending_early_refunds_and_the_allowance_holds(table: Table, clock) -> None:
    vacations = table.reactor.async_play.vacations  # 30 days a year by default
    vacations.start("carol", 10)
    with pytest.raises(IllegalMove):
        vacations.start("carol", 1)  # one at a time
    clock.advance(2 * DAY)
    vacations.end("carol")
    status = vacations.status("carol")
    assert not status["on_vacation"] and abs(status["days_used"] - 2) < 1e-3
    with pytest.raises(IllegalMove):
        vacations.start("carol", 29)
    vacations.start("carol", 28)
    assert vacations.status("carol")["days_left"] == pytest.approx(0, abs=1e-3)


def test_two_vacation_requests_at_once_book_the_allowance_once(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second request lands between the first one's check of the allowance and its booking."""
    vacations = table.reactor.async_play.vacations  # 30 days a year
    other = Vacations(table.client, vacations.keys, vacations.days_per_year, table.clock)  # another API worker
    read_used = Vacations.used
    raced: list[Interval] = []
    racing = []

    def used_then_race(self: Vacations, *args: Any, **kwargs: Any) -> float:
        value = read_used(self, *args, **kwargs)
        if not racing:
            racing.append(True)
            raced.append(other.start("dave", 20))
        return value

    monkeypatch.setattr(Vacations, "used", used_then_race)
    with pytest.raises(IllegalMove):
        vacations.start("dave", 20)  # read "30 days left", then the other request took 20 of them
    monkeypatch.undo()
    status = vacations.status("dave")
    assert status["days_used"] == pytest.approx(20) and status["until"] == raced[0].end
    assert vacations.intervals("dave") == raced  # one vacation, no overlap


def test_ending_a_vacation_twice_at_once_refunds_once(table: Table, monkeypatch: pytest.MonkeyPatch, clock) -> None:
    vacations = table.reactor.async_play.vacations
    other = Vacations(table.client, vacations.keys, vacations.days_per_year, table.clock)
    vacations.start("erin", 10)
    clock.advance(2 * DAY)
    read_current = Vacations.current
    raced: list[Interval | None] = []
    racing = []

    def current_then_race(self: Vacations, *args: Any, **kwargs: Any) -> Interval | None:
        value = read_current(self, *args, **kwargs)
        if not racing:
            racing.append(True)
            raced.append(other.end("erin"))
        return value

    monkeypatch.setattr(Vacations, "current", current_then_race)
    ended = vacations.end("erin")  # the other request ends it between this one's read and its write
    monkeypatch.undo()
    assert raced[0] is not None and (ended is None or abs(ended.end - raced[0].end) < 1)
    assert vacations.status("erin")["days_used"] == pytest.approx(2, abs=1e-3)  # 8 days back, not 16
    assert len(vacations.intervals("erin")) == 1
