"""Admitting a request of a game's routes in one round trip to Redis: its rates checked and counted, its token's
record and the game's meta (with the log's head version) read, all in one script (``admit.lua``), with whatever the route
reads besides (its seat's view or legal commands, the clock).

The game's meta, views and legal commands are written by the processor in the same atomic step as the events
(inline projections, ``projections/inline.py``), so what this reads is at the log's head: no API process keeps
a record of a game, and none answers an older status than the log has. Only a game whose models are missing
or behind its log (archived: its views went with it; or appended by a tool that writes no models) is folded,
from the event store, afresh each time (:func:`fresh`).

Who a per-caller rate counts (the player, or the seat of a seat token) is known before that round trip from
an in-process cache of token hash -> caller. It needs no invalidation: a token is issued for one principal and
keeps it, so the mapping never changes; only whether the token still stands does, and that is read fresh in
the same pipeline (a revoked or rotated token is refused by the next request on any API process). Only a
token this process has not seen yet costs one more round trip, to learn its caller.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from anyio import to_thread
from redis.exceptions import NoScriptError

from projections.read_models import GameMeta, load_meta
from services.adapters.api.abuse import caller_of
from services.adapters.api.errors import ApiError
from services.adapters.api.principals import Principal, token_of
from services.adapters.api.ratelimit import ADMIT_SCRIPT, ADMIT_SHA, Rate, queue_check, settle, verdict
from services.infrastructure.aggregates import Loaded
from services.infrastructure.resilience import UNAVAILABLE
from services.infrastructure.tokens import hash_token

NEEDS_TOKEN = "this route needs 'Authorization: Bearer <token>'"


@dataclass(frozen=True)
class Call:
    """What admitting reads of a request."""

    method: str
    route: str  # the route's path template, as in abuse.RULES
    address: str
    authorization: str | None  # the Authorization header as sent


@dataclass
class Admitted:
    """A request let through its rates, with what its pipeline read. The accessors raise the refusals in the
    order the routes answer them: the token first (missing, malformed, unknown or revoked), then the game."""

    meta_found: GameMeta | None
    loaded: Loaded | None  # the game folded afresh, when its stored models could not answer
    replies: list[Any]
    token_error: ApiError | None
    principal_found: Principal | None
    game_id: str

    def principal(self) -> Principal:
        if self.token_error is not None:
            raise self.token_error
        if self.principal_found is None:
            raise ApiError("unauthorized", "unknown or revoked token")
        return self.principal_found

    def meta(self) -> GameMeta:
        """The game's meta at the head of its log (``game_not_found`` when there is no such game)."""
        if self.meta_found is None:
            raise ApiError("game_not_found", f"no game {self.game_id!r}")
        return self.meta_found

    @property
    def stored(self) -> bool:
        """Whether the stored models answer (else :attr:`loaded` holds the game folded from its log)."""
        return self.loaded is None


def known_seat(ctx: Any, call: Call, game_id: str, seat: int | None) -> int | None:
    """The seat a request is most likely for before anything is read (the one asked for, or a seat token's
    own, as this process knows the token), so its view or legal commands can be read in the admission's round
    trip; None: read after (a player token, a token new to this process)."""
    if seat is not None:
        return seat
    try:
        token = token_of(call.authorization)
    except ApiError:
        return None
    principal = ctx.principals.known(hash_token(token)) if token else None
    if principal is not None and principal.kind == "seat" and principal.game_id == game_id:
        return principal.seat  # type: ignore[no-any-return]
    return None


async def admit(ctx: Any, call: Call, game_id: str, reads: Callable[[Any], None] | None = None,
                with_token: bool = True) -> Admitted:
    """Check and count the request's rates (429 ``rate_limited`` when one is spent) and read, in the same
    round trip, the token's record (``with_token``), the game's meta and what ``reads(wanted)`` asks for (a
    :class:`Reads`): on one server, one call of ``admit.lua``."""
    parts = ctx.loop_parts()
    token_hash, token_error = _token(call) if with_token else (None, None)
    key = ctx.keys.token(token_hash) if token_hash else None
    # every request's general rate is its caller's (the caller comes from this process's cache of tokens, without
    # a round trip, for a token seen before)
    caller = await _caller(ctx, parts, call.address, token_hash if token_error is None else None)
    rates: list[Rate] = ctx.guard.rates(call.method, call.route, call.address, caller)
    now = time.time()
    wanted = Reads()
    if key is not None:
        wanted.get(key)
    wanted.get(ctx.keys.meta(game_id))
    wanted.hget(ctx.keys.head(game_id), "version")
    if reads is not None:
        reads(wanted)
    if parts.counters is parts.redis:  # one server: rates and reads in one script
        replies = await _admit(parts.redis, rates, now, wanted)
    else:  # the counters on rq's server (a clustered event store): both round trips at once
        refusal: ApiError | None
        refusal, replies = await asyncio.gather(_count(parts.counters, rates, now), _read(parts.redis, wanted))
        if refusal is not None:
            raise refusal
    raw = replies.pop(0) if key is not None else None
    principal = ctx.principals.principal(token_hash, raw) if raw and token_hash else None
    meta, loaded = await _meta_at_head(ctx, game_id, replies.pop(0), replies.pop(0))
    return Admitted(meta, loaded, replies, token_error, principal, game_id)


async def _meta_at_head(ctx: Any, game_id: str, stored: bytes | None, head: Any
                        ) -> tuple[GameMeta | None, Loaded | None]:
    """The stored meta, or when the models are missing or behind the log, the game folded from the log here."""
    meta = load_meta(stored) if stored is not None else None
    if head is None or (meta is not None and meta.version >= int(head)):
        return meta, None
    loaded = await fresh(ctx, game_id)
    return (ctx.meta_of(loaded) if loaded.record is not None else None), loaded


def _token(call: Call) -> tuple[str | None, ApiError | None]:
    """The hash of the request's bearer token, or why it has none that can stand."""
    try:
        token = token_of(call.authorization)
    except ApiError as exc:
        return None, exc
    if token is None:
        return None, ApiError("unauthorized", NEEDS_TOKEN)
    return hash_token(token), None


async def fresh(ctx: Any, game_id: str) -> Loaded:
    """The game folded from its log (or its archive), in a worker thread, kept nowhere."""
    return await to_thread.run_sync(ctx.fresh_record, game_id)  # type: ignore[no-any-return]


class Reads:
    """The reads of one admission, as a route asks for them (``get``, ``hget``, ``hgetall``), made by the
    admission script or, on a cluster, queued on a pipeline; :meth:`replies` gives them as a pipeline would."""

    def __init__(self) -> None:
        self.ops: list[tuple[str, str, str]] = []

    def get(self, key: str) -> None:
        self.ops.append(("GET", key, ""))

    def hget(self, key: str, field: str) -> None:
        self.ops.append(("HGET", key, field))

    def hgetall(self, key: str) -> None:
        self.ops.append(("HGETALL", key, ""))

    def queue(self, pipe: Any) -> None:
        for command, key, field in self.ops:
            pipe.execute_command(command, key, *((field,) if field else ()))

    def replies(self, raw: list[Any]) -> list[Any]:
        """The script's replies as redis-py parses a pipeline's (a hash as a dict)."""
        return [dict(zip(reply[::2], reply[1::2])) if command == "HGETALL" else reply
                for (command, _, _), reply in zip(self.ops, raw)]


async def _admit(client: Any, rates: list[Rate], now: float, reads: Reads) -> list[Any]:
    """Count ``rates`` (429 ``rate_limited`` when one is spent: nothing is read) and make ``reads``: one call of
    ``admit.lua``."""
    args: list[Any] = [len(rates), int(now * 1000)]
    for rate in rates:
        args += [rate.item.amount, rate.window_ms]
    for command, _, field in reads.ops:
        args += [command, field]
    keys = [rate.key for rate in rates] + [key for _, key, _ in reads.ops]
    try:
        reply = await client.evalsha(ADMIT_SHA, len(keys), *keys, *args)
    except NoScriptError:  # Redis lost its scripts (a restart, SCRIPT FLUSH): nothing was counted or read
        await client.script_load(ADMIT_SCRIPT)
        reply = await client.evalsha(ADMIT_SHA, len(keys), *keys, *args)
    verdict(reply, rates)
    return reads.replies(reply[2:])


async def _read(client: Any, reads: Reads) -> list[Any]:
    pipe = client.pipeline(transaction=False)
    reads.queue(pipe)
    return list(await pipe.execute())


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
