"""Presence: which games a player has open right now, and who is online, shared by every API process.

A game's page follows the game by its live stream (``GET /games/{id}/stream``). While a player's stream is
open, the API process holding it writes ``<game>|<connection>`` into the player's presence zset with the time
it lapses (now + ``presence_ttl_seconds``), again every 20 s; when the page closes, the score becomes the
time it closed. So any process (the reactor, a worker) can ask, on the service clock:

* :meth:`Presence.watching`: is a stream of this player's on this game alive now?
* :meth:`Presence.away_since`: since when has none been (the latest close or lapse), None while one is.

A process that dies leaves its entries to lapse by their scores, never later than the TTL after their
last renewal. The zset itself expires (a real-time Redis TTL of a day) once nothing renews it.

Online: the player's last open page (a stream renewal, an inbox poll) in the ``online`` zset; a player is
online when that was within ``online_seconds``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import anyio
import redis

from services.infrastructure.clock import Clock
from services.infrastructure.eventstore import Keys

KEEP_SECONDS = 86400
"""Closed and lapsed entries are dropped after a day (what :meth:`away_since` may still need to say)."""


class Presence:
    def __init__(self, client: redis.Redis, keys: Keys, clock: Clock, ttl_seconds: float = 60,
                 online_seconds: float = 90) -> None:
        self.redis = client
        self.keys = keys
        self.clock = clock
        self.ttl = ttl_seconds
        self.online_seconds = online_seconds

    def _queue_here(self, pipe: Any, player_id: str, game_id: str, connection: str) -> None:
        now = self.clock.now()
        key = self.keys.presence(player_id)
        pipe.zadd(key, {f"{game_id}|{connection}": now + self.ttl})
        pipe.zremrangebyscore(key, "-inf", now - KEEP_SECONDS)
        pipe.expire(key, KEEP_SECONDS)
        pipe.zadd(self.keys.online(), {player_id: now})

    def here(self, player_id: str, game_id: str, connection: str) -> None:
        """A stream of the player's on the game is open (called when it opens and every renewal)."""
        with self.redis.pipeline(transaction=False) as pipe:
            self._queue_here(pipe, player_id, game_id, connection)
            pipe.execute()

    async def ahere(self, aredis: Any, player_id: str, game_id: str, connection: str) -> None:
        """:meth:`here` from the event loop (the stream's asyncio client: an open page holds no thread)."""
        async with aredis.pipeline(transaction=False) as pipe:
            self._queue_here(pipe, player_id, game_id, connection)
            await pipe.execute()

    def gone(self, player_id: str, game_id: str, connection: str) -> None:
        """The stream closed: from now the page counts as left (``XX``: an entry already dropped stays out)."""
        self.redis.zadd(self.keys.presence(player_id), {f"{game_id}|{connection}": self.clock.now()}, xx=True)

    async def agone(self, aredis: Any, player_id: str, game_id: str, connection: str) -> None:
        await aredis.zadd(self.keys.presence(player_id), {f"{game_id}|{connection}": self.clock.now()}, xx=True)

    def _latest(self, player_id: str, game_id: str) -> float | None:
        """The latest lapse (or close) time of the player's streams on the game; None: none seen for a day."""
        entries = self.redis.zrange(self.keys.presence(player_id), 0, -1, withscores=True)
        scores = [float(score) for member, score in entries  # type: ignore[union-attr]
                  if member.decode().rpartition("|")[0] == game_id]
        return max(scores) if scores else None

    def watching(self, player_id: str, game_id: str) -> bool:
        latest = self._latest(player_id, game_id)
        return latest is not None and latest > self.clock.now()

    def away_since(self, player_id: str, game_id: str) -> float | None:
        """When the player's last page on the game closed or lapsed; None while one is open. A player who
        never opened it (or not for a day) is away since 0."""
        latest = self._latest(player_id, game_id)
        if latest is None:
            return 0.0
        return None if latest > self.clock.now() else latest

    def lapses_at(self, player_id: str, game_id: str) -> float:
        """When the open page lapses unless renewed (now when none is open)."""
        latest = self._latest(player_id, game_id)
        return max(latest or 0.0, self.clock.now())

    def seen(self, player_id: str) -> None:
        """A page of the player's is open (an inbox poll)."""
        now = self.clock.now()
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self.keys.online(), {player_id: now})
            pipe.zremrangebyscore(self.keys.online(), "-inf", now - KEEP_SECONDS)
            pipe.execute()

    def online(self, player_ids: Iterable[str]) -> dict[str, float | None]:
        """Each player's last open page if within ``online_seconds``, else None (offline)."""
        ids = list(player_ids)
        if not ids:
            return {}
        scores = self.redis.zmscore(self.keys.online(), ids)
        since = self.clock.now() - self.online_seconds
        return {p: (float(s) if s is not None and float(s) >= since else None)
                for p, s in zip(ids, scores)}  # type: ignore[arg-type]


class StreamPresence:
    """One open stream's presence: said when it opens, at each renewal, and closed when it ends."""

    def __init__(self, presence: Presence | None, player_id: str | None, game_id: str, connection: str) -> None:
        self.presence = presence if player_id else None  # a guest's seat token or a spectator: nobody to mark
        self.player_id = player_id or ""
        self.game_id = game_id
        self.connection = connection

    async def renew(self, aredis: Any) -> None:
        if self.presence is not None:
            await self.presence.ahere(aredis, self.player_id, self.game_id, self.connection)

    async def close(self, aredis: Any) -> None:
        # runs while a closed page's stream is being cancelled: anyio's cancellation would hit this await too
        # (the page would count as open until its entry lapsed), so it is shielded, as the slot's release is
        if self.presence is not None:
            with anyio.CancelScope(shield=True):
                await self.presence.agone(aredis, self.player_id, self.game_id, self.connection)
