"""The caller's bearer token and its principal, read once per request (the rate limits and the routes share
it), and this process's cache of what each token stands for."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
import redis.asyncio
from fastapi import Request

from services.adapters.api.errors import ApiError
from services.infrastructure.eventstore import Keys
from services.infrastructure.tokens import hash_token


@dataclass(frozen=True)
class Principal:
    kind: str  # "player" | "seat"
    player_id: str | None = None
    game_id: str | None = None
    seat: int | None = None


class Principals:
    """Token hash -> (the token's record as stored, its principal), bounded (LRU): who a token stands for
    before its record is read (for the per-caller rates), and no JSON decoding while the record is unchanged.

    Never used to let a request in: whether a token still stands is read fresh on every request. What a token
    stands for never changes (a token is issued for one principal; rotating issues another), so the cache
    needs no invalidation."""

    def __init__(self, size: int = 65536) -> None:
        self.size = size
        self._known: OrderedDict[str, tuple[bytes, Principal]] = OrderedDict()

    def known(self, token_hash: str) -> Principal | None:
        found = self._known.get(token_hash)
        if found is None:
            return None
        self._known.move_to_end(token_hash)
        return found[1]

    def principal(self, token_hash: str, raw: bytes) -> Principal:
        """The principal of a token record just read."""
        found = self._known.get(token_hash)
        if found is not None and found[0] == raw:
            return found[1]
        principal = Principal(**orjson.loads(raw))
        self._known[token_hash] = (raw, principal)
        if len(self._known) > self.size:
            self._known.popitem(last=False)
        return principal


class TokenReader(Protocol):
    """What reading a principal needs of the app's context."""

    keys: Keys
    principals: Principals

    def aredis(self) -> redis.asyncio.Redis: ...


def token_of(authorization: str | None) -> str | None:
    """The bearer token of an Authorization header (None: none sent; refused when it is not a bearer)."""
    if not authorization:
        return None
    scheme, _space, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("unauthorized", "use 'Authorization: Bearer <token>'")
    return token.strip()


def bearer_token(request: Request) -> str | None:
    """The bearer token of the request (None: no Authorization header; refused when it is not a bearer)."""
    return token_of(request.headers.get("authorization"))


async def principal_of(request: Request, ctx: TokenReader) -> dict[str, Any] | None:
    """The principal of the request's token, read once per request (the rate limits and the route share it)."""
    token = bearer_token(request)
    if token is None:
        return None
    scope = request.scope
    if "taproom.principal" not in scope:  # the scope lives as long as the request
        token_hash = hash_token(token)
        raw = await ctx.aredis().get(ctx.keys.token(token_hash))
        scope["taproom.principal"] = ctx.principals.principal(token_hash, raw).__dict__ if raw else None
    found: dict[str, Any] | None = scope["taproom.principal"]
    return found
