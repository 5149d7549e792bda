"""PostgreSQL as the cold store of a deployment (issue 35): archived games and their results, shared by every
process that can reach the database.

One table holds the archive's objects by name (``archive_objects``: the gzip JSON Lines record, the side
object), another the results of every archived game, one row per seat (``game_results``), so a player's
history and statistics are queried without Redis. :meth:`PostgresStore.put_many` writes a game's objects and
its result rows in ONE transaction: either all of them are there or none is. The archiver then reads them back
(a new transaction, so what was committed) and verifies them before Redis lets the game go.

An object is named by a URI without credentials, ``pgcold:<name>``: the archive pointer a game leaves in
Redis names it, and any process configured with the same ``TAPROOM_COLD_STORE_URL`` reads it back
(:meth:`PostgresStore.read_uri`). The schema is Alembic's (``services.infrastructure.coldstore.migrations``,
``taproom migrate``).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlparse

import psycopg
from psycopg_pool import ConnectionPool

SCHEME = "pgcold"
"""The URI scheme naming an object of a PostgreSQL cold store (``pgcold:<name>``)."""

UNAVAILABLE = (psycopg.OperationalError, psycopg.InterfaceError)
"""What a store answers while PostgreSQL cannot be reached (``psycopg_pool.PoolTimeout`` is an OperationalError)."""


@dataclass(frozen=True)
class GameResult:
    """One seat of a finished game, as the results table keeps it."""

    game: str  # the game's id
    seat: int
    player: str | None  # "player:<id>", "bot:<level>", or None for a guest seat
    name: str | None
    title: str  # the game type (carcassonne, ...)
    place: int
    score: float | None
    rated: bool
    finished_at: float  # epoch seconds of the game's scoring


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and urlparse(url or "").scheme in ("postgres", "postgresql", "postgresql+psycopg")


def conninfo(url: str) -> str:
    """A libpq URL from a setting (SQLAlchemy's ``postgresql+psycopg://`` spelling accepted too)."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


class PostgresStore:
    """A cold store in PostgreSQL (see the module's doc). Thread-safe: connections come from a pool."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 4, timeout: float = 3.0,
                 connect_timeout: int = 2, prepare: Callable[[], object] | None = None) -> None:
        """``timeout``: the longest a read or write waits for a connection (PostgreSQL away: then it raises
        ``PoolTimeout``, which the API answers 503 with ``Retry-After`` and an archive job retries).
        ``prepare``: run once before the first use (the schema's migration, ``TAPROOM_COLD_STORE_MIGRATE``), and
        again at the next use while it fails: a part starts even while PostgreSQL is down."""
        self._prepare = prepare
        self._prepare_lock = threading.Lock()
        self.url = conninfo(url)
        self.timeout = timeout
        self._pool_args = {"min_size": min_size, "max_size": max_size, "timeout": timeout,
                           "kwargs": {"connect_timeout": connect_timeout, "autocommit": False}}
        self.pool = self._new_pool()
        self._opened = False

    def _new_pool(self) -> ConnectionPool:
        # opened lazily and without waiting: a part starts while PostgreSQL is still down, its first use fails fast
        return ConnectionPool(self.url, open=False, name="taproom-cold", **self._pool_args)  # type: ignore[arg-type]

    def _conn(self) -> Any:
        if self._prepare is not None:
            with self._prepare_lock:
                if self._prepare is not None:
                    self._prepare()
                    self._prepare = None
        if not self._opened:
            self.pool.open(wait=False)
            self._opened = True
        return self.pool.connection(timeout=self.timeout)

    def close(self) -> None:
        """Close the pool's connections; a later use opens a new pool."""
        if self._opened:
            self.pool.close()
            self.pool = self._new_pool()
            self._opened = False

    # -- the ColdStore contract ------------------------------------------------------------------------------
    def uri(self, name: str) -> str:
        _check_name(name)
        return f"{SCHEME}:{name}"

    def owns(self, uri: str) -> bool:
        return uri.startswith(f"{SCHEME}:")

    def put(self, name: str, data: bytes) -> str:
        return self.put_many({name: data})[name]

    def put_many(self, objects: Mapping[str, bytes], results: Sequence[GameResult] = ()) -> dict[str, str]:
        """Store every object (replacing any of the same name whole) and the result rows, in one transaction."""
        for name in objects:
            _check_name(name)
        with self._conn() as conn, conn.transaction(), conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO archive_objects (name, data, sha256, bytes) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data, sha256 = EXCLUDED.sha256, "
                "bytes = EXCLUDED.bytes, stored_at = now()",
                [(name, data, hashlib.sha256(data).hexdigest(), len(data)) for name, data in objects.items()])
            self._write_results(cur, results)
        return {name: self.uri(name) for name in objects}

    def _write_results(self, cur: Any, results: Sequence[GameResult]) -> None:
        if not results:
            return
        cur.executemany(
            "INSERT INTO game_results (game, seat, player, name, title, place, score, rated, finished_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (game, seat) DO UPDATE SET "
            "player = EXCLUDED.player, name = EXCLUDED.name, title = EXCLUDED.title, place = EXCLUDED.place, "
            "score = EXCLUDED.score, rated = EXCLUDED.rated, finished_at = EXCLUDED.finished_at",
            [(r.game, r.seat, r.player, r.name, r.title, r.place, r.score, r.rated,
              datetime.fromtimestamp(r.finished_at, UTC)) for r in results])

    def get(self, name: str) -> bytes:
        _check_name(name)
        with self._conn() as conn:
            row = conn.execute("SELECT data FROM archive_objects WHERE name = %s", (name,)).fetchone()
            conn.rollback()
        if row is None:
            raise FileNotFoundError(f"no object {name!r} in the cold store")
        return bytes(row[0])

    def read_uri(self, uri: str) -> bytes:
        """The object a ``pgcold:`` URI names (what ``open_uri`` calls for this scheme)."""
        if not self.owns(uri):
            raise LookupError(f"{uri!r} is not an object of a PostgreSQL cold store")
        return self.get(uri[len(SCHEME) + 1:])

    def exists(self, name: str) -> bool:
        _check_name(name)
        with self._conn() as conn:
            row = conn.execute("SELECT 1 FROM archive_objects WHERE name = %s", (name,)).fetchone()
            conn.rollback()
        return row is not None

    def delete(self, name: str) -> None:
        _check_name(name)
        with self._conn() as conn, conn.transaction():
            conn.execute("DELETE FROM archive_objects WHERE name = %s", (name,))

    def ping(self) -> bool:
        with self._conn() as conn:
            conn.execute("SELECT 1").fetchone()
            conn.rollback()
        return True

    # -- results ---------------------------------------------------------------------------------------------
    def player_history(self, player: str, limit: int = 100) -> list[GameResult]:
        """A player's finished (archived) games, newest first: ``player`` is ``player:<id>`` or ``bot:<level>``
        (a bare player id is taken as ``player:<id>``)."""
        identity = player if ":" in player else f"player:{player}"
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT game, seat, player, name, title, place, score, rated, finished_at FROM game_results "
                "WHERE player = %s ORDER BY finished_at DESC, game LIMIT %s", (identity, limit)).fetchall()
            conn.rollback()
        return [GameResult(game, seat, who, name, title, place, score, rated, finished.timestamp())
                for game, seat, who, name, title, place, score, rated, finished in rows]

    def results_of(self, game: str) -> list[GameResult]:
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT game, seat, player, name, title, place, score, rated, finished_at FROM game_results "
                "WHERE game = %s ORDER BY seat", (game,)).fetchall()
            conn.rollback()
        return [GameResult(g, seat, who, name, title, place, score, rated, finished.timestamp())
                for g, seat, who, name, title, place, score, rated, finished in rows]


def _check_name(name: str) -> None:
    if not name or name.startswith("/") or ".." in name.split("/") or "\x00" in name:
        raise ValueError(f"object name {name!r} is not a relative name")
