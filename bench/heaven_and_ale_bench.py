"""Heaven & Ale benchmark: legal-command generation time per decision and full random games per second.

Run: .venv/bin/python bench/heaven_and_ale_bench.py [--games N] [--players 3] [--kegs] [--root CHECKOUT]
The legal-command timings are printed per phase (the step of a turn while playing: move, buy, disc ...).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from legal_timing import LegalTimes, checkout_root

sys.path.insert(0, str(checkout_root()))

from domain.core.playout import random_playout
from domain.core.rng import rng_for, seed_from_text
from domain.heaven_and_ale import GAME


def legal_timings(players: int, kegs: bool, games: int) -> LegalTimes:
    """Wall and CPU seconds per legal_commands call, over every decision of random games, by phase."""
    times = LegalTimes()
    for g in range(games):
        secret = seed_from_text(f"bench-legal-{g}")
        chooser = random.Random(g)
        events = GAME.setup(GAME.parse_options({"kegs_and_more": kegs}), players, rng_for(secret, 0))
        state = GAME.fold(None, events)
        while not GAME.is_over(state):
            seat = chooser.choice(GAME.to_act(state))
            phase = state.step if state.phase == "playing" else state.phase
            legal = times.call(phase, GAME.legal_commands, state, seat)
            new = GAME.decide(state, chooser.choice(legal), rng_for(secret, len(events)))
            for e in new:
                state = GAME.evolve(state, e)
            events.extend(new)
    return times


def busy_game(players: int, kegs: bool, seed: int) -> int:
    """A random game that prefers actions to entering the starting area early or burning coins (longer games)."""
    secret = seed_from_text(f"bench-busy-{seed}")
    chooser = random.Random(seed)
    events = GAME.setup(GAME.parse_options({"kegs_and_more": kegs}), players, rng_for(secret, 0))
    state = GAME.fold(None, events)
    commands = 0
    while not GAME.is_over(state):
        seat = chooser.choice(GAME.to_act(state))
        legal = GAME.legal_commands(state, seat)
        busy = [x for x in legal if x.type not in ("UseEmergencyCoin", "EnterStartingArea", "Pass", "EndBuying")]
        if busy and chooser.random() < 0.85:
            moves = sorted((x for x in busy if x.type == "Move"), key=lambda x: x.space)  # type: ignore[attr-defined]
            command = moves[min(len(moves) - 1, int(chooser.expovariate(0.7)))] if moves else chooser.choice(busy)
        else:
            command = chooser.choice(legal)
        new = GAME.decide(state, command, rng_for(secret, len(events)))
        for e in new:
            state = GAME.evolve(state, e)
        events.extend(new)
        commands += 1
    return commands


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--kegs", action="store_true", help="with Kegs & More (default: both)")
    ap.add_argument("--root", help="measure the engine of this checkout (default: this one)")
    ap.add_argument("--bytecodes", action="store_true", help="count legal_commands' bytecodes instead of timing")
    args = ap.parse_args()
    configs = [args.kegs] if args.kegs else [False, True]
    for kegs in configs:
        label = f"{args.players}p {'Kegs & More' if kegs else 'base game'}"
        legal_timings(args.players, kegs, max(10, args.games // 5)).print(label)
        if args.bytecodes:
            continue
        commands = 0
        t0 = time.perf_counter()
        for g in range(args.games):
            commands += random_playout(GAME, args.players, f"bench-{g}", {"kegs_and_more": kegs}).commands
        elapsed = time.perf_counter() - t0
        print(f"{label}: {args.games} random games in {elapsed:.2f} s: {args.games / elapsed:.1f} games/s, "
              f"{elapsed / args.games * 1e3:.1f} ms/game, {commands / args.games:.0f} commands/game")
        commands = 0
        t0 = time.perf_counter()
        for g in range(args.games):
            commands += busy_game(args.players, kegs, g)
        elapsed = time.perf_counter() - t0
        print(f"{label}: {args.games} busy random games (fewer early exits) in {elapsed:.2f} s: "
              f"{args.games / elapsed:.1f} games/s, {elapsed / args.games * 1e3:.1f} ms/game, "
              f"{commands / args.games:.0f} commands/game")


if __name__ == "__main__":
    main()
