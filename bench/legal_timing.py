"""What the engine benchmarks (``*_bench.py``) share: the checkout they measure and the per-phase table of
legal-command timings.

``--root DIR`` measures the domain of another checkout with this benchmark's code, so a before/after pair
(``--root /work/wt/base``) differs only in the engine, e.g.
``.venv/bin/python bench/heaven_and_ale_bench.py --root ../base``. ``--bytecodes`` counts the Python bytecodes each
legal_commands call executes instead of timing it: slower, but the same on a loaded machine as on a quiet one
(C code such as pydantic's validation is not counted), so an A/B pair on a shared machine can be compared.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


def checkout_root() -> Path:
    """The checkout named by ``--root DIR`` on the command line (read before the engine is imported), else this one."""
    args = sys.argv[1:]
    for i, arg in enumerate(args):
        if arg == "--root" and i + 1 < len(args):
            return Path(args[i + 1]).resolve()
        if arg.startswith("--root="):
            return Path(arg.split("=", 1)[1]).resolve()
    return Path(__file__).resolve().parents[1]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def bytecodes_requested() -> bool:
    return "--bytecodes" in sys.argv[1:]


class _Counter:
    """A tracer counting executed bytecodes (``f_trace_opcodes``)."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            self.n += 1
        return self


class LegalTimes:
    """Wall and CPU seconds of each legal_commands call, by phase (and all together); with ``bytecodes``, the
    bytecodes each call executed instead (both columns then hold that count, printed as is)."""

    def __init__(self, bytecodes: bool | None = None) -> None:
        self.bytecodes = bytecodes_requested() if bytecodes is None else bytecodes
        self.wall: dict[str, list[float]] = {"all": []}
        self.cpu: dict[str, list[float]] = {"all": []}

    def add(self, phase: str, wall: float, cpu: float) -> None:
        for key in ("all", phase):
            self.wall.setdefault(key, []).append(wall)
            self.cpu.setdefault(key, []).append(cpu)

    def call(self, phase: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, timed (or its bytecodes counted) under ``phase``."""
        if self.bytecodes:
            counter = _Counter()
            sys.settrace(counter)
            try:
                out = fn(*args)
            finally:
                sys.settrace(None)
            self.add(phase, counter.n, counter.n)
            return out
        c0 = time.process_time()
        t0 = time.perf_counter()
        out = fn(*args)
        wall = time.perf_counter() - t0
        self.add(phase, wall, time.process_time() - c0)
        return out

    def print(self, label: str) -> None:
        """One line per phase (the most frequent first): median and p95 of wall and of CPU time, in µs."""
        if self.bytecodes:
            print(f"{label}: legal_commands per decision, by phase (bytecodes executed):")
            for phase, counts in sorted(self.wall.items(), key=lambda kv: -len(kv[1])):
                print(f"  {phase:>10}: n={len(counts):6d}  median {statistics.median(counts):8.0f}  "
                      f"p95 {pct(counts, 0.95):8.0f}  max {max(counts):8.0f}")
            return
        print(f"{label}: legal_commands per decision, by phase (wall, then CPU time):")
        for phase, wall in sorted(self.wall.items(), key=lambda kv: -len(kv[1])):
            cpu = self.cpu[phase]
            print(f"  {phase:>10}: n={len(wall):6d}  median {statistics.median(wall) * 1e6:7.1f} us  "
                  f"p95 {pct(wall, 0.95) * 1e6:7.1f} us   CPU median {statistics.median(cpu) * 1e6:7.1f} us  "
                  f"p95 {pct(cpu, 0.95) * 1e6:7.1f} us")
