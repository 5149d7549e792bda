"""Shared API dependencies: the service context, authentication, seat resolution."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import redis
import redis.asyncio
from fastapi import Depends, Header, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from redis.asyncio import Redis as AsyncRedis

from domain.core.lifecycle import GameRecord
from projections import read_models
from projections.read_models import GameMeta, load_meta
from services.adapters.api.abuse import Guard
from services.adapters.api.aio import async_twin
from services.adapters.api.errors import ApiError
from services.adapters.api.principals import Principal, Principals, bearer_token, principal_of
from services.application.presence import Presence
from services.infrastructure.aggregates import Loaded
from services.infrastructure.async_commands import AsyncCommandBus
from services.infrastructure.bootstrap import Root, bootstrap
from services.infrastructure.clock import Clock
from services.infrastructure.redisconn import read_timeout
from services.infrastructure.settings import Settings

T = TypeVar("T")


class Context:
    """Everything a request handler needs, built once per app: the composition root's parts and the abuse
    guard. It keeps no game's record: the models a request reads are written with every append, and a game
    whose models cannot answer is folded from its log afresh (:meth:`fresh_record`)."""

    def __init__(self, client: redis.Redis, settings: Settings, root: Root | None = None,
                 queue_client: redis.Redis | None = None, clock: Clock | None = None) -> None:
        """``client``: the event store's Redis (a cluster client, maybe); ``queue_client``: rq's (default: the
        root's, else the same server), which also keeps the rate-limit counters; ``clock``: the root's (wall
        time unless given)."""
        self.root = root or bootstrap(settings, client, queue_redis=queue_client, clock=clock)
        self.redis = client
        self.queue_redis = queue_client or self.root.queue_redis or client
        self.settings = settings
        self.keys = self.root.keys
        self.store = self.root.store
        self.bus = self.root.bus
        self.guard = Guard(client, settings, self.keys, counters=self.queue_redis)
        self.principals = Principals()
        self._loop_parts: LoopParts | None = None
        self.presence = Presence(client, self.keys, self.root.clock, settings.presence_ttl_seconds,
                                 settings.online_seconds)
        """Open game pages and who is online (see ``services.application.presence``)."""
        self.open_streams = 0  # server-sent event streams now open (changed on the event loop only)

    def fresh_record(self, game_id: str) -> Loaded:
        """The game's record at the head of its log (or archive), folded now and kept nowhere: what an API
        process answers is never older than the log."""
        return self.root.records(cache_size=0).current(game_id)

    @staticmethod
    def meta_of(loaded: Loaded) -> GameMeta:
        """The meta of a freshly folded record, as the processor stores it."""
        assert loaded.record is not None
        return read_models.meta(loaded.record, loaded.ts or 0.0)

    def with_record(self, game_id: str, use: Callable[[GameRecord, int], T]) -> T:
        """Run ``use(record, version)`` on the game's current record (server side only; never sent whole)."""
        loaded = self.fresh_record(game_id)
        if loaded.record is None:
            raise ApiError("game_not_found", f"no game {game_id!r}")
        return use(loaded.record, loaded.version)

    # -- the event loop's parts (the hot routes and the event streams) ------------
    def loop_parts(self) -> LoopParts:
        """The asyncio twin of ``self.redis`` and what is built on it, for the running event loop (its
        connections belong to one loop)."""
        loop = asyncio.get_running_loop()
        parts = self._loop_parts
        if parts is None or parts.loop is not loop:
            # every call bounded (a frozen Redis answers 503 within seconds), the outcome's BLPOP on top
            timeout = read_timeout(self.settings, self.settings.command_wait_seconds)
            client = async_twin(self.redis, timeout)
            # the rate-limit counters live on rq's Redis: one server even when the event store is a cluster;
            # on the event store's own server they share its client (and its pipelines)
            counters = client if same_server(self.queue_redis, self.redis) else async_twin(self.queue_redis, timeout)
            parts = LoopParts(loop, client, self.root.async_bus(client), counters)
            self._loop_parts = parts
        return parts

    def aredis(self) -> redis.asyncio.Redis:
        return self.loop_parts().redis

    def acounters(self) -> redis.asyncio.Redis:
        """The asyncio client of the rate-limit counters (rq's Redis; the event store's on one server)."""
        return self.loop_parts().counters

    async def aclose(self) -> None:
        if self._loop_parts is not None and self._loop_parts.loop is asyncio.get_running_loop():
            await self._loop_parts.redis.aclose()  # type: ignore[attr-defined]  # redis>=5.0.1; the stubs lag
            if self._loop_parts.counters is not self._loop_parts.redis:
                await self._loop_parts.counters.aclose()  # type: ignore[attr-defined]
        self._loop_parts = None

    async def meta_at_log_head(self, game_id: str) -> GameMeta:
        """The game's meta at the head of its log, in one round trip (the stored one, written with every
        append; folded from the log when it is missing or behind it)."""
        parts = self.loop_parts()
        pipe = parts.redis.pipeline(transaction=False)
        pipe.get(self.keys.meta(game_id))
        pipe.hget(self.keys.head(game_id), "version")
        stored, head = await pipe.execute()
        meta = load_meta(stored) if stored is not None else None
        if head is not None and (meta is None or meta.version < int(head)):
            from anyio import to_thread

            loaded = await to_thread.run_sync(self.fresh_record, game_id)
            meta = self.meta_of(loaded) if loaded.record is not None else None
        if meta is None:
            raise ApiError("game_not_found", f"no game {game_id!r}")
        return meta

    def meta(self, game_id: str) -> GameMeta:
        raw = self.redis.get(self.keys.meta(game_id))
        if raw is not None:
            return load_meta(raw)
        if not self.store.exists(game_id):
            raise ApiError("game_not_found", f"no game {game_id!r}")
        # the projector lags: build it here
        return self.with_record(game_id, lambda record, _: read_models.meta(record, 0.0))

    def meta_at_head(self, game_id: str) -> GameMeta:
        """The meta, or while the projector has not folded the log's head yet, the meta of the record there:
        views are at the head (a page refreshes on a stream event), and a page that sees the game scored asks
        at once for what only the end reveals (the history, the verdict with the seed)."""
        meta = self.meta(game_id)
        if meta.status == "scored" or meta.version >= self.store.head(game_id)[0]:
            return meta
        return self.with_record(game_id, lambda record, _: read_models.meta(record, 0.0))

    # -- tokens (stored hashed; the token itself is shown once) -------------------
    def issue_token(self, principal: dict[str, Any]) -> str:
        return self.root.tokens.issue(principal)

    def revoke_token(self, token: str) -> None:
        self.root.tokens.revoke(token)

    def principal_for(self, token: str) -> dict[str, Any] | None:
        return self.root.tokens.principal_for(token)


def same_server(one: redis.Redis, other: redis.Redis) -> bool:
    """Whether two sync clients talk to the same server and database (a cluster client is nobody's twin)."""
    if one is other:
        return True
    if not hasattr(one, "connection_pool") or not hasattr(other, "connection_pool"):
        return False
    mine, theirs = one.connection_pool.connection_kwargs, other.connection_pool.connection_kwargs
    fields = ("server", "host", "port", "path", "db", "username")
    return all(mine.get(f) is theirs.get(f) or mine.get(f) == theirs.get(f) for f in fields)


@dataclass
class LoopParts:
    loop: asyncio.AbstractEventLoop
    redis: redis.asyncio.Redis
    bus: AsyncCommandBus
    counters: AsyncRedis


async def get_context(request: Request) -> Context:  # async: no worker thread for a dependency this small
    return request.app.state.context


BEARER = HTTPBearer(auto_error=False, scheme_name="token",
                    description="a player token (`POST /players`) or a seat token (`POST /games`, `/join`)")
"""Declares the bearer scheme in OpenAPI (the Authorize button of /docs); the header is read below, so a wrong
scheme gets our own error instead of being ignored."""


IdempotencyKey = Header(default=None, alias="Idempotency-Key", min_length=16, max_length=128,
                        pattern=r"^[A-Za-z0-9_-]+$", description="a key of the client's choosing: a retry with the "
                        "same key (after a 503 or a lost answer) answers the first try's outcome instead of a second one")
"""The ``Idempotency-Key`` header of the write routes a client may send again (docs/internals.md, "Acknowledged
writes")."""


async def optional_principal(request: Request, _: HTTPAuthorizationCredentials | None = Security(BEARER),
                             ctx: Context = Depends(get_context)) -> Principal | None:
    if bearer_token(request) is None:
        return None
    found = await principal_of(request, ctx)
    if found is None:
        raise ApiError("unauthorized", "unknown or revoked token")
    principal = Principal(**found)
    request.state.player_id = principal.player_id  # whose language an error is worded in (api/localized.py)
    return principal


async def require_principal(principal: Principal | None = Depends(optional_principal)) -> Principal:
    if principal is None:
        raise ApiError("unauthorized", "this route needs 'Authorization: Bearer <token>'")
    return principal


async def require_player(principal: Principal = Depends(require_principal)) -> Principal:
    if principal.kind != "player":
        raise ApiError("forbidden", "this route needs a player token (POST /players)")
    return principal


def seats_of(principal: Principal | None, game_id: str, meta: GameMeta) -> list[int]:
    """The seats ``principal`` holds in this game (a seat a bot plays is nobody's: a player replaced by a
    vote of the table loses it)."""
    if principal is None:
        return []
    bots = {s.seat for s in meta.seats if s.bot}
    if principal.kind == "seat":
        held = principal.seat if principal.game_id == game_id else None
        return [held] if held is not None and held not in bots else []
    return [s.seat for s in meta.seats if s.player_id and s.player_id == principal.player_id and s.seat not in bots]


def resolve_seat(principal: Principal | None, game_id: str, meta: GameMeta, wanted: int | None,
                 required: bool) -> int | None:
    """The seat a request acts or looks as: the one given, else the one to act, else the first held."""
    held = seats_of(principal, game_id, meta)
    if wanted is not None:
        if wanted not in held:
            if principal is None:
                raise ApiError("unauthorized", "a token holding that seat is needed")
            raise ApiError("not_your_seat", f"your token does not hold seat {wanted} of game {game_id}")
        return wanted
    if not held:
        if required:
            if principal is None:
                raise ApiError("unauthorized", "this route needs the token of a seat in this game")
            raise ApiError("not_your_seat", f"your token holds no seat in game {game_id}")
        return None
    to_act = [s for s in held if s in meta.to_act]
    return (to_act or held)[0]
