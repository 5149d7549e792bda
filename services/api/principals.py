"""The caller's bearer token and its principal, read once per request (the rate limits and the routes share
it)."""

from __future__ import annotations

from typing import Any, Protocol

import orjson
import redis.asyncio
from fastapi import Request

from ..eventstore import Keys
from ..tokens import hash_token
from .errors import ApiError


class TokenReader(Protocol):
    """What reading a principal needs of the app's context."""

    keys: Keys

    def aredis(self) -> redis.asyncio.Redis: ...


def bearer_token(request: Request) -> str | None:
    """The bearer token of the request (None: no Authorization header; refused when it is not a bearer)."""
    authorization = request.headers.get("authorization")
    if not authorization:
        return None
    scheme, _space, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("unauthorized", "use 'Authorization: Bearer <token>'")
    return token.strip()


async def principal_of(request: Request, ctx: TokenReader) -> dict[str, Any] | None:
    """The principal of the request's token, read once per request (the rate limits and the route share it)."""
    token = bearer_token(request)
    if token is None:
        return None
    scope = request.scope
    if "taproom.principal" not in scope:  # the scope lives as long as the request
        raw = await ctx.aredis().get(ctx.keys.token(hash_token(token)))
        scope["taproom.principal"] = orjson.loads(raw) if raw else None
    found: dict[str, Any] | None = scope["taproom.principal"]
    return found
