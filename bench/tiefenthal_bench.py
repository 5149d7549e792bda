"""Benchmark of the Tiefenthal engine: legal-command generation and full random games.

Run: .venv/bin/python bench/tiefenthal_bench.py [--games N] [--players P] [--profile] [--root CHECKOUT]
Prints wall time and CPU time (process time: what the process itself spent, steadier on a loaded machine);
the legal-command timings per phase (A..F).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time

from legal_timing import LegalTimes, checkout_root

sys.path.insert(0, str(checkout_root()))

from domain.core import rng_for, seed_from_text
from domain.core.playout import random_playout
from domain.tiefenthal import GAME


def legal_timings(players: int, games: int) -> LegalTimes:
    """Wall and CPU seconds per legal_commands call at every decision of ``games`` random games, by phase."""
    times = LegalTimes()
    for g in range(games):
        secret = seed_from_text(f"bench-legal-{g}")
        chooser = random.Random(g)
        events = GAME.setup(GAME.parse_options({}), players, rng_for(secret, 0))
        state = GAME.fold(None, events)
        n = len(events)
        while not GAME.is_over(state):
            seat = chooser.choice(GAME.to_act(state))
            phase = state.phase
            legal = times.call(phase, GAME.legal_commands, state, seat)
            new = GAME.decide(state, chooser.choice(legal), rng_for(secret, n))
            n += len(new)
            for e in new:
                state = GAME.evolve(state, e)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--root", help="measure the engine of this checkout (default: this one)")
    parser.add_argument("--bytecodes", action="store_true", help="count legal_commands' bytecodes instead of timing")
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile of the random games")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for g in range(args.games):
            random_playout(GAME, args.players, f"bench-game-{g}")
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    legal_timings(args.players, max(5, args.games // 5)).print(f"{args.players} players")
    if args.bytecodes:
        return
    commands = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for g in range(args.games):
        commands += random_playout(GAME, args.players, f"bench-game-{g}").commands
    elapsed = time.perf_counter() - t0
    spent = time.process_time() - c0
    print(f"full random {args.players}-player games: {args.games / elapsed:.1f} games/s, "
          f"{elapsed / args.games * 1e3:.1f} ms/game wall, {spent / args.games * 1e3:.1f} ms/game CPU, "
          f"{commands / args.games:.0f} commands/game")


if __name__ == "__main__":
    main()
