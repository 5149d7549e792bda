"""The coach: a finished game's analysis, asked for by a player of the game, run as a low-priority job; and
:func:`hint`, the one way any game hands a seat the search bot's move (a casual game's Hint button and a
tutorial's coach panel alike).

``POST /games/{id}/analysis`` (:meth:`Coach.request`) checks the caller holds a seat of the game and that the
game is over (while it runs nobody may analyse it: the analysis would tell what the search thinks of a
position still in play), stores a ``pending`` record under ``Keys.analysis`` once (asking again answers the
same record) and enqueues :func:`services.adapters.workers.jobs.analyse_game` on the coach's own queue
(``Settings.coach_queue``). The job (:meth:`Coach.run`) replays the record, hands every decision of every
human seat, as that seat saw it, to :mod:`services.application.bots.coach`, and stores the result (``done``, or
``failed`` with the reason). The record is one of the game's side keys, so it travels with the game into its
archive and is read from there afterwards (``EventStore.archived_side``).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

import orjson
import structlog

from domain.core import RuleError
from domain.core.lifecycle import KERNEL_COMMANDS, GameRecord, execute
from domain.core.rng import SeedDice
from services.application.bots import bot_game
from services.application.bots.coach import Step, analyse, decisions_of
from services.infrastructure.aggregates import Loaded, fold_docs
from services.infrastructure.bootstrap import ANALYSIS_SIDE_NAME, Root
from services.infrastructure.eventstore import GENESIS_HASH

log = structlog.get_logger("taproom.coach")

FINISHED = ("ended", "scored")
HUMAN_ACTORS = ("player:", "seat:", "guest")
"""A command recorded as coming from one of these was a person's decision (not a bot's, an autopilot's or the
service's on a timed-out turn): only those are analysed."""

ANALYSE_JOB = "services.adapters.workers.jobs.analyse_game"
"""The job, named (the workers' floor is above this one)."""

WithRecord = Callable[[str, Callable[[GameRecord, int], Any]], Any]


def job_id_of(game_id: str) -> str:
    return f"coach-{game_id}"


class Coach:
    def __init__(self, root: Root, with_record: WithRecord | None = None, queues: Any = None) -> None:
        """``queues``: rq's Redis when it is not the root's (the reactor's queue connection)."""
        self.root = root
        self.queues = queues
        self.redis = root.redis
        self.keys = root.keys
        self.with_record = with_record

    # -- asking -----------------------------------------------------------------------------------------------
    def _facts(self, game_id: str) -> tuple[str, list[tuple[int, str | None, bool]], str]:
        """The game's status, its seats as (seat, player id, bot?) and its type; ``game_not_found`` when there is
        none."""
        assert self.with_record is not None
        return self.with_record(game_id, lambda record, _: (
            record.status, [(i, s.player_id, bool(s.bot)) for i, s in enumerate(record.seats)], record.game_type))

    def request(self, game_id: str, seats: list[int]) -> dict[str, Any]:
        """Ask for the analysis as a player of the game (``seats``: the human seats the caller holds)."""
        status, table, game_type = self._facts(game_id)
        humans = {seat for seat, _, bot in table if not bot}
        if not set(seats) & humans:
            raise RuleError(f"only a player of game {game_id} may ask for its analysis", code="not_your_seat")
        self._check_over(game_id, status)
        if bot_game(game_type) is None:
            raise RuleError(f"the coach cannot analyse {game_type}: it has no search bot", code="not_analysable")
        return self._enqueue(game_id)

    def request_automatic(self, record: GameRecord) -> bool:
        """The service's own request for a finished game with a human seat (``Settings.coach_auto``)."""
        if record.status not in FINISHED or all(s.bot for s in record.seats) or bot_game(record.game_type) is None \
                or self.stored(record.game_id):
            return False
        self._enqueue(record.game_id)
        return True

    def _check_over(self, game_id: str, status: str) -> None:
        if status not in FINISHED:
            raise RuleError(f"game {game_id} is {status}: it is analysed once it has ended", code="game_not_over")

    def _enqueue(self, game_id: str) -> dict[str, Any]:
        pending = {"status": "pending", "job_id": job_id_of(game_id), "requested_at": self.root.clock.now(), "seats": []}
        if self.redis.set(self.keys.analysis(game_id), orjson.dumps(pending), nx=True):
            self._job(game_id)
            return pending
        stored = self.stored(game_id)
        assert stored is not None
        if stored["status"] == "failed":  # asking again after a failure tries again
            self.redis.set(self.keys.analysis(game_id), orjson.dumps(pending))
            self._job(game_id, again=True)
            return pending
        return stored

    def _job(self, game_id: str, again: bool = False) -> None:
        from rq.exceptions import NoSuchJobError
        from rq.job import Job

        queue = self.root.queue(self.root.settings.coach_queue)
        if self.queues is not None:
            queue = type(queue)(self.root.settings.coach_queue, connection=self.queues)
        if again:
            try:
                Job.fetch(job_id_of(game_id), connection=queue.connection).delete()
            except NoSuchJobError:
                pass
        queue.enqueue(ANALYSE_JOB, game_id, job_id=job_id_of(game_id), result_ttl=600,
                      failure_ttl=24 * 3600, job_timeout=self.root.settings.coach_job_timeout_seconds)

    # -- reading ----------------------------------------------------------------------------------------------
    def stored(self, game_id: str) -> dict[str, Any] | None:
        """The analysis record in Redis, else in the game's archive, else None."""
        raw: Any = self.redis.get(self.keys.analysis(game_id))
        if raw is not None:
            return orjson.loads(raw)
        if not self.redis.exists(self.keys.archived(game_id)):
            return None
        side = self.root.store.archived_side(game_id, ANALYSIS_SIDE_NAME)
        return orjson.loads(side["value"]) if side else None

    def result(self, game_id: str) -> dict[str, Any]:
        """The analysis as ``GET /games/{id}/analysis`` answers it (anyone may read it once the game is over)."""
        status, _, _ = self._facts(game_id)
        self._check_over(game_id, status)
        stored = self.stored(game_id)
        if stored is None:
            raise RuleError(f"nobody has asked for the analysis of game {game_id} yet "
                            "(a player of the game asks with POST)", code="no_analysis")
        return stored

    def better_position(self, game_id: str, version: int, seat: int) -> tuple[GameRecord, float]:
        """The game as it would stand had ``seat`` played the coach's move at ``version`` instead (a turning
        point's ghost), and that version's time. The move is decided by the kernel on the game's own dice: the seed
        is public once the game is scored, so the ghost draws exactly what the better move would have brought."""
        doc = self.result(game_id)  # game_not_over, no_analysis
        decision = next((d for row in doc.get("seats") or [] if row["seat"] == seat
                         for d in row["decisions"] if d["version"] == version), None)
        if doc.get("status") != "done" or decision is None:
            raise RuleError(f"the coach's analysis of game {game_id} has no decision of seat {seat} at version "
                            f"{version}", code="not_found")
        assert self.with_record is not None
        seed = self.with_record(game_id, lambda record, _: record.seed)
        if not seed:
            raise RuleError(f"game {game_id} is not scored yet: its dice are still secret", code="game_not_over")
        loaded = self.root.records(cache_size=1).at(game_id, version)
        record = loaded.record
        assert record is not None
        command = record.game.parse_command(decision["best"])
        _, after = execute(record, game_id, command, SeedDice(bytes.fromhex(seed)), f"seat:{seat}")
        return after, loaded.ts

    # -- the job ----------------------------------------------------------------------------------------------
    def run(self, game_id: str) -> dict[str, Any]:
        """Analyse every human decision of the finished game and store the result (``failed`` on an error)."""
        key = self.keys.analysis(game_id)
        before = self.stored(game_id) or {"job_id": job_id_of(game_id), "requested_at": self.root.clock.now()}
        if before.get("status") == "done":
            return before
        started = self.root.clock.now()
        self.redis.set(key, orjson.dumps({**before, "status": "running", "started_at": started, "seats": []}))
        try:
            game_type, steps, versions, seed = self.human_steps(game_id)
            from domain.core.registry import get_game

            game = get_game(game_type)
            decisions = [d for d in decisions_of(game, steps) if d.version in versions]
            analysis = analyse(game_type, decisions, seed=seed, share=self.root.settings.coach_search_share).to_dict()
        except Exception as exc:
            log.error("analysis failed", game_id=game_id, error=repr(exc), trace=traceback.format_exc(limit=5))
            doc = {**before, "status": "failed", "error": f"{type(exc).__name__}: {exc}", "seats": []}
            self.redis.set(key, orjson.dumps(doc))
            return doc
        doc = {**before, "status": "done", "started_at": started, "finished_at": self.root.clock.now(),
               "seats": analysis["seats"], "cost": analysis["cost"]}
        self.redis.set(key, orjson.dumps(doc))
        log.info("game analysed", game_id=game_id, **analysis["cost"])
        return doc

    def human_steps(self, game_id: str) -> tuple[str, list[Step], set[int], str]:
        """The game's type, every game command with the state before it, the versions at which a person
        (not a bot, not the service) decided, and the analysis's seed (the game's published seed commitment:
        the same game is analysed the same way). Replays the complete record: only the job sees it, and it hands
        the analysis each seat's view alone (:func:`services.application.bots.coach.decisions_of`)."""
        from services.infrastructure.audit import export_lines, read_record

        record = read_record(export_lines(self.root.store, game_id))
        docs = [env.model_dump() for env in record.envelopes]
        loaded = Loaded(None, 0, GENESIS_HASH)
        steps: list[Step] = []
        human: set[int] = set()
        folded = 0
        for cmd in record.commands:
            version = cmd["from_version"]
            loaded = fold_docs(loaded, game_id, docs[folded:version])
            folded = version
            data = cmd["command"]
            game_record = loaded.record
            if data.get("type") in KERNEL_COMMANDS or game_record is None or game_record.status != "active":
                continue
            game = game_record.game
            command = game.parse_command(data)
            steps.append((game.clone(game_record.state), version, command, command.seat))
            bot = game_record.seats[command.seat].bot if command.seat < len(game_record.seats) else None
            if not bot and str(cmd.get("actor") or "").startswith(HUMAN_ACTORS):
                human.add(version)
        if loaded.record is None:
            raise RuleError(f"no game {game_id!r}", code="game_not_found")
        return loaded.record.game_type, steps, human, loaded.record.seed_commitment or game_id


def hint(root: Root, with_record: WithRecord, game_id: str, seat: int, actor: str,
         command_id: str | None = None) -> dict[str, Any]:
    """A hint for ``seat``: the ``taproom.Hint`` command goes into the log (every seat sees that a hint was asked
    for), then the search bot chooses from the seat's view and legal commands; its answer is returned to the
    caller alone (never stored, never streamed)."""
    import random
    import uuid

    from domain.core.kernel_messages import Hint
    from services.application.bots import search_bot
    from services.application.bots.coach import Decision, preview
    from services.application.commands import send
    from services.application.results import accepted_or_raise

    accepted = accepted_or_raise(send(root, game_id, Hint(), seat=seat, actor=actor,
                                      command_id=command_id or f"hint-{uuid.uuid4().hex[:12]}"))

    def ask(record: GameRecord, at: int) -> tuple[Any, dict[str, Any], list[Any], int]:
        game = record.game
        return game, game.view(record.state, seat), game.legal_commands(record.state, seat), at

    game, view, legal, at = with_record(game_id, ask)
    if not legal:
        raise RuleError(f"seat {seat} has nothing to play at version {at}", code="not_your_turn")
    rng = random.Random(f"hint|{game_id}|{at}|{seat}")
    command = search_bot(game.id, view, legal, rng, budget=root.settings.bot_think_seconds)
    adapter = bot_game(game.id)
    events = preview(game, adapter, Decision(at, seat, view, legal, command), command, rng.getrandbits(64)) \
        if adapter is not None else []
    return {"version": at, "asked_at": accepted.version, "command": command.model_dump(mode="json", exclude={"seat"}),
            "events": events}
