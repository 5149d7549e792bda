"""The coach's cost and its validation, straight through the decider (no Redis).

Cost (default): one seeded 2-player game per title (greedy against random, whole length), every decision of
both seats analysed as the service's job analyses them; prints decisions, simulations and CPU seconds (this
process's CPU time, which does not depend on the machine's load) against the budget of 120 s per game.

    nice .venv/bin/python bench/coach_bench.py
    nice .venv/bin/python bench/coach_bench.py --game carcassonne

Validation (``--validate``): arena games of each title (``search:greedy`` and ``greedy:random``, seats
alternating), every ``--every``-th decision of every seat analysed; prints, per title and level, the mean
loss per decision with a 95% interval (a bootstrap over games: decisions of one game are not independent),
the share of decisions where the analysis's best command is the one played, and the mean loss of those.
The levels' strength order is random < greedy < search, so their mean losses should order the other way.
``--history`` appends one row per title and level to ``bench/strength_history.csv`` (pairing
``coach:<level>``; its ``win_rate``/``ci95_*`` columns then hold the mean loss per decision and its interval,
``iterations`` the decisions analysed, ``mean_score_a`` the share agreed; see ``settings``).

    nice .venv/bin/python bench/coach_bench.py --validate --games 2 --every 3 --jobs 2 --history
"""

from __future__ import annotations

import argparse
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
from services.bots import get_bot
from services.bots.coach import analyse, bot_game_steps, decisions_of

GAMES = ("carcassonne", "heaven-and-ale", "tiefenthal")
BUDGET_SECONDS = 120.0
PAIRINGS = (("search", "greedy"), ("greedy", "random"))


def cost(game_id: str, seed: str) -> dict[str, Any]:
    """One whole game of greedy against random, both seats analysed."""
    load_games()
    steps, _ = bot_game_steps(game_id, [get_bot("greedy"), get_bot("random")], seed)
    decisions = list(decisions_of(get_game(game_id), steps))
    started = time.perf_counter()
    result = analyse(game_id, decisions, seed=seed)
    figures = result.cost.to_dict()
    figures.update(game=game_id, commands=len(steps), wall_seconds=round(time.perf_counter() - started, 1),
                   accuracy={s["seat"]: s["accuracy"] for s in result.seats})
    return figures


def _validation_game(task: tuple[str, tuple[str, str], str, int]) -> list[tuple[str, float, bool]]:
    """One arena game analysed: (level, loss, agreed) for every ``every``-th decision of each seat."""
    game_id, levels, seed, every = task
    load_games()
    steps, _ = bot_game_steps(game_id, [get_bot(level) for level in levels], seed)
    decisions = list(decisions_of(get_game(game_id), steps))
    sampled = [d for i, d in enumerate(decisions) if i % every == 0]
    result = analyse(game_id, sampled, seed=seed)
    return [(levels[s["seat"]], row["loss"], row["agreed"]) for s in result.seats for row in s["decisions"]]


def bootstrap_mean(groups: list[list[float]], rng: random.Random, draws: int = 2000) -> tuple[float, float, float]:
    """The mean of all values and a 95% interval from resampling whole groups (games)."""
    flat = [v for g in groups for v in g]
    means = []
    for _ in range(draws):
        picked = [v for _ in groups for v in rng.choice(groups)]
        if picked:
            means.append(sum(picked) / len(picked))
    means.sort()
    return sum(flat) / len(flat), means[int(0.025 * len(means))], means[int(0.975 * len(means)) - 1]


def validate(args: argparse.Namespace) -> None:
    tasks = []
    for game_id in args.game or GAMES:
        for a, b in PAIRINGS:
            for i in range(args.games):
                levels = (a, b) if i % 2 == 0 else (b, a)
                tasks.append((game_id, levels, f"coach-val-{game_id}-{a}-{b}-{i}", args.every))
    by_level: dict[tuple[str, str], list[list[float]]] = defaultdict(list)
    agreed: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for task, rows in zip(tasks, pool.map(_validation_game, tasks)):
            per_game: dict[str, list[float]] = defaultdict(list)
            for level, loss, same in rows:
                per_game[level].append(loss)
                agreed[(task[0], level)].append((loss, same))
            for level, losses in per_game.items():
                by_level[(task[0], level)].append(losses)
            print(f"  {task[0]} {task[1][0]}:{task[1][1]} ({task[2]}): {len(rows)} decisions analysed", flush=True)
    rng = random.Random("coach-bootstrap")
    print(f"\nmean loss per decision (points), 95% interval by bootstrap over games; every {args.every}th decision; "
          f"{time.perf_counter() - started:.0f} s wall")
    for (game_id, level), groups in sorted(by_level.items()):
        mean, low, high = bootstrap_mean(groups, rng)
        pairs = agreed[(game_id, level)]
        same = [loss for loss, s in pairs if s]
        share = len(same) / len(pairs)
        print(f"{game_id:15} {level:7} {mean:6.2f} ({low:.2f}-{high:.2f})  decisions {len(pairs):4} of {len(groups)} "
              f"games  agreed {share:5.1%}  (loss when agreed: {sum(same) / max(1, len(same)):.2f})")
        if args.history:
            append_history(HISTORY, {
                "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "commit": commit_id(),
                "game": game_id, "pairing": f"coach:{level}", "games": len(groups), "iterations": len(pairs),
                "settings": (f"coach: win_rate and ci95 hold the mean loss per decision (points) and its 95% "
                             f"interval (bootstrap over games); iterations the decisions analysed (every "
                             f"{args.every}th); mean_score_a the share where the analysis agreed"),
                "win_rate": f"{mean:.4f}", "ci95_low": f"{low:.4f}", "ci95_high": f"{high:.4f}",
                "mean_score_a": f"{share:.3f}"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--validate", action="store_true")
    parser.add_argument("--games", type=int, default=2, help="validation: games per pairing and title")
    parser.add_argument("--every", type=int, default=3, help="validation: analyse every n-th decision")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--history", action="store_true")
    args = parser.parse_args()
    if args.validate:
        validate(args)
        return
    for game_id in args.game or GAMES:
        figures = cost(game_id, f"coach-cost-{game_id}")
        verdict = "within" if figures["cpu_seconds"] <= BUDGET_SECONDS else "OVER"
        print(f"{game_id:15} {figures['decisions']:4} decisions of {figures['commands']} commands, "
              f"{figures['simulations']} simulations, CPU {figures['cpu_seconds']:.1f} s ({verdict} the "
              f"{BUDGET_SECONDS:.0f} s budget), wall {figures['wall_seconds']:.1f} s, "
              f"accuracy {figures['accuracy']}", flush=True)


if __name__ == "__main__":
    main()
