"""Benchmark of the Tiefenthal engine: legal-command generation and full random games.

Run: .venv/bin/python bench/tiefenthal_bench.py [--games N] [--players P]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.core import rng_for, seed_from_text
from domain.core.playout import random_playout
from domain.tiefenthal import GAME


def legal_timings(players: int, games: int) -> list[float]:
    """Seconds per legal_commands call at every decision of ``games`` random games."""
    times: list[float] = []
    for g in range(games):
        secret = seed_from_text(f"bench-legal-{g}")
        chooser = random.Random(g)
        events = GAME.setup(GAME.parse_options({}), players, rng_for(secret, 0))
        state = GAME.fold(None, events)
        n = len(events)
        while not GAME.is_over(state):
            seat = chooser.choice(GAME.to_act(state))
            t0 = time.perf_counter()
            legal = GAME.legal_commands(state, seat)
            times.append(time.perf_counter() - t0)
            new = GAME.decide(state, chooser.choice(legal), rng_for(secret, n))
            n += len(new)
            for e in new:
                state = GAME.evolve(state, e)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    times = sorted(legal_timings(args.players, max(5, args.games // 5)))
    median = statistics.median(times) * 1e3
    p95 = times[int(len(times) * 0.95)] * 1e3
    print(f"legal_commands ({args.players} players, {len(times)} calls): median {median:.3f} ms, p95 {p95:.3f} ms")
    commands = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        commands += random_playout(GAME, args.players, f"bench-game-{g}").commands
    elapsed = time.perf_counter() - t0
    print(f"full random {args.players}-player games: {args.games / elapsed:.1f} games/s, "
          f"{elapsed / args.games * 1e3:.1f} ms/game, {commands / args.games:.0f} commands/game")


if __name__ == "__main__":
    main()
