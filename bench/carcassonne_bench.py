"""Carcassonne engine benchmark: legal-command generation per turn and full random games.

Run: .venv/bin/python bench/carcassonne_bench.py [--games N] [--players P] [--base] [--root CHECKOUT]
Default configuration: 2 players with Hills & Sheep.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from legal_timing import LegalTimes, checkout_root, pct

sys.path.insert(0, str(checkout_root()))

from domain.carcassonne import GAME
from domain.core.playout import random_playout
from domain.core.rng import rng_for, seed_from_text


def measure_legal(games: int, players: int, options: dict) -> tuple[LegalTimes, dict[str, list[float]]]:
    """Time legal_commands at every decision of random games, by phase; and clone, decide+evolve."""
    legal_times = LegalTimes()
    times: dict[str, list[float]] = {"clone": [], "decide+evolve": []}
    opts = GAME.parse_options(options)
    for g in range(games):
        secret = seed_from_text(f"bench-legal-{g}")
        chooser = random.Random(g)
        events = GAME.setup(opts, players, rng_for(secret, 0))
        state = GAME.fold(None, events)
        version = len(events)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            legal = legal_times.call(state.phase, GAME.legal_commands, state, seat)
            t0 = time.perf_counter()
            GAME.clone(state)
            times["clone"].append(time.perf_counter() - t0)
            command = chooser.choice(legal)
            t0 = time.perf_counter()
            new = GAME.decide(state, command, rng_for(secret, version))
            for event in new:
                state = GAME.evolve(state, event)
            times["decide+evolve"].append(time.perf_counter() - t0)
            version += len(new)
    return legal_times, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="full random games to time")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--base", action="store_true", help="base game only (no Hills & Sheep)")
    parser.add_argument("--root", help="measure the engine of this checkout (default: this one)")
    parser.add_argument("--bytecodes", action="store_true", help="count legal_commands' bytecodes instead of timing")
    args = parser.parse_args()
    options = {} if args.base else {"hills_and_sheep": True}
    label = f"{args.players} players, {'base game' if args.base else 'with Hills & Sheep'}"

    legal_times, times = measure_legal(max(10, args.games // 10), args.players, options)
    print(f"Carcassonne benchmark ({label})")
    legal_times.print("Carcassonne")
    if args.bytecodes:
        return
    for name in ("clone", "decide+evolve"):
        values = times[name]
        print(f"  {name:>14}: n={len(values):6d}  median {statistics.median(values) * 1e6:8.1f} us"
              f"  p95 {pct(values, 0.95) * 1e6:8.1f} us")

    durations = []
    commands = 0
    for g in range(args.games):
        t0 = time.perf_counter()
        result = random_playout(GAME, args.players, f"bench-{g}", options)
        durations.append(time.perf_counter() - t0)
        commands += result.commands
    total = sum(durations)
    print(f"  full random games: {args.games} in {total:.2f} s -> {args.games / total:.1f} games/s, "
          f"median {statistics.median(durations) * 1e3:.1f} ms/game, p95 {pct(durations, 0.95) * 1e3:.1f} ms/game, "
          f"{commands / args.games:.0f} commands/game")


if __name__ == "__main__":
    main()
