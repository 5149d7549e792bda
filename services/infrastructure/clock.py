"""The service's notion of "now", one object built by the composition root and handed to every part.

Every part that reads time for deadlines, vacations, invitations and notifications reads ``root.clock``
(never ``time.time()`` itself), so a test, or a rehearsal of days of play, hands the whole service a
:class:`ShiftedClock` and moves it forward without sleeping. Event timestamps are written in wall time by the
processor; :meth:`Clock.from_wall` puts one on the part's clock.
"""

from __future__ import annotations

import threading
import time


class Clock:
    """Wall time (the production clock)."""

    def now(self) -> float:
        return time.time()

    def from_wall(self, ts: float) -> float:
        """An event timestamp (wall time) on this clock."""
        return ts

    @property
    def moved(self) -> bool:
        """True when this clock runs ahead of wall time (rq's own scheduler, which reads wall time, cannot
        release jobs due on it)."""
        return False


class ShiftedClock(Clock):
    """Wall time plus an offset moved forward by hand (tests: ``clock.advance(2 * 86400)``)."""

    def __init__(self, offset: float = 0.0) -> None:
        self._offset = offset
        self._lock = threading.Lock()

    def now(self) -> float:
        return time.time() + self._offset

    def from_wall(self, ts: float) -> float:
        return ts + self._offset

    @property
    def moved(self) -> bool:
        return self._offset > 1

    def advance(self, seconds: float) -> float:
        """Move the clock forward; returns the new now."""
        with self._lock:
            self._offset += seconds
        return self.now()

    def reset(self) -> None:
        """Back to wall time (a test that shares one service with others puts the clock back when done)."""
        with self._lock:
            self._offset = 0.0

