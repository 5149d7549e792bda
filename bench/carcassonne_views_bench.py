"""CPU of Carcassonne's seat views: ``GAME.views`` for the spectator and every seat after every command.

Run: .venv/bin/python bench/carcassonne_views_bench.py [--games N] [--players P] [--base] [--abbot] [--river]
[--profile]. Prints the median and p95 CPU microseconds (process time, load-independent) per ``views`` call (one call builds every view of the
game, as the projector does after each command) over seeded random games.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.carcassonne import GAME
from domain.core.rng import rng_for, seed_from_text


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def measure(games: int, players: int, options: dict) -> list[float]:
    """Seconds per ``views`` call, after every command of ``games`` seeded random games."""
    times: list[float] = []
    opts = GAME.parse_options(options)
    seats: list[int | None] = [None, *range(players)]
    for g in range(games):
        secret = seed_from_text(f"bench-views-{g}")
        chooser = random.Random(g)
        events = GAME.setup(opts, players, rng_for(secret, 0))
        state = GAME.fold(None, events)
        version = len(events)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            command = chooser.choice(GAME.legal_commands(state, seat))
            new = GAME.decide(state, command, rng_for(secret, version))
            for event in new:
                state = GAME.evolve(state, event)
            version += len(new)
            t0 = time.process_time()
            GAME.views(state, seats)
            times.append(time.process_time() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--base", action="store_true", help="base game only (no Hills & Sheep)")
    parser.add_argument("--abbot", action="store_true")
    parser.add_argument("--river", action="store_true")
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile of the run")
    args = parser.parse_args()
    options: dict = {} if args.base else {"hills_and_sheep": True}
    if args.abbot:
        options["abbot"] = True
    if args.river:
        options["river"] = True
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        measure(args.games, args.players, options)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    times = measure(args.games, args.players, options)
    print(f"Carcassonne views ({args.players} players, options {options}): {len(times)} calls, "
          f"median {statistics.median(times) * 1e6:.1f} us, p95 {pct(times, 0.95) * 1e6:.1f} us, "
          f"mean {statistics.fmean(times) * 1e6:.1f} us per views() call ({args.players + 1} views)")


if __name__ == "__main__":
    main()
