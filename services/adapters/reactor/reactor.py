"""Read the shard feeds (own checkpoints) and enqueue jobs for what the events call for.

* a bot seat must act -> ``play_bot_turn(game, seat, version)``
* an away seat (taken over, or finishing its timed-out turn) must act -> ``autopilot_turn(game, seat, version)``
* the game has ended -> ``score_game(game)`` (retried on failure); once scored -> ``rate_game(game)``
  (ratings and profiles; retried likewise)
* the game is scored -> ``archive_game(game)``, ``archive_after_seconds`` later (its log, views and
  snapshots leave Redis for the cold store; see :mod:`services.infrastructure.archive`)
* asynchronous play (:class:`services.adapters.reactor.deadlines.AsyncPlay`): turn
  clocks, deadline and warning jobs, "your turn" / "game over" messages,
  the expiry of open games

Job ids are derived from (game, version, seat), so a feed entry seen twice
enqueues nothing new. Games waiting for a job are watched; the
:class:`~services.adapters.reactor.watchdog.Watchdog` enqueues a vanished job again.
"""

from __future__ import annotations

import time
from typing import Any

import redis
import structlog
from prometheus_client import Gauge
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job

from domain.core.lifecycle import GameRecord
from services.adapters.feed import Carried, FeedFollower, carried_events, events_after
from services.adapters.reactor.deadlines import AsyncPlay
from services.adapters.reactor.jobspec import JobSpec
from services.adapters.reactor.watchdog import Watchdog
from services.adapters.workers import async_play as async_jobs
from services.adapters.workers import jobs
from services.application.clocks.turns import Step, at, clockless, job_safe, waiting_seats
from services.application.coach import Coach, job_id_of
from services.application.ratings import Ratings
from services.infrastructure.aggregates import Loaded
from services.infrastructure.batching import BatchWrites, ReadAhead
from services.infrastructure.bootstrap import Root
from services.infrastructure.resilience import UNAVAILABLE
from services.infrastructure.settings import AsyncSettings, Settings

log = structlog.get_logger("taproom.reactor")

ARCHIVE_OVERDUE = Gauge("taproom_archive_overdue_games", "Games whose archive is overdue by more than the "
                        "watchdog's stale time (all shards; deploy/alerts.yml: TaproomArchiveFailing)",
                        multiprocess_mode="max")
SCORE_RETRY = (3, [5, 30, 120])
"""Final scoring: attempts after the first and the backoff between them (seconds)."""


UNWATCHED_KEPT = 100_000
"""How many games :attr:`Reactor.unwatched` remembers (then it starts afresh)."""


def _untimed_active(record: GameRecord) -> bool:
    return record.status == "active" and record.pace is None


def _keeps_no_clock(loaded: Loaded | None) -> bool:
    """Whether the reactor's record of a game (before a batch) is an active game without clocks (see
    :func:`~services.application.clocks.turns.clockless`): its clock is neither read nor written."""
    return loaded is not None and loaded.record is not None and loaded.record.status == "active" \
        and clockless(loaded.record)


def _nothing_to_do(loaded: Loaded | None) -> bool:
    """Whether an entry without kernel events can concern the reactor for a game whose record here is
    ``loaded``: not when it is an active game without clocks (no pace, no players) and without bot seats (no
    job to enqueue); game events alone change none of that (the end of a game is a kernel event)."""
    return _keeps_no_clock(loaded) and loaded is not None and loaded.record is not None \
        and not any(seat.bot for seat in loaded.record.seats)


def _no_probe(record: GameRecord) -> frozenset[tuple[int, str]]:
    return frozenset()


class Reactor(FeedFollower):
    role = "reactor"

    def __init__(self, client: redis.Redis, settings: Settings, queue: Queue | None = None,
                 name: str | None = None, async_settings: AsyncSettings | None = None, *,
                 root: Root | None = None) -> None:
        super().__init__(client, settings, name, root=root)
        self.clock = self.root.clock
        self.queue = queue or self.root.queue()
        self._swept = time.monotonic()
        self.async_settings = async_settings or settings
        self.async_play = AsyncPlay(self.store, self.queue, self.async_settings, self.clock)
        self.ratings = Ratings(client, self.keys)
        self.watchdog = Watchdog(self, self.async_settings.watchdog_stale_seconds,
                                 self.async_settings.watchdog_max_requeues)
        self._specs: list[JobSpec] | None = None  # in a batch: the jobs its games call for, enqueued together
        self.behind: set[str] = set()
        """Games whose record here missed entries the reactor skipped (see :meth:`_to_look_at`)."""
        self.idle_moves: dict[str, float] = {}
        """Games it skipped (see :meth:`_to_look_at`) that moved -> when: written to ``Keys.idle_watch`` with
        the checkpoints, so a batch of such moves alone writes nothing more than it did."""
        self.unwatched: set[str] = set()
        """Games this reactor removed from the bot watch and has not added since: not removed again on every
        command. Should another process have added one meanwhile (a lease that moved), the watchdog's sweep
        removes it once it finds the game waits for nothing."""

    def idle(self) -> None:
        """The watchdog's sweep, every ``watchdog_interval_seconds``."""
        if time.monotonic() - self._swept >= self.async_settings.watchdog_interval_seconds:
            self._swept = time.monotonic()
            self.sweep()

    def save_checkpoints(self, entry_ids: dict[int, Any], pipe: Any, defer: bool = False) -> None:
        """The checkpoints, and with them (one ZADD) the idle watch's times of the moves they cover."""
        super().save_checkpoints(entry_ids, pipe, defer)
        if self.idle_moves and not self._unsaved:  # written now: so are the moves up to them
            pipe.zadd(self.keys.idle_watch(), self.idle_moves)
            self.idle_moves = {}

    def remember_unwatched(self, game_id: str) -> None:
        if len(self.unwatched) >= UNWATCHED_KEPT:
            self.unwatched.clear()
        self.unwatched.add(game_id)

    def lost_redis(self) -> None:
        super().lost_redis()  # the records are read afresh
        self.unwatched.clear()  # a batch's removals may not have reached Redis
        self.idle_moves = {}  # the entries since the checkpoint in Redis are read again, and these with them
        self.behind.clear()

    def handle_entries(self, shard: int, entries: list[Any]) -> None:
        self.handle_batch([(shard, entries)])

    def handle_batch(self, batches: list[tuple[int, list[Any]]]) -> None:
        """React to every game the entries name. What the reactions read of the games (clocks, the logs' new
        events) and of their players (notification preferences, webhooks) is read for all of them in one round
        trip first; their writes (clocks, "sent" markers, watches) and the checkpoints go in one round trip at
        the end, after every job they call for is enqueued (a crash in between handles the entries again, which
        enqueues nothing twice: job ids and markers are derived from the game, version and seat)."""
        games, quiet = self._to_look_at(batches)
        read_ahead, tails = self._read_ahead(games, carried_events(batches))
        writes = BatchWrites(self.redis)
        self.async_play.batch(read_ahead, writes)
        self._specs = []
        try:
            if quiet:  # games of guests that moved: their time of last move, for the idle end
                self.idle_moves.update(dict.fromkeys(quiet, self.clock.now()))
            for game_id in games:
                self.react(game_id, tails.get(game_id))
            self.enqueue_many(self._specs)
            self.async_play.send_your_turns()
            # a batch that writes nothing else keeps its checkpoints in memory a moment (no round trip of its own)
            self.save_checkpoints({shard: entries[-1][0] for shard, entries in batches}, writes.pipe,
                                  defer=not writes.pending())
            writes.execute()
        except BaseException:
            self.unwatched.clear()  # the batch's removals from the watch may not have been written
            raise
        finally:
            self.async_play.batch(None, None)
            self._specs = None

    def _to_look_at(self, batches: list[tuple[int, list[Any]]]) -> tuple[list[str], list[str]]:
        """The games of the entries that the reactor must look at, and those it need not. Not those whose record
        here is an active game without bots, pace or players (nothing to enqueue, no clock, nobody to tell) and
        whose entries say no kernel event came (``k`` "0": status, seats and pace as they were): nothing can
        concern the reactor until one does, but that they moved (``Keys.idle_watch``). Their records here fall
        behind (:attr:`behind`) and are read afresh (snapshot and log) when one must be looked at again."""
        quiet: dict[str, bool] = {}
        skipped: list[str] = []
        for _, entries in batches:
            for _, fields in entries:
                game_id = fields[b"g"].decode()
                quiet[game_id] = quiet.get(game_id, True) and fields.get(b"k") == b"0"
        games = []
        for game_id, no_kernel_event in quiet.items():
            if no_kernel_event and _nothing_to_do(self.repo.peek(game_id)):
                self.behind.add(game_id)
                skipped.append(game_id)
                continue
            if game_id in self.behind:
                self.behind.discard(game_id)
                self.repo.drop(game_id)
            games.append(game_id)
        return games, skipped

    def _read_ahead(self, games: list[str], carried: Carried | None = None
                    ) -> tuple[ReadAhead, dict[str, tuple[int, Any]]]:
        """One round trip: the games' clocks, the new events of those cached here (unless their feed entries
        carry them: ``carried``), and what sending a message reads of their players (as far as the cached
        records name them)."""
        pipe = self.redis.pipeline(transaction=False)
        cached = {game_id: loaded for game_id in games if (loaded := self.repo.peek(game_id)) is not None}
        clocks = [self.keys.clock(game_id) for game_id in games if not _keeps_no_clock(cached.get(game_id))]
        for key in clocks:
            pipe.hgetall(key)
        after: dict[str, int] = {}
        known: dict[str, tuple[int, Any]] = {}
        for game_id, loaded in cached.items():
            docs = events_after(loaded.version, carried.get(game_id, [])) if carried else None
            if docs is None:
                after[game_id] = loaded.version
            else:
                known[game_id] = (loaded.version, docs)
        self.store.queue_tails(pipe, after)
        # An active game without a pace sends only "your turn" messages, and only to the seat whose turn begins: what
        # that reads of its player is read with the check that it was not sent (``send_your_turns``).
        players = dict.fromkeys(seat.player_id for loaded in cached.values() if loaded.record is not None
                                and not _untimed_active(loaded.record)
                                for seat in loaded.record.seats if seat.player_id)
        notifier = self.async_play.notifier
        wanted = notifier.queue_reads(pipe, list(players))  # type: ignore[arg-type]
        replies = pipe.execute()
        read_ahead = ReadAhead()
        for key, raw in zip(clocks, replies):
            read_ahead.put(key, dict(raw))
        rest = replies[len(clocks):]
        tails = self.store.take_tails(after, rest)
        notifier.take_reads(read_ahead, wanted, rest)
        return read_ahead, {**known, **{game_id: (after[game_id], raw) for game_id, raw in tails.items()}}

    def react(self, game_id: str, tail: tuple[int, Any] | None = None) -> list[str]:
        """Enqueue what the game's current state calls for; returns the job ids enqueued. ``tail``: the log's
        envelopes after a version, read ahead by the batch (raw, or decoded when its feed entries carried them)."""
        # Every state since the clocks were last brought up to date, not only the head: turn clocks
        # run per turn, and a turn may end and a new one begin between two looks.
        steps: list[Step] | None = None  # None: the clocks, if the game now has any, follow the record alone
        if _keeps_no_clock(self.repo.peek(game_id)):  # no clock to read, no steps to take
            loaded = self.repo.advance(game_id, None, _no_probe, tail)[0]
        else:
            loaded, steps = self.repo.advance(game_id, self.async_play.clocks.seen(game_id), waiting_seats, tail)
        record = loaded.record
        if record is None:
            return []
        specs = self.specs(record, loaded.version)
        if self._specs is not None:  # the batch's: enqueued with the others at its end (ids as asked for)
            self._specs += specs
            enqueued = [spec.job_id for spec in specs]
        else:
            enqueued = [spec.job_id for spec in specs if self.enqueue(spec)]
        enqueued += self.schedule_archive(record)
        if self.settings.coach_auto and record.status == "scored":
            enqueued += self.coach_automatic(record)
        if specs:
            self.async_play.writer.zadd(self.keys.bot_watch(), {game_id: self.clock.now()})
            self.unwatched.discard(game_id)
        elif game_id not in self.unwatched:  # removed once; only a game that waits for a job is added again
            self.async_play.writer.zrem(self.keys.bot_watch(), game_id)
            self.remember_unwatched(game_id)
        try:
            enqueued += self.async_play.on_game(record, loaded.version, loaded.ts, steps)
        except UNAVAILABLE:  # not this game's fault: the batch is read again once Redis is back
            raise
        except Exception:  # clocks and messages must never stop bots and scoring
            log.exception("asynchronous play failed", game_id=game_id)
        return enqueued

    def sweep(self) -> list[str]:
        """The watchdog's round over this reactor's shards; a failing sweep never stops the reactor."""
        try:
            now = self.clock.now()
            return self.watchdog.sweep(now, only_owned=True) + self.sweep_archives(now, self.watchdog.stale)
        except UNAVAILABLE:  # the run loop waits the outage out
            raise
        except Exception:
            log.exception("watchdog sweep failed")
            return []

    def jobs_for(self, game_id: str) -> list[JobSpec]:
        """The jobs the game waits for now (the watchdog checks they still exist)."""
        loaded = self.repo.current(game_id)
        return self.specs(loaded.record, loaded.version) if loaded.record is not None else []

    def specs(self, record: GameRecord, version: int) -> list[JobSpec]:
        game_id = record.game_id
        found = []
        if record.status == "active":
            for seat in record.to_act():
                if record.seats[seat].bot:
                    found.append(JobSpec(f"bot-{job_safe(game_id)}-{version}-{seat}", jobs.play_bot_turn,
                                         (game_id, seat, version)))
                elif record.played_for(seat) is not None:
                    found.append(JobSpec(f"auto-{self.async_play.tag}-{job_safe(game_id)}-{version}-{seat}",
                                         async_jobs.autopilot_turn, (game_id, seat, version)))
        elif record.status == "ended":
            found.append(JobSpec(f"score-{job_safe(game_id)}", jobs.score_game, (game_id,), {}, SCORE_RETRY))
        elif record.status == "scored" and not self.ratings.is_rated(record.game_type, game_id):
            found.append(JobSpec(f"rate-{job_safe(game_id)}", jobs.rate_game, (game_id,), {}, SCORE_RETRY))
        return found

    def coach_automatic(self, record: GameRecord) -> list[str]:
        """``Settings.coach_auto``: a scored game with a human seat is analysed without being asked (once)."""
        try:
            asked = Coach(self.root, queues=self.queue.connection).request_automatic(record)
        except UNAVAILABLE:
            raise
        except Exception:  # the coach must never stop bots, scoring and archiving
            log.exception("automatic analysis not requested", game_id=record.game_id)
            return []
        return [job_id_of(record.game_id)] if asked else []

    # -- archiving finished games -------------------------------------------------
    def archive_spec(self, game_id: str, delay: float | None) -> JobSpec:
        return JobSpec(f"archive-{self.async_play.tag}-{job_safe(game_id)}", jobs.archive_game, (game_id,), {},
                       SCORE_RETRY, delay=delay)

    def schedule_archive(self, record: GameRecord) -> list[str]:
        """A scored game, or an open one that expired, is archived ``archive_after_seconds`` later (watched in
        ``Keys.archive_watch`` until it is, so a lost job is scheduled again by :meth:`sweep_archives`)."""
        delay = self.settings.archive_after_seconds
        if record.status not in ("scored", "expired") or delay < 0 or self.store.archived(record.game_id) is not None:
            return []
        self.async_play.writer.zadd(self.keys.archive_watch(), {record.game_id: self.clock.now() + delay}, nx=True)
        spec = self.archive_spec(record.game_id, delay)
        return [spec.job_id] if self.enqueue(spec) else []

    def sweep_archives(self, now: float, stale: float) -> list[str]:
        """Archives overdue by ``stale`` seconds whose job vanished are enqueued again (at once)."""
        requeued: list[str] = []
        watch = self.keys.archive_watch()
        overdue: list[bytes] = self.redis.zrangebyscore(watch, 0, now - stale)  # type: ignore[assignment]
        ARCHIVE_OVERDUE.set(len(overdue))  # every shard's: the alert takes the max over the reactors
        for raw in overdue:
            game_id = raw.decode()
            if self.keys.shard(game_id) not in self.leases.owned:
                continue
            if self.store.archived(game_id) is not None or not self.store.exists(game_id):
                self.redis.zrem(watch, game_id)
                continue
            spec = self.archive_spec(game_id, None)
            if self.watchdog.lost(spec.job_id, now) and self.watchdog._may_retry(spec.job_id):
                try:
                    Job.fetch(spec.job_id, connection=self.redis).delete()
                except NoSuchJobError:
                    pass
                self.enqueue(spec, force=True)
                requeued.append(spec.job_id)
                log.warning("lost archive job enqueued again", game_id=game_id)
        return requeued

    def enqueue_many(self, specs: list[JobSpec]) -> list[str]:
        """Enqueue those of ``specs`` whose job does not exist: which exist is asked in one round trip, and the
        new ones due now are enqueued in one (a delayed one is scheduled on its own); returns their ids."""
        if not specs:
            return []
        pipe = self.queue.connection.pipeline(transaction=False)
        for spec in specs:
            pipe.exists(Job.key_for(spec.job_id))
        fresh = list({spec.job_id: spec for spec, found in zip(specs, pipe.execute()) if not found}.values())
        due = [spec for spec in fresh if not spec.delay]
        for spec in fresh:
            if spec.delay:
                self.enqueue(spec, force=True)
        if due:
            self.queue.enqueue_many([Queue.prepare_data(
                spec.func, spec.args, spec.kwargs, result_ttl=600, failure_ttl=24 * 3600, job_id=spec.job_id,
                retry=Retry(max=spec.retry[0], interval=spec.retry[1]) if spec.retry else None) for spec in due])
        return [spec.job_id for spec in fresh]

    def enqueue(self, spec: JobSpec, force: bool = False) -> bool:
        """Enqueue ``spec`` unless a job with its id exists (``force``: the caller deleted a lost one)."""
        if not force and Job.exists(spec.job_id, connection=self.queue.connection):
            return False
        retry = Retry(max=spec.retry[0], interval=spec.retry[1]) if spec.retry else None
        if spec.delay:
            self.queue.enqueue_at(at(self.clock.now() + spec.delay), spec.func, *spec.args, job_id=spec.job_id,
                                  result_ttl=600, failure_ttl=24 * 3600, retry=retry, **spec.kwargs)
        else:
            self.queue.enqueue(spec.func, *spec.args, job_id=spec.job_id, result_ttl=600, failure_ttl=24 * 3600,
                               retry=retry, **spec.kwargs)
        return True
