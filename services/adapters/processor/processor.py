"""Consume ``cmd:{sN}`` with a consumer group and turn commands into appended events.

Per shard one processor holds the lease, so per-game order holds. For each
message: a command id already settled (applied or rejected) answers with its
original outcome and is never decided again; otherwise the cached record
decides, the events are sealed into the hash chain and appended by the Lua
script (which re-checks version, chain and command id), and the outcome is
stored where the API waits for it. A rejection is recorded by the same script
under the same checks, so a processor working on a stale record cannot reject
what the log would accept, and a rejected id stays rejected. Only then is the
message acknowledged, so a crash at any point is repaired by redelivery. A
message that keeps crashing becomes a dead letter (rejected for good).
"""

from __future__ import annotations

import secrets
import socket
import threading
import time
from typing import Any

import redis
import structlog
from prometheus_client import Histogram

from domain.core import Command, Event, RuleError, commitment
from domain.core.lifecycle import CreateGame, GameRecord, StaleVersion, execute, parse_command
from domain.core.registry import get_game
from domain.core.rng import SeedDice
from services.adapters.feed import shard_of
from services.adapters.inline import inline_for
from services.adapters.processor.plans import Plan, _accepted, _known, _settled_result
from services.adapters.processor.settling import GROUP, Settling, _count
from services.adapters.processor.shards import ShardSteps
from services.adapters.processor.stalls import Stalls
from services.adapters.processor.upkeep import Upkeep
from services.infrastructure.aggregates import Loaded
from services.infrastructure.bootstrap import Root, bootstrap
from services.infrastructure.commands import CommandMessage, CommandOutcome
from services.infrastructure.eventstore import seal
from services.infrastructure.eventstore.store import AppendRequest, snapshot_bytes
from services.infrastructure.gctuning import tune_for_throughput
from services.infrastructure.leases import ShardLeases
from services.infrastructure.resilience import UNAVAILABLE, ride_out
from services.infrastructure.settings import Settings

log = structlog.get_logger("taproom.processor")

LATENCY = Histogram("taproom_command_seconds", "Time to process one command")


class Processor(Settling, Upkeep, ShardSteps):
    def __init__(self, client: redis.Redis, settings: Settings, name: str | None = None,
                 shards: list[int] | None = None, *, root: Root | None = None) -> None:
        """``root``: the composition root over ``client`` (built from ``settings`` when not given)."""
        self.root = root or bootstrap(settings, client)
        self.redis = self.root.redis
        self.settings = settings
        self.keys = self.root.keys
        self.store = self.root.store
        self.repo = self.root.records()
        self.name = name or f"{socket.gethostname()}-{secrets.token_hex(3)}"
        self.leases = ShardLeases(client, self.keys, "processor", self.name, settings.lease_ms, shards)
        self._groups: set[int] = set()
        self._seeds: dict[str, bytes] = {}  # seeds never change: one read per game per process
        self._snapshot_owed: set[str] = set()  # games whose due snapshot waits for the end of an undo trail
        self._last_claim = 0.0
        self._trimmed_at = time.monotonic()
        self._resume = False  # set by an outage: take up our own pending entries before anything new
        self.crash_hook: Any = None  # tests: called after a command is decided, before its append
        self.stalls = Stalls(client, self.keys)  # the shards whose master fails now (a cluster only)

    # -- loop ------------------------------------------------------------------
    def run(self, stop: threading.Event, block_ms: int = 50) -> None:
        log.info("processor started", processor=self.name)
        tune_for_throughput()
        try:
            ride_out("processor", lambda: self.step(block_ms=block_ms), stop, self.lost_redis)
        finally:
            try:
                self.leases.release_all()
            except UNAVAILABLE:  # they lapse by themselves
                pass

    def lost_redis(self) -> None:
        """Redis went away mid-step: what memory holds may be ahead of it (a speculative record, a group
        a restarted server no longer has, a batch decided but not settled)."""
        self.repo.clear()
        self._groups.clear()
        self._resume = True
        for shard in list(self.stalls.shards):  # tried with every shard once Redis answers
            self.stalls.forget(shard)

    def drain(self, max_rounds: int = 1000) -> int:
        """Process until the owned streams are empty (tests, CLI)."""
        total = 0
        for _ in range(max_rounds):
            n = self.step()
            total += n
            if n == 0:
                break
        return total

    def _ensure_group(self, shard: int) -> None:
        if shard in self._groups:
            return
        try:
            self.redis.xgroup_create(self.keys.cmd_stream(shard), GROUP, id="0", mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise
        self._groups.add(shard)

    def resume_own(self, shard: int) -> int:
        """After an outage, handle the entries this processor read but had not settled, oldest first.
        Claimed with their delivery count unchanged: Redis going away is not the command's doing, so it
        must not bring the command closer to becoming a dead letter."""
        stream = self.keys.cmd_stream(shard)
        handled = 0
        while pending := self.redis.xpending_range(stream, GROUP, min="-", max="+", count=200,
                                                   consumername=self.name):
            pipe = self.redis.pipeline(transaction=False)
            for info in pending:  # one claim each: each keeps its own count
                pipe.xclaim(stream, GROUP, self.name, 0, [info["message_id"]], retrycount=int(info["times_delivered"]))
            claimed = [e for found in pipe.execute() for e in found if e]
            gone = [e[0] for e in claimed if not e[1]]  # trimmed from the stream meanwhile
            if gone:
                self.redis.xack(stream, GROUP, *gone)
            entries = [e for e in claimed if e[1]]
            if not entries and not gone:
                return handled
            if entries:
                handled += self._handle_batch([(stream, *e) for e in entries])  # in stream order: per-game order holds
        return handled

    def reclaim(self, shard: int, min_idle_ms: int) -> int:
        """Take over entries another (dead) consumer left pending, oldest first."""
        stream = self.keys.cmd_stream(shard)
        handled, start = 0, "0-0"
        while True:
            reply = self.redis.xautoclaim(stream, GROUP, self.name, min_idle_time=min_idle_ms, start_id=start, count=100)
            start, entries = reply[0], reply[1]
            entries = [e for e in entries if e[1]]
            if entries:
                handled += self._handle_batch([(stream, *e) for e in entries], reclaimed=True)
            if not entries or start in (b"0-0", "0-0"):
                return handled

    # -- one batch -------------------------------------------------------------
    def _handle_batch(self, entries: list[tuple[str, Any, Any]], reclaimed: bool = False, fresh: bool = False) -> int:
        """Decide the batch (``(stream, entry id, fields)`` of one or more shards, each stream's in its order),
        then commit its appends in one pipeline (group commit). The records of the games it touches that are not
        cached are loaded first, all in two round trips.

        Each append script re-checks version, chain and command id and settles its command
        (outcome + ack) atomically. Should an append be refused (another writer moved the log),
        that game's remaining commands of the batch are decided again, one by one, on a fresh
        record. Rejections and dead letters are settled at the end of the batch.

        Entries delivered for the first time (``fresh``) are not looked up in the settled records first:
        a command id settled before (a client's retry) is decided again and its append script answers
        with the outcome the id has ("dup" / "refused"), which is what is settled. Redeliveries (after a
        crash or an outage) are looked up first, so a command that crashed the processor is not decided
        again once it is settled.
        """
        settle = self.redis.pipeline(transaction=False)
        messages = _read_messages(entries)
        readable = [(m.game_id, m.command_id) for _, _, m, _ in messages if m is not None]
        self._preload([game_id for game_id, _ in readable])
        settled = self._settled(readable, fresh)
        plans: list[Plan] = []
        planned: set[tuple[str, str]] = set()
        repeats: list[tuple[str, Any, CommandMessage, dict]] = []
        for stream, entry_id, message, fields in messages:
            if message is None:
                self._dead_letter(stream, entry_id, fields, settle, "unreadable message")
                continue
            known = _known(message.game_id, message.command_id, *next(settled))
            key = (message.game_id, message.command_id)
            if key in planned:  # the same command twice in one batch: answer it once the first is settled
                repeats.append((stream, entry_id, message, fields))
                continue
            planned.add(key)
            if reclaimed and known is None and self._deliveries(stream, entry_id) > self.settings.max_deliveries:
                self._dead_letter(stream, entry_id, fields, settle, "crashed the processor too often")
                continue
            try:
                plans.append(self._plan(message, (stream, entry_id), known))
            except UNAVAILABLE:  # Redis went away, not the command's fault: resumed after the outage
                raise
            except Exception:
                log.exception("command crashed", game_id=message.game_id, command_id=message.command_id)
                self._commit(plans, settle)  # what came before goes first, then this one alone
                self.repo.drop(message.game_id)  # the crash may have left the cached record half-changed
                plans = []
                self._process_alone(stream, entry_id, message, fields, settle)
        self._commit(plans, settle)
        for stream, entry_id, message, fields in repeats:
            self._process_alone(stream, entry_id, message, fields, settle)
        if len(settle):
            # Outcomes answered from the log (redelivered commands) wait for the replicas like fresh appends.
            self.store.replicated(sorted({shard_of(stream) for stream, _, _ in entries}))
            settle.execute()
        return len(entries)

    def _settled(self, readable: list[tuple[str, str]], fresh: bool) -> Any:
        """Per readable message, what its command id settled before: not looked up for first deliveries."""
        if fresh:
            return iter([(None, None)] * len(readable))
        return iter(self.store.settled_for(readable)) if readable else iter(())

    def _preload(self, game_ids: list[str]) -> None:
        """Load the records of ``game_ids`` not cached, and their seeds, in two round trips for all of them."""
        seeds = [game_id for game_id in dict.fromkeys(game_ids) if game_id not in self._seeds]
        if not seeds and all(self.repo.cached(game_id) is not None for game_id in game_ids):
            return
        found = self.repo.current_many(game_ids, missing_only=True, seeds=seeds)[1]
        for game_id, seed in found.items():
            self._keep_seed(game_id, seed)

    def _commit(self, plans: list[Plan], settle: Any) -> None:
        """Append every planned command in one round trip; redo a game whose append was refused."""
        appends = [p for p in plans if p.append is not None]
        results = self.store.append_many([p.append for p in appends]) if appends else []  # type: ignore[misc]
        status = {id(p): r for p, r in zip(appends, results)}
        failed: set[str] = set()
        appended: list[Plan] = []
        for plan in plans:
            game_id, command_id = plan.message.game_id, plan.message.command_id
            if game_id in failed:
                self._process_alone(plan.ack[0], plan.ack[1], plan.message, {}, settle)
                continue
            result = status.get(id(plan))
            if result is None:  # settled before: answered with the outcome the id already has
                self._settle(settle, plan.ack, plan.outcome, plan.message)
                _count(plan.outcome.status)
            elif result.status in ("dup", "refused"):  # another processor settled it first
                outcome = _settled_result(game_id, command_id, result)
                self._settle(settle, plan.ack, outcome, plan.message)
                _count(outcome.status)
                self.repo.drop(game_id)  # later commands of this game were decided on a guessed state
                failed.add(game_id)
            elif result.status == "ok":  # appended, or rejected, and settled by the script
                appended.append(plan)
                _count(plan.outcome.status)
            else:
                log.warning("append refused; deciding again", game_id=game_id, status=result.status)
                failed.add(game_id)
                self.repo.drop(game_id)
                self._process_alone(plan.ack[0], plan.ack[1], plan.message, {}, settle)  # counts it itself
        if appended:
            self._after_appends(appended)

    def _process_alone(self, stream: str, entry_id: Any, message: CommandMessage, fields: dict, settle: Any) -> None:
        """The careful path: one command, retried on a fresh record, a dead letter if it keeps failing."""
        error = ""
        for attempt in range(1, self.settings.max_deliveries + 1):
            try:
                outcome = self.process(message, ack=(stream, entry_id))
                break
            except UNAVAILABLE:
                raise
            except Exception as exc:  # a bug: retry on a fresh record, then give up on this message
                self.repo.drop(message.game_id)
                log.exception("command crashed", game_id=message.game_id, command_id=message.command_id,
                              attempt=attempt)
                error = repr(exc)
        else:
            self._dead_letter(stream, entry_id, fields or {b"m": message.to_json()}, settle, error)
            return
        if outcome is not None:
            self._settle(settle, (stream, entry_id), outcome, message)

    def process(self, message: CommandMessage | dict[str, Any], ack: tuple[str, Any] | None = None,
                known: CommandOutcome | None = None) -> CommandOutcome | None:
        """Handle one command on its own. Returns the outcome still to be stored, or None when the
        append script already stored it and acknowledged ``ack`` (stream, entry id)."""
        if not isinstance(message, CommandMessage):
            message = CommandMessage.model_validate(message)
        game_id, command_id = message.game_id, message.command_id
        if known is None:  # a settled command is answered from its record, never decided again
            known = _known(game_id, command_id, *self.store.settled_for([(game_id, command_id)])[0])
        started = time.perf_counter()
        for _ in range(3):
            plan = self._plan(message, ack, known)
            if plan.append is None:
                _count(plan.outcome.status)
                return plan.outcome
            result = self.store.append_many([plan.append])[0]
            if result.status == "ok":
                self._after_append(plan)
                _count(plan.outcome.status)
                LATENCY.observe(time.perf_counter() - started)
                return None if ack is not None else plan.outcome
            self.repo.drop(game_id)
            if result.status in ("dup", "refused"):
                return _settled_result(game_id, command_id, result)
            known = None  # someone else appended: reload and decide again
        raise RuntimeError(f"could not append to {game_id}: the log kept moving")

    def _plan(self, message: CommandMessage, ack: tuple[str, Any] | None, known: CommandOutcome | None) -> Plan:
        """Decide one command against the cached record (``known``: the outcome it already has, if any);
        an accepted one is folded in speculatively."""
        ack = ack or ("", "")
        if known is not None:
            return Plan(message, ack, known)
        game_id = message.game_id
        loaded = self.repo.cached(game_id) or self.repo.current(game_id)
        return self._decide(message, ack, loaded)  # its logs name the game, command and version themselves

    def _rejection(self, message: CommandMessage, ack: tuple[str, Any], loaded: Loaded, err: RuleError) -> Plan:
        """The plan for a refused command: recorded like an append, or the archived game's settled answer."""
        game_id, command_id, record = message.game_id, message.command_id, loaded.record
        log.info("command rejected", code=err.code, game_id=game_id, command_id=command_id, version=loaded.version)
        rejected = CommandOutcome.rejected(game_id, command_id, err.code, err.message, loaded.version)
        if record is not None and record.status == "scored" and self.store.archived(game_id) is not None:
            # The game left Redis for its archive: an id it settled keeps its outcome, and anything new
            # is over for good, so the rejection is simply the answer (no log here to append to).
            known = _known(game_id, command_id, *self.store.settled_for([(game_id, command_id)])[0])
            return Plan(message, ack, known or rejected)
        # Recorded like an append, on the version and head it was decided on: a rejection decided on a
        # stale record is refused by the script and decided again.
        return Plan(message, ack, rejected, AppendRequest(
            game_id, loaded.version, command_id, rejected.to_dict(), [], rejected.to_json(),
            self.settings.outcome_ttl_seconds, (GROUP, ack[1]) if ack[1] else None, reject=True,
            prev_hash=loaded.hash, reply=self._reply_key(message)))

    def _executed(self, message: CommandMessage, loaded: Loaded) -> tuple[Command, list[Event], GameRecord]:
        """The message's command, run by the kernel on the game's dice: its events and the record after them
        (a RuleError when the kernel or the message's expected version refuses it)."""
        game_id, record = message.game_id, loaded.record
        data = dict(message.command)
        is_create = data.get("type") == CreateGame.model_fields["type"].default
        if record is None and not is_create:
            raise RuleError(f"game {game_id} does not exist", code="game_not_found")
        game = get_game(record.game_type) if record else None
        data["seat"] = message.seat
        seed = self._seed_for_new_game(game_id, message) if is_create and record is None else self._seed(game_id)
        if is_create:
            data["seed_commitment"] = commitment(seed) if seed else ""
        command = parse_command(game, data)
        expected = message.expected_version
        if expected is not None and expected != loaded.version:
            raise StaleVersion(f"expected version {expected} but the game is at version {loaded.version}")
        if seed is None:
            raise RuleError(f"game {game_id} does not exist", code="game_not_found")
        events, new_record = execute(record, game_id, command, SeedDice(seed), message.actor)
        return command, events, new_record

    def _decide(self, message: CommandMessage, ack: tuple[str, Any], loaded: Loaded) -> Plan:
        game_id, command_id = message.game_id, message.command_id
        try:
            command, events, new_record = self._executed(message, loaded)
        except RuleError as err:
            return self._rejection(message, ack, loaded, err)
        now = time.time()
        envelopes, prev = [], loaded.hash
        for offset, event in enumerate(events, start=1):
            env = seal(game_id, loaded.version + offset, event, command_id, message.actor, now, prev)
            envelopes.append(env)
            prev = env.hash
        new_version = loaded.version + len(events)
        audit = {"command_id": command_id, "command": command.model_dump(mode="json"), "actor": message.actor,
                 "seat": command.seat, "from_version": loaded.version, "to_version": new_version, "ts": now}
        outcome = _accepted(game_id, command_id, audit)
        after = Loaded(new_record, new_version, prev, now)
        self.repo.put(game_id, after)  # speculative: the next command of this game builds on it
        if self.crash_hook is not None:
            self.crash_hook(game_id, command_id)
        # The game's views, meta and legal commands, written by the append script with the events. Serialized
        # now, like the snapshot below: the cached record changes in place as later commands are decided.
        append = AppendRequest(game_id, loaded.version, command_id, audit, envelopes, outcome.to_json(),
                               self.settings.outcome_ttl_seconds, (GROUP, ack[1]) if ack[1] else None,
                               reply=self._reply_key(message),
                               inline=inline_for(self.keys, game_id, new_record, new_version, now, command.seat))
        # Serialized now: the cached record changes in place as later commands of the batch are decided.
        snapshot = snapshot_bytes(new_record) if self._snapshot_due(game_id, loaded.version, after) else None
        return Plan(message, ack, outcome, append, after, snapshot)


def _read_messages(entries: list[tuple[str, Any, Any]]) -> list[tuple[str, Any, CommandMessage | None, dict]]:
    """Each entry's command message (None for one that cannot be read: it goes to the dead letters)."""
    messages: list[tuple[str, Any, CommandMessage | None, dict]] = []
    for stream, entry_id, fields in entries:
        try:
            messages.append((stream, entry_id, CommandMessage.model_validate_json(fields[b"m"]), fields))
        except Exception:
            messages.append((stream, entry_id, None, fields))
    return messages
