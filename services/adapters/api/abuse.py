"""Limits on what one client can do: request rates, each player's unfinished bot games, open event streams.

Every count lives in Redis, so the limits hold across API processes. Rates are sliding-window counters
checked and counted by one script per request (:mod:`services.adapters.api.ratelimit`); the caps are sorted sets of what is open, each entry with a time after
which it no longer counts, so nothing stays counted after a crash. The settings (``rate_limit_*``,
``max_*``) say how much; :data:`RULES` says which route counts against which rate.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

import anyio
import redis
import redis.asyncio
from fastapi import Request

from projections.read_models import load_meta
from services.adapters.api.errors import ApiError
from services.adapters.api.principals import bearer_token, principal_of
from services.adapters.api.ratelimit import Rate, acheck, rates_for
from services.application.seating import check_one_seat
from services.infrastructure.eventstore import Keys
from services.infrastructure.redisconn import mget
from services.infrastructure.settings import Settings
from services.infrastructure.tokens import hash_token

RULES: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    ("POST", "/players"): (("rate_limit_register", "address"),),
    ("POST", "/games"): (("rate_limit_create_game", "caller"), ("rate_limit_create_game_per_address", "address")),
    ("POST", "/games/{game_id}/join"): (("rate_limit_join", "caller"),),
    ("POST", "/games/{game_id}/commands"): (("rate_limit_command", "caller"),),
    ("GET", "/games/{game_id}/stream"): (("rate_limit_stream_open", "caller"),),
    ("POST", "/games/{game_id}/chat"): (("rate_limit_chat", "caller"),),
    ("POST", "/games/{game_id}/rematch"): (("rate_limit_create_game", "caller"),),
}
"""(method, route path) -> the settings of its rates, each counted per caller or per client address; every
request also counts against its caller's general rate (:meth:`Guard.rates`). Registration is counted by address:
a new player has no token yet."""

SELF_LIMITED = frozenset({("GET", "/games/{game_id}/legal"), ("POST", "/games/{game_id}/commands"),
                          ("GET", "/games/{game_id}"), ("GET", "/games/{game_id}/view")})
"""The hot routes: they count their rates themselves, in the pipeline of their own reads
(:mod:`services.adapters.api.admission`); the app-wide dependency leaves them alone."""

RATES_REMEMBERED = 4096
"""How many (method, route, address, caller) a process remembers the rates of (:meth:`Guard.rates`)."""

FINISHED = frozenset({"ended", "scored", "expired"})
UNCONFIRMED_BOT_GAME_SECONDS = 3600.0
"""A claimed bot game with no meta after this long never started (its create failed): it stops counting."""
STREAM_SLOT_SECONDS = 60.0
"""An open stream renews its slot well within this; a slot of a process that died lapses after it (so a
refused stream's ``Retry-After``: by then a slot a dead page held is free)."""
BOT_GAME_RETRY_SECONDS = 300
"""A refused bot game's ``Retry-After``: a bot game ends when its humans play, not at a known time; asking
again every few minutes is enough."""


def _digest(address: str) -> str:
    return hashlib.sha256(address.encode()).hexdigest()[:32]  # addresses are not stored as such


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def caller_of(principal: dict | None, address: str) -> str:
    """Who a per-caller count is kept for: the player, the seat of a seat token, else the client address."""
    if principal and principal.get("kind") == "player":
        return f"player:{principal['player_id']}"
    if principal and principal.get("kind") == "seat":
        return f"seat:{principal['game_id']}:{principal['seat']}"
    return f"addr:{address}"


class Guard:
    """The limits of one API process; the counts are shared through Redis."""

    def __init__(self, client: redis.Redis, settings: Settings, keys: Keys, counters: redis.Redis | None = None) -> None:
        """``counters``: where the rate-limit counters live (rq's Redis when the event store is a cluster: one
        script checks all the rates of a request, so they live on one server)."""
        self.redis = client
        self.settings = settings
        self.keys = keys
        self.counters = counters if counters is not None else client
        self._rates: dict[tuple[str, str, str, str | None], list[Rate]] = {}

    # -- rates ------------------------------------------------------------------
    def rates(self, method: str, route: str, address: str, caller: str | None) -> list[Rate]:
        """The rates a request counts against: its caller's general rate (``rate_limit_caller`` for a request with
        a token, by the player or seat it stands for; ``rate_limit_address`` by address for one without), and its
        route's (:data:`RULES`), per caller (the address when there is none) or per address. Players who share an
        address (a household behind one router) are never refused for each other's requests: the page of each
        asks about one request per move, and each counts apart; only anonymous requests share the address's
        rate, and what one address can do with tokens is bounded by how many it can get (registrations and
        guest joins are counted by address). Remembered per (method, route, address, caller): the
        settings and the key prefix never change in a process, and building the counters' keys (``limits``'
        ``key_for``) was a tenth of the API's CPU on the hot routes. The callers are the few being served, so a
        full table is simply cleared. The list is shared: callers only read it."""
        known = (method, route, address, caller)
        found = self._rates.get(known)
        if found is not None:
            return found
        hits = [("rate_limit_caller", caller) if caller is not None and not caller.startswith("addr:")
                else ("rate_limit_address", f"addr:{address}")]
        for rule, scope in RULES.get((method, route), ()):
            hits.append((rule, caller if scope == "caller" and caller is not None else f"addr:{address}"))
        if len(self._rates) >= RATES_REMEMBERED:
            self._rates.clear()
        found = self._rates[known] = rates_for(self.keys, self.settings, hits)
        return found

    # -- bot games --------------------------------------------------------------
    def claim_bot_game(self, player_id: str, game_id: str) -> None:
        """Count a new bot game of ``player_id``, or refuse it when the player has the maximum unfinished."""
        key = self.keys.bot_games(player_id)
        self._forget_finished(key)
        cap = self.settings.max_bot_games_per_player
        # Add first, then count: of two racing claims at the cap neither can slip past it.
        self.redis.zadd(key, {game_id: time.time()})
        if self.redis.zcard(key) > cap:
            self.redis.zrem(key, game_id)
            raise ApiError("too_many_bot_games", f"you have {cap} unfinished games with bots; finish one first",
                           headers={"Retry-After": str(BOT_GAME_RETRY_SECONDS)})

    def release_bot_game(self, player_id: str, game_id: str) -> None:
        self.redis.zrem(self.keys.bot_games(player_id), game_id)

    def _forget_finished(self, key: str) -> None:
        entries = self.redis.zrange(key, 0, -1, withscores=True)
        if not entries:
            return
        metas = mget(self.redis, [self.keys.meta(g.decode()) for g, _ in entries])
        now = time.time()
        done = [game for (game, claimed), raw in zip(entries, metas)
                if (raw is None and claimed < now - UNCONFIRMED_BOT_GAME_SECONDS)
                or (raw is not None and load_meta(raw).status in FINISHED)]
        if done:
            self.redis.zrem(key, *done)

    # -- guests -------------------------------------------------------------------
    def claim_guest_seat(self, game_id: str, address: str, seat: int) -> None:
        """One guest seat per client address and game (not asked for hot-seat games): without it one client
        could fill every open seat."""
        key, who = self.keys.guest_seats(game_id), _digest(address)
        if not self.redis.hsetnx(key, who, seat):
            held = self.redis.hget(key, who)
            check_one_seat([int(held)] if held is not None else [seat], game_id, hot_seat=False)

    def release_guest_seat(self, game_id: str, address: str) -> None:
        self.redis.hdel(self.keys.guest_seats(game_id), _digest(address))

    # -- event streams ----------------------------------------------------------
    async def open_stream(self, aredis: redis.asyncio.Redis, holders: list[tuple[str, int]]) -> StreamSlot:
        """Take one stream slot of each (holder, cap); refuse with 429 ``too_many_streams`` when one is full
        (on the event loop, through ``aredis``)."""
        slot = StreamSlot(uuid.uuid4().hex, [])
        for holder, cap in holders:
            key = self.keys.stream_slots(holder)
            now = time.time()
            pipe = aredis.pipeline(transaction=True)
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, {slot.id: now + STREAM_SLOT_SECONDS})
            pipe.zcard(key)
            pipe.expire(key, int(STREAM_SLOT_SECONDS * 2))
            count = (await pipe.execute())[2]
            slot.keys.append(key)
            if count > cap:
                for taken in slot.keys:
                    await aredis.zrem(taken, slot.id)
                who = "this address" if holder.startswith("addr:") else "you"
                raise ApiError("too_many_streams", f"{who} already hold {cap} open event streams; close one first",
                               headers={"Retry-After": str(int(STREAM_SLOT_SECONDS))})
        return slot


@dataclass
class StreamSlot:
    id: str
    keys: list[str]

    async def renew(self, aredis: redis.asyncio.Redis) -> None:
        expiry = time.time() + STREAM_SLOT_SECONDS
        for key in self.keys:
            await aredis.zadd(key, {self.id: expiry}, xx=True)

    async def release(self, aredis: redis.asyncio.Redis) -> None:
        with anyio.CancelScope(shield=True):  # runs while a closed page's stream is being cancelled
            for key in self.keys:
                await aredis.zrem(key, self.id)


async def limit_scope(ctx: Any, scope: MutableMapping[str, Any]) -> None:
    """Count a request whose route was found against its address's rate and its route's rates (429
    ``rate_limited``): every route's but the hot ones', which count theirs in their own admission
    (:data:`SELF_LIMITED`). Run for every route by ``api.routing``."""
    guard: Guard = ctx.guard
    method, route = scope["method"], getattr(scope.get("route"), "path", "")
    if (method, route) in SELF_LIMITED:
        return
    request = Request(scope)
    address = client_address(request)
    caller = caller_of(await _known_principal(request, ctx), address)
    await acheck(ctx.acounters(), guard.rates(method, route, address, caller))


async def _known_principal(request: Request, ctx: Any) -> dict[str, Any] | None:
    """Who the request's token stands for, from this process's cache when it saw the token before (what a token
    stands for never changes; whether it still stands is the route's question), else read once."""
    try:
        token = bearer_token(request)
    except ApiError:  # not a bearer token: the route refuses it
        return None
    if token is None:
        return None
    known = ctx.principals.known(hash_token(token))
    if known is not None:
        return dict(known.__dict__)
    return await principal_of(request, ctx)


@dataclass(frozen=True)
class BotGames:
    """The bot-game limit of one player as an :class:`services.application.games.Admission`."""

    guard: Guard
    player_id: str | None

    def admit(self, game_id: str, seat: int | None) -> None:
        if self.player_id is None:  # each bot game costs worker time: only known players, and a few each
            raise ApiError("unauthorized", "games with bots need a player token (POST /players)")
        self.guard.claim_bot_game(self.player_id, game_id)

    def release(self, game_id: str) -> None:
        self.guard.release_bot_game(self.player_id or "", game_id)


@dataclass(frozen=True)
class GuestSeats:
    """One guest seat per client address and game, as an :class:`services.application.games.Admission`."""

    guard: Guard
    address: str

    def admit(self, game_id: str, seat: int | None) -> None:
        self.guard.claim_guest_seat(game_id, self.address, seat if seat is not None else -1)

    def release(self, game_id: str) -> None:
        self.guard.release_guest_seat(game_id, self.address)
