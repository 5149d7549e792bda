"""rq jobs of asynchronous play: module-level, take ids, idempotent.

Each decision goes back through the command stream as a system command whose
id is derived from (game, version, seat), so a job that runs twice (a retry,
a watchdog re-run, a deadline released twice) changes the game once.

A deadline's ``TimeOut`` and an away seat's ``PlayFor`` name the version they
were decided at; when another seat moves first, the processor refuses them
as ``stale_version``. The job waits for its command's outcome
(``system_command_wait_seconds``) and then decides again on the new version:
if the seat is still in the same overdue turn (same wait, deadline passed),
it sends the command again under the new version's id; if the seat has acted
since, it does nothing. Attempts are bounded (``system_command_attempts``);
past them, or when no outcome comes in time, the watchdog is the fallback.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import redis
import structlog
from rq import Queue, get_current_job

from domain.core import SYSTEM_SEAT, Command
from domain.core.lifecycle import ExpireGame, GameRecord, PlayFor, StaleVersion, TimeOut
from domain.core.seating import EndInvitation
from services.application.bots import choose
from services.application.clocks.turns import Step, TurnClocks, Wait, at, job_safe, same_turn, waiting_seats
from services.application.clocks.vacation import Vacations
from services.application.notifications.notify import Notifier
from services.infrastructure.aggregates import Loaded
from services.infrastructure.batching import BatchWrites, ReadAhead
from services.infrastructure.bootstrap import Root, job_root, job_root_of
from services.infrastructure.clock import Clock
from services.infrastructure.commands import new_reply
from services.infrastructure.eventstore import EventStore, Keys
from services.infrastructure.settings import AsyncSettings

log = structlog.get_logger("taproom.async_jobs")


class Clockwork:
    """The turn clocks, the notifier and the deadline jobs, over one Redis and rq queue: what the deadline
    jobs use, and what the reactor's :class:`~services.adapters.reactor.deadlines.AsyncPlay` builds on."""

    def __init__(self, store: EventStore, queue: Queue, settings: AsyncSettings, clock: Clock) -> None:
        """Over the composition root's event store (its Redis and keys) and clock."""
        client, keys = store.redis, store.keys
        self.redis = client
        self.keys = keys
        self.store = store
        self.queue = queue
        self.settings = settings
        self.clock = clock
        self.vacations = Vacations(client, keys, settings.vacation_days_per_year, clock)
        self.clocks = TurnClocks(client, keys, self.vacations, clock)
        self.notifier = Notifier(client, keys, queue, settings, clock)
        self.writes: BatchWrites | None = None
        self._your_turns: list[tuple[GameRecord, int, Wait]] = []  # the batch's, checked together at its end

    def batch(self, read_ahead: ReadAhead | None, writes: BatchWrites | None) -> None:
        """Work inside the reactor's batch: read what ``read_ahead`` holds from it, write with ``writes``
        (None, None: the batch is over; everything is read and written at once again)."""
        self.clocks.read_ahead, self.clocks.writes, self.writes = read_ahead, writes, writes
        self.notifier.batch(read_ahead, writes)
        self._your_turns = []

    @property
    def writer(self) -> Any:
        """Where plain writes go: the batch's pipeline, else Redis at once."""
        return self.writes.pipe if self.writes is not None else self.redis

    @property
    def tag(self) -> str:
        """Job ids carry the key prefix, so each deployment (and test) finds and cleans its own."""
        return job_safe(self.keys.prefix.rstrip(":")) or "tr"

    def deadline_job_id(self, game_id: str, seat: int, wait: Wait, due: float) -> str:
        return f"deadline-{self.tag}-{job_safe(game_id)}-{wait.version}-{seat}-{int(due)}"

    def schedule_deadline(self, record: GameRecord, seat: int, wait: Wait, due: float | None = None) -> list[str]:
        """Enqueue the deadline job (and its warnings) of ``seat``'s current wait at its due time."""
        due = self.clocks.deadline(record, seat, wait) if due is None else due
        gid = record.game_id
        job_id = self.deadline_job_id(gid, seat, wait, due)
        self.queue.enqueue_at(at(due), turn_deadline, gid, seat, wait.version, job_id=job_id,
                              result_ttl=3600)
        ids = [job_id]
        if record.seats[seat].player_id:
            for hours in self.settings.deadline_warning_hours:
                warn_at = due - hours * 3600
                if warn_at > wait.since:
                    warn_id = f"warn-{self.tag}-{job_safe(gid)}-{wait.version}-{seat}-{hours}-{int(warn_at)}"
                    self.queue.enqueue_at(at(warn_at), deadline_warning, gid, seat, wait.version, hours,
                                          job_id=warn_id, result_ttl=3600)
                    ids.append(warn_id)
        log.info("deadline scheduled", game_id=gid, seat=seat, due=due)
        return ids


# Compatibility: jobs queued before the worker carried the settings were given ``prefix``, ``shards`` and
# ``async_settings`` keywords. They are accepted (``**_queued_before``) and ignored — the worker's settings are the
# deployment's. Remove once no such job can be left: one ``open_game_expiry_seconds`` (the furthest a job of
# this module is scheduled, 7 days by default; a pace may set a longer expiry) after every deployment runs
# this version.


def _env(connection: redis.Redis | None) -> tuple[redis.Redis, Keys, Clockwork]:
    job = get_current_job()
    root = job_root_of(connection)
    # Follow-up jobs go to rq's Redis, which on a cluster deployment is not the event store's.
    queue = Queue(job.origin if job is not None else "taproom", connection=job.connection if job else root.redis)
    return root.redis, root.keys, Clockwork(root.store, queue, root.settings, root.clock)


def _root(client: redis.Redis, play: Clockwork) -> Root:
    """The composition root of the job (its worker's, over the job's connection)."""
    return job_root(client)


def _load(client: redis.Redis, keys: Keys, game_id: str) -> Loaded:
    return job_root(client).records(cache_size=1).current(game_id)


def choose_move(record: GameRecord, seat: int, level: str, key: str, think_seconds: float | None = None) -> Command:
    """The autopilot's move, chosen like a bot's: from the seat's view and legal commands only."""
    game = record.game
    view = game.view(record.state, seat)
    legal = game.legal_commands(record.state, seat)
    return choose(level, game.id, view, legal, random.Random(key), think_seconds=think_seconds)


def timeout_command_id(game_id: str, version: int, seat: int) -> str:
    return f"timeout:{game_id}:{version}:{seat}"


Plan = tuple[Command, str, str]
"""A system command to send now: (command, command id, actor)."""


def _send_system(client: redis.Redis, keys: Keys, play: Clockwork, game_id: str,
                 decide: Callable[[Loaded, int], Plan | dict[str, Any]],
                 load: Callable[[], Loaded]) -> dict[str, Any]:
    """Send the system command ``decide(loaded, attempt)`` plans on the game's current version, and again
    on a fresh read each time it is refused as ``stale_version``; ``decide`` returns a result instead of
    a plan when nothing is to be done (any more)."""
    root = _root(client, play)
    result: dict[str, Any] = {}
    for attempt in range(max(1, play.settings.system_command_attempts)):
        loaded = load()
        plan = decide(loaded, attempt)
        if isinstance(plan, dict):
            return {**plan, "attempts": attempt} if attempt else plan
        command, command_id, actor = plan
        reply = new_reply()
        root.bus.submit(game_id, command, seat=SYSTEM_SEAT, actor=actor, command_id=command_id,
                        expected_version=loaded.version, reply=reply)
        result = {"command_id": command_id}
        outcome = root.bus.wait(game_id, command_id, play.settings.system_command_wait_seconds, reply=reply)
        if outcome is None or outcome.code != StaleVersion.code:
            return result  # accepted, refused for good, or not processed yet (the watchdog's part then)
        log.info("system command stale; deciding again", game_id=game_id, command_id=command_id,
                 version=outcome.version)
    return {**result, "gave_up": True}


def _overdue_turn(client: redis.Redis, keys: Keys, play: Clockwork, game_id: str, seat: int
                  ) -> tuple[Loaded, bool]:
    """The head record, and whether ``seat`` stayed to act at every command since its clock was last
    brought up to date (the reactor may not have seen a turn that ended and began again since)."""
    seen = play.clocks.seen(game_id)
    if seen is None:  # clocks kept before ``seen`` was: the reactor's view is all there is
        return _load(client, keys, game_id), True
    steps: list[Step]
    loaded, steps = job_root(client).records(cache_size=1).advance(game_id, seen, waiting_seats)
    wait = play.clocks.wait(game_id, seat)
    return loaded, all(same_turn(wait, seat, waiting) for _, _, waiting in steps)


def turn_deadline(game_id: str, seat: int, wait_version: int, *,
                  connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """The deadline of ``seat``'s wait that began at ``wait_version``: time the seat out if it is due.

    Fires once: the command id is derived from (game, version, seat), and a seat already timed out
    (away) or no longer in the same turn is left alone.
    """
    client, keys, play = _env(connection)
    same_turn = [True]

    def load() -> Loaded:
        loaded, same_turn[0] = _overdue_turn(client, keys, play, game_id, seat)
        return loaded

    def decide(loaded: Loaded, attempt: int) -> Plan | dict[str, Any]:
        record = loaded.record
        if record is None or record.status != "active" or record.pace is None or not record.pace.timed:
            return {"skipped": "not active"}
        wait = play.clocks.wait(game_id, seat)
        if wait is None or wait.version != wait_version or seat not in record.to_act() or not same_turn[0]:
            return {"skipped": "the seat moved", "version": loaded.version}
        if record.played_for(seat) is not None:
            return {"skipped": "timed out already", "version": loaded.version}
        due = play.clocks.deadline(record, seat, wait)
        if play.clock.now() < due - 1:  # a vacation pushed it back: run again then
            play.schedule_deadline(record, seat, wait, due)
            return {"rescheduled": due}
        move = None
        if record.pace.on_timeout == "autopilot":
            level = record.pace.autopilot_level
            move = choose_move(record, seat, level, f"{game_id}|{loaded.version}|{seat}",
                               play.settings.bot_think_seconds).model_dump(mode="json", exclude={"seat"})
        command = TimeOut(for_seat=seat, at_version=loaded.version, move=move)
        log.info("timing the seat out", game_id=game_id, seat=seat, version=loaded.version, attempt=attempt)
        return command, timeout_command_id(game_id, loaded.version, seat), "system:deadline"

    return _send_system(client, keys, play, game_id, decide, load)


def deadline_warning(game_id: str, seat: int, wait_version: int, hours: int, *,
                     connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """Tell the seat's player their deadline is ``hours`` away (if they still wait and it still is)."""
    client, keys, play = _env(connection)
    record = _load(client, keys, game_id).record
    if record is None or record.status != "active" or record.pace is None:
        return {"skipped": "not active"}
    wait = play.clocks.wait(game_id, seat)
    player = record.seats[seat].player_id
    if wait is None or wait.version != wait_version or not player:
        return {"skipped": "the seat moved"}
    due = play.clocks.deadline(record, seat, wait)
    if due - play.clock.now() > hours * 3600 + 60:
        return {"skipped": "pushed back"}  # the deadline job schedules the warnings of the new deadline
    sent = play.notifier.send(player, "deadline_soon", {"game_id": game_id, "seat": seat, "deadline": due,
                                                        "hours": hours},
                              dedupe=f"warn:{game_id}:{seat}:{wait_version}:{hours}:{int(due)}")
    return {"sent": sent}


def autopilot_turn(game_id: str, seat: int, version: int, *,
                   connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """Play ``seat``'s step at ``version`` by the table's policy (the seat is taken over, or this is
    the rest of its timed-out turn).

    Refused as stale (another seat moved first), it plays at the new version if the seat is still
    away and to act, under that version's command id (the one the reactor's job for it would use).
    """
    client, keys, play = _env(connection)

    def decide(loaded: Loaded, attempt: int) -> Plan | dict[str, Any]:
        record = loaded.record
        at = loaded.version
        if record is None or (attempt == 0 and at != version) or seat not in record.to_act():
            return {"skipped": "stale", "version": at}
        policy = record.played_for(seat)
        if policy is None:
            return {"skipped": "reclaimed"}
        move = None
        if policy == "autopilot":
            level = record.pace.autopilot_level if record.pace else "random"
            move = choose_move(record, seat, level, f"{game_id}|{at}|{seat}",
                               play.settings.bot_think_seconds).model_dump(mode="json", exclude={"seat"})
        return PlayFor(for_seat=seat, at_version=at, move=move), f"autopilot:{game_id}:{at}:{seat}", f"system:{policy}"

    return _send_system(client, keys, play, game_id, decide, lambda: _load(client, keys, game_id))


def expire_open_game(game_id: str, *, connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """Close an open game nobody filled in time (refused by the kernel if it has started since)."""
    client, _, play = _env(connection)
    command_id = _root(client, play).bus.submit(game_id, ExpireGame(), seat=SYSTEM_SEAT, actor="system:expiry",
                                                command_id=f"expire:{game_id}")
    return {"command_id": command_id}


def expire_invitation(game_id: str, seat: int, player_id: str, expires_at: float, *,
                      connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """End an unanswered invitation at its expiry, so the seat opens again (refused by the kernel if it was
    answered since; the command id is the invitation's, so a repeated job changes the game once)."""
    client, _, play = _env(connection)
    command = EndInvitation(for_seat=seat, player_id=player_id, reason="expired", now=play.clock.now())
    command_id = _root(client, play).bus.submit(game_id, command, seat=SYSTEM_SEAT, actor="system:expiry",
                                                command_id=f"expired:{game_id}:{seat}:{player_id}:{expires_at!r}")
    return {"command_id": command_id}
