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
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per pairing and game (seats alternate)")
    parser.add_argument("--game", action="append", choices=GAMES, help="game id (repeatable; default all)")
    parser.add_argument("--pair", action="append", help="A:B level pairing (repeatable; default search:random, "
                        "search:greedy, greedy:random)")
    parser.add_argument("--budget", type=float, default=1.0, help="search seconds per move")
    parser.add_argument("--iterations", type=int, default=None, help="search simulations per move instead of time")
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a field of each game's search configuration (services.bots.config.SearchConfig)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once in worker processes (keep "
                        "at most one per core: search is time-budgeted, so an oversubscribed machine plays worse)")
    args = parser.parse_args(argv)
    load_games()
    overrides = parse_overrides(args.set)
    pairs = [tuple(p.split(":")) for p in (args.pair or ["search:random", "search:greedy", "greedy:random"])]
    for game_id in args.game or GAMES:
        for a, b in pairs:
            times: dict[str, list[float]] = defaultdict(list)
            score = 0.0
            points: dict[str, list[float]] = defaultdict(list)
            started = time.perf_counter()
            tasks: list[Task] = [(game_id, (a, b) if g % 2 == 0 else (b, a), f"{args.seed}:{game_id}:{g}",
                                  args.budget, args.iterations, overrides) for g in range(args.games)]
            with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else nullcontext() as pool:
                results = pool.map(_play_task, tasks) if pool is not None else map(_play_task, tasks)
                for g, (result, game_times, finals) in enumerate(results):
                    score += result[0] if g % 2 == 0 else result[1]
                    seats = (a, b) if g % 2 == 0 else (b, a)
                    points[f"{seats[0]}"].append(finals[0])
                    points[f"{seats[1]}"].append(finals[1])
                    for level, values in game_times.items():
                        times[level].extend(values)
            low, high = wilson(score, args.games)
            line = (f"{game_id:15s} {a:>6s} vs {b:<6s} games={args.games:3d} win={score / args.games:6.1%} "
                    f"CI95=[{low:.1%}, {high:.1%}]")
            line += "  mean score " + " ".join(f"{lv}={sum(v) / len(v):.1f}" for lv, v in sorted(points.items()))
            for level in sorted(times):
                t = times[level]
                line += f"  {level}: p50={pct(t, .5) * 1000:.0f}ms p95={pct(t, .95) * 1000:.0f}ms n={len(t)}"
            line += f"  ({time.perf_counter() - started:.0f}s)"
            print(line, flush=True)


if __name__ == "__main__":
    main()
