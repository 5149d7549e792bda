"""Deadlines through the pipeline: scheduled with rq, released by the scheduler at a chosen time,
decided by a system command; they fire once; autopilot and skip; time banks; the record verifies."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import orjson

from services.adapters.workers import async_play as jobs
from services.application.clocks.turns import Wait
from services.infrastructure.audit import verify

from .conftest import HOUR, Table

HUMANS = [{"name": "alice", "player_id": "alice"}, {"name": "bob", "player_id": "bob"}]


def test_a_deadline_fires_once_and_the_autopilot_plays_until_the_seat_is_reclaimed(table: Table) -> None:
    gid = table.create(HUMANS, pace={"per_move_seconds": HOUR})
    start = table.record(gid).version
    table.tick(HOUR - 60)
    assert table.record(gid).version == start  # not due yet: nothing happened
    table.tick(120)
    assert table.events(gid, "taproom.TurnTimedOut") == [{"type": "taproom.TurnTimedOut", "seat": 0,
                                                         "policy": "autopilot"}]
    record = table.record(gid)
    assert record.seats[0].autopilot == "autopilot" and record.to_act() == [1]
    # the same deadline released and run again changes nothing (job id and command id are derived)
    wait = table.reactor.async_play.clocks.waits(gid)
    assert list(wait) == [1]
    version = record.version
    with table.running_jobs():
        assert jobs.turn_deadline(gid, 0, start, connection=table.client) == {"skipped": "the seat moved",
                                                                              "version": version}
    table.tick(0)
    assert len(table.events(gid, "taproom.TurnTimedOut")) == 1
    # bob moves; alice's seat is away, so the autopilot answers at once, without waiting for a deadline
    table.add(gid, 1, 2)
    assert table.record(gid).to_act() == [1]
    commands = table.kernel.store.command_records(gid)
    assert commands[-1]["actor"] == "system:autopilot" and commands[-1]["command"]["type"] == "taproom.PlayFor"
    # alice comes back: the command takes her seat back; from then on she plays again
    outcome = table.kernel.send(gid, {"type": "taproom.ReclaimSeat"}, seat=0)
    assert outcome.accepted and table.record(gid).seats[0].autopilot is None
    table.settle()
    while table.record(gid).status == "active":
        seat = table.record(gid).to_act()[0]
        assert table.add(gid, seat, 3).accepted
    assert table.record(gid).status == "scored"
    assert len(table.events(gid, "taproom.TurnTimedOut")) == 1
    envelopes = table.kernel.store.read(gid)
    report = verify(envelopes, table.kernel.store.command_records(gid))
    assert report.ok and report.replay_ok, report.problems


def test_skip_policy_and_a_move_of_the_holder_takes_the_seat_back(table: Table) -> None:
    gid = table.create(HUMANS, pace={"per_move_seconds": HOUR, "on_timeout": "skip"})
    table.tick(HOUR + 1)
    assert table.events(gid, "taproom.TurnTimedOut")[0]["policy"] == "skip"
    assert table.events(gid, "Added")[0]["amount"] == 1  # counter has no pass: the first legal move
    table.add(gid, 1, 3)  # bob; then alice's away seat is skipped at once
    assert [e["seat"] for e in table.events(gid, "Added")] == [0, 1, 0]
    # alice's own move, when it reaches the processor before the away policy's, takes her seat back
    assert table.kernel.add(gid, 1, 1).accepted  # bob (the reactor has not looked yet)
    outcome = table.kernel.add(gid, 0, 3)
    assert outcome.accepted
    kinds = [e.type for e in table.kernel.store.read(gid, after=outcome.from_version)]
    assert kinds == ["taproom.SeatReclaimed", "Added", "CardDealt"]
    table.settle()  # the reactor sees bob to act: nothing to play for alice
    assert table.record(gid).seats[0].autopilot is None and table.record(gid).to_act() == [1]
    assert [e["seat"] for e in table.events(gid, "Added")] == [0, 1, 0, 1, 0]


def test_a_time_bank_is_charged_per_move_and_refilled_by_the_increment(table: Table, clock) -> None:
    gid = table.create(HUMANS, pace={"bank_seconds": 2 * HOUR, "increment_seconds": HOUR})
    clocks = table.reactor.async_play.clocks
    since = clocks.wait(gid, 0).since
    assert abs(clocks.deadline(table.record(gid), 0, clocks.wait(gid, 0)) - (since + 2 * HOUR)) < 1
    clock.advance(1.5 * HOUR)
    table.add(gid, 0, 1)  # alice used 1.5 h of 2 h, and gets 1 h back: 1.5 h left
    assert abs(clocks.bank(gid, 0, table.record(gid).pace) - 1.5 * HOUR) < 5
    table.add(gid, 1, 1)
    wait = clocks.wait(gid, 0)
    assert wait is not None and abs(clocks.deadline(table.record(gid), 0, wait) - (wait.since + 1.5 * HOUR)) < 5
    table.tick(1.5 * HOUR - 120)
    assert not table.events(gid, "taproom.TurnTimedOut")
    table.tick(240)
    assert [e["seat"] for e in table.events(gid, "taproom.TurnTimedOut")] == [0]


def test_a_wait_continues_across_versions_until_the_seat_moves(table: Table) -> None:
    gid = table.create(HUMANS, pace="1h")
    assert table.reactor.async_play.clocks.waits(gid) == {0: Wait(version=3, since=table.reactor.async_play.clocks.wait(gid, 0).since)}
    assert table.record(gid).version == 3


def test_a_deadline_run_twice_before_either_is_processed_times_the_seat_out_once(table: Table, clock) -> None:
    gid = table.create(HUMANS, pace={"per_move_seconds": HOUR})
    wait = table.reactor.async_play.clocks.wait(gid, 0)
    clock.advance(HOUR + 5)
    with table.running_jobs():
        first = jobs.turn_deadline(gid, 0, wait.version, connection=table.client)
        second = jobs.turn_deadline(gid, 0, wait.version, connection=table.client)  # a duplicate job (re-run)
    assert first == second  # the same command id, derived from game, version and seat
    table.settle()
    assert len(table.events(gid, "taproom.TurnTimedOut")) == 1
    applied = table.kernel.store.command_record(gid, first["command_id"])
    assert applied is not None and applied["command"]["type"] == "taproom.TimeOut"


def _run_job_while_processing(table: Table, job: Callable[..., dict[str, Any]], *args: Any,
                              waiting_for: str) -> dict[str, Any]:
    """Run a deadline or autopilot job on a thread, as a worker would, with the processor working at once.

    Commands already in the stream are processed only once the job's own command (id starting with
    ``waiting_for``) is behind them, so the job decides on the version before them: its command is stale.
    """
    settings = table.job_settings.model_copy(update={"system_command_wait_seconds": 10.0})
    result: dict[str, Any] = {}

    def run() -> None:
        with table.running_jobs(settings):
            result.update(job(*args, connection=table.client))

    thread = threading.Thread(target=run)
    thread.start()
    stream = table.kernel.keys.cmd_stream_for(args[0])
    deadline = time.monotonic() + 10
    while thread.is_alive() and time.monotonic() < deadline:
        if any(orjson.loads(f[b"m"])["command_id"].startswith(waiting_for)
               for _, f in table.client.xrange(stream)):
            table.kernel.pump()
        time.sleep(0.01)
    thread.join(5)
    assert not thread.is_alive(), "the job never finished"
    return result


def test_a_deadline_refused_because_another_seat_moved_first_is_sent_again_at_once(table: Table, clock) -> None:
    gid = table.create(HUMANS, pace={"per_move_seconds": HOUR})
    table.tick(HOUR + 1)  # alice times out and is away; bob is to act, his clock runs
    assert table.record(gid).seats[0].autopilot == "autopilot" and table.record(gid).to_act() == [1]
    wait = table.reactor.async_play.clocks.wait(gid, 1)
    version = table.record(gid).version
    clock.advance(HOUR + 5)  # bob is overdue; alice comes back just before his deadline job runs
    table.kernel.bus.submit(gid, {"type": "taproom.ReclaimSeat"}, seat=0, actor="test")
    result = _run_job_while_processing(table, jobs.turn_deadline, gid, 1, wait.version,
                                       waiting_for=jobs.timeout_command_id(gid, version, 1))
    stale = table.kernel.bus.outcome(gid, jobs.timeout_command_id(gid, version, 1))
    assert stale is not None and stale.code == "stale_version"
    assert result == {"command_id": jobs.timeout_command_id(gid, version + 1, 1)}  # at the new version
    assert table.kernel.bus.outcome(gid, result["command_id"]).accepted
    assert [e["seat"] for e in table.events(gid, "taproom.TurnTimedOut")] == [0, 1]
    # fires once: the job run again (released twice, or by the watchdog) leaves the away seat alone
    table.settle()
    with table.running_jobs():
        again = jobs.turn_deadline(gid, 1, wait.version, connection=table.client)
    assert "skipped" in again
    table.settle()
    assert [e["seat"] for e in table.events(gid, "taproom.TurnTimedOut")] == [0, 1]


def test_a_deadline_refused_after_the_seat_moved_is_not_sent_again(table: Table, clock) -> None:
    gid = table.create(HUMANS, pace={"per_move_seconds": HOUR})
    wait = table.reactor.async_play.clocks.wait(gid, 0)
    version = table.record(gid).version
    clock.advance(HOUR + 5)
    # alice moves at the last moment, and bob answers, before the reactor looks: alice is to act again,
    # in a new turn whose clock has not started yet; the old deadline must not time it out
    table.kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="test")
    table.kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=1, actor="test")
    result = _run_job_while_processing(table, jobs.turn_deadline, gid, 0, wait.version,
                                       waiting_for=jobs.timeout_command_id(gid, version, 0))
    assert table.kernel.bus.outcome(gid, jobs.timeout_command_id(gid, version, 0)).code == "stale_version"
    assert result["skipped"] == "the seat moved" and table.record(gid).to_act() == [0]
    assert not table.events(gid, "taproom.TurnTimedOut")


def test_an_autopilot_move_refused_as_stale_is_played_at_the_new_version(table: Table) -> None:
    gid = table.create(HUMANS + [{"name": "carol", "player_id": "carol"}], pace={"per_move_seconds": HOUR},
                       target=40)
    table.tick(HOUR + 1)  # alice away
    table.tick(HOUR + 1)  # bob away
    assert [s.autopilot for s in table.record(gid).seats] == ["autopilot", "autopilot", None]
    assert table.kernel.add(gid, 2, 1).accepted  # carol moves; alice's away seat is to act
    version = table.record(gid).version
    table.kernel.bus.submit(gid, {"type": "taproom.ReclaimSeat"}, seat=1, actor="test")  # bob is back first
    result = _run_job_while_processing(table, jobs.autopilot_turn, gid, 0, version,
                                       waiting_for=f"autopilot:{gid}:{version}:0")
    assert table.kernel.bus.outcome(gid, f"autopilot:{gid}:{version}:0").code == "stale_version"
    assert result == {"command_id": f"autopilot:{gid}:{version + 1}:0"}
    assert table.kernel.bus.outcome(gid, result["command_id"]).accepted
    assert table.record(gid).to_act() == [1] and table.record(gid).seats[1].autopilot is None


def test_a_turn_that_ends_and_begins_again_before_the_reactor_looks_gets_a_fresh_clock(table: Table, clock) -> None:
    """The clock runs per turn: alice's turn ends when she moves, and her next one starts afresh, even when
    bob answers before the reactor has seen her move (per-move pace)."""
    gid = table.create(HUMANS, pace={"per_move_seconds": HOUR})
    clocks = table.reactor.async_play.clocks
    first = clocks.wait(gid, 0)
    clock.advance(30 * 60)
    assert table.kernel.add(gid, 0, 1).accepted  # neither move settled: the reactor looks only after both
    assert table.kernel.add(gid, 1, 1).accepted
    table.settle()
    second = clocks.wait(gid, 0)
    assert second.version > first.version and second.since - first.since >= 30 * 60 - 5
    table.tick(30 * 60 + 120)  # past the first turn's deadline, within the second's
    assert not table.events(gid, "taproom.TurnTimedOut")
    table.tick(30 * 60)
    assert [e["seat"] for e in table.events(gid, "taproom.TurnTimedOut")] == [0]


def test_a_time_bank_is_charged_and_incremented_once_per_turn_even_between_two_looks(table: Table, clock) -> None:
    gid = table.create(HUMANS, pace={"bank_seconds": 2 * HOUR, "increment_seconds": HOUR})
    clocks = table.reactor.async_play.clocks
    pace = table.record(gid).pace
    clock.advance(30 * 60)
    assert table.kernel.add(gid, 0, 1).accepted  # alice's turn: 30 min; bob's: moments
    assert table.kernel.add(gid, 1, 1).accepted
    table.settle()
    assert abs(clocks.bank(gid, 0, pace) - 2.5 * HOUR) < 5  # 2 h - 30 min + 1 h
    assert abs(clocks.bank(gid, 1, pace) - 3 * HOUR) < 5  # bob's turn counted too: 2 h - 0 + 1 h
    wait = clocks.wait(gid, 0)
    assert abs(clocks.deadline(table.record(gid), 0, wait) - (wait.since + 2.5 * HOUR)) < 5


def test_a_seat_that_acts_several_times_in_one_turn_keeps_its_clock(table: Table, clock) -> None:
    """Commands that leave the seat to act (here: a game of one) do not restart its clock."""
    gid = table.create([{"name": "alice", "player_id": "alice"}], pace={"per_move_seconds": HOUR}, target=50)
    clocks = table.reactor.async_play.clocks
    wait = clocks.wait(gid, 0)
    for _ in range(3):
        clock.advance(15 * 60)
        assert table.add(gid, 0, 1).accepted
        assert clocks.wait(gid, 0) == wait
    table.tick(15 * 60 + 60)  # an hour since the turn began, though alice moved 15 minutes ago
    assert [e["seat"] for e in table.events(gid, "taproom.TurnTimedOut")] == [0]
