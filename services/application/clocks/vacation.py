"""Vacations: a player pauses their clocks for some days a year.

A vacation is an interval of time stored per player; while it lasts, the
clocks of all the player's seats stand still, so every deadline is pushed
back by the part of the vacation that falls inside the wait. The allowance
(days per calendar year, UTC, counted in the year the vacation starts) is
charged when a vacation starts and the unused rest refunded if it ends early.

Starting and ending are check-and-set transactions (WATCH on the player's two
keys, which share a hash tag): two requests at once cannot both pass the
check and overlap or spend the allowance twice; the loser re-reads and is
refused (or finds nothing left to end).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import redis
from redis.client import Pipeline

from domain.core import IllegalMove, InvalidCommand
from services.infrastructure.clock import Clock
from services.infrastructure.eventstore import Keys

DAY = 86400
REPEAT_SECONDS = 600
"""A vacation of the same length asked again this soon after one began is that one (idempotent by value)."""


@dataclass(frozen=True)
class Interval:
    start: float
    end: float

    def member(self) -> str:
        return f"{self.start!r}:{self.end!r}"

    @classmethod
    def parse(cls, raw: bytes | str) -> Interval:
        text = raw.decode() if isinstance(raw, bytes) else raw
        start, end = text.split(":")
        return cls(float(start), float(end))


def push_back(since: float, allowed: float, pauses: Iterable[Interval]) -> float:
    """The time at which ``allowed`` seconds of running clock have passed since ``since``."""
    cursor, remaining = since, float(allowed)
    for pause in sorted(pauses, key=lambda p: p.start):
        if pause.end <= cursor:
            continue
        start = max(pause.start, cursor)
        if cursor + remaining <= start:
            break
        remaining -= start - cursor
        cursor = pause.end
    return cursor + remaining


def paused_within(start: float, end: float, pauses: Iterable[Interval]) -> float:
    """Seconds of ``[start, end]`` covered by pauses (intervals of one player never overlap)."""
    return sum(max(0.0, min(end, p.end) - max(start, p.start)) for p in pauses)


def _year(ts: float) -> str:
    return time.strftime("%Y", time.gmtime(ts))


class Vacations:
    def __init__(self, client: redis.Redis, keys: Keys, days_per_year: int, clock: Clock) -> None:
        self.redis = client
        self.keys = keys
        self.days_per_year = days_per_year
        self.clock = clock

    def intervals(self, player_id: str | None, since: float = 0.0,
                  client: redis.Redis | Pipeline | None = None) -> list[Interval]:
        """The player's vacations that end after ``since`` (read through ``client``, e.g. a watching pipeline)."""
        if not player_id:
            return []
        raw: list[Any] = (client or self.redis).zrange(self.keys.vacations(player_id), 0, -1)  # type: ignore[assignment]
        return [i for i in (Interval.parse(r) for r in raw) if i.end > since]

    def used(self, player_id: str, year: str, client: redis.Redis | Pipeline | None = None) -> float:
        raw = (client or self.redis).hget(self.keys.vacation_used(player_id), year)
        return float(raw) if raw else 0.0  # type: ignore[arg-type]

    def current(self, player_id: str, now: float | None = None,
                client: redis.Redis | Pipeline | None = None) -> Interval | None:
        now = self.clock.now() if now is None else now
        return next((i for i in self.intervals(player_id, now, client) if i.start <= now), None)

    def _watched(self, player_id: str, func: Any) -> Any:
        """Run ``func(pipe)`` as a WATCH/MULTI transaction over the player's vacation keys (re-run on a
        concurrent write): its reads go through ``pipe`` before ``pipe.multi()``, its writes after."""
        return self.redis.transaction(func, self.keys.vacations(player_id), self.keys.vacation_used(player_id),
                                      value_from_callable=True)

    def start(self, player_id: str, days: float, now: float | None = None) -> Interval:
        """Begin a vacation now, for ``days`` days, within this year's allowance."""
        now = self.clock.now() if now is None else now
        if days <= 0:
            raise InvalidCommand(f"a vacation lasts a positive number of days, not {days}")
        year = _year(now)
        seconds = days * DAY
        interval = Interval(now, now + seconds)

        def book(pipe: Pipeline) -> Interval:
            running = self.current(player_id, now, pipe)
            if running is not None:
                if abs(running.end - running.start - seconds) < 1 and now - running.start < REPEAT_SECONDS:
                    return running  # the same vacation asked again (a retry after a 503 or a lost answer)
                raise IllegalMove("you are on vacation already; end it first")
            left = self.days_per_year * DAY - self.used(player_id, year, pipe)
            if seconds > left + 60:  # a minute of slack: ending early is measured to the millisecond
                raise IllegalMove(f"{days} vacation days asked, {left / DAY:g} left in {year}")
            pipe.multi()
            pipe.zadd(self.keys.vacations(player_id), {interval.member(): interval.start})
            pipe.hincrbyfloat(self.keys.vacation_used(player_id), year, seconds)
            return interval

        result: Interval = self._watched(player_id, book)
        return result

    def end(self, player_id: str, now: float | None = None) -> Interval | None:
        """End the current vacation now; the unused days go back to the allowance (once, however many ask)."""
        now = self.clock.now() if now is None else now

        def shorten(pipe: Pipeline) -> Interval | None:
            current = self.current(player_id, now, pipe)
            if current is None:
                return None
            shortened = Interval(current.start, now)
            pipe.multi()
            pipe.zrem(self.keys.vacations(player_id), current.member())
            pipe.zadd(self.keys.vacations(player_id), {shortened.member(): shortened.start})
            pipe.hincrbyfloat(self.keys.vacation_used(player_id), _year(current.start), -(current.end - now))
            return shortened

        result: Interval | None = self._watched(player_id, shorten)
        return result

    def status(self, player_id: str, now: float | None = None) -> dict[str, object]:
        now = self.clock.now() if now is None else now
        year = _year(now)
        current = self.current(player_id, now)
        used = self.used(player_id, year)
        return {"year": int(year), "days_per_year": self.days_per_year, "days_used": round(used / DAY, 4),
                "days_left": round((self.days_per_year * DAY - used) / DAY, 4),
                "on_vacation": current is not None,
                "until": current.end if current else None}

    def deadline(self, player_id: str | None, since: float, allowed: float) -> float:
        return push_back(since, allowed, self.intervals(player_id, since))

    def paused(self, player_id: str | None, start: float, end: float) -> float:
        return paused_within(start, end, self.intervals(player_id, start))
