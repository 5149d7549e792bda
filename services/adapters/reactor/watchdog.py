"""The watchdog: a job the game waits for (bot turn, autopilot turn, final scoring, a deadline) that
vanished is run again.

The reactor sweeps every ``watchdog_interval_seconds`` on its own thread
(the games of the shards it holds). The reactor adds a game to the watch (``Keys.bot_watch``, a zset scored by
when it last looked) whenever it enqueues such a job. Every sweep looks at
games not looked at for ``stale`` seconds: if the game still waits for the
same job and that job is gone (deleted, lost from its queue, failed,
finished without effect, or started by a worker whose heartbeat stopped), it
is enqueued again under the same id. Deadlines are watched by their due time
(``deadlinewatch``): one past by ``stale`` seconds whose job is gone is
scheduled again. Active games without clocks (``idlewatch``, scored by their last
command's time) idle past ``idle_end_after_seconds`` get a job that ends them.
Running a job twice does no harm: its command id is derived from (game,
version, seat).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import redis
import structlog
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

from services.adapters.reactor.deadlines import AsyncPlay
from services.adapters.reactor.jobspec import JobSpec
from services.adapters.workers.absence import end_idle_clockless_game, idle_end_job_id
from services.application.clocks.turns import clocked_seats, clockless
from services.infrastructure.aggregates import Repository
from services.infrastructure.eventstore import Keys
from services.infrastructure.leases import ShardLeases

log = structlog.get_logger("taproom.watchdog")


class Watched(Protocol):
    """What the watchdog needs of the reactor that runs it."""

    redis: redis.Redis
    keys: Keys
    queue: Queue
    leases: ShardLeases
    repo: Repository
    async_play: AsyncPlay
    unwatched: set[str]  # games it removed from the watch (and will not remove again until added)
    behind: set[str]  # games whose record it let fall behind the log
    idle_moves: dict[str, float]  # games without clocks that moved, not yet in the idle watch

    def jobs_for(self, game_id: str) -> Sequence[JobSpec]: ...

    def enqueue(self, spec: JobSpec, force: bool = False) -> bool: ...


class Watchdog:
    def __init__(self, reactor: Watched, stale_seconds: float = 30.0, max_requeues: int = 5) -> None:
        self.reactor = reactor
        self.redis = reactor.redis
        self.jobs = reactor.queue.connection  # rq's Redis (not the event store's on a cluster)
        self.keys = reactor.keys
        self.stale = stale_seconds
        self.max_requeues = max_requeues

    def lost(self, job_id: str, now: float) -> bool:
        try:
            job = Job.fetch(job_id, connection=self.jobs)
        except NoSuchJobError:
            return True
        status = job.get_status(refresh=False)
        if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED, JobStatus.FINISHED):
            return True  # finished, yet the game still waits: its command went missing, so run it again
        if status == JobStatus.STARTED:
            beat = job.last_heartbeat or job.started_at
            return beat is None or beat.timestamp() < now - self.stale
        if status == JobStatus.QUEUED:
            return self.jobs.lpos(self.reactor.queue.key, job_id) is None
        if status == JobStatus.SCHEDULED:
            registry = ScheduledJobRegistry(self.reactor.queue.name, connection=self.jobs)
            return self.jobs.zscore(registry.key, job_id) is None
        return False

    def sweep(self, now: float, only_owned: bool = False) -> list[str]:
        """Re-enqueue the lost jobs of games not looked at for ``stale`` seconds; returns their ids.

        ``only_owned``: just the games of shards this reactor holds (several reactor processes).
        """
        watch = self.keys.bot_watch()
        requeued: list[str] = []
        due: list[bytes] = self.redis.zrangebyscore(watch, 0, now - self.stale)  # type: ignore[assignment]
        for raw in due:
            game_id = raw.decode()
            if only_owned and self.keys.shard(game_id) not in self.reactor.leases.owned:
                continue
            self.reactor.repo.drop(game_id)
            specs = self.reactor.jobs_for(game_id)
            if not specs:
                self.redis.zrem(watch, game_id)
                continue
            for spec in specs:
                if not self.lost(spec.job_id, now):
                    continue
                if not self._may_retry(spec.job_id):
                    continue
                try:
                    Job.fetch(spec.job_id, connection=self.jobs).delete()
                except NoSuchJobError:
                    pass
                self.reactor.enqueue(spec, force=True)
                requeued.append(spec.job_id)
                log.warning("lost job enqueued again", game_id=game_id, job_id=spec.job_id)
            self.redis.zadd(watch, {game_id: now})
            self.reactor.unwatched.discard(game_id)
        return requeued + self.sweep_deadlines(now, only_owned) + self.sweep_idle(now, only_owned)

    def sweep_deadlines(self, now: float, only_owned: bool = False) -> list[str]:
        """Deadlines past by ``stale`` seconds whose job vanished are scheduled again (released at once)."""
        play = self.reactor.async_play
        requeued: list[str] = []
        late: list[bytes] = self.redis.zrangebyscore(play.keys.deadline_watch(), 0, now - self.stale)  # type: ignore[assignment]
        for raw in late:
            game_id = raw.decode()
            if only_owned and self.keys.shard(game_id) not in self.reactor.leases.owned:
                continue
            self.reactor.repo.drop(game_id)
            record = self.reactor.repo.current(game_id).record
            if record is None or record.status != "active":
                self.redis.zrem(play.keys.deadline_watch(), game_id)
                continue
            for seat in clocked_seats(record):
                wait = play.clocks.wait(game_id, seat)
                if wait is None:
                    continue
                due = play.clocks.deadline(record, seat, wait)
                job_id = play.deadline_job_id(game_id, seat, wait, due)
                if due > now - self.stale or not self.lost(job_id, now) or not self._may_retry(job_id):
                    continue
                try:
                    Job.fetch(job_id, connection=self.jobs).delete()
                except NoSuchJobError:
                    pass
                play.schedule_deadline(record, seat, wait, due)
                requeued.append(job_id)
                log.warning("lost deadline scheduled again", game_id=game_id, seat=seat, job_id=job_id)
            play.watch_deadlines(record)
        return requeued

    def sweep_idle(self, now: float, only_owned: bool = False) -> list[str]:
        """Games without clocks (``Keys.idle_watch``, scored by their last command's time) idle past
        ``idle_end_after_seconds`` get a job that ends them (``EndIdleGame`` at the version read here)."""
        play = self.reactor.async_play
        watch = play.keys.idle_watch()
        idle: list[bytes] = self.redis.zrangebyscore(watch, 0, now - play.settings.idle_end_after_seconds)  # type: ignore[assignment]
        enqueued: list[str] = []
        for raw in idle:
            game_id = raw.decode()
            if only_owned and self.keys.shard(game_id) not in self.reactor.leases.owned \
                    or game_id in self.reactor.idle_moves:  # it moved: its new time is about to be written
                continue
            # the reactor's own view: a command it has not handled yet is not ended with (a record it let fall
            # behind, see ``Reactor.behind``, is read afresh: its moves' time is in the watch all the same)
            if game_id in self.reactor.behind:
                self.reactor.repo.drop(game_id)
            loaded = self.reactor.repo.peek(game_id) or self.reactor.repo.current(game_id)
            record = loaded.record
            if record is None or record.status != "active" or not clockless(record):
                self.redis.zrem(watch, game_id)  # over, or a player took a seat: the turn clocks watch it now
                continue
            spec = JobSpec(idle_end_job_id(play, game_id, loaded.version), end_idle_clockless_game,
                           (game_id, loaded.version))
            if self.reactor.enqueue(spec):
                enqueued.append(spec.job_id)
                log.info("idle game without clocks to end", game_id=game_id, version=loaded.version)
        return enqueued

    def _may_retry(self, job_id: str) -> bool:
        tries = self.keys.watch_tries(job_id)
        count = self.redis.incr(tries)
        self.redis.expire(tries, 86400)
        if count > self.max_requeues:
            log.error("job keeps vanishing; giving up", job_id=job_id)
            return False
        return True
