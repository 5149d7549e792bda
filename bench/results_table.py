"""Before/after table of bench/load_bench.py runs saved with --save: prints a Markdown table, asserts nothing.

    python bench/results_table.py BEFORE.jsonl AFTER.jsonl [EARLIER_BEFORE.jsonl]

Each Taproom row is followed in the file by the boardgame.io rows of the same run (interleaved), whose
throughput the ratios divide by; the CPU per command of the machine is every part's, Redis's and the load
driver's.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from typing import Any


def load(path: str) -> dict[int, list[tuple[dict[str, Any], dict[str, Any]]]]:
    runs: dict[int, list[tuple[dict[str, Any], dict[str, Any]]]] = defaultdict(list)
    cur: tuple[dict[str, Any], dict[str, Any]] | None = None
    for line in open(path):
        row = json.loads(line)
        if row.get("side") == "taproom":
            cur = (row, {})
            runs[row["clients"]].append(cur)
        elif cur is not None:
            cur[1][row["side"]] = row
    return runs
def machine(r: dict[str, Any]) -> float:
    return round(r["all_cpu_ms_per_command"] + r["redis_cpu_ms_per_command"] + r["driver_cpu_ms_per_command"], 2)
def fmt(run: tuple[dict[str, Any], dict[str, Any]]) -> str:
    t, peers = run
    mem, pg = peers.get("bgio-memory", {}), peers.get("bgio-postgres", {})
    rm = t["commands_per_s"] / mem["moves_per_s"] if mem.get("moves_per_s") else float("nan")
    rp = t["commands_per_s"] / pg["moves_per_s"] if pg.get("moves_per_s") else float("nan")
    p = t["cpu_ms_per_command_by_part"]
    return (f"{t['commands_per_s']:.1f} | {t['post_p99_ms']:.0f} | {rm:.2f} | {rp:.2f} | {machine(t)} | "
            f"{p['api']} / {p['processor']} / {p['projector']} / {p['reactor']} / {t['redis_cpu_ms_per_command']} | "
            f"{t['redis_calls_per_command']}")

def main() -> None:
    before, after = load(sys.argv[1]), load(sys.argv[2])
    first = load(sys.argv[3]) if len(sys.argv) > 3 else {}
    print("| clients | side | commands/s | POST p99 ms | ÷ bgio memory | ÷ bgio postgres | CPU ms/command, machine | api / processor / projector / reactor / redis | Redis calls/command |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c in (1, 4, 16, 64):
        for label, runs in (("before", before.get(c) or first.get(c) or []), ("after", after.get(c) or [])):
            for run in runs:
                print(f"| {c} | {label} | {fmt(run)} |")


if __name__ == "__main__":
    main()
