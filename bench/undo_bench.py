"""What undo trails cost: a seeded random game of each engine executed through the kernel, once with every
seat a human (an undo trail is kept: a state copy where each stretch of undoable commands begins) and once
with every seat a bot (no trail), and the same log folded as a reader does; prints milliseconds per command.

    .venv/bin/python bench/undo_bench.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from domain.catalog import load_games
from domain.core.lifecycle import CreateGame, SeatSpec, actor_seat, apply, begin_command, execute
from domain.core.registry import get_game
from domain.core.rng import SeedDice


def play(game_id: str, seed: str, human: bool) -> tuple[float, float, int]:
    game = get_game(game_id)
    dice = SeedDice(seed.encode())
    rng = random.Random(seed)
    actor = (lambda s: f"player:p{s}") if human else (lambda s: "bot:random")
    seats = [SeatSpec(name=f"p{i}", player_id=f"p{i}") for i in range(2)]
    started = time.perf_counter()
    events, record = execute(None, "b", CreateGame(game=game_id, seats=seats, seed_commitment="c"), dice, "system")
    log: list[tuple[int, str, Any]] = [(0, "system", e) for e in events]
    n = 0
    while record.status == "active":
        n += 1
        seat = rng.choice(record.to_act())
        events, record = execute(record, "b", rng.choice(game.legal_commands(record.state, seat)), dice, actor(seat))
        log += [(n, actor(seat), e) for e in events]
    live = time.perf_counter() - started
    started = time.perf_counter()
    folded, last = None, -1
    for number, who, event in log:
        if number != last:
            last = number
            begin_command(folded, actor_seat(folded, who))
        folded = apply(folded, "b", event)
    return live, time.perf_counter() - started, n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    load_games()
    print(f"{'game':16} {'seats':6} {'execute ms/cmd':>15} {'fold ms/cmd':>12}")
    for game_id in ("carcassonne", "heaven-and-ale", "tiefenthal"):
        for human in (False, True):
            live = fold = 0.0
            commands = 0
            for g in range(args.games):
                a, b, n = play(game_id, f"bench-{g}", human)
                live, fold, commands = live + a, fold + b, commands + n
            print(f"{game_id:16} {'human' if human else 'bots':6} {1000 * live / commands:15.3f} {1000 * fold / commands:12.3f}")


if __name__ == "__main__":
    main()
