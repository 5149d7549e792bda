"""Turn clocks: when a seat starts and stops waiting, its deadline, and what the reactor schedules.

The reactor calls :meth:`AsyncPlay.on_game` with each game's current record
and the states it passed through since the reactor last looked (one per
command, see :meth:`services.infrastructure.aggregates.Repository.advance`). A human seat of
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

import math
from typing import Any

import structlog
from rq.job import Job

from domain.core.lifecycle import GameRecord, voters
from services.adapters.workers import async_play as jobs
from services.adapters.workers.absence import cancel_absence, notify_absent_votes, schedule_absence
from services.adapters.workers.async_play import Clockwork
from services.application.clocks.turns import Step, Wait, at, clocked_seats, clockless, has_humans, job_safe
from services.infrastructure.resilience import UNAVAILABLE

log = structlog.get_logger("taproom.deadlines")


class AsyncPlay(Clockwork):
    """What the reactor does for asynchronous play, given a game's current record."""

    def on_game(self, record: GameRecord, version: int, ts: float, steps: list[Step] | None = None) -> list[str]:
        """Schedule what the record calls for; returns the job ids scheduled.

        ``steps``: the states the game passed through since the reactor last looked (see
        :meth:`TurnClocks.update`); without them, the clocks follow the record alone.
        """
        now = self.clock.from_wall(ts) if ts else self.clock.now()
        gid = record.game_id
        scheduled: list[str] = []
        if record.status == "open":
            scheduled += self.expire_when_unfilled(record, now)
            scheduled += self.on_invitations(record)
        if record.status in ("active", "ended", "scored"):
            self.notify_leaving(record)
        if record.status == "active":
            scheduled += self.on_turns(record, version, now, steps)
        elif record.status == "scored":
            self.clocks.clear(gid)
            for seat, info in enumerate(record.seats):
                if info.player_id:
                    self.notifier.send(info.player_id, "game_over", {
                        "game_id": gid, "seat": seat, "place": record.places.get(seat),
                        "scores": [s.model_dump() for s in record.scores]}, dedupe=f"over:{gid}:{seat}")
        elif record.status in ("ended", "expired"):
            self.clocks.clear(gid)
        if record.status in ("ended", "scored"):
            cancel_absence(self, record)
        if record.status != "active":
            self.writer.zrem(self.keys.deadline_watch(), gid)
            if clockless(record):  # it was watched for idleness while active
                self.writer.zrem(self.keys.idle_watch(), gid)
        return scheduled

    def expire_when_unfilled(self, record: GameRecord, now: float) -> list[str]:
        """An open game is closed after its expiry unless filled (one job per game)."""
        gid = record.game_id
        job_id = f"expire-{self.tag}-{job_safe(gid)}"
        if Job.exists(job_id, connection=self.redis):
            return []
        expiry = (record.pace.open_expiry_seconds if record.pace else None) or self.settings.open_game_expiry_seconds
        created = self.store.read(gid, after=0, until=1)
        since = self.clock.from_wall(created[0].ts) if created else now
        self.queue.enqueue_at(at(since + expiry), jobs.expire_open_game, gid, job_id=job_id,
                              result_ttl=3600)
        return [job_id]

    def on_turns(self, record: GameRecord, version: int, now: float, steps: list[Step] | None) -> list[str]:
        """An active game: bring the turn clocks up to date, schedule the deadlines of the waits begun, tell
        each waiting player it is their turn, and of their timeouts."""
        gid = record.game_id
        scheduled: list[str] = []
        if clockless(record):  # no clock to keep, nobody to tell: one write, so the watchdog can end it when idle
            if has_humans(record):
                self.writer.zadd(self.keys.idle_watch(), {gid: now})
            return scheduled
        timed = record.pace is not None and record.pace.timed
        for seat, wait in self.clocks.update(record, version, now, steps):
            if timed:
                scheduled += self.schedule_deadline(record, seat, wait)
            else:  # an untimed game never times out: a seat it waits for too long is warned, then voted about
                scheduled += schedule_absence(self, record, seat, wait)
        # Every running wait, not only those begun now: a "your turn" lost to a crash after the clock
        # was written is sent when the reactor handles the game again (sends are deduplicated).
        for seat, wait in self.clocks.waits(gid).items():
            player = record.seats[seat].player_id
            if not player:
                continue
            if self.writes is not None:  # the reactor's batch: checked for all its games at once
                self._your_turns.append((record, seat, wait))
            else:
                self.your_turn(record, seat, wait)
        self.notify_timeouts(record)
        notify_absent_votes(self, record)
        self.watch_deadlines(record)
        return scheduled

    def your_turn(self, record: GameRecord, seat: int, wait: Wait, unsent: bool = False) -> None:
        """Tell the player of ``seat`` it is their turn (once per wait; ``unsent``: checked it was not told)."""
        player, gid = record.seats[seat].player_id, record.game_id
        assert player is not None
        dedupe = f"turn:{gid}:{seat}:{wait.version}"
        if not unsent and self.notifier.sent(player, dedupe):
            return
        message: dict[str, Any] = {"game_id": gid, "seat": seat, "version": wait.version, "title": record.game.title}
        if record.pace is not None and record.pace.timed:
            message["deadline"] = self.clocks.deadline(record, seat, wait)
        self.notifier.send(player, "your_turn", message, dedupe=dedupe, unsent=True)

    def send_your_turns(self) -> None:
        """The "your turn" messages the batch's games call for: which were sent before is asked in one round
        trip for all of them."""
        waiting, self._your_turns = self._your_turns, []
        if not waiting:
            return
        pipe = self.redis.pipeline(transaction=False)
        for record, seat, wait in waiting:
            pipe.exists(self.keys.notified(record.seats[seat].player_id or "", f"turn:{record.game_id}:{seat}:"
                                                                                f"{wait.version}"))
        # What sending reads of the players told (preferences, webhook), in the same round trip: only theirs,
        # not every seated player's (the reactor's read-ahead leaves out the players of untimed active games).
        ahead = self.clocks.read_ahead
        keys: list[str] = []
        if ahead is not None:
            players = dict.fromkeys(record.seats[seat].player_id or "" for record, seat, _ in waiting)
            keys = self.notifier.queue_reads(pipe, [p for p in players if self.keys.notify_prefs(p) not in ahead])
        replies = pipe.execute()
        if ahead is not None:
            self.notifier.take_reads(ahead, keys, replies[len(waiting):])
        for (record, seat, wait), sent in zip(waiting, replies):
            if sent:
                continue
            try:
                self.your_turn(record, seat, wait, unsent=True)
            except UNAVAILABLE:  # the batch is read again once Redis is back
                raise
            except Exception:  # as in on_game: messages never stop bots, scoring, or the other games' clocks
                log.exception("asynchronous play failed", game_id=record.game_id)

    def on_invitations(self, record: GameRecord) -> list[str]:
        """Each standing invitation is told to its invitee once and lapses at its expiry (one job each)."""
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
                                  result_ttl=3600)
            ids.append(job_id)
        return ids

    def links(self, game_id: str) -> dict[str, Any]:
        base = self.settings.public_url.rstrip("/")
        return {"reclaim": {"method": "POST", "url": f"{base}/games/{game_id}/reclaim"},
                "game": f"{base}/#/game/{game_id}"}

    def notify_timeouts(self, record: GameRecord) -> None:
        """Tell each player of their latest timeout (or takeover) and of votes about their seat, with a
        link to reclaim it, or that the table replaced them with a bot. Read from the record, so a message lost to a crash goes out on the next look;
        the dedupe keys carry the version of the timeout, so each timeout is one message."""
        pace = record.pace
        gid = record.game_id
        for seat, info in enumerate(record.seats):
            if info.player_id and info.bot:  # a bot seat with a player: the table voted to replace them (or they left)
                if info.left_how != "resigned":
                    self.notifier.send(info.player_id, "replaced", {"game_id": gid, "seat": seat, "bot": info.bot,
                                                                    "game": self.links(gid)["game"]},
                                       dedupe=f"replaced:{gid}:{seat}")
                continue
            if pace is None or not info.player_id or not info.timeouts:
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

    def notify_leaving(self, record: GameRecord) -> None:
        """Tell the other players of each seat whose player left the game ("Ann resigned"), once per seat."""
        if not any(info.left for info in record.seats):
            return
        gid = record.game_id
        for seat, info in enumerate(record.seats):
            if not info.left:
                continue
            message = {"game_id": gid, "seat": seat, "name": info.name, "how": info.left_how, "bot": info.bot,
                       "game": self.links(gid)["game"]}
            for other, holder in enumerate(record.seats):
                if other != seat and holder.player_id and holder.player_id != info.player_id:
                    self.notifier.send(holder.player_id, "left", message, dedupe=f"left:{gid}:{seat}:{other}")

    def watch_deadlines(self, record: GameRecord) -> None:
        """Keep the game's earliest deadline in the watch (so a lost deadline job is found)."""
        if record.pace is None or not record.pace.timed:  # a pace is fixed at creation: never watched
            return
        waits = self.clocks.waits(record.game_id)
        dues = [self.clocks.deadline(record, seat, waits[seat]) for seat in clocked_seats(record) if seat in waits]
        if dues:
            self.writer.zadd(self.keys.deadline_watch(), {record.game_id: min(dues)})
        else:
            self.writer.zrem(self.keys.deadline_watch(), record.game_id)
