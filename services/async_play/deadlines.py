"""Turn clocks: when a seat starts and stops waiting, its deadline, and what the reactor schedules.

The reactor calls :meth:`AsyncPlay.on_game` with each game's current record
and the states it passed through since the reactor last looked (one per
command, see :meth:`services.aggregates.Repository.advance`). A human seat of
a timed game that starts waiting gets a clock entry (``start:<seat>`` = the
version and time it began), a deadline job scheduled with rq's
``enqueue_at``, "deadline in N hours" warning jobs and a "your turn" message;
when it stops waiting a time bank is charged. The deadline is computed again
when its job runs (a vacation may have begun since), so a deadline only ever
moves later.

The clock runs per *turn*, not per command. A turn of a seat begins at the
first command after which the seat is to act and ends at the first command
after which it is not (it moved its last part, timed out, or the game ended)
or after which the game's ``turn_key`` for it differs (one seat taking two
turns in a row, see :func:`domain.core.lifecycle.turn_of`):

* a per-move pace (``per_move_seconds``) gives each turn that much time from
  its beginning; the seat's own commands within the turn (a multi-step turn,
  a bonus action that leaves it to act) do not restart it;
* a time bank is charged once per turn, by the time from the turn's beginning
  to its end (vacations excepted), and ``increment_seconds`` is added once
  per turn, when it ends.

Turns are taken from the log, command by command, so a seat that finishes a
turn and is to act again before the reactor looks (another seat or a bot
answered in between) has two turns: the first is charged (and, with a bank,
incremented) at the time it really ended, and the second starts afresh.
``seen`` in the clock entry is the last version the clocks were brought up to,
so a feed entry handled twice changes nothing.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import redis
import structlog
from rq import Queue
from rq.job import Job

from domain.core.lifecycle import GameRecord, Pace, turn_of, voters

from ..eventstore import EventStore, Keys
from . import clock
from .config import AsyncSettings, job_settings
from .notify import Notifier
from .vacation import Vacations

log = structlog.get_logger("taproom.deadlines")


@dataclass(frozen=True)
class Wait:
    version: int
    since: float
    turn: str | None = field(default=None, compare=False)  # the turn's tag (None: kept before tags were)

    def encode(self) -> str:
        return f"{self.version}:{self.since!r}" + (f":{self.turn}" if self.turn is not None else "")

    @classmethod
    def decode(cls, raw: bytes | str) -> Wait:
        text = raw.decode() if isinstance(raw, bytes) else raw
        version, since, *turn = text.split(":", 2)
        return cls(int(version), float(since), turn[0] if turn else None)


def job_safe(text: str) -> str:
    """rq job ids allow letters, digits, '_' and '-' only."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


def at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


def clocked_seats(record: GameRecord) -> list[int]:
    """Seats that wait for their holder now: humans to act (bots, away seats and a timed-out turn's
    remaining steps are played at once).

    Untimed games track waits too, so "your turn" is sent once per wait.
    """
    if record.status != "active":
        return []
    return [s for s in record.to_act() if not record.seats[s].bot and record.played_for(s) is None]


def turn_tag(record: GameRecord, seat: int) -> str:
    """A short stable tag of the turn ``seat`` is in (of :func:`turn_of`), kept with its wait."""
    return hashlib.sha256(repr(turn_of(record, seat)).encode()).hexdigest()[:12]


def waiting_seats(record: GameRecord) -> frozenset[tuple[int, str]]:
    """:func:`clocked_seats` with their turns' tags, as a step's probe (see
    :meth:`services.aggregates.Repository.advance`)."""
    return frozenset((seat, turn_tag(record, seat)) for seat in clocked_seats(record))


Step = tuple[int, float, frozenset[tuple[int, str]]]
"""A state a game passed through: (version after a command, its wall time, the seats waiting then and
their turns' tags)."""


def same_turn(wait: Wait | None, seat: int, waiting: frozenset[tuple[int, str]]) -> bool:
    """Whether ``seat`` is still in the turn of ``wait`` at a step whose waiting seats are ``waiting``."""
    tags = dict(waiting)
    if seat not in tags:
        return False
    return wait is None or wait.turn is None or wait.turn == tags[seat]


def has_humans(record: GameRecord) -> bool:
    return any(not seat.bot for seat in record.seats)


class TurnClocks:
    def __init__(self, client: redis.Redis, keys: Keys, vacations: Vacations) -> None:
        self.redis = client
        self.keys = keys
        self.vacations = vacations

    def waits(self, game_id: str) -> dict[int, Wait]:
        raw: dict[bytes, bytes] = self.redis.hgetall(self.keys.clock(game_id))  # type: ignore[assignment]
        return {int(k.decode().split(":")[1]): Wait.decode(v) for k, v in raw.items() if k.startswith(b"start:")}

    def seen(self, game_id: str) -> int | None:
        """The last version the clocks were brought up to (None: never, or not since the game ended)."""
        raw = self.redis.hget(self.keys.clock(game_id), "seen")
        return int(raw) if raw is not None else None  # type: ignore[arg-type]

    def wait(self, game_id: str, seat: int) -> Wait | None:
        raw = self.redis.hget(self.keys.clock(game_id), f"start:{seat}")
        return Wait.decode(raw) if raw else None

    def bank(self, game_id: str, seat: int, pace: Pace) -> float:
        raw = self.redis.hget(self.keys.clock(game_id), f"bank:{seat}")
        return float(raw) if raw is not None else float(pace.bank_seconds or 0)

    def allowed(self, game_id: str, seat: int, pace: Pace) -> float:
        """Running-clock seconds the seat has for this wait."""
        if pace.bank_seconds is not None:
            return max(0.0, self.bank(game_id, seat, pace))
        return float(pace.per_move_seconds or 0)

    def deadline(self, record: GameRecord, seat: int, wait: Wait) -> float:
        assert record.pace is not None
        allowed = self.allowed(record.game_id, seat, record.pace)
        return self.vacations.deadline(record.seats[seat].player_id, wait.since, allowed)

    def update(self, record: GameRecord, version: int, ts: float,
               steps: list[Step] | None = None) -> list[tuple[int, Wait]]:
        """Bring the clocks up to ``record`` at ``version`` through ``steps`` (event times on the wall
        clock); without steps, from the record alone at time ``ts``. Returns the waits begun that still run.

        Steps at or before ``seen`` were applied already and are skipped. A game whose clocks have no
        ``seen`` yet (first look, or clocks from before it was kept) starts from its latest state only.
        """
        key = self.keys.clock(record.game_id)
        seen = self.seen(record.game_id)
        if steps:
            fresh = [(v, clock.from_wall(t), w) for v, t, w in steps if seen is None or v > seen]
        else:
            fresh = [(version, ts, waiting_seats(record))] if seen is None or version > seen else []
        if seen is None:
            fresh = fresh[-1:]
        if not fresh:
            return []
        stored = self.waits(record.game_id)
        pace = record.pace
        banks: dict[int, float] = {}
        begun: dict[int, Wait] = {}
        pipe = self.redis.pipeline(transaction=True)
        for step_version, step_ts, waiting in fresh:
            for seat in [s for s in stored if not same_turn(stored[s], s, waiting)]:  # its turn ended here
                wait = stored.pop(seat)
                begun.pop(seat, None)
                pipe.hdel(key, f"start:{seat}")
                if pace is not None and pace.bank_seconds is not None:
                    player = record.seats[seat].player_id
                    used = max(0.0, step_ts - wait.since - self.vacations.paused(player, wait.since, step_ts))
                    left = banks.get(seat, self.bank(record.game_id, seat, pace)) - used + pace.increment_seconds
                    banks[seat] = max(0.0, left)
                    pipe.hset(key, f"bank:{seat}", banks[seat])
            for seat, tag in sorted(w for w in waiting if w[0] not in stored):  # a turn begins
                wait = Wait(step_version, step_ts, tag)
                stored[seat] = begun[seat] = wait
                pipe.hset(key, f"start:{seat}", wait.encode())
        if has_humans(record):  # bot-only games never wait: no clock entry for them
            pipe.hset(key, "seen", max(version, fresh[-1][0]))
        pipe.execute()
        return sorted(begun.items())

    def view(self, record: GameRecord) -> dict[str, Any]:
        """The clock as a page shows it: the service's now, after how many consecutive timeouts a seat is
        taken over, and :meth:`table`."""
        pace = record.pace
        return {"now": clock.now(), "timed": bool(pace and pace.timed),
                "takeover_after": pace.timeouts_to_takeover if pace and pace.timed else None,
                "seats": self.table(record) if record.status == "active" else []}

    def clear(self, game_id: str) -> None:
        self.redis.delete(self.keys.clock(game_id))

    def table(self, record: GameRecord) -> list[dict[str, Any]]:
        """Per seat: waiting since, deadline (vacations included), bank left, consecutive timeouts."""
        waits = self.waits(record.game_id)
        rows = []
        for seat in range(len(record.seats)):
            row: dict[str, Any] = {"seat": seat, "away": record.seats[seat].autopilot,
                                   "timeouts": record.seats[seat].timeouts}
            if record.pace is not None and record.pace.bank_seconds is not None:
                row["bank_seconds"] = self.bank(record.game_id, seat, record.pace)
            wait = waits.get(seat)
            if wait is not None and record.pace is not None:
                row["waiting_since"] = wait.since
                row["deadline"] = self.deadline(record, seat, wait)
            rows.append(row)
        return rows


class AsyncPlay:
    """What the reactor does for asynchronous play, given a game's current record."""

    def __init__(self, client: redis.Redis, keys: Keys, queue: Queue, settings: AsyncSettings) -> None:
        self.redis = client
        self.keys = keys
        self.queue = queue
        self.settings = settings
        self.store = EventStore(client, keys)
        self.vacations = Vacations(client, keys, settings.vacation_days_per_year)
        self.clocks = TurnClocks(client, keys, self.vacations)
        self.notifier = Notifier(client, keys, queue, settings)

    @property
    def tag(self) -> str:
        """Job ids carry the key prefix, so each deployment (and test) finds and cleans its own."""
        return job_safe(self.keys.prefix.rstrip(":")) or "tr"

    def ctx(self) -> dict[str, Any]:
        """Keyword arguments of every job scheduled here: where the game lives, and these settings."""
        return {"prefix": self.keys.prefix, "shards": self.keys.shards,
                "async_settings": job_settings(self.settings)}

    def on_game(self, record: GameRecord, version: int, ts: float, steps: list[Step] | None = None) -> list[str]:
        """Schedule what the record calls for; returns the job ids scheduled.

        ``steps``: the states the game passed through since the reactor last looked (see
        :meth:`TurnClocks.update`); without them, the clocks follow the record alone.
        """
        from . import jobs

        now = clock.from_wall(ts) if ts else clock.now()
        gid = record.game_id
        scheduled: list[str] = []
        if record.status == "open":
            job_id = f"expire-{self.tag}-{job_safe(gid)}"
            if not Job.exists(job_id, connection=self.queue.connection):
                expiry = (record.pace.open_expiry_seconds if record.pace else None) \
                    or self.settings.open_game_expiry_seconds
                created = self.store.read(gid, after=0, until=1)
                since = clock.from_wall(created[0].ts) if created else now
                self.queue.enqueue_at(at(since + expiry), jobs.expire_open_game, gid, job_id=job_id,
                                      result_ttl=3600, **self.ctx())
                scheduled.append(job_id)
            scheduled += self.on_invitations(record)
        elif record.status == "active":
            timed = record.pace is not None and record.pace.timed
            for seat, wait in self.clocks.update(record, version, now, steps):
                if timed:
                    scheduled += self.schedule_deadline(record, seat, wait)
            # Every running wait, not only those begun now: a "your turn" lost to a crash after the clock
            # was written is sent when the reactor handles the game again (sends are deduplicated).
            for seat, wait in self.clocks.waits(gid).items():
                player = record.seats[seat].player_id
                dedupe = f"turn:{gid}:{seat}:{wait.version}"
                if not player or self.notifier.sent(player, dedupe):
                    continue
                message: dict[str, Any] = {"game_id": gid, "seat": seat, "version": wait.version}
                if timed:
                    message["deadline"] = self.clocks.deadline(record, seat, wait)
                self.notifier.send(player, "your_turn", message, dedupe=dedupe)
            self.notify_timeouts(record)
            self.watch_deadlines(record)
        elif record.status == "scored":
            self.clocks.clear(gid)
            for seat, info in enumerate(record.seats):
                if info.player_id:
                    self.notifier.send(info.player_id, "game_over", {
                        "game_id": gid, "seat": seat, "place": record.places.get(seat),
                        "scores": [s.model_dump() for s in record.scores]}, dedupe=f"over:{gid}:{seat}")
        elif record.status in ("ended", "expired"):
            self.clocks.clear(gid)
        if record.status != "active":
            self.redis.zrem(self.keys.deadline_watch(), gid)
        return scheduled

    def on_invitations(self, record: GameRecord) -> list[str]:
        """Each standing invitation is told to its invitee once and lapses at its expiry (one job each)."""
        from . import jobs

        ids = []
        for seat, info in enumerate(record.seats):
            invitation = info.invitation
            if invitation is None:
                continue
            message = {"game_id": record.game_id, "game": record.game_type, "seat": seat, "by": invitation.by,
                       "expires_at": invitation.expires_at}
            self.notifier.send(invitation.player_id, "invited", message,
                               dedupe=f"invited:{record.game_id}:{seat}:{invitation.expires_at!r}")
            job_id = f"invite-{self.tag}-{job_safe(record.game_id)}-{seat}-{int(invitation.expires_at * 1000)}"
            if Job.exists(job_id, connection=self.queue.connection):
                continue
            # rq schedules to the whole second, rounding down: a job released before the expiry would be refused
            self.queue.enqueue_at(at(math.ceil(invitation.expires_at) + 1), jobs.expire_invitation, record.game_id,
                                  seat, invitation.player_id, invitation.expires_at, job_id=job_id,
                                  result_ttl=3600, **self.ctx())
            ids.append(job_id)
        return ids

    def links(self, game_id: str) -> dict[str, Any]:
        base = self.settings.public_url.rstrip("/")
        return {"reclaim": {"method": "POST", "url": f"{base}/games/{game_id}/reclaim"},
                "game": f"{base}/games/{game_id}/view"}

    def notify_timeouts(self, record: GameRecord) -> None:
        """Tell each player of their latest timeout (or takeover) and of votes about their seat, with a
        link to reclaim it, or that the table replaced them with a bot. Read from the record, so a message lost to a crash goes out on the next look;
        the dedupe keys carry the version of the timeout, so each timeout is one message."""
        pace = record.pace
        if pace is None:
            return
        gid = record.game_id
        for seat, info in enumerate(record.seats):
            if info.player_id and info.bot:  # a bot seat with a player: the table voted to replace them
                self.notifier.send(info.player_id, "replaced", {"game_id": gid, "seat": seat, "bot": info.bot,
                                                                "game": self.links(gid)["game"]},
                                   dedupe=f"replaced:{gid}:{seat}")
                continue
            if not info.player_id or not info.timeouts:
                continue
            base = {"game_id": gid, "seat": seat, "version": info.last_timeout, "timeouts": info.timeouts,
                    "takeover_after": pace.timeouts_to_takeover, "policy": pace.on_timeout, **self.links(gid)}
            if info.autopilot is not None:
                self.notifier.send(info.player_id, "taken_over", {**base, "vote": pace.vote},
                                   dedupe=f"timeout:{gid}:{seat}:{info.last_timeout}")
            else:
                self.notifier.send(info.player_id, "timed_out", base,
                                   dedupe=f"timeout:{gid}:{seat}:{info.last_timeout}")
            if info.votes:
                votes = ",".join(map(str, info.votes))
                self.notifier.send(info.player_id, "seat_vote", {**base, "choice": pace.vote, "votes": list(info.votes),
                                                                 "voters": voters(record, seat)},
                                   dedupe=f"vote:{gid}:{seat}:{info.last_timeout}:{votes}")

    def watch_deadlines(self, record: GameRecord) -> None:
        """Keep the game's earliest deadline in the watch (so a lost deadline job is found)."""
        if record.pace is None or not record.pace.timed:  # a pace is fixed at creation: never watched
            return
        waits = self.clocks.waits(record.game_id)
        dues = [self.clocks.deadline(record, seat, waits[seat]) for seat in clocked_seats(record) if seat in waits]
        if dues:
            self.redis.zadd(self.keys.deadline_watch(), {record.game_id: min(dues)})
        else:
            self.redis.zrem(self.keys.deadline_watch(), record.game_id)

    def deadline_job_id(self, game_id: str, seat: int, wait: Wait, due: float) -> str:
        return f"deadline-{self.tag}-{job_safe(game_id)}-{wait.version}-{seat}-{int(due)}"

    def schedule_deadline(self, record: GameRecord, seat: int, wait: Wait, due: float | None = None) -> list[str]:
        """Enqueue the deadline job (and its warnings) of ``seat``'s current wait at its due time."""
        from . import jobs

        due = self.clocks.deadline(record, seat, wait) if due is None else due
        gid = record.game_id
        job_id = self.deadline_job_id(gid, seat, wait, due)
        self.queue.enqueue_at(at(due), jobs.turn_deadline, gid, seat, wait.version, job_id=job_id,
                              result_ttl=3600, **self.ctx())
        ids = [job_id]
        if record.seats[seat].player_id:
            for hours in self.settings.deadline_warning_hours:
                warn_at = due - hours * 3600
                if warn_at > wait.since:
                    warn_id = f"warn-{self.tag}-{job_safe(gid)}-{wait.version}-{seat}-{hours}-{int(warn_at)}"
                    self.queue.enqueue_at(at(warn_at), jobs.deadline_warning, gid, seat, wait.version, hours,
                                          job_id=warn_id, result_ttl=3600, **self.ctx())
                    ids.append(warn_id)
        log.info("deadline scheduled", game_id=gid, seat=seat, due=due)
        return ids
