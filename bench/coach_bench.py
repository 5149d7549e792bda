"""The coach's cost and its validation, straight through the decider (no Redis).

Cost (default): one seeded 2-player game per title (greedy against random, whole length), every decision of
both seats analysed as the service's job analyses them; prints decisions, simulations and CPU seconds (this
process's CPU time, which does not depend on the machine's load) against the budget of 120 s per game.

    nice .venv/bin/python bench/coach_bench.py
    nice .venv/bin/python bench/coach_bench.py --game carcassonne

Validation (``--validate``): positions from seeded arena games of each title (greedy against random, every
``--every``-th decision, at most ``--cap`` a game); at each position every level (random, greedy, search with its
own seed) chooses from the seat's view, and the analysis values its command against the best one on the same
paired playouts. Prints, per title and level, the mean loss per decision with a 95% bootstrap interval, the share
of decisions where the analysis agrees with the level, and the loss when it agrees (0 by construction: the same
command on the same playouts). The levels' strength order is random < greedy < search, so their mean losses
should order the other way, the search's near zero (it is the analysis's own player with another seed).
``--history`` appends one row per title and level to ``bench/strength_history.csv`` (pairing
``coach:<level>``; its ``win_rate``/``ci95_*`` columns then hold the mean loss per decision and its interval,
``iterations`` the decisions analysed, ``mean_score_a`` the share agreed; see ``settings``).

    nice .venv/bin/python bench/coach_bench.py --validate --games 1 --every 5 --cap 16 --jobs 2 --history
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena import HISTORY, append_history, commit_id

from domain.catalog import load_games
from domain.core.registry import get_game
from services.application.bots import get_bot, make_search_bot
from services.application.bots.coach import analyse, bot_game_steps, decisions_of

GAMES = ("carcassonne", "heaven-and-ale", "tiefenthal")
BUDGET_SECONDS = 120.0


def cost(game_id: str, seed: str, share: float = 1.0) -> dict[str, Any]:
    """One whole game of greedy against random, both seats analysed (``share``: ``Settings.coach_search_share``)."""
    load_games()
    steps, _ = bot_game_steps(game_id, [get_bot("greedy"), get_bot("random")], seed)
    decisions = list(decisions_of(get_game(game_id), steps))
    started = time.perf_counter()
    result = analyse(game_id, decisions, seed=seed, share=share)
    figures = result.cost.to_dict()
    figures.update(game=game_id, commands=len(steps), wall_seconds=round(time.perf_counter() - started, 1),
                   accuracy={s["seat"]: s["accuracy"] for s in result.seats})
    return figures


LEVELS = ("random", "greedy", "search")


def _validation_game(task: tuple[str, str, int, int]) -> list[tuple[str, float, bool]]:
    """Positions of one arena game (greedy against random), every ``every``-th decision, at most ``cap``: at each,
    every level chooses from the seat's view (the search with its own seed, not the analysis's), and the analysis
    values each level's command against its best on the same paired playouts. (level, loss, agreed) rows."""
    game_id, seed, every, cap = task
    load_games()
    steps, _ = bot_game_steps(game_id, [get_bot("greedy"), get_bot("random")], seed)
    decisions = list(decisions_of(get_game(game_id), steps))[::every][:cap]
    rows: list[tuple[str, float, bool]] = []
    for i, decision in enumerate(decisions):
        rng = random.Random(f"{seed}|level|{i}")
        for level in LEVELS:
            bot = make_search_bot(budget=None) if level == "search" else get_bot(level)  # uncapped: load-free
            played = bot(game_id, decision.view, decision.legal, random.Random(rng.getrandbits(64)))
            result = analyse(game_id, [dataclasses.replace(decision, played=played)], seed=f"{seed}|{i}")
            row = result.seats[0]["decisions"][0]
            rows.append((level, row["loss"], row["agreed"]))
    return rows


def bootstrap_mean(values: list[float], rng: random.Random, draws: int = 2000) -> tuple[float, float, float]:
    """The mean and a 95% percentile-bootstrap interval."""
    means = sorted(sum(rng.choice(values) for _ in values) / len(values) for _ in range(draws))
    return sum(values) / len(values), means[int(0.025 * draws)], means[int(0.975 * draws) - 1]


def validate(args: argparse.Namespace) -> None:
    tasks = [(game_id, f"coach-val-{game_id}-{i}", args.every, args.cap)
             for game_id in args.game or GAMES for i in range(args.games)]
    losses: dict[tuple[str, str], list[float]] = defaultdict(list)
    agreed: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for task, rows in zip(tasks, pool.map(_validation_game, tasks)):
            for level, loss, chose_best in rows:
                losses[(task[0], level)].append(loss)
                agreed[(task[0], level)].append((loss, chose_best))
            print(f"  {task[0]} ({task[1]}): {len(rows) // len(LEVELS)} positions analysed", flush=True)
    rng = random.Random("coach-bootstrap")
    print(f"\nmean loss per decision (points) at the same positions, 95% bootstrap interval; every {args.every}th "
          f"decision of greedy-random arena games, at most {args.cap} a game; {time.perf_counter() - started:.0f} s wall")
    for game_id in args.game or GAMES:
        for level in LEVELS:
            values = losses[(game_id, level)]
            mean, low, high = bootstrap_mean(values, rng)
            pairs = agreed[(game_id, level)]
            when_agreed = [loss for loss, s in pairs if s]
            share = len(when_agreed) / len(pairs)
            print(f"{game_id:15} {level:7} {mean:6.2f} ({low:.2f}-{high:.2f})  {len(pairs):3} decisions  agreed "
                  f"{share:5.1%}  loss when agreed {sum(when_agreed) / max(1, len(when_agreed)):.2f}")
            if args.history:
                append_history(HISTORY, {
                    "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "commit": commit_id(),
                    "game": game_id, "pairing": f"coach:{level}", "games": args.games, "iterations": len(pairs),
                    "settings": (f"coach validation: win_rate and ci95 hold {level}'s mean loss per decision "
                                 f"(points) and its 95% bootstrap interval, at the same positions as the other "
                                 f"levels (every {args.every}th decision of greedy-random games, at most {args.cap} "
                                 "a game); iterations the decisions; mean_score_a the share the analysis agreed"),
                    "win_rate": f"{mean:.4f}", "ci95_low": f"{low:.4f}", "ci95_high": f"{high:.4f}",
                    "mean_score_a": f"{share:.3f}", "cpu_load": f"{os.getloadavg()[0]:.1f}"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--validate", action="store_true")
    parser.add_argument("--games", type=int, default=1, help="validation: arena games per title")
    parser.add_argument("--every", type=int, default=5, help="validation: every n-th decision is a position")
    parser.add_argument("--cap", type=int, default=16, help="validation: at most this many positions a game")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--history", action="store_true")
    parser.add_argument("--share", type=float, default=1.0, help="cost: the coach's search share (TAPROOM_COACH_SEARCH_SHARE)")
    args = parser.parse_args()
    if args.validate:
        validate(args)
        return
    for game_id in args.game or GAMES:
        figures = cost(game_id, f"coach-cost-{game_id}", args.share)
        verdict = "within" if figures["cpu_seconds"] <= BUDGET_SECONDS else "OVER"
        print(f"{game_id:15} load {os.getloadavg()[0]:.0f}: {figures['decisions']:4} decisions of {figures['commands']} commands, "
              f"{figures['simulations']} simulations, CPU {figures['cpu_seconds']:.1f} s ({verdict} the "
              f"{BUDGET_SECONDS:.0f} s budget), wall {figures['wall_seconds']:.1f} s, "
              f"accuracy {figures['accuracy']}", flush=True)


if __name__ == "__main__":
    main()
