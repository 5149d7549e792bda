"""Open games nobody joins expire; jobs that vanish are run again by the watchdog; scoring is retried."""

from __future__ import annotations

from typing import Any

from rq.job import Job

from services.adapters.workers import jobs

from .conftest import DAY, HOUR, Table

BOTS = [{"bot": "random"}, {"bot": "random"}]


def test_an_open_game_nobody_joins_expires_and_leaves_the_lobby(table: Table) -> None:
    gid = table.create([{"name": "alice", "player_id": "alice"}, {}])
    lobby = table.kernel.keys.lobby()
    assert table.client.zscore(lobby, gid) is not None
    table.tick(2 * DAY - HOUR)
    assert table.record(gid).status == "open"
    table.tick(2 * HOUR)
    assert table.record(gid).status == "expired"
    assert table.types(gid)[-2:] == ["taproom.GameExpired", "taproom.SeedRevealed"]
    assert table.client.zscore(lobby, gid) is None
    late = table.kernel.send(gid, {"type": "taproom.ClaimSeat", "name": "bob"}, seat=1)
    assert not late.accepted and late.code == "game_not_active"


def test_a_game_filled_in_time_does_not_expire_and_a_pace_sets_its_own_expiry(table: Table) -> None:
    gid = table.create([{"name": "alice"}, {}], pace={"open_expiry_seconds": HOUR})
    assert table.kernel.send(gid, {"type": "taproom.ClaimSeat", "name": "bob"}, seat=1).accepted
    table.tick(HOUR + 1)
    assert table.record(gid).status == "active"
    other = table.create([{"name": "alice"}, {}], pace={"open_expiry_seconds": HOUR})
    table.tick(HOUR + 1)
    assert table.record(other).status == "expired"


def _lose(table: Table, job_id: str) -> None:
    """A worker took the job and died: it sits in the started registry with an old heartbeat, never done."""
    job = Job.fetch(job_id, connection=table.jobs)
    table.queue.remove(job_id)
    job.set_status("started")  # no heartbeat since: its worker is gone


def test_killing_a_worker_mid_job_still_finishes_the_game(table: Table, clock) -> None:
    # A target of 40 takes at least 14 moves of at most 3: room for both losses, whatever the dice
    # (at 12, four 3s in a row ended the game before the second loss).
    gid = table.create(BOTS, target=40, settle=False)
    lost, step = 0, 0
    while table.record(gid).status != "scored":
        table.kernel.pump()
        table.reactor.drain()
        bot_jobs = [j for j in table.queue.get_job_ids() if j.startswith("bot-")]
        if bot_jobs and lost < 2 and step >= 1 + 3 * lost:  # two losses, a few steps apart
            _lose(table, bot_jobs[0])  # the worker died holding the bot turn: the game waits
            lost += 1
            version = table.record(gid).version
            assert table.watchdog.sweep(clock.now()) == []  # not stale yet
            assert table.queue.count == 0
            requeued = table.watchdog.sweep(clock.now() + 31)
            assert requeued == [bot_jobs[0]] and table.record(gid).version == version
        if table.queue.count:
            table.worker.work(burst=True, max_jobs=1, logging_level="WARNING")
        elif table.record(gid).status == "active" and step > 200:
            raise AssertionError("the game stalled")
        step += 1
    assert lost == 2 and table.record(gid).status == "scored"
    moves = [c for c in table.kernel.store.command_records(gid) if c["command"]["type"] == "Add"]
    assert table.types(gid).count("Added") == len(moves)  # every move once, none twice


def test_a_lost_scoring_job_is_enqueued_again(table: Table, clock) -> None:
    gid = table.create(BOTS, target=4, settle=False)
    for _ in range(100):
        table.kernel.pump()
        table.reactor.drain()
        if f"score-{gid}" in table.queue.get_job_ids():
            break
        table.worker.work(burst=True, logging_level="WARNING")
    Job.fetch(f"score-{gid}", connection=table.jobs).delete()  # lost before any worker saw it
    table.settle()
    assert table.record(gid).status == "ended"
    assert table.watchdog.sweep(clock.now() + 31) == [f"score-{gid}"]
    table.settle()
    assert table.record(gid).status == "scored"
    assert table.watchdog.sweep(clock.now() + 62) == []  # nothing waits any more
    assert table.client.zscore(table.kernel.keys.bot_watch(), gid) is None


CALLS: list[str] = []
REAL_SCORE_GAME = jobs.score_game


def flaky_score_game(game_id: str, **kwargs: Any) -> Any:
    """Fails the first time (an rq job must be importable by name, so it lives here)."""
    CALLS.append(game_id)
    if len(CALLS) == 1:
        raise ConnectionError("redis went away for a moment")
    return REAL_SCORE_GAME(game_id, **kwargs)


def test_final_scoring_is_retried_with_backoff(table: Table, monkeypatch) -> None:
    CALLS.clear()
    calls = CALLS
    monkeypatch.setattr(jobs, "score_game", flaky_score_game)
    gid = table.create(BOTS, target=4)
    assert table.record(gid).status == "ended" and calls == [gid]
    job = Job.fetch(f"score-{gid}", connection=table.jobs)
    assert job.get_status() == "scheduled" and job.retries_left == 2
    table.tick(6)  # the first backoff is 5 s
    assert table.record(gid).status == "scored" and calls == [gid, gid]


def test_a_lost_deadline_job_is_found_and_the_seat_still_times_out_once(table: Table, clock) -> None:
    gid = table.create([{"name": "alice", "player_id": "alice"}, {"name": "bob", "player_id": "bob"}],
                       pace={"per_move_seconds": HOUR})
    scheduled = table.queue.scheduled_job_registry.get_job_ids()
    deadline = [j for j in scheduled if j.startswith("deadline-")]
    assert len(deadline) == 1
    Job.fetch(deadline[0], connection=table.jobs).delete()  # lost with a crashed Redis replica, say
    table.tick(HOUR + 10)
    assert not table.events(gid, "taproom.TurnTimedOut")
    assert table.watchdog.sweep(clock.now()) == []  # late by less than the stale time: not yet
    assert table.watchdog.sweep(clock.now() + 31) == deadline
    table.tick(0)
    assert [e["seat"] for e in table.events(gid, "taproom.TurnTimedOut")] == [0]
    assert table.watchdog.sweep(clock.now() + 62) == []  # alice is away, bob's deadline is ahead


def test_a_game_without_jobs_leaves_the_bot_watch_once_not_on_every_command(table: Table, clock) -> None:
    """The reactor removes a game that waits for no job from the watch once, then remembers it did (until a
    job brings it back, or the watchdog adds it); a removal it only believes it made is cleaned by the sweep."""
    gid = table.create([{"name": "a"}, {"name": "b"}], target=50)
    watch = table.kernel.keys.bot_watch()
    for seat in (0, 1, 0):
        assert table.add(gid, seat, 1).accepted
    assert gid in table.reactor.unwatched and table.client.zscore(watch, gid) is None
    # another process put it in the watch meanwhile (a lease that moved): this reactor does not remove it again
    table.client.zadd(watch, {gid: clock.now()})
    assert table.add(gid, 1, 1).accepted
    assert table.client.zscore(watch, gid) is not None
    # the watchdog's sweep finds it waits for nothing and removes it
    assert table.watchdog.sweep(clock.now() + 31) == [] and table.client.zscore(watch, gid) is None
    table.reactor.lost_redis()  # a batch cut short: what it believed removed is forgotten
    assert not table.reactor.unwatched
    assert table.add(gid, 0, 1).accepted and gid in table.reactor.unwatched


def test_an_active_game_without_pace_or_players_keeps_no_clock_and_still_ends_and_is_scored(table: Table) -> None:
    """Nobody reads the turn clocks of a game without a pace whose seats no player holds: the reactor neither
    reads nor writes them, and still does what the game calls for (scoring at the end)."""
    gid = table.create([{"name": "a"}, {"name": "b"}], target=6)
    clock_key = table.kernel.keys.clock(gid)
    seat = 0
    while table.record(gid).status == "active":
        assert table.add(gid, seat, 3).accepted
        seat = 1 - seat
        assert not table.client.exists(clock_key)
    assert table.record(gid).status == "scored"
    played = table.create([{"name": "alice", "player_id": "alice"}, {"name": "b"}], target=6)
    assert table.add(played, 0, 1).accepted  # a seat held by a player: its clock runs ("your turn" messages)
    assert table.client.hget(table.kernel.keys.clock(played), "seen") is not None


def test_the_reactor_skips_moves_that_cannot_concern_it_and_still_scores_the_game(table: Table) -> None:
    """A feed entry says whether its command appended a kernel event (``k``). An active game without bots,
    pace or players has nothing for the reactor until one does: its moves are skipped unread (its record here
    falls behind), and the game's end, a kernel event, is looked at (read afresh) and scored."""
    gid = table.create([{"name": "a"}, {"name": "b"}], target=12)
    shard = table.kernel.keys.shard(gid)
    assert table.add(gid, 0, 1).accepted
    behind = table.reactor.repo.peek(gid).version
    assert table.add(gid, 1, 1).accepted and table.add(gid, 0, 1).accepted
    assert gid in table.reactor.behind and table.reactor.repo.peek(gid).version == behind  # not read
    entries = [f for _, f in table.client.xrange(table.kernel.keys.feed(shard)) if f[b"g"] == gid.encode()]
    assert entries[0][b"k"] == b"1" and {f[b"k"] for f in entries[1:]} == {b"0"}  # the creation, then moves
    seat = 1
    while table.record(gid).status == "active":
        assert table.add(gid, seat, 3).accepted
        seat = 1 - seat
    assert table.record(gid).status == "scored" and gid not in table.reactor.behind
    assert table.reactor.repo.peek(gid).version == table.kernel.store.head(gid)[0]
    bots = table.create([{"name": "a"}, {"bot": "random"}], target=12)  # a bot seat: every move looked at
    assert table.add(bots, 0, 1).accepted
    assert bots not in table.reactor.behind
