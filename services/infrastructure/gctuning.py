"""Garbage collection tuned for a long-running part (processor, projector, reactor).

Each command makes thousands of short-lived objects (parsed messages, events, envelopes, JSON), and with
CPython's default thresholds (a young collection every 700 allocations) the collector walked the cached
records and the loaded modules again and again: about a quarter of the processor's CPU per command in the
kernel benchmark. The parts do not make cycles on their hot paths (reference counting frees nearly
everything), so collecting a young generation every ``YOUNG`` allocations instead costs little memory.
Everything alive when a part starts (modules, games, settings) is moved out of the collector's sight
(``gc.freeze``): it is never garbage.
"""

from __future__ import annotations

import gc
import threading

YOUNG = 10_000
"""Allocations (less deallocations) between two collections of the youngest generation (CPython: 700)."""
OLDER = 10
"""Collections of a generation between two of the next older one (CPython: 10)."""

_done = threading.Lock()
_tuned = False


def tune_for_throughput() -> bool:
    """Raise the collector's thresholds and freeze what is alive now, once per process; returns whether this
    call did it. Called by each part's run loop; harmless when several parts share a process."""
    global _tuned
    with _done:
        if _tuned:
            return False
        _tuned = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, OLDER)
    return True
