"""Turn clocks: when a seat starts and stops waiting, and its deadline (see ``deadlines.py`` for the turn rules)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import redis

from domain.core.lifecycle import GameRecord, Pace, turn_of
from services.application.clocks.vacation import Vacations
from services.infrastructure.batching import BatchWrites, ReadAhead
from services.infrastructure.clock import Clock
from services.infrastructure.eventstore import Keys


@dataclass(frozen=True)
class Wait:
    version: int
    since: float
    turn: str | None = field(default=None, compare=False)  # the turn's tag (None: kept before tags were)

    def encode(self) -> str:
        return f"{self.version}:{self.since!r}" + (f":{self.turn}" if self.turn is not None else "")

    @classmethod
    def decode(cls, raw: bytes | str) -> Wait:
        text = raw.decode() if isinstance(raw, bytes) else raw
        version, since, *turn = text.split(":", 2)
        return cls(int(version), float(since), turn[0] if turn else None)


def job_safe(text: str) -> str:
    """rq job ids allow letters, digits, '_' and '-' only."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


def at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


def clocked_seats(record: GameRecord) -> list[int]:
    """Seats that wait for their holder now: humans to act (bots, away seats and a timed-out turn's
    remaining steps are played at once).

    Untimed games track waits too, so "your turn" is sent once per wait.
    """
    if record.status != "active":
        return []
    return [s for s in record.to_act() if not record.seats[s].bot and record.played_for(s) is None]


def turn_tag(record: GameRecord, seat: int) -> str:
    """A short stable tag of the turn ``seat`` is in (of :func:`turn_of`), kept with its wait."""
    return hashlib.sha256(repr(turn_of(record, seat)).encode()).hexdigest()[:12]


def waiting_seats(record: GameRecord) -> frozenset[tuple[int, str]]:
    """:func:`clocked_seats` with their turns' tags, as a step's probe (see
    :meth:`services.infrastructure.aggregates.Repository.advance`)."""
    return frozenset((seat, turn_tag(record, seat)) for seat in clocked_seats(record))


Step = tuple[int, float, frozenset[tuple[int, str]]]
"""A state a game passed through: (version after a command, its wall time, the seats waiting then and
their turns' tags)."""


def same_turn(wait: Wait | None, seat: int, waiting: frozenset[tuple[int, str]]) -> bool:
    """Whether ``seat`` is still in the turn of ``wait`` at a step whose waiting seats are ``waiting``."""
    tags = dict(waiting)
    if seat not in tags:
        return False
    return wait is None or wait.turn is None or wait.turn == tags[seat]


def has_humans(record: GameRecord) -> bool:
    return any(not seat.bot for seat in record.seats)


def clockless(record: GameRecord) -> bool:
    """A game whose turn clocks nobody reads: no pace (no deadline, time bank or waiting time to show) and no
    seat held by a player (no "your turn" message to send). The reactor keeps no clock for it while it is
    active; should a player take a seat later, its clock starts from the state of then."""
    return record.pace is None and not any(seat.player_id for seat in record.seats)


# KEYS: the clock hash; ARGV: n, then n fields to delete, then field/value pairs to set (one step, atomic).
_CLOCK_UPDATE = """
local n = tonumber(ARGV[1])
for i = 2, n + 1 do redis.call('HDEL', KEYS[1], ARGV[i]) end
for i = n + 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1
"""


class TurnClocks:
    def __init__(self, client: redis.Redis, keys: Keys, vacations: Vacations, clock: Clock) -> None:
        self.redis = client
        self.keys = keys
        self.vacations = vacations
        self.clock = clock
        self.read_ahead: ReadAhead | None = None
        """The clock hashes the reactor read for its batch (see :mod:`services.infrastructure.batching`); kept up to date."""
        self.writes: BatchWrites | None = None
        """Where the reactor's batch collects its writes (None: written at once)."""
        self._update: Any = None  # registered on first use (readers pass stand-ins that only read)

    def _field(self, game_id: str, name: str) -> bytes | None:
        key = self.keys.clock(game_id)
        if self.read_ahead is not None and key in self.read_ahead:
            return self.read_ahead.get(key).get(name.encode())  # type: ignore[no-any-return]
        return self.redis.hget(key, name)  # type: ignore[return-value]

    def waits(self, game_id: str) -> dict[int, Wait]:
        key = self.keys.clock(game_id)
        if self.read_ahead is not None and key in self.read_ahead:
            raw: dict[bytes, bytes] = self.read_ahead.get(key)
        else:
            raw = self.redis.hgetall(key)  # type: ignore[assignment]
        return {int(k.decode().split(":")[1]): Wait.decode(v) for k, v in raw.items() if k.startswith(b"start:")}

    def seen(self, game_id: str) -> int | None:
        """The last version the clocks were brought up to (None: never, or not since the game ended)."""
        raw = self._field(game_id, "seen")
        return int(raw) if raw is not None else None

    def wait(self, game_id: str, seat: int) -> Wait | None:
        raw = self._field(game_id, f"start:{seat}")
        return Wait.decode(raw) if raw else None

    def bank(self, game_id: str, seat: int, pace: Pace) -> float:
        raw = self._field(game_id, f"bank:{seat}")
        return float(raw) if raw is not None else float(pace.bank_seconds or 0)

    def allowed(self, game_id: str, seat: int, pace: Pace) -> float:
        """Running-clock seconds the seat has for this wait."""
        if pace.bank_seconds is not None:
            return max(0.0, self.bank(game_id, seat, pace))
        return float(pace.per_move_seconds or 0)

    def deadline(self, record: GameRecord, seat: int, wait: Wait) -> float:
        assert record.pace is not None
        allowed = self.allowed(record.game_id, seat, record.pace)
        return self.vacations.deadline(record.seats[seat].player_id, wait.since, allowed)

    def update(self, record: GameRecord, version: int, ts: float,
               steps: list[Step] | None = None) -> list[tuple[int, Wait]]:
        """Bring the clocks up to ``record`` at ``version`` through ``steps`` (event times on the wall
        clock); without steps, from the record alone at time ``ts``. Returns the waits begun that still run.

        Steps at or before ``seen`` were applied already and are skipped. A game whose clocks have no
        ``seen`` yet (first look, or clocks from before it was kept) starts from its latest state only.
        """
        key = self.keys.clock(record.game_id)
        fresh = self._fresh(record, version, ts, steps)
        if not fresh:
            return []
        stored = self.waits(record.game_id)
        banks: dict[int, float] = {}
        begun: dict[int, Wait] = {}
        final: dict[str, str | float | int | None] = {}  # field -> its value after the update (None: deleted)
        for step_version, step_ts, waiting in fresh:
            for seat in [s for s in stored if not same_turn(stored[s], s, waiting)]:  # its turn ended here
                wait = stored.pop(seat)
                begun.pop(seat, None)
                final[f"start:{seat}"] = None
                self._spend_bank(record, seat, wait, step_ts, banks, final)
            for seat, tag in sorted(w for w in waiting if w[0] not in stored):  # a turn begins
                wait = Wait(step_version, step_ts, tag)
                stored[seat] = begun[seat] = wait
                final[f"start:{seat}"] = wait.encode()
        if has_humans(record):  # bot-only games never wait: no clock entry for them
            final["seen"] = max(version, fresh[-1][0])
        self._write(key, final)
        return sorted(begun.items())

    def _fresh(self, record: GameRecord, version: int, ts: float,
               steps: list[Step] | None) -> list[tuple[int, float, Any]]:
        """The steps not applied yet, as (version, service time, waiting seats); only the latest on a first look."""
        seen = self.seen(record.game_id)
        if steps:
            fresh = [(v, self.clock.from_wall(t), w) for v, t, w in steps if seen is None or v > seen]
        else:
            fresh = [(version, ts, waiting_seats(record))] if seen is None or version > seen else []
        return fresh[-1:] if seen is None else fresh

    def _spend_bank(self, record: GameRecord, seat: int, wait: Wait, step_ts: float, banks: dict[int, float],
                    final: dict[str, str | float | int | None]) -> None:
        """A turn of a banked pace ended at ``step_ts``: the time it used (vacations aside) leaves the bank,
        the increment joins it."""
        pace = record.pace
        if pace is None or pace.bank_seconds is None:
            return
        player = record.seats[seat].player_id
        used = max(0.0, step_ts - wait.since - self.vacations.paused(player, wait.since, step_ts))
        left = banks.get(seat, self.bank(record.game_id, seat, pace)) - used + pace.increment_seconds
        banks[seat] = max(0.0, left)
        final[f"bank:{seat}"] = banks[seat]

    def _write(self, key: str, final: dict[str, str | float | int | None]) -> None:
        """Apply ``final`` to the clock hash in one atomic step (with the batch's writes when there is a batch)."""
        if not final:
            return
        gone = [name for name, value in final.items() if value is None]
        pairs = [item for name, value in final.items() if value is not None for item in (name, value)]
        if self.writes is not None:
            if self._update is None:
                self._update = self.redis.register_script(_CLOCK_UPDATE)
            self.writes.script(self._update, [key], [len(gone), *gone, *pairs])
        else:
            pipe = self.redis.pipeline(transaction=True)
            if gone:
                pipe.hdel(key, *gone)
            for name, value in final.items():
                if value is not None:
                    pipe.hset(key, name, value)
            pipe.execute()
        self._mirror(key, final)

    def _mirror(self, key: str, final: dict[str, str | float | int | None]) -> None:
        """Keep the batch's read-ahead copy of the clock hash as Redis now has it."""
        if self.read_ahead is None or key not in self.read_ahead:
            return
        fields = self.read_ahead.get(key)
        for name, value in final.items():
            if value is None:
                fields.pop(name.encode(), None)
            else:
                fields[name.encode()] = _as_redis_answers(value)

    def view(self, record: GameRecord) -> dict[str, Any]:
        """The clock as a page shows it: the service's now, after how many consecutive timeouts a seat is
        taken over, and :meth:`table`."""
        pace = record.pace
        return {"now": self.clock.now(), "timed": bool(pace and pace.timed),
                "takeover_after": pace.timeouts_to_takeover if pace and pace.timed else None,
                "seats": self.table(record) if record.status == "active" else []}

    def clear(self, game_id: str) -> None:
        key = self.keys.clock(game_id)
        (self.writes.pipe if self.writes is not None else self.redis).delete(key)
        if self.read_ahead is not None and key in self.read_ahead:
            self.read_ahead.put(key, {})

    def table(self, record: GameRecord) -> list[dict[str, Any]]:
        """Per seat: waiting since, deadline (vacations included), bank left, consecutive timeouts."""
        waits = self.waits(record.game_id)
        rows = []
        for seat in range(len(record.seats)):
            row: dict[str, Any] = {"seat": seat, "away": record.seats[seat].autopilot,
                                   "timeouts": record.seats[seat].timeouts}
            if record.pace is not None and record.pace.bank_seconds is not None:
                row["bank_seconds"] = self.bank(record.game_id, seat, record.pace)
            wait = waits.get(seat)
            if wait is not None and record.pace is not None:
                row["waiting_since"] = wait.since
                row["deadline"] = self.deadline(record, seat, wait)
            rows.append(row)
        return rows


def _as_redis_answers(value: str | float | int) -> bytes:
    """A field's value as Redis would answer it (floats by ``repr``, as redis-py sends them)."""
    if isinstance(value, str):
        return value.encode()
    return repr(value).encode() if isinstance(value, float) else str(value).encode()
