"""Consume ``cmd:{sN}`` with a consumer group and turn commands into appended events.

Per shard one processor holds the lease, so per-game order holds. For each
message: an already-applied command id answers with its original outcome;
otherwise the cached record decides, the events are sealed into the hash
chain and appended by the Lua script (which re-checks version, chain and
command id), and the outcome is stored where the API waits for it. Only then
is the message acknowledged, so a crash at any point is repaired by
redelivery. A message that keeps crashing becomes a dead letter.
"""

from __future__ import annotations

import math
import secrets
import socket
import threading
import time
from typing import Any

import orjson
import redis
import structlog
from prometheus_client import Counter, Histogram

from domain.core import RuleError, commitment, rng_for, seed_from_text
from domain.core.lifecycle import CreateGame, StaleVersion, execute, parse_command
from domain.core.registry import get_game

from ..aggregates import Loaded, Repository
from ..eventstore import EventStore, Keys, seal
from ..leases import ShardLeases
from ..settings import Settings

GROUP = "processors"
log = structlog.get_logger("taproom.processor")

COMMANDS = Counter("taproom_commands_total", "Commands processed", ["outcome"])
LATENCY = Histogram("taproom_command_seconds", "Time to process one command")


class SeedDice:
    """The aggregate's access to a game's secret seed."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def rng(self, version: int) -> Any:
        return rng_for(self.seed, version)

    def reveal(self) -> bytes:
        return self.seed


class Processor:
    def __init__(self, client: redis.Redis, settings: Settings, name: str | None = None,
                 shards: list[int] | None = None) -> None:
        self.redis = client
        self.settings = settings
        self.keys = Keys(settings.key_prefix, settings.shards)
        self.store = EventStore(client, self.keys)
        self.repo = Repository(self.store, settings.aggregate_cache_size)
        self.name = name or f"{socket.gethostname()}-{secrets.token_hex(3)}"
        self.leases = ShardLeases(client, self.keys, "processor", self.name, settings.lease_ms, shards)
        self._groups: set[int] = set()
        self._last_claim = 0.0
        self.crash_hook: Any = None  # tests: called after append, before the outcome is stored

    # -- loop ------------------------------------------------------------------
    def run(self, stop: threading.Event, block_ms: int = 50) -> None:
        log.info("processor started", processor=self.name)
        try:
            while not stop.is_set():
                self.step(block_ms=block_ms)
        finally:
            self.leases.release_all()

    def step(self, block_ms: int = 0, count: int = 200) -> int:
        """Renew leases, reclaim abandoned work, process one batch; returns messages handled."""
        for shard in self.leases.refresh():
            self._ensure_group(shard)
            self.reclaim(shard, min_idle_ms=0)
            self.repo.clear()  # another processor may have written while we did not own the shard
        if time.monotonic() - self._last_claim > self.settings.lease_ms / 2000:
            self._last_claim = time.monotonic()
            for shard in list(self.leases.owned):
                self.reclaim(shard, min_idle_ms=self.settings.lease_ms * 3)
        if not self.leases.owned:
            time.sleep(block_ms / 1000 or 0.01)
            return 0
        streams = {self.keys.cmd_stream(s): ">" for s in sorted(self.leases.owned)}
        batches = self.redis.xreadgroup(GROUP, self.name, streams, count=count, block=block_ms or None)
        handled = 0
        for stream, entries in batches or []:
            handled += self._handle_batch(stream.decode() if isinstance(stream, bytes) else stream, entries)
        return handled

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

    def reclaim(self, shard: int, min_idle_ms: int) -> int:
        """Take over entries another (dead) consumer left pending, oldest first."""
        stream = self.keys.cmd_stream(shard)
        handled, start = 0, "0-0"
        while True:
            reply = self.redis.xautoclaim(stream, GROUP, self.name, min_idle_time=min_idle_ms, start_id=start, count=100)
            start, entries = reply[0], reply[1]
            entries = [e for e in entries if e[1]]
            if entries:
                handled += self._handle_batch(stream, entries, reclaimed=True)
            if not entries or start in (b"0-0", "0-0"):
                return handled

    # -- one batch -------------------------------------------------------------
    def _handle_batch(self, stream: str, entries: list[Any], reclaimed: bool = False) -> int:
        pipe = self.redis.pipeline(transaction=False)
        for entry_id, fields in entries:
            if reclaimed and self._deliveries(stream, entry_id) > self.settings.max_deliveries:
                self._dead_letter(stream, entry_id, fields, pipe, "crashed the processor too often")
                continue
            try:
                message = orjson.loads(fields[b"m"])
            except Exception:
                self._dead_letter(stream, entry_id, fields, pipe, "unreadable message")
                continue
            for attempt in range(1, self.settings.max_deliveries + 1):
                try:
                    outcome = self.process(message)
                    break
                except Exception as exc:  # a bug: retry on a fresh record, then give up on this message
                    self.repo.drop(message.get("game_id", ""))
                    log.exception("command crashed", game_id=message.get("game_id"),
                                  command_id=message.get("command_id"), attempt=attempt)
                    error = repr(exc)
            else:
                self._dead_letter(stream, entry_id, fields, pipe, error)
                continue
            pipe.set(self.keys.outcome(message["game_id"], message["command_id"]), orjson.dumps(outcome),
                     ex=self.settings.outcome_ttl_seconds)
            pipe.xack(stream, GROUP, entry_id)
        pipe.execute()
        return len(entries)

    def _deliveries(self, stream: str, entry_id: Any) -> int:
        info = self.redis.xpending_range(stream, GROUP, min=entry_id, max=entry_id, count=1)
        return int(info[0]["times_delivered"]) if info else 0

    def _dead_letter(self, stream: str, entry_id: Any, fields: dict, pipe: Any, error: str) -> None:
        shard = int(stream.rsplit("{s", 1)[1].rstrip("}"))
        pipe.xadd(self.keys.dead_letters(shard), {"m": fields.get(b"m", b""), "error": error, "entry": entry_id})
        try:
            message = orjson.loads(fields[b"m"])
            outcome = {"status": "rejected", "command_id": message["command_id"], "game_id": message["game_id"],
                       "code": "internal_error", "message": "the command could not be processed; it was set aside"}
            pipe.set(self.keys.outcome(message["game_id"], message["command_id"]), orjson.dumps(outcome),
                     ex=self.settings.outcome_ttl_seconds)
        except Exception:
            pass
        pipe.xack(stream, GROUP, entry_id)
        COMMANDS.labels("dead_letter").inc()
        log.error("dead letter", stream=stream, entry=str(entry_id), error=error)

    # -- one command -------------------------------------------------------------
    def process(self, message: dict[str, Any]) -> dict[str, Any]:
        """Handle one command message; returns its outcome (accepted or rejected)."""
        game_id, command_id = message["game_id"], message["command_id"]
        started = time.perf_counter()
        with structlog.contextvars.bound_contextvars(game_id=game_id, command_id=command_id):
            for _ in range(3):
                outcome = self._try(game_id, command_id, message)
                if outcome is not None:
                    COMMANDS.labels(outcome["status"]).inc()
                    LATENCY.observe(time.perf_counter() - started)
                    return outcome
                self.repo.drop(game_id)  # someone else appended: reload and decide again
            raise RuntimeError(f"could not append to {game_id}: the log kept moving")

    def _try(self, game_id: str, command_id: str, message: dict[str, Any]) -> dict[str, Any] | None:
        done = self.store.command_record(game_id, command_id)
        if done is not None:
            return _accepted(game_id, command_id, done)
        loaded = self.repo.cached(game_id) or self.repo.current(game_id)
        record = loaded.record
        structlog.contextvars.bind_contextvars(version=loaded.version)
        try:
            data = dict(message["command"])
            if record is None and data.get("type") != CreateGame.model_fields["type"].default:
                raise RuleError(f"game {game_id} does not exist", code="game_not_found")
            game = get_game(record.game_type) if record else None
            data["seat"] = message.get("seat", -1)
            if data.get("type") == CreateGame.model_fields["type"].default:
                seed = self._seed_for_new_game(game_id, message)
                data["seed_commitment"] = commitment(seed)
            command = parse_command(game, data)
            expected = message.get("expected_version")
            if expected is not None and expected != loaded.version:
                raise StaleVersion(f"expected version {expected} but the game is at version {loaded.version}")
            seed = self.store.seed(game_id)
            if seed is None:
                raise RuleError(f"game {game_id} does not exist", code="game_not_found")
            events, new_record = execute(record, game_id, command, SeedDice(seed))
        except RuleError as err:
            log.info("command rejected", code=err.code)
            return {"status": "rejected", "command_id": command_id, "game_id": game_id,
                    "from_version": loaded.version, "version": loaded.version, "code": err.code,
                    "message": err.message}
        now = time.time()
        envelopes, prev = [], loaded.hash
        for offset, event in enumerate(events, start=1):
            env = seal(game_id, loaded.version + offset, event, command_id, message.get("actor", "system"), now, prev)
            envelopes.append(env)
            prev = env.hash
        new_version = loaded.version + len(events)
        audit = {"command_id": command_id, "command": command.model_dump(mode="json"), "actor": message.get("actor"),
                 "seat": command.seat, "from_version": loaded.version, "to_version": new_version, "ts": now}
        self.repo.drop(game_id)  # execute() folded into the cached record: only keep it once appended
        result = self.store.append(game_id, loaded.version, command_id, audit, envelopes)
        if result.status == "dup":
            return _accepted(game_id, command_id, result.record or {})
        if result.status != "ok":
            log.warning("append refused", status=result.status, head=result.version)
            return None
        self.repo.put(game_id, Loaded(new_record, new_version, prev, now))
        if self.crash_hook is not None:
            self.crash_hook(game_id, command_id)
        every = self.settings.snapshot_every
        if every and math.floor(new_version / every) > math.floor(loaded.version / every):
            self.store.save_snapshot(game_id, new_version, prev, new_record, now)
        log.info("command accepted", new_version=new_version, events=len(events))
        return _accepted(game_id, command_id, audit)

    def _seed_for_new_game(self, game_id: str, message: dict[str, Any]) -> bytes:
        dev_seed = message.get("dev_seed")
        if dev_seed is not None and self.settings.allow_client_seed:
            fresh = seed_from_text(str(dev_seed))
        else:
            fresh = secrets.token_bytes(32)
        return self.store.ensure_seed(game_id, fresh)


def _accepted(game_id: str, command_id: str, audit: dict[str, Any]) -> dict[str, Any]:
    return {"status": "accepted", "command_id": command_id, "game_id": game_id,
            "from_version": audit.get("from_version", 0), "version": audit.get("to_version", 0)}
