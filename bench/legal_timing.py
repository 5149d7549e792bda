"""What the engine benchmarks (``*_bench.py``) share: the checkout they measure and the per-phase table of
legal-command timings.

``--root DIR`` measures the domain of another checkout with this benchmark's code, so a before/after pair
(``--root /work/wt/base``) differs only in the engine, e.g.
``.venv/bin/python bench/heaven_and_ale_bench.py --root ../base``.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path


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


class LegalTimes:
    """Wall and CPU seconds of each legal_commands call, by phase (and all together)."""

    def __init__(self) -> None:
        self.wall: dict[str, list[float]] = {"all": []}
        self.cpu: dict[str, list[float]] = {"all": []}

    def add(self, phase: str, wall: float, cpu: float) -> None:
        for key in ("all", phase):
            self.wall.setdefault(key, []).append(wall)
            self.cpu.setdefault(key, []).append(cpu)

    def print(self, label: str) -> None:
        """One line per phase (the most frequent first): median and p95 of wall and of CPU time, in µs."""
        print(f"{label}: legal_commands per decision, by phase (wall, then CPU time):")
        for phase, wall in sorted(self.wall.items(), key=lambda kv: -len(kv[1])):
            cpu = self.cpu[phase]
            print(f"  {phase:>10}: n={len(wall):6d}  median {statistics.median(wall) * 1e6:7.1f} us  "
                  f"p95 {pct(wall, 0.95) * 1e6:7.1f} us   CPU median {statistics.median(cpu) * 1e6:7.1f} us  "
                  f"p95 {pct(cpu, 0.95) * 1e6:7.1f} us")
