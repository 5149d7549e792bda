"""Deadlines through the pipeline: scheduled with rq, released by the scheduler at a chosen time,
decided by a system command; they fire once; autopilot and skip; time banks; the record verifies."""

from __future__ import annotations

from services.async_play import clock, jobs
from services.async_play.deadlines import Wait
from services.audit import verify

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
    assert jobs.turn_deadline(gid, 0, start, prefix=table.kernel.keys.prefix, shards=table.kernel.keys.shards,
                              connection=table.client) == {"skipped": "the seat moved", "version": version}
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


def test_a_time_bank_is_charged_per_move_and_refilled_by_the_increment(table: Table) -> None:
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


def test_a_deadline_run_twice_before_either_is_processed_times_the_seat_out_once(table: Table) -> None:
    gid = table.create(HUMANS, pace={"per_move_seconds": HOUR})
    wait = table.reactor.async_play.clocks.wait(gid, 0)
    clock.advance(HOUR + 5)
    ctx = {"prefix": table.kernel.keys.prefix, "shards": table.kernel.keys.shards, "connection": table.client}
    first = jobs.turn_deadline(gid, 0, wait.version, **ctx)
    second = jobs.turn_deadline(gid, 0, wait.version, **ctx)  # a duplicate job (released twice, re-run)
    assert first == second  # the same command id, derived from game, version and seat
    table.settle()
    assert len(table.events(gid, "taproom.TurnTimedOut")) == 1
    applied = table.kernel.store.command_record(gid, first["command_id"])
    assert applied is not None and applied["command"]["type"] == "taproom.TimeOut"
