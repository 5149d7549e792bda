"""Bot arena: seeded 2-player games between bot levels, straight through the decider (no Redis).

Each bot gets only its seat's view and legal commands, exactly as the rq job
does. Prints, per game and pairing, the win rate of the first level with a 95%
Wilson interval (a tie counts half), each level's mean final score and
move-time p50/p95 per level. Seats alternate between games.

    .venv/bin/python bench/arena.py --games 40 --game carcassonne --pair search:greedy --budget 1.0 --jobs 2
    .venv/bin/python bench/arena.py --games 40 --pair search:greedy --iterations 96   # load-independent
    .venv/bin/python bench/arena.py --game tiefenthal --pair search:greedy --set playout_turns=1  # tuning

``--iterations`` fixes the simulations per move, so win rates do not depend on
how busy the machine is; ``--budget`` (seconds per move) is what the service
uses and gives the real move times.

``--history`` appends each pairing's figures (commit, game, pairing, games, win rate with its 95% Wilson
interval, mean scores, move-time p50/p95, the machine's load) to ``bench/strength_history.csv``, kept in
the repository so a change that weakens a bot shows; ``make arena`` runs the standard set (``--standard``)
and records it. The Wilson interval is computed here (a few lines; scipy/statsmodels are not dependencies).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import math
import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.catalog import load_games
from domain.core.registry import get_game
from domain.core.rng import rng_for, seed_from_text
from services.bots import Bot, SearchConfig, bot_game, get_bot, make_search_bot

GAMES = ("carcassonne", "heaven-and-ale", "tiefenthal")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (ties count half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bot_for(game_id: str, level: str, budget: float, iterations: int | None,
            overrides: dict[str, Any] | None = None) -> Bot:
    if level != "search":
        return get_bot(level)
    adapter = bot_game(game_id)
    config = dataclasses.replace(adapter.search, **overrides) if adapter is not None and overrides else None
    return make_search_bot(budget, iterations, config)


def parse_overrides(settings: list[str]) -> dict[str, Any]:
    """``--set playout_turns=2`` style overrides of the games' search configurations."""
    fields = {f.name for f in dataclasses.fields(SearchConfig)}
    values: dict[str, Any] = {}
    for item in settings:
        key, _, raw = item.partition("=")
        if key not in fields:
            raise SystemExit(f"unknown search setting {key!r}; known: {', '.join(sorted(fields))}")
        values[key] = float(raw) if "." in raw else int(raw)
    return values


def play(game_id: str, levels: tuple[str, str], seed: str, budget: float, iterations: int | None,
         times: dict[str, list[float]], options: dict[str, Any] | None = None,
         overrides: dict[str, Any] | None = None, scores: list[float] | None = None) -> list[float]:
    """One game; seat i is played by ``levels[i]``. Returns each seat's result (1 win, 0.5 tie, 0 loss);
    ``scores``, when given, receives each seat's final total."""
    game = get_game(game_id)
    secret = seed_from_text(seed)
    bots = [bot_for(game_id, level, budget, iterations, overrides) for level in levels]
    events = game.setup(game.parse_options(options or {}), 2, rng_for(secret, 0))
    state = game.fold(None, events)
    version = len(events)
    chooser = random.Random(secret + b"|bots")
    moves = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        view = game.view(state, seat)
        t0 = time.perf_counter()
        command = bots[seat](game_id, view, legal, random.Random(chooser.getrandbits(64)))
        times[levels[seat]].append(time.perf_counter() - t0)
        for event in game.decide(state, command, rng_for(secret, version)):
            state = game.evolve(state, event)
            version += 1
        moves += 1
        if moves > 20_000:
            raise RuntimeError("no end")
    totals = [(s.total, s.tiebreak) for s in sorted(game.scores(state), key=lambda s: s.seat)]
    if scores is not None:
        scores.extend(float(t) for t, _ in totals)
    if totals[0] == totals[1]:
        return [0.5, 0.5]
    return [1.0, 0.0] if totals[0] > totals[1] else [0.0, 1.0]


Task = tuple[str, tuple[str, str], str, float, "int | None", "dict[str, Any]"]


def _play_task(task: Task) -> tuple[list[float], dict[str, list[float]], list[float]]:
    """One game in a worker process: its result, each level's move times and each seat's final score."""
    load_games()
    game_id, levels, seed, budget, iterations, overrides = task
    times: dict[str, list[float]] = defaultdict(list)
    scores: list[float] = []
    result = play(game_id, levels, seed, budget, iterations, times, overrides=overrides, scores=scores)
    return result, dict(times), scores


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(q * len(ordered))) - 1)]


STANDARD: tuple[tuple[str, str, int], ...] = (("search", "greedy", 40), ("search", "random", 12), ("greedy", "random", 12))
"""The standard set (``make arena``): per game, (level A, level B, games). Search against greedy gets the most
games: its target is an interval (lower end at least 55%); against random a few games show a sweep."""

HISTORY = Path(__file__).resolve().parent / "strength_history.csv"
HISTORY_FIELDS = ("date", "commit", "game", "pairing", "games", "budget_s", "iterations", "settings", "win_rate",
                  "ci95_low", "ci95_high", "mean_score_a", "mean_score_b", "a_p50_ms", "a_p95_ms", "b_p50_ms",
                  "b_p95_ms", "cpu_load")


@dataclass
class PairingResult:
    game_id: str
    a: str
    b: str
    games: int
    score: float
    points: dict[str, list[float]]
    times: dict[str, list[float]]
    seconds: float

    def line(self) -> str:
        low, high = wilson(self.score, self.games)
        out = (f"{self.game_id:15s} {self.a:>6s} vs {self.b:<6s} games={self.games:3d} "
               f"win={self.score / self.games:6.1%} CI95=[{low:.1%}, {high:.1%}]")
        out += "  mean score " + " ".join(f"{lv}={sum(v) / len(v):.1f}" for lv, v in sorted(self.points.items()))
        for level in sorted(self.times):
            t = self.times[level]
            out += f"  {level}: p50={pct(t, .5) * 1000:.0f}ms p95={pct(t, .95) * 1000:.0f}ms n={len(t)}"
        return out + f"  ({self.seconds:.0f}s)"

    def row(self, commit: str, budget: float, iterations: int | None, settings: str) -> dict[str, Any]:
        low, high = wilson(self.score, self.games)

        def mean(level: str) -> str:
            v = self.points.get(level, [])
            return f"{sum(v) / len(v):.2f}" if v else ""

        def ms(level: str, q: float) -> str:
            t = self.times.get(level, [])
            return f"{pct(t, q) * 1000:.0f}" if t else ""

        return {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": commit, "game": self.game_id,
                "pairing": f"{self.a}:{self.b}", "games": self.games, "budget_s": budget,
                "iterations": iterations or "", "settings": settings, "win_rate": f"{self.score / self.games:.4f}",
                "ci95_low": f"{low:.4f}", "ci95_high": f"{high:.4f}", "mean_score_a": mean(self.a),
                "mean_score_b": mean(self.b), "a_p50_ms": ms(self.a, .5), "a_p95_ms": ms(self.a, .95),
                "b_p50_ms": ms(self.b, .5), "b_p95_ms": ms(self.b, .95), "cpu_load": f"{os.getloadavg()[0]:.1f}"}


def run_pairing(game_id: str, a: str, b: str, games: int, seed: str, budget: float, iterations: int | None,
                overrides: dict[str, Any], jobs: int) -> PairingResult:
    """``games`` seeded games of ``a`` against ``b``, seats alternating (``a`` is seat 0 in even games)."""
    times: dict[str, list[float]] = defaultdict(list)
    points: dict[str, list[float]] = defaultdict(list)
    score = 0.0
    started = time.perf_counter()
    tasks: list[Task] = [(game_id, (a, b) if g % 2 == 0 else (b, a), f"{seed}:{game_id}:{g}", budget, iterations,
                          overrides) for g in range(games)]
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        results = pool.map(_play_task, tasks) if pool is not None else map(_play_task, tasks)
        for g, (result, game_times, finals) in enumerate(results):
            score += result[0] if g % 2 == 0 else result[1]
            seats = (a, b) if g % 2 == 0 else (b, a)
            points[seats[0]].append(finals[0])
            points[seats[1]].append(finals[1])
            for level, values in game_times.items():
                times[level].extend(values)
    return PairingResult(game_id, a, b, games, score, dict(points), dict(times), time.perf_counter() - started)


def commit_id() -> str:
    """The checked-out commit (short), marked ``+dirty`` when the work tree has uncommitted changes."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def append_history(path: Path, row: dict[str, Any]) -> None:
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=HISTORY_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games per pairing and game (seats alternate; "
                        "default 10, or the standard set's counts)")
    parser.add_argument("--game", action="append", choices=GAMES, help="game id (repeatable; default all)")
    parser.add_argument("--pair", action="append", help="A:B level pairing (repeatable; default search:random, "
                        "search:greedy, greedy:random)")
    parser.add_argument("--standard", action="store_true", help="the standard set: every game, the pairings and "
                        "game counts of STANDARD (--games overrides the counts)")
    parser.add_argument("--budget", type=float, default=1.0, help="search seconds per move")
    parser.add_argument("--iterations", type=int, default=None, help="search simulations per move instead of time")
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a field of each game's search configuration (services.bots.config.SearchConfig)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once in worker processes (keep "
                        "at most one per core: search is time-budgeted, so an oversubscribed machine plays worse)")
    parser.add_argument("--history", type=Path, nargs="?", const=HISTORY, default=None,
                        help=f"append each pairing's figures to this CSV (default {HISTORY.name} in bench/)")
    args = parser.parse_args(argv)
    load_games()
    overrides = parse_overrides(args.set)
    if args.standard:
        pairs = [(a, b, args.games or n) for a, b, n in STANDARD]
    else:
        pairs = [(*p.split(":"), args.games or 10) for p in (args.pair or ["search:random", "search:greedy",
                                                                           "greedy:random"])]
    commit = commit_id()
    settings = " ".join(sorted(args.set))
    for game_id in args.game or GAMES:
        for a, b, n in pairs:
            result = run_pairing(game_id, a, b, n, args.seed, args.budget, args.iterations, overrides, args.jobs)
            print(result.line(), flush=True)
            if args.history is not None:
                append_history(args.history, result.row(commit, args.budget, args.iterations, settings))


if __name__ == "__main__":
    main()
