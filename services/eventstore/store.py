"""The event store: one Redis stream per game, appended by one Lua script.

The script checks the expected version and head hash (optimistic concurrency:
a stale writer can delay a command, never fork a log), refuses a command id
already applied or rejected (answering with its original record), appends the
events, records the command for the audit trail and adds one entry to the
shard feed, all atomically. A rejection is recorded by the same script under
the same checks, so one command id has one outcome forever. Stream entry ids are ``<version>-1``, so reading "after
version N" is a plain XRANGE.
"""

from __future__ import annotations

import pickle
import zlib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

import orjson
import redis

from .envelope import GENESIS_HASH, Envelope
from .keys import Keys

SNAPSHOT_FORMAT = 2
"""Bump when a state class changes shape: older snapshots are then ignored and the log replayed.
2: the pickled record is zlib-compressed (a Carcassonne state shrinks from about 8 to 3 KB)."""


def pickle_record(record: Any) -> bytes:
    return pickle.dumps(record, protocol=5)


@dataclass(frozen=True)
class AppendRequest:
    """One command's append: its events, its audit record and, optionally, how to settle it."""

    game_id: str
    expected_version: int
    command_id: str
    record: dict[str, Any]
    envelopes: list[Envelope]
    outcome: bytes = b""
    outcome_ttl: int = 86400
    ack: tuple[str, Any] | None = None  # (consumer group, stream entry id)
    reject: bool = False
    """Record ``record`` (the rejection outcome) instead of appending; ``expected_version`` -1 skips the
    version check (a dead letter is set aside whatever the log's head)."""
    prev_hash: str = ""
    """The head hash the command was decided on, for a rejection (an append takes its first envelope's)."""


@dataclass(frozen=True)
class AppendResult:
    status: Literal["ok", "dup", "refused", "stale", "chain"]
    version: int = 0
    record: dict[str, Any] | None = None  # the original command record ("dup") or rejection ("refused")


class EventStore:
    """The log of every game. A finished game that was archived (``services.archive``) has left Redis; every
    read below then answers from its archive, the same as before (``archive``: the reader to use, by default
    the process's shared one)."""

    def __init__(self, client: redis.Redis, keys: Keys, archive: Any = None) -> None:
        self.redis = client
        self.keys = keys
        self._archive_reader = archive
        self._append = client.register_script(resources.files(__package__).joinpath("append.lua").read_text())
        self._trim = client.register_script(resources.files(__package__).joinpath("trim.lua").read_text())

    # -- writing -----------------------------------------------------------
    def append(self, game_id: str, expected_version: int, command_id: str, record: dict[str, Any],
               envelopes: list[Envelope], *, outcome: bytes = b"", outcome_ttl: int = 86400,
               ack: tuple[str, Any] | None = None) -> AppendResult:
        """Append atomically; with ``outcome`` and ``ack`` (group, entry id) also settle the command."""
        return self.append_many([AppendRequest(game_id, expected_version, command_id, record, envelopes, outcome,
                                               outcome_ttl, ack)])[0]

    def append_many(self, requests: list[AppendRequest]) -> list[AppendResult]:
        """Run one append script per request, all in one round trip; each is atomic on its own."""
        pipe = self.redis.pipeline(transaction=False)
        k = self.keys
        for req in requests:
            prev = req.envelopes[0].prev_hash if req.envelopes else req.prev_hash
            group, entry = req.ack if req.ack else ("", "")
            args: list[Any] = [req.game_id, req.expected_version, prev, req.command_id, orjson.dumps(req.record),
                               req.outcome, req.outcome_ttl, group, entry, "reject" if req.reject else "append",
                               len(req.envelopes)]
            for env in req.envelopes:
                args += [env.hash, env.to_json()]
            shard = k.shard(req.game_id)
            self._append(keys=[k.events(req.game_id), k.head(req.game_id), k.commands(req.game_id), k.feed(shard),
                               k.games(shard), k.outcome(req.game_id, req.command_id), k.cmd_stream(shard),
                               k.rejections(req.game_id)],
                         args=args, client=pipe)
        return [self._result(reply) for reply in pipe.execute()]

    @staticmethod
    def _result(reply: Any) -> AppendResult:
        status, value = reply
        status = status.decode() if isinstance(status, bytes) else status
        if status == "ok":
            return AppendResult("ok", int(value))
        if status in ("dup", "refused"):
            return AppendResult(status, record=orjson.loads(value))
        if status == "stale":
            return AppendResult("stale", int(value))
        return AppendResult("chain")

    # -- archived games ------------------------------------------------------
    def archived(self, game_id: str) -> dict[str, Any] | None:
        """The archive pointer of a game that left Redis (None while its log is in Redis)."""
        raw = self.redis.get(self.keys.archived(game_id))
        return orjson.loads(raw) if raw else None

    def archive_of(self, game_id: str, pointer: dict[str, Any] | bytes | None = None) -> Any:
        """The archived game (``services.archive.ArchivedGame``) read from its cold store, or None."""
        if isinstance(pointer, bytes):
            pointer = orjson.loads(pointer)
        if pointer is None:
            pointer = self.archived(game_id)
            if pointer is None:
                return None
        if self._archive_reader is None:
            from ..archive import DEFAULT_READER

            self._archive_reader = DEFAULT_READER
        return self._archive_reader.load(pointer)

    def archived_side(self, game_id: str, name: str) -> Any:
        """The side data ``name`` (see ``services.archive.register_side_key``) an archived game took along."""
        game = self.archive_of(game_id)
        return None if game is None else game.side.get(name)

    # -- reading -----------------------------------------------------------
    def head(self, game_id: str) -> tuple[int, str]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(self.keys.head(game_id), "version", "hash")
        pipe.get(self.keys.archived(game_id))
        (version, digest), pointer = pipe.execute()
        if version:
            return int(version), digest.decode()
        if pointer:
            found = orjson.loads(pointer)
            return int(found["version"]), found["hash"]
        return 0, GENESIS_HASH

    def read(self, game_id: str, after: int = 0, until: int | None = None, count: int | None = None) -> list[Envelope]:
        return [Envelope.trusted(raw) for raw in self.read_raw(game_id, after, until, count)]

    def read_raw(self, game_id: str, after: int = 0, until: int | None = None,
                 count: int | None = None) -> list[bytes]:
        end = f"{until}-1" if until is not None else "+"
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(self.keys.events(game_id), f"{after + 1}-0", end, count=count)
        pipe.get(self.keys.archived(game_id))  # same round trip: an archived game reads from its archive
        entries, pointer = pipe.execute()
        if entries or not pointer:
            return [fields[b"e"] for _, fields in entries]
        envelopes = self.archive_of(game_id, pointer).envelopes
        stop = len(envelopes) if until is None else min(until, len(envelopes))
        chosen = envelopes[after:stop]
        return chosen[:count] if count is not None else chosen

    def exists(self, game_id: str) -> bool:
        return bool(self.redis.exists(self.keys.head(game_id), self.keys.archived(game_id)))

    def command_record(self, game_id: str, command_id: str) -> dict[str, Any] | None:
        return self.settled_for([(game_id, command_id)])[0][0]

    def rejection(self, game_id: str, command_id: str) -> dict[str, Any] | None:
        """The outcome a rejected command id keeps forever (None: never rejected)."""
        return self.settled_for([(game_id, command_id)])[0][1]

    def settled_for(self, pairs: list[tuple[str, str]]) -> list[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
        """For many (game, command id) pairs in one round trip: (applied command record, rejection outcome);
        at most one of the two is set."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id, command_id in pairs:
            pipe.hget(self.keys.commands(game_id), command_id)
            pipe.hget(self.keys.rejections(game_id), command_id)
            pipe.get(self.keys.archived(game_id))
        raw = pipe.execute()
        found: list[tuple[dict[str, Any] | None, dict[str, Any] | None]] = []
        for (game_id, command_id), applied, rejected, pointer in zip(pairs, raw[::3], raw[1::3], raw[2::3]):
            if applied or rejected or not pointer:
                found.append((orjson.loads(applied) if applied else None, orjson.loads(rejected) if rejected else None))
                continue
            game = self.archive_of(game_id, pointer)
            found.append((game.by_id.get(command_id), game.rejections.get(command_id)))
        return found

    def command_records(self, game_id: str) -> list[dict[str, Any]]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.keys.commands(game_id))
        pipe.get(self.keys.archived(game_id))
        raw, pointer = pipe.execute()
        if not raw and pointer:
            return list(self.archive_of(game_id, pointer).commands)
        return sorted((orjson.loads(v) for v in raw.values()), key=lambda r: r["from_version"])

    def game_ids(self, shard: int | None = None) -> list[str]:
        shards = range(self.keys.shards) if shard is None else [shard]
        ids: list[str] = []
        for s in shards:
            ids += sorted(m.decode() for m in self.redis.smembers(self.keys.games(s)))
        return ids

    # -- trimming the shard streams -------------------------------------------
    def trim_feed(self, shard: int, roles: tuple[str, ...]) -> int:
        """Drop the feed entries every follower role has handled (below the lowest checkpoint)."""
        keys = [self.keys.feed(shard), *(self.keys.checkpoint(role, shard) for role in roles)]
        return int(self._trim(keys=keys, args=["feed"]))

    def trim_commands(self, shard: int, group: str) -> int:
        """Drop the command stream's entries ``group`` has settled (below its oldest pending entry)."""
        return int(self._trim(keys=[self.keys.cmd_stream(shard)], args=["commands", group]))

    # -- snapshots -----------------------------------------------------------
    def save_snapshot(self, game_id: str, version: int, digest: str, record: Any, ts: float = 0.0) -> None:
        self.save_snapshot_bytes(game_id, version, digest, pickle_record(record), ts)

    def save_snapshot_bytes(self, game_id: str, version: int, digest: str, pickled: bytes, ts: float = 0.0) -> None:
        """Store a record pickled earlier (records change in place, so pickle at the right version)."""
        self.redis.hset(self.keys.snapshot(game_id), mapping={
            "version": version, "hash": digest, "format": SNAPSHOT_FORMAT, "ts": ts, "state": zlib.compress(pickled, 1)})

    def load_snapshot(self, game_id: str) -> tuple[int, str, Any, float] | None:
        raw = self.redis.hgetall(self.keys.snapshot(game_id))
        if not raw or int(raw.get(b"format", 0)) != SNAPSHOT_FORMAT:
            return None
        try:
            return (int(raw[b"version"]), raw[b"hash"].decode(), pickle.loads(zlib.decompress(raw[b"state"])),
                    float(raw.get(b"ts", 0.0)))
        except Exception:  # a snapshot from older code: replay the log instead
            return None

    # -- seeds (secret) ------------------------------------------------------
    def ensure_seed(self, game_id: str, seed: bytes) -> bytes:
        """Store ``seed`` unless the game already has one (a redelivered create reuses it)."""
        key = self.keys.seed(game_id)
        self.redis.set(key, seed, nx=True)
        return self.redis.get(key)

    def seed(self, game_id: str) -> bytes | None:
        seed = self.redis.get(self.keys.seed(game_id))
        if seed is None and (game := self.archive_of(game_id)) is not None:
            return game.seed  # revealed in the record
        return seed
