"""The service's notion of "now": wall time plus an offset that tests move forward.

Tests advance time without sleeping (``advance(2 * 86400)``); every part that
reads time for deadlines, vacations and notifications reads it here, and event
timestamps (wall time, written by the processor) are moved by the same offset
with :func:`from_wall`.
"""

from __future__ import annotations

import threading
import time

_lock = threading.Lock()
_offset = 0.0


def now() -> float:
    return time.time() + _offset


def from_wall(ts: float) -> float:
    """An event timestamp (wall time) on this clock."""
    return ts + _offset


def advance(seconds: float) -> float:
    """Tests: move the clock forward; returns the new now."""
    global _offset
    with _lock:
        _offset += seconds
    return now()


def reset() -> None:
    global _offset
    with _lock:
        _offset = 0.0
