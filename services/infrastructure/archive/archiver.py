"""Archiving finished games to a cold store, and reading them back.

A game that is scored (its seed revealed) is archived by :meth:`Archiver.archive`, an idempotent job
the reactor schedules ``archive_after_seconds`` after the game is scored:

1. its record, the very lines ``taproom export`` and ``GET /games/{id}/record`` give (header, every
   event envelope, every accepted command), is written gzip-compressed (JSON Lines) to the cold store;
   a second object keeps what the record does not: the game's rejected command ids (one id keeps its
   outcome forever) and the per-game side keys registered with :func:`register_side_key`; both go in one
   ``put_many`` with the game's result rows (PostgreSQL: one transaction, all or nothing);
2. both are read back and the record is verified (hash chain, seed against its commitment, the replay
   of every command) and checked against the head of the log in Redis;
3. only then one script (``archive.lua``) checks that the log, its commands, its rejections and its side
   keys (compared by ``DUMP``: a chat message posted meanwhile) did not move meanwhile, sets the game's archive pointer (``Keys.archived``) and removes the log (stream and
   compressed segments), the command records, snapshots, the seed, the views, the outcome keys and the side keys, all at once. What stays in
   Redis is the summary: the meta (with the result), the pointer, the lobby/inbox entries.

A crash anywhere before step 3 leaves the game as it was (the job runs again and rewrites the same
objects); step 3 is atomic. Reads of an archived game go through :class:`ArchiveReader` (the event
store falls back to it when the pointer is there), which keeps a few archives in memory.

Side keys (the hook for data that travels with a game, such as its chat): a part that keeps
per-game keys registers a function naming the key, e.g.
``register_side_key("chat", lambda keys, game_id: keys.chat(game_id))``. The key must carry the game's
hash tag (build it with the game's ``Keys`` helpers) so the archive script may remove it. Strings,
hashes, lists, sets, sorted sets and streams are archived; once archived, the data is read with
``EventStore.archived_side(game_id, name)``.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import orjson
import redis
import structlog

from services.infrastructure.coldstore.postgres import GameResult
from services.infrastructure.eventstore import EventStore
from services.infrastructure.eventstore.archived import ColdStore, cold_store
from services.infrastructure.eventstore.keys import Keys

log = structlog.get_logger("taproom.archive")

SideKey = Callable[[Keys, str], str]
_SIDE_KEYS: dict[str, SideKey] = {}


def register_side_key(name: str, key_of: SideKey) -> None:
    """Archive (and then remove) the per-game key ``key_of(keys, game_id)`` with every game, under ``name``."""
    _SIDE_KEYS[name] = key_of


def side_keys() -> dict[str, SideKey]:
    return dict(_SIDE_KEYS)


@dataclass(frozen=True)
class ArchiveResult:
    status: str  # "archived" | "already" | "not_finished" | "missing" | "changed"
    uri: str = ""
    bytes: int = 0
    reason: str = ""


def _dump_key(client: redis.Redis, key: str) -> dict[str, Any] | None:
    """A side key's contents as JSON-able data (text values), or None when it does not exist."""
    kind = client.type(key)
    kind = kind.decode() if isinstance(kind, bytes) else kind

    def text(value: Any) -> str:
        return value.decode() if isinstance(value, bytes) else str(value)

    if kind == "none":
        return None
    if kind == "string":
        return {"type": kind, "value": text(client.get(key))}
    if kind == "hash":
        return {"type": kind, "value": {text(k): text(v) for k, v in client.hgetall(key).items()}}  # type: ignore[union-attr]
    if kind == "list":
        return {"type": kind, "value": [text(v) for v in client.lrange(key, 0, -1)]}  # type: ignore[union-attr]
    if kind == "set":
        return {"type": kind, "value": sorted(text(v) for v in client.smembers(key))}  # type: ignore[union-attr]
    if kind == "zset":
        return {"type": kind, "value": [[text(m), s] for m, s in client.zrange(key, 0, -1, withscores=True)]}  # type: ignore[union-attr]
    if kind == "stream":
        return {"type": kind, "value": [[text(i), {text(k): text(v) for k, v in f.items()}]
                                        for i, f in client.xrange(key)]}  # type: ignore[union-attr]
    raise ValueError(f"side key {key} has type {kind}, which the archive does not keep")


def object_name(keys: Keys, game_id: str, suffix: str) -> str:
    """Where a game's archive objects go: ``<prefix>/s<shard>/<game><suffix>``."""
    prefix = re.sub(r"[^A-Za-z0-9_-]", "_", keys.prefix.rstrip(":")) or "taproom"
    return f"{prefix}/s{keys.shard(game_id)}/{game_id}{suffix}"


class Archiver:
    """Writes a finished game to the cold store and swaps its Redis keys for the summary."""

    def __init__(self, store: EventStore, cold: ColdStore) -> None:
        """``store``: the composition root's event store (its Redis, keys and reader of archived games)."""
        self.redis = store.redis
        self.keys = store.keys
        self.cold = cold
        self.store = store
        self._swap = store.redis.register_script(resources.files(__package__).joinpath("archive.lua").read_text())

    @classmethod
    def from_root(cls, root: Any) -> Archiver:
        """The archiver of a composition root (``services.infrastructure.bootstrap.Root``: its event store and
        cold store)."""
        return cls(root.store, root.cold or cold_store(root.settings.archive_dir))

    def archive(self, game_id: str, force: bool = False, attempts: int = 3) -> ArchiveResult:
        """Archive ``game_id`` if it is finished (``force`` is only a name for callers that already waited
        the delay; the game must be scored either way). Safe to run twice and to crash anywhere."""
        for _ in range(attempts):
            result = self._archive_once(game_id)
            if result.status != "changed":
                return result
            log.info("game moved while archived; writing it again", game_id=game_id)
        return result

    def _side_keys_of(self, game_id: str) -> tuple[dict[str, Any], list[str], list[bytes]]:
        """The registered side keys of a game: their dumped contents by name (the ones that exist), every key,
        and each key's ``DUMP`` as read ('' when absent), which the swap compares so a key that moved meanwhile
        (a chat message posted) is not removed unarchived."""
        side: dict[str, Any] = {}
        side_key_names: list[str] = []
        fingerprints: list[bytes] = []
        for name, key_of in _SIDE_KEYS.items():
            key = key_of(self.keys, game_id)
            side_key_names.append(key)
            fingerprints.append(self.redis.dump(key) or b"")  # type: ignore[arg-type]
            dumped = _dump_key(self.redis, key)
            if dumped is not None:
                side[name] = dumped
        return side, side_key_names, fingerprints

    def _results(self, game_id: str, record: Any) -> list[GameResult]:
        """One row per seat of a scored game (none for a game that expired unfilled): the results table."""
        from services.infrastructure.aggregates import Repository

        game = Repository(self.store, cache_size=1).current(game_id).record
        if game is None or game.status != "scored":
            return []
        finished_at = next((e.ts for e in reversed(record.envelopes) if e.type == "taproom.GameScored"),
                           record.envelopes[-1].ts)
        totals = {s.seat: s.total for s in game.scores}
        rows = []
        for seat, info in enumerate(game.seats):
            player = f"player:{info.player_id}" if info.player_id else f"bot:{info.bot}" if info.bot else None
            rows.append(GameResult(game=game_id, seat=seat, player=player, name=info.name, title=game.game_type,
                                   place=int(game.places.get(seat, len(game.seats))), score=totals.get(seat),
                                   rated=bool(game.rated), finished_at=finished_at))
        return rows

    def _archive_once(self, game_id: str) -> ArchiveResult:
        from services.infrastructure.audit import export_lines, read_record, verify

        if self.redis.exists(self.keys.archived(game_id)):
            return ArchiveResult("already")
        started = time.perf_counter()
        version, head_hash = self.store.head(game_id)
        if version == 0:
            return ArchiveResult("missing", reason="no such game")
        commands = self.redis.hlen(self.keys.commands(game_id))
        rejections_raw = self.redis.hgetall(self.keys.rejections(game_id))
        lines = list(export_lines(self.store, game_id))
        record = read_record(lines)
        if not any(e.type in ("taproom.SeedRevealed", "taproom.GameExpired") for e in record.envelopes):
            # (an open game that expired before expiry revealed the seed keeps it secret in its archive)
            return ArchiveResult("not_finished", reason="the game is not scored (its seed is not revealed)")
        side, side_key_names, side_fingerprints = self._side_keys_of(game_id)
        packed = gzip.compress(b"\n".join(lines) + b"\n", compresslevel=9, mtime=0)
        side_packed = gzip.compress(orjson.dumps({
            "game_id": game_id,
            "rejections": {k.decode(): orjson.loads(v) for k, v in rejections_raw.items()},  # type: ignore[union-attr]
            "side": side}), compresslevel=9, mtime=0)
        name, side_name = object_name(self.keys, game_id, ".jsonl.gz"), object_name(self.keys, game_id, ".side.json.gz")
        # the record, its side object and the game's result rows in one write (one transaction in PostgreSQL)
        uris = self.cold.put_many({name: packed, side_name: side_packed}, self._results(game_id, record))
        uri, side_uri = uris[name], uris[side_name]
        # Read back what the store kept and verify it before anything is removed.
        back = self.cold.get(name)
        report = verify(read_record(gzip.decompress(back).splitlines()))
        if back != packed or not report.ok:
            raise RuntimeError(f"the archive of {game_id} does not verify: {report.problems or 'bytes differ'}")
        last = record.envelopes[-1]
        if last.version != version or last.hash != head_hash:
            return ArchiveResult("changed")
        if self.cold.get(side_name) != side_packed:
            raise RuntimeError(f"the side archive of {game_id} reads back different")
        archive_bytes = len(packed) + len(side_packed)
        pointer = {"uri": uri, "side_uri": side_uri, "version": version, "hash": head_hash,
                   "sha256": hashlib.sha256(packed).hexdigest(), "bytes": archive_bytes,
                   "events": len(record.envelopes), "commands": len(record.commands), "archived_at": time.time()}
        seats = len(record.envelopes[0].payload.get("seats", [])) if record.envelopes else 0
        k = self.keys
        doomed = [k.events(game_id), k.segments(game_id), k.settled(game_id), k.snapshot(game_id), k.seed(game_id), k.view(game_id, None),
                  *(k.view(game_id, s) for s in range(seats)), k.clock(game_id), k.guest_seats(game_id), k.legal(game_id),
                  k.verdict(game_id), k.command_bodies(game_id)]
        # Outcome keys (and the per-command fingerprints of before) expire by themselves; they go now.
        settled = [c["command_id"] for c in record.commands] + [r.decode() for r in rejections_raw]  # type: ignore[union-attr]
        doomed += [k.outcome(game_id, c) for c in settled] + [k.command_body(game_id, c) for c in settled]
        status = self._swap(keys=[k.archived(game_id), k.head(game_id), k.commands(game_id), k.rejections(game_id),
                                  *side_key_names, *doomed],
                            args=[version, head_hash, commands, len(rejections_raw), orjson.dumps(pointer),
                                  len(side_key_names), *side_fingerprints])
        status = status.decode() if isinstance(status, bytes) else status
        if status == "archived":
            log.info("game archived", game_id=game_id, uri=uri, bytes=archive_bytes, events=version,
                     seconds=round(time.perf_counter() - started, 3))
        return ArchiveResult(status, uri, archive_bytes)

    def rehome(self, game_id: str) -> ArchiveResult:
        """Move an archived game's objects from where its pointer names them (a directory of an earlier
        deployment) into this archiver's cold store, with its result rows, and point the game there. The bytes
        are checked against the pointer's sha256 and read back before the pointer changes, and the pointer is
        changed only if nobody changed it meanwhile. Safe to run twice ("already")."""
        from services.infrastructure.audit import read_record
        from services.infrastructure.eventstore.archived import open_uri

        raw = self.redis.get(self.keys.archived(game_id))
        if not raw:
            return ArchiveResult("missing", reason="the game is not archived")
        pointer = orjson.loads(raw)
        name, side_name = object_name(self.keys, game_id, ".jsonl.gz"), object_name(self.keys, game_id, ".side.json.gz")
        if pointer["uri"] == self.cold.uri(name):
            return ArchiveResult("already", pointer["uri"])
        packed = open_uri(pointer["uri"])
        if hashlib.sha256(packed).hexdigest() != pointer["sha256"]:
            raise RuntimeError(f"the archive of {game_id} at {pointer['uri']} does not match its summary")
        objects = {name: packed}
        if pointer.get("side_uri"):
            objects[side_name] = open_uri(pointer["side_uri"])
        record = read_record(gzip.decompress(packed).splitlines())
        uris = self.cold.put_many(objects, self._results(game_id, record))
        if any(self.cold.get(n) != data for n, data in objects.items()):
            raise RuntimeError(f"the archive of {game_id} reads back different from the cold store")
        moved = {**pointer, "uri": uris[name], **({"side_uri": uris[side_name]} if side_name in uris else {})}

        def swap(pipe: Any) -> bool:
            if pipe.get(self.keys.archived(game_id)) != raw:
                return False
            pipe.multi()
            pipe.set(self.keys.archived(game_id), orjson.dumps(moved))
            return True

        if not self.redis.transaction(swap, self.keys.archived(game_id), value_from_callable=True):
            return ArchiveResult("changed", reason="the pointer changed meanwhile")
        log.info("archive moved to the cold store", game_id=game_id, was=pointer["uri"], uri=uris[name])
        return ArchiveResult("archived", uris[name], sum(len(d) for d in objects.values()))

