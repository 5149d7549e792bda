"""Request rates, checked and counted in one script and one round trip per request, shared through Redis.

Why not the ``limits`` library's strategies (which this replaced on every request): they take one round trip
and one script per rate (a rule like ``10/hour;50/day`` is two), plus one more on a refusal to learn when to
retry, and each script makes about seven Redis calls (reads of two keys' counts and TTLs, a rename on each new
window, an INCRBY); several rates of one request cannot be checked and counted together. ``ratelimit.lua``
keeps the same sliding-window-counter approximation in one hash per rate (about two calls each), checks every
rate of the request and counts them all or none, and says how long to wait when it refuses, so a request
costs one EVALSHA that rides in the pipeline of the request's own reads. ``limits`` still parses the rate
strings of the settings (``RateLimitItem``: amount, window, the text shown in the message).

A refused request counts against none of its rates (before, the address's rate had counted it when a later
rate refused it).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import redis
from limits import RateLimitItem, parse_many

from services.adapters.api.errors import ApiError
from services.infrastructure.eventstore import Keys

_LUA = resources.files("services.adapters.api")
SCRIPT = _LUA.joinpath("ratelimit.lua").read_text()
SCRIPT_SHA = hashlib.sha1(SCRIPT.encode()).hexdigest()
ADMIT_SCRIPT = ("local function count_rates(KEYS, ARGV)\n" + SCRIPT + "\nend\n"
                + _LUA.joinpath("admit.lua").read_text())
"""The rates of a game's route counted and its reads made in one script (``admit.lua``; ``api.admission``)."""
ADMIT_SHA = hashlib.sha1(ADMIT_SCRIPT.encode()).hexdigest()


@lru_cache(maxsize=64)
def parse_rate(text: str) -> tuple[RateLimitItem, ...]:
    return tuple(parse_many(text))


@dataclass(frozen=True)
class Rate:
    """One rate of one request: its counter's key, how many requests per how long, and the setting it comes from."""

    key: str
    item: RateLimitItem
    rule: str

    @property
    def window_ms(self) -> int:
        return int(self.item.get_expiry() * 1000)


def rates_for(keys: Keys, settings: Any, hits: list[tuple[str, str]]) -> list[Rate]:
    """The rates of the (setting name, who) pairs, in order (a setting may hold several rates)."""
    return [Rate(keys.rate_counter(item.key_for(rule, who)), item, rule)
            for rule, who in hits for item in parse_rate(getattr(settings, rule))]


def queue_check(pipe: Any, rates: list[Rate], now: float | None = None) -> None:
    """Queue the check-and-count of ``rates`` on ``pipe`` (a pipeline of the counters' Redis): one EVALSHA."""
    args: list[Any] = [int((time.time() if now is None else now) * 1000)]
    for rate in rates:
        args += [rate.item.amount, rate.window_ms]
    pipe.evalsha(SCRIPT_SHA, len(rates), *(rate.key for rate in rates), *args)


def verdict(reply: Any, rates: list[Rate]) -> None:
    """Raise 429 ``rate_limited`` with ``Retry-After`` when the script refused; the reply of :func:`queue_check`."""
    refused, wait_ms = int(reply[0]), int(reply[1])
    if refused:
        rate = rates[refused - 1]
        retry = max(1, math.ceil(wait_ms / 1000))
        what = rate.rule.removeprefix("rate_limit_")
        raise ApiError("rate_limited", f"too many requests: at most {rate.item} ({what}); retry in {retry} s",
                       headers={"Retry-After": str(retry)})


def is_noscript(reply: Any) -> bool:
    return isinstance(reply, redis.exceptions.NoScriptError) or (
        isinstance(reply, redis.ResponseError) and str(reply).startswith("NOSCRIPT"))


async def acheck(client: Any, rates: list[Rate], now: float | None = None) -> None:
    """Check and count ``rates`` on their own (one round trip; the script is loaded when Redis lacks it)."""
    if not rates:
        return
    pipe = client.pipeline(transaction=False)
    queue_check(pipe, rates, now)
    reply = (await pipe.execute(raise_on_error=False))[0]
    await settle(client, reply, rates, now)


async def settle(client: Any, reply: Any, rates: list[Rate], now: float | None = None) -> None:
    """The verdict of a check queued in a larger pipeline; when Redis did not have the script (a restart, a
    SCRIPT FLUSH) nothing was counted: load it and check again."""
    if is_noscript(reply):
        await client.script_load(SCRIPT)
        pipe = client.pipeline(transaction=False)
        queue_check(pipe, rates, now)
        reply = (await pipe.execute(raise_on_error=False))[0]
    if isinstance(reply, Exception):
        raise reply
    verdict(reply, rates)


def check(client: redis.Redis, rates: list[Rate], now: float | None = None) -> None:
    """:func:`acheck` for a synchronous client."""
    if not rates:
        return
    pipe = client.pipeline(transaction=False)
    queue_check(pipe, rates, now)
    reply = pipe.execute(raise_on_error=False)[0]
    if is_noscript(reply):
        client.script_load(SCRIPT)
        pipe = client.pipeline(transaction=False)
        queue_check(pipe, rates, now)
        reply = pipe.execute(raise_on_error=False)[0]
    if isinstance(reply, Exception):
        raise reply
    verdict(reply, rates)
