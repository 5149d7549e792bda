"""Admitting a request of the hot routes in one round trip to Redis: its rates checked and counted, its
token's principal and the game's record read, all in one pipeline.

Who a per-caller rate counts (the player, or the seat of a seat token) is known before that round trip from
an in-process cache of token hash -> caller. It needs no invalidation: a token is issued for one principal and
keeps it, so the mapping never changes; only whether the token still stands does, and that is read fresh in
the same pipeline (the token's own key is its version stamp: a revoked or rotated token is refused by the
next request on any API process). The game's seats and status come from the record, caught up with the log
by the XRANGE of the same pipeline, so nothing about the game can be stale either. Only a token this process
has not seen yet costs one more round trip, to learn its caller.

Both ways to a hot route (the ASGI hot path, :mod:`services.adapters.api.hot`, and the FastAPI routes it hands
irregular requests to) admit through here, so they count, read and refuse alike.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from redis.exceptions import NoScriptError

from domain.core.lifecycle import GameRecord
from services.adapters.api.abuse import caller_of
from services.adapters.api.errors import ApiError
from services.adapters.api.principals import Principal, token_of
from services.adapters.api.ratelimit import SCRIPT, Rate, queue_check, settle, verdict
from services.infrastructure.aggregates import Loaded
from services.infrastructure.async_commands import SUBMIT_SCRIPT, Gate, Gated
from services.infrastructure.resilience import UNAVAILABLE
from services.infrastructure.tokens import hash_token

NEEDS_TOKEN = "this route needs 'Authorization: Bearer <token>'"
GATE_SCRIPT = ("local function RATES(KEYS, ARGV)\n" + SCRIPT + "\nend\nlocal function SUBMIT(KEYS, ARGV)\n"
               + SUBMIT_SCRIPT + "\nend\n" + resources.files("services.adapters.api").joinpath("gate.lua").read_text())
"""``gate.lua`` with the rate-limit script and the submit script it runs as functions (one text, one EVAL)."""


@dataclass(frozen=True)
class Call:
    """What admitting reads of a request, whichever way it came."""

    method: str
    route: str  # the route's path template, as in abuse.RULES
    address: str
    authorization: str | None  # the Authorization header as sent


@dataclass
class Admitted:
    """A request let through its rates, with what its pipeline read. The accessors raise the refusals in the
    order the routes answer them: the token first (missing, malformed, unknown or revoked), then the game."""

    loaded: Loaded
    replies: list[Any]
    token_error: ApiError | None
    token_record: bytes | None
    principal_found: Principal | None
    game_id: str

    def principal(self) -> Principal:
        if self.token_error is not None:
            raise self.token_error
        if self.principal_found is None:
            raise ApiError("unauthorized", "unknown or revoked token")
        return self.principal_found

    def record(self) -> tuple[GameRecord, int]:
        if self.loaded.record is None:
            raise ApiError("game_not_found", f"no game {self.game_id!r}")
        return self.loaded.record, self.loaded.version


async def admit(ctx: Any, call: Call, game_id: str, reads: Callable[[Any], None] | None = None,
                with_token: bool = True) -> Admitted:
    """Check and count the request's rates (429 ``rate_limited`` when one is spent) and read, in the same
    round trip, the token's record (``with_token``), what ``reads(pipe)`` queues, and the game's record."""
    parts = ctx.loop_parts()
    token, token_error = None, None
    if with_token:
        try:
            token = token_of(call.authorization)
        except ApiError as exc:
            token_error = exc
        if token is None and token_error is None:
            token_error = ApiError("unauthorized", NEEDS_TOKEN)
    token_hash = hash_token(token) if token else None
    key = ctx.keys.token(token_hash) if token_hash else None
    caller = None
    if ctx.guard.needs_caller(call.method, call.route):
        caller = await _caller(ctx, parts, call.address, token_hash if token_error is None else None)
    rates: list[Rate] = ctx.guard.rates(call.method, call.route, call.address, caller)
    now = time.time()
    together = parts.counters is parts.redis

    def queue(pipe: Any) -> None:
        if together:
            queue_check(pipe, rates, now)
        if key is not None:
            pipe.get(key)
        if reads is not None:
            reads(pipe)

    if together:
        try:
            loaded, replies = await parts.records.current(parts.redis, game_id, queue)
        except NoScriptError:  # Redis lost its scripts (a restart, SCRIPT FLUSH): nothing was counted or read
            await parts.counters.script_load(SCRIPT)
            loaded, replies = await parts.records.current(parts.redis, game_id, queue)
        await settle(parts.counters, replies.pop(0), rates, now)
    else:  # the counters on rq's server (a clustered event store): both round trips at once
        refusal: ApiError | None
        refusal, (loaded, replies) = await asyncio.gather(_count(parts.counters, rates, now),
                                                          parts.records.current(parts.redis, game_id, queue))
        if refusal is not None:
            raise refusal
    raw = replies.pop(0) if key is not None else None
    principal = ctx.principals.principal(token_hash, raw) if raw and token_hash else None
    if loaded.record is None:
        parts.records.drop(game_id)
    return Admitted(loaded, replies, token_error, raw, principal, game_id)


async def _caller(ctx: Any, parts: Any, address: str, token_hash: str | None) -> str:
    """Who the per-caller rates count: the token's principal (a malformed or unknown token: the address)."""
    if token_hash is None:
        return caller_of(None, address)
    principal = ctx.principals.known(token_hash)
    if principal is None:
        raw = await parts.redis.get(ctx.keys.token(token_hash))  # a token new to this process: read once
        principal = ctx.principals.principal(token_hash, raw) if raw else None
    return caller_of(principal.__dict__ if principal is not None else None, address)


async def _count(counters: Any, rates: list[Rate], now: float) -> ApiError | None:
    """The rates counted on their own server; a refusal is returned. While that server is away nothing can be
    counted: the request goes on (as the app-wide limits do) and answers for itself."""
    try:
        pipe = counters.pipeline(transaction=False)
        queue_check(pipe, rates, now)
        await settle(counters, (await pipe.execute(raise_on_error=False))[0], rates, now)
    except ApiError as exc:
        return exc
    except UNAVAILABLE:
        return None
    return None


@dataclass(frozen=True)
class Ready:
    """What this process already knows for admitting a command in the same step as queueing it: the token's
    principal and the game's record (both as last read), and the gate that queues the command only while
    they still hold (:data:`GATE_SCRIPT`), with the request's rates."""

    principal: Principal
    loaded: Loaded
    gate: Gate
    rates: list[Rate]

    def record(self) -> tuple[GameRecord, int]:
        assert self.loaded.record is not None  # ready() takes a cached record only
        return self.loaded.record, self.loaded.version


def ready(ctx: Any, call: Call, game_id: str) -> Ready | None:
    """A one-step admission of a command (None: take the long way, :func:`admit`): when the token and the
    game are known to this process and the counters share the event store's server (a cluster keeps them
    apart). Nothing here is trusted as it is: the gate checks the token's record and the game's version
    in the step that queues the command."""
    parts = ctx.loop_parts()
    if not parts.one_server:
        return None
    try:
        token = token_of(call.authorization)
    except ApiError:
        return None
    token_hash = hash_token(token) if token else None
    known = ctx.principals.entry(token_hash) if token_hash else None
    loaded = parts.records.peek(game_id)
    if known is None or loaded is None or loaded.record is None:
        return None
    raw, principal = known
    assert token_hash is not None
    rates = ctx.guard.rates(call.method, call.route, call.address, caller_of(principal.__dict__, call.address))
    args: list[Any] = [raw, str(loaded.version), int(time.time() * 1000)]
    for rate in rates:
        args += [rate.item.amount, rate.window_ms]
    gate = Gate(GATE_SCRIPT, [ctx.keys.token(token_hash), ctx.keys.head(game_id), *(r.key for r in rates)], args)
    return Ready(principal, loaded, gate, rates)


def gated(exc: Gated, rates: list[Rate]) -> None:
    """What the gate's refusal means: 429 ``rate_limited`` when a rate was spent (raised); when the token or
    the game changed it returns, and the request is admitted the long way."""
    answer = exc.answer

    if answer[0] in ("rate", b"rate"):
        verdict([int(answer[1]), int(answer[2])], rates)
