"""A seat an untimed game waits for too long: the player is warned, the table may vote, the game ends idle.

An untimed game times no seat out, so a player who vanishes would hold the game (and its keys in Redis)
forever. When a seat's wait begins (the turn clocks of :mod:`.turns`, kept for untimed games too) the reactor
schedules three jobs for it, each checked again when it runs (the seat may have moved since; a vacation pushes
each back as it pushes a deadline):

* ``abandoned_warning_seconds`` before the vote opens, the player is told (inbox, e-mail, push) with a link
  back to the game;
* after ``abandoned_after_seconds`` the player is told again and ``taproom.MarkAbsent`` opens the vote
  (the other players are told they may vote to end the game or to give the seat to a bot; see
  :mod:`domain.core.leaving`);
* after ``idle_end_after_seconds`` ``taproom.EndIdleGame`` ends the game (the seats it waited for last); the
  reactor then scores and archives it like any finished game.

The commands name the version they were decided at and go through :func:`.jobs._send_system`, which decides
again when another command came first; their ids are derived from (game, version, seat), so a job that runs
twice changes the game once.
"""

from __future__ import annotations

from typing import Any

import redis
import structlog
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from domain.core.lifecycle import EndIdleGame, GameRecord, MarkAbsent, voters
from services.adapters.workers.async_play import Clockwork, Plan, _env, _load, _send_system
from services.application.clocks.turns import Wait, at, job_safe
from services.application.notifications.mail import game_link

log = structlog.get_logger("taproom.absence")


def _due(play: Clockwork, record: GameRecord, seat: int, wait: Wait, after: float) -> float:
    """When ``after`` seconds of the seat's wait will have passed, its player's vacations not counted."""
    return play.vacations.deadline(record.seats[seat].player_id, wait.since, after)


STEPS = ("absentwarn", "absent", "idle")


def absence_job_id(play: Clockwork, game_id: str, seat: int, step: str) -> str:
    """One id per (game, seat, step): a new wait moves the seat's jobs instead of adding three more each turn
    (rq's ``enqueue_at`` under an existing id replaces the job and its time), so a game holds at most three
    per seat however long it runs."""
    return f"{step}-{play.tag}-{job_safe(game_id)}-{seat}"


def schedule_absence(play: Clockwork, record: GameRecord, seat: int, wait: Wait) -> list[str]:
    """The warning, the vote's opening and the idle end of ``seat``'s wait in an untimed game."""
    settings, gid = play.settings, record.game_id
    opens = _due(play, record, seat, wait, settings.abandoned_after_seconds)
    steps = [("absentwarn", absence_warning, opens - settings.abandoned_warning_seconds),
             ("absent", open_absence_vote, opens),
             ("idle", end_idle_game, _due(play, record, seat, wait, settings.idle_end_after_seconds))]
    ids = []
    for name, job, when in steps:
        if when <= wait.since:
            continue
        job_id = absence_job_id(play, gid, seat, name)
        play.queue.enqueue_at(at(when), job, gid, seat, wait.version, job_id=job_id, result_ttl=3600)
        ids.append(job_id)
    return ids


def cancel_absence(play: Clockwork, record: GameRecord) -> None:
    """The game is over: its seats' absence jobs go (they would find nothing to do, weeks later)."""
    if record.pace is not None and record.pace.timed:
        return
    ids = [absence_job_id(play, record.game_id, seat, step) for seat, info in enumerate(record.seats)
           if info.bot is None or info.left for step in STEPS]
    registry = ScheduledJobRegistry(queue=play.queue)
    pipe = play.queue.connection.pipeline(transaction=False)
    for job_id in ids:
        pipe.zrem(registry.key, job_id)
        pipe.delete(Job.key_for(job_id))
    pipe.execute()


def _still_waiting(play: Clockwork, record: GameRecord | None, seat: int, wait_version: int) -> Wait | None:
    """The seat's wait, when it is the one that began at ``wait_version`` in an active untimed game."""
    if record is None or record.status != "active" or (record.pace is not None and record.pace.timed):
        return None
    wait = play.clocks.wait(record.game_id, seat)
    if wait is None or wait.version != wait_version or seat not in record.to_act():
        return None
    return wait


def _facts(play: Clockwork, record: GameRecord, seat: int, wait: Wait) -> dict[str, Any]:
    """What every message about an absent seat carries: the game, the seat, how long it waited, the game's page."""
    return {"game_id": record.game_id, "game": record.game_type, "seat": seat, "name": record.seats[seat].name,
            "idle_seconds": play.clock.now() - wait.since, "url": game_link(play.settings, record.game_id)}


def _later(play: Clockwork, job: Any, record: GameRecord, seat: int, wait: Wait, due: float,
           step: str) -> dict[str, Any]:
    """A vacation pushed the step back: run it again then."""
    job_id = absence_job_id(play, record.game_id, seat, step)
    play.queue.enqueue_at(at(due), job, record.game_id, seat, wait.version, job_id=job_id, result_ttl=3600)
    return {"rescheduled": due}


def absence_warning(game_id: str, seat: int, wait_version: int, *,
                    connection: redis.Redis | None = None) -> dict[str, Any]:
    """Tell the seat's player that the table may vote about their seat soon, unless they moved since."""
    client, keys, play = _env(connection)
    record = _load(client, keys, game_id).record
    wait = _still_waiting(play, record, seat, wait_version)
    if wait is None or record is None:
        return {"skipped": "the seat moved"}
    player = record.seats[seat].player_id
    if not player:
        return {"skipped": "a guest: nobody to tell"}
    opens = _due(play, record, seat, wait, play.settings.abandoned_after_seconds)
    facts = {**_facts(play, record, seat, wait), "vote_at": opens, "vote_in_seconds": opens - play.clock.now()}
    sent = play.notifier.send(player, "absence_warning", facts, dedupe=f"absentwarn:{game_id}:{seat}:{wait_version}")
    return {"sent": sent}


def open_absence_vote(game_id: str, seat: int, wait_version: int, *,
                      connection: redis.Redis | None = None) -> dict[str, Any]:
    """The seat has been to act for the "abandoned" time: its player is told, then the vote opens
    (``MarkAbsent``), then the other players are told they may vote."""
    client, keys, play = _env(connection)

    def decide(loaded: Any, attempt: int) -> Plan | dict[str, Any]:
        record = loaded.record
        wait = _still_waiting(play, record, seat, wait_version)
        if wait is None:
            return {"skipped": "the seat moved", "version": loaded.version}
        if record.seats[seat].absent or record.seats[seat].bot:
            return {"skipped": "absent already", "version": loaded.version}
        due = _due(play, record, seat, wait, play.settings.abandoned_after_seconds)
        if play.clock.now() < due - 1:
            return _later(play, open_absence_vote, record, seat, wait, due, "absent")
        # every seat overdue now, in one command: in a simultaneous phase they are all marked at one version
        overdue = {seat: wait, **_overdue_others(play, record, seat)}
        for absent, its_wait in overdue.items():
            player = record.seats[absent].player_id
            if player:  # told first, so the vote never opens behind their back
                play.notifier.send(player, "absent", _facts(play, record, absent, its_wait),
                                   dedupe=f"absent:{game_id}:{absent}:{its_wait.version}")
        command = MarkAbsent(for_seats=sorted(overdue), at_version=loaded.version)
        return command, f"absent:{game_id}:{loaded.version}", "system:absence"

    return _send_system(client, keys, play, game_id, decide, lambda: _load(client, keys, game_id))


def _overdue_others(play: Clockwork, record: GameRecord, seat: int) -> dict[int, Wait]:
    """The other seats the game has waited for past the "abandoned" time (not marked yet)."""
    found = {}
    for other, wait in play.clocks.waits(record.game_id).items():
        info = record.seats[other]
        if other == seat or info.absent or info.bot or other not in record.to_act():
            continue
        if play.clock.now() >= _due(play, record, other, wait, play.settings.abandoned_after_seconds) - 1:
            found[other] = wait
    return found


def notify_absent_votes(play: Clockwork, record: GameRecord) -> None:
    """Tell the players who may vote about an absent seat that they may (the reactor, from the record: once per
    absence, by the wait that led to it)."""
    waits = None
    for seat, info in enumerate(record.seats):
        if not info.absent:
            continue
        waits = play.clocks.waits(record.game_id) if waits is None else waits
        wait = waits.get(seat)
        if wait is None:
            continue
        for voter in voters(record, seat):
            other = record.seats[voter].player_id
            if other:
                play.notifier.send(other, "absent_vote", {**_facts(play, record, seat, wait), "voter_seat": voter},
                                   dedupe=f"absentvote:{record.game_id}:{seat}:{wait.version}:{voter}")


def end_idle_game(game_id: str, seat: int, wait_version: int, *,
                  connection: redis.Redis | None = None) -> dict[str, Any]:
    """Nobody played the seat's turn for the idle limit: the game ends as it stands (the seats it waited for
    last); scoring and the archive follow as for any finished game."""
    client, keys, play = _env(connection)

    def decide(loaded: Any, attempt: int) -> Plan | dict[str, Any]:
        record = loaded.record
        wait = _still_waiting(play, record, seat, wait_version)
        if wait is None:
            return {"skipped": "the seat moved", "version": loaded.version}
        due = _due(play, record, seat, wait, play.settings.idle_end_after_seconds)
        if play.clock.now() < due - 1:
            return _later(play, end_idle_game, record, seat, wait, due, "idle")
        log.info("ending an idle game", game_id=game_id, seat=seat, version=loaded.version)
        return EndIdleGame(at_version=loaded.version), f"idle:{game_id}:{loaded.version}", "system:idle"

    return _send_system(client, keys, play, game_id, decide, lambda: _load(client, keys, game_id))


def idle_end_job_id(play: Clockwork, game_id: str, version: int) -> str:
    """One id per (game, version): sweeps that find the same idle game again add no second job."""
    return f"idleend-{play.tag}-{job_safe(game_id)}-{version}"


def end_idle_clockless_game(game_id: str, at_version: int, *,
                            connection: redis.Redis | None = None) -> dict[str, Any]:
    """A game without clocks (no pace, no registered player: guests, bots) that nobody moved in for the idle
    limit ends as it stands, like :func:`end_idle_game`; found by the watchdog's sweep of ``Keys.idle_watch``
    (such a game keeps no turn clock, so no job was scheduled for it). A game that moved since the sweep read it
    is left alone (and the domain refuses the command as stale if it moves in between)."""
    client, keys, play = _env(connection)

    def decide(loaded: Any, attempt: int) -> Plan | dict[str, Any]:
        record = loaded.record
        if record is None or record.status != "active" or loaded.version != at_version:
            return {"skipped": "the game moved", "version": loaded.version}
        log.info("ending an idle game without clocks", game_id=game_id, version=loaded.version)
        return EndIdleGame(at_version=loaded.version), f"idle:{game_id}:{loaded.version}", "system:idle"

    return _send_system(client, keys, play, game_id, decide, lambda: _load(client, keys, game_id))
