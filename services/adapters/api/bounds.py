"""Integers are bounded at the edge: a number no part of the service can store is refused with 422, naming the field.

Python reads any integer, but Redis stream ids, orjson and most JSON clients stop at 64 bits (JavaScript at
2**53), so an unbounded one used to travel inward and fail there as a 500. Declared integer parameters carry
``le=MAX_INT`` (see the routers); JSON bodies, whose shape a game defines, are checked whole here.
"""

from __future__ import annotations

import json
import re
from typing import Any

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


NOT_JSON = object()
"""What :func:`parse_json` gives for a body that is not JSON."""


def parse_json(body: bytes) -> Any:
    """A JSON body as FastAPI reads it (the standard library's reading: integers past 64 bits stay integers,
    where orjson makes them floats, so they can be refused); :data:`NOT_JSON` when it is not JSON."""
    try:
        return json.loads(body)
    except ValueError:  # not JSON, or an integer of more digits than Python converts
        return NOT_JSON


def check_bounded(body: Any) -> None:
    """Refuse a JSON body holding an integer past ±MAX_INT (422 ``invalid_request``); anything else passes."""
    path = out_of_range(body)
    if path is not None:
        raise ApiError("invalid_request", f"{path}: integer out of range (at most {MAX_INT} in magnitude)")


_DIGITS = re.compile(r"[0-9]{1,20}")
MAX_STREAM_PART = 2**64 - 1
"""Each half of a Redis stream id (milliseconds, sequence) is an unsigned 64-bit number."""
STREAM_ID_PATTERN = r"^[0-9]{1,19}-[0-9]{1,19}$"
"""What a route documents for a stream id: every id it admits is one Redis can store (19 digits stay below
2**64); :func:`parse_stream_id` says why one is refused."""
VERSION_PATTERN = r"^\s*([0-9]{1,15})?\s*$"
"""What a route documents for an event version read from a header (blank: none): 15 digits stay below
:data:`MAX_INT`."""


def parse_bounded_int(text: str, high: int = MAX_INT) -> int | None:
    """An integer read from a path, a query or a header: plain ASCII digits within ``0..high``, else None.

    ``str.isdigit`` and ``int`` read more than that (``"²".isdigit()`` holds, ``int("１２")`` is 12, and neither
    bounds the length): the one parser of numbers from text, so a new route cannot forget a case."""
    if not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= high else None


def parse_stream_id(text: str) -> str | None:
    """A Redis stream id (``<ms>-<seq>``, each part within 64 bits) read from a query, else None."""
    ms, dash, seq = text.partition("-")
    if not dash or parse_bounded_int(ms, MAX_STREAM_PART) is None or parse_bounded_int(seq, MAX_STREAM_PART) is None:
        return None
    return text


def bounded_stream_id(text: str | None) -> str | None:
    """Pydantic validator of a stream-id query parameter (a ``ValueError`` is the route's 422)."""
    if text is not None and parse_stream_id(text) is None:
        raise ValueError(f"a stream id is two numbers below 2**64 joined by '-', not {text[:40]!r}")
    return text


def bounded_version(text: str | None) -> Any:
    """Pydantic validator of an event version read from a header (``Last-Event-ID``): None when blank."""
    if text is None or not text.strip():
        return None
    value = parse_bounded_int(text.strip())
    if value is None:
        raise ValueError(f"an event version is an integer from 0 to {MAX_INT}, not {text[:20]!r}")
    return value
