"""Integers are bounded at the edge: a number no part of the service can store is refused with 422, naming the field.

Python reads any integer, but Redis stream ids, orjson and most JSON clients stop at 64 bits (JavaScript at
2**53), so an unbounded one used to travel inward and fail there as a 500. Declared integer parameters carry
``le=MAX_INT`` (see the routers); JSON bodies, whose shape a game defines, are checked whole here.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from services.adapters.api.errors import ApiError

MAX_INT = 2**53 - 1
"""The largest integer every JSON client reads exactly; no count, version, coordinate or seat comes near it."""


def out_of_range(value: Any, path: str = "body") -> str | None:
    """The path of the first integer in ``value`` outside ±MAX_INT, or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return path if not -MAX_INT <= value <= MAX_INT else None
    if isinstance(value, dict):
        for key, item in value.items():
            found = out_of_range(item, f"{path}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = out_of_range(item, f"{path}.{index}")
            if found:
                return found
    return None


async def bounded_json_body(request: Request) -> None:
    """App-wide dependency: refuse a JSON body holding an integer past ±MAX_INT (422 ``invalid_request``)."""
    route = request.scope.get("route")
    if getattr(route, "body_field", None) is None:
        return
    try:
        body = await request.json()  # FastAPI has parsed it already; this is its cached copy
    except ValueError:
        return  # not JSON: the route's own validation answers
    path = out_of_range(body)
    if path is not None:
        raise ApiError("invalid_request", f"{path}: integer out of range (at most {MAX_INT} in magnitude)")
