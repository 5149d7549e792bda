"""Bot arena: seeded 2-player games between bot levels, straight through the decider (no Redis).

Each bot gets only its seat's view and legal commands, exactly as the rq job
does. Prints, per game and pairing, the win rate of the first level with a 95%
Wilson interval (a tie counts half), each level's mean final score and
move-time p50/p95 per level. Seats alternate between games.

    .venv/bin/python bench/arena.py --games 40 --game carcassonne --pair search:greedy --uncapped --jobs 2
    .venv/bin/python bench/arena.py --game tiefenthal --pair search:greedy --set simulations=200  # tuning
    .venv/bin/python bench/arena.py --calibrate --games 4      # CPU ms per search move at each game's budget

The search bot's budget is each game's ``SearchSettings.simulations`` per move
(``--iterations`` or ``--set simulations=N`` overrides it), so its moves, and
the win rates, do not depend on how busy the machine is; ``--budget`` is the
think-time cap on top (the service's ``bot_think_seconds``, 1 s), which only an
overloaded machine reaches: ``--uncapped`` drops it, and each line says how
many search moves the cap cut short. Move times are printed as wall clock and as
the process's CPU time (the figure that does not depend on the load);
``--calibrate`` plays search against greedy uncapped and prints, per game, the
CPU ms per search move (p50/p95), the simulations they ran and the budget that
would put the p95 at 1.5 s, to choose each game's ``simulations``. ``--stop-after MINUTES`` starts no game
after that time (the games under way finish): a run that must end by a deadline records the prefix of its
games it played, marked ``partial: k of n planned games`` in its line and history row.

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
from collections import defaultdict, deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.catalog import load_games
from domain.core.registry import get_game
from domain.core.rng import rng_for, seed_from_text
from services.application.bots import Bot, SearchConfig, SearchStats, bot_game, get_bot, make_search_bot

GAMES = ("carcassonne", "heaven-and-ale", "tiefenthal")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (ties count half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bot_for(game_id: str, level: str, budget: float | None, iterations: int | None,
            overrides: dict[str, Any] | None = None, stats: list[SearchStats] | None = None) -> Bot:
    if level != "search":
        return get_bot(level)
    adapter = bot_game(game_id)
    config = dataclasses.replace(adapter.search, **overrides) if adapter is not None and overrides else None
    return make_search_bot(budget, iterations, config, stats)


def simulations_of(game_id: str, iterations: int | None, overrides: dict[str, Any]) -> int | None:
    """The search's simulations per move in ``game_id`` (``--iterations``, else the settings')."""
    if iterations is not None:
        return iterations
    adapter = bot_game(game_id)
    config = dataclasses.replace(adapter.search, **overrides) if adapter is not None else None
    return config.simulations if config is not None else None


def parse_overrides(settings: list[str]) -> dict[str, Any]:
    """``--set playout_turns=2`` style overrides of the games' search configurations."""
    fields = {f.name for f in dataclasses.fields(SearchConfig)}
    values: dict[str, Any] = {}
    for item in settings:
        key, _, raw = item.partition("=")
        if key not in fields:
            raise SystemExit(f"unknown search setting {key!r}; known: {', '.join(sorted(fields))}")
        values[key] = None if raw == "none" else float(raw) if "." in raw else int(raw)
    return values


def play(game_id: str, levels: tuple[str, str], seed: str, budget: float | None, iterations: int | None,
         times: dict[str, list[float]], options: dict[str, Any] | None = None,
         overrides: dict[str, Any] | None = None, scores: list[float] | None = None,
         cpu: dict[str, list[float]] | None = None, searches: list[SearchStats] | None = None) -> list[float]:
    """One game; seat i is played by ``levels[i]``. Returns each seat's result (1 win, 0.5 tie, 0 loss);
    ``scores``, when given, receives each seat's final total, ``cpu`` each level's CPU seconds per move (this
    process's: run one game per process), ``searches`` each search move's :class:`SearchStats`."""
    game = get_game(game_id)
    secret = seed_from_text(seed)
    bots = [bot_for(game_id, level, budget, iterations, overrides, searches) for level in levels]
    events = game.setup(game.parse_options(options or {}), 2, rng_for(secret, 0))
    state = game.fold(None, events)
    version = len(events)
    chooser = random.Random(secret + b"|bots")
    moves = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        view = game.view(state, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        command = bots[seat](game_id, view, legal, random.Random(chooser.getrandbits(64)))
        times[levels[seat]].append(time.perf_counter() - t0)
        if cpu is not None:
            cpu.setdefault(levels[seat], []).append(time.process_time() - c0)
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


Task = tuple[str, tuple[str, str], str, "float | None", "int | None", "dict[str, Any]"]


@dataclass
class GameOutcome:
    """One game's figures, sent back from its worker process."""

    result: list[float]
    times: dict[str, list[float]]
    scores: list[float]
    cpu: dict[str, list[float]]
    searches: list[tuple[int, str]]
    """Each search move's simulations and why it stopped (:class:`SearchStats`)."""


def _play_task(task: Task) -> GameOutcome:
    """One game in a worker process: its result, each level's move times and each seat's final score."""
    load_games()
    game_id, levels, seed, budget, iterations, overrides = task
    times: dict[str, list[float]] = defaultdict(list)
    scores: list[float] = []
    cpu: dict[str, list[float]] = {}
    searches: list[SearchStats] = []
    result = play(game_id, levels, seed, budget, iterations, times, overrides=overrides, scores=scores, cpu=cpu,
                  searches=searches)
    return GameOutcome(result, dict(times), scores, cpu, [(s.iterations, s.stopped) for s in searches])


def pct(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(q * len(ordered))) - 1)]


STANDARD: tuple[tuple[str, str, int], ...] = (("search", "greedy", 60), ("search", "random", 20), ("greedy", "random", 12))
"""The standard set (``make arena``): per game, (level A, level B, games). Search against greedy gets the most
games: its target is an interval (lower end at least 55%, which 60 games at 70% give); against random 20
games show a sweep."""

HISTORY = Path(__file__).resolve().parent / "strength_history.csv"
HISTORY_FIELDS = ("date", "commit", "game", "pairing", "games", "budget_s", "iterations", "settings", "win_rate",
                  "ci95_low", "ci95_high", "mean_score_a", "mean_score_b", "a_p50_ms", "a_p95_ms", "b_p50_ms",
                  "b_p95_ms", "cpu_load", "a_cpu_p50_ms", "a_cpu_p95_ms", "capped_moves")
"""``budget_s``: the think-time cap (empty: uncapped); ``iterations``: the search's simulations per move;
``a_p50_ms``..``b_p95_ms``: wall-clock move times; ``a_cpu_*``: level A's CPU time per move (load-independent);
``capped_moves``: the share of search moves the cap cut short (0 on a machine with room)."""


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
    cpu: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    searches: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    planned: int | None = None
    """The games the run meant to play (more than ``games`` when ``--stop-after`` cut it short)."""

    def partial(self) -> str:
        """'partial: k of n planned games ...' when the run was cut short, else ''."""
        if self.planned is None or self.games >= self.planned:
            return ""
        return f"partial: {self.games} of {self.planned} planned games (stopped at --stop-after)"

    def capped(self) -> float:
        """The share of search moves the think-time cap cut short."""
        return sum(1 for _, why in self.searches if why == "cap") / len(self.searches) if self.searches else 0.0

    def line(self) -> str:
        low, high = wilson(self.score, self.games)
        if not self.games:
            return f"{self.game_id:15s} {self.a:>6s} vs {self.b:<6s} no game played ({self.partial()})"
        out = (f"{self.game_id:15s} {self.a:>6s} vs {self.b:<6s} games={self.games:3d} "
               f"win={self.score / self.games:6.1%} CI95=[{low:.1%}, {high:.1%}]")
        out += "  mean score " + " ".join(f"{lv}={sum(v) / len(v):.1f}" for lv, v in sorted(self.points.items()))
        for level in sorted(self.times):
            t = self.times[level]
            out += f"  {level}: p50={pct(t, .5) * 1000:.0f}ms p95={pct(t, .95) * 1000:.0f}ms n={len(t)}"
            c = self.cpu.get(level)
            if c:
                out += f" cpu p50={pct(c, .5) * 1000:.0f}ms p95={pct(c, .95) * 1000:.0f}ms"
        if self.searches:
            out += f"  capped={self.capped():.0%}"
        return out + f"  ({self.seconds:.0f}s)" + (f"  {self.partial()}" if self.partial() else "")

    def row(self, commit: str, budget: float | None, iterations: int | None, settings: str) -> dict[str, Any]:
        low, high = wilson(self.score, self.games)

        def mean(level: str) -> str:
            v = self.points.get(level, [])
            return f"{sum(v) / len(v):.2f}" if v else ""

        def ms(level: str, q: float, source: dict[str, list[float]] = self.times) -> str:
            t = source.get(level, [])
            return f"{pct(t, q) * 1000:.0f}" if t else ""

        return {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": commit, "game": self.game_id,
                "pairing": f"{self.a}:{self.b}", "games": self.games, "budget_s": "" if budget is None else budget,
                "iterations": iterations or "",
                "settings": "; ".join(x for x in (settings, self.partial()) if x), "win_rate": f"{self.score / self.games:.4f}",
                "ci95_low": f"{low:.4f}", "ci95_high": f"{high:.4f}", "mean_score_a": mean(self.a),
                "mean_score_b": mean(self.b), "a_p50_ms": ms(self.a, .5), "a_p95_ms": ms(self.a, .95),
                "b_p50_ms": ms(self.b, .5), "b_p95_ms": ms(self.b, .95), "cpu_load": f"{os.getloadavg()[0]:.1f}",
                "a_cpu_p50_ms": ms(self.a, .5, self.cpu), "a_cpu_p95_ms": ms(self.a, .95, self.cpu),
                "capped_moves": f"{self.capped():.3f}" if self.searches else ""}


def _outcomes(pool: ProcessPoolExecutor | None, tasks: list[Task], jobs: int,
              stop_at: float | None) -> Iterator[GameOutcome]:
    """The games' outcomes in game order; past ``stop_at`` (a ``time.time()``) no game starts, the games under
    way finish, and the run ends before the first game that did not start (a prefix of the games: which
    games end early must not choose the sample)."""
    def due() -> bool:
        return stop_at is not None and time.time() >= stop_at

    if pool is None:
        for task in tasks:
            if due():
                return
            yield _play_task(task)
        return
    queue = iter(tasks)
    pending: deque[Future[GameOutcome]] = deque()

    def submit() -> None:
        task = next(queue, None)
        if task is not None and not due():
            pending.append(pool.submit(_play_task, task))

    for _ in range(2 * jobs):  # twice the workers in flight: none idles while the oldest game still plays
        submit()
    while pending:
        head = pending.popleft()
        if due() and head.cancel():
            for later in pending:
                later.cancel()
            return
        outcome = head.result()
        submit()
        yield outcome


def run_pairing(game_id: str, a: str, b: str, games: int, seed: str, budget: float | None, iterations: int | None,
                overrides: dict[str, Any], jobs: int, stop_at: float | None = None) -> PairingResult:
    """``games`` seeded games of ``a`` against ``b``, seats alternating (``a`` is seat 0 in even games); past
    ``stop_at`` (a ``time.time()``) fewer: the result's ``games`` counts those played, ``planned`` all."""
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    points: dict[str, list[float]] = defaultdict(list)
    searches: list[tuple[int, str]] = []
    score = 0.0
    played = 0
    started = time.perf_counter()
    tasks: list[Task] = [(game_id, (a, b) if g % 2 == 0 else (b, a), f"{seed}:{game_id}:{g}", budget, iterations,
                          overrides) for g in range(games)]
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        for g, outcome in enumerate(_outcomes(pool, tasks, jobs, stop_at)):
            played = g + 1
            score += outcome.result[0] if g % 2 == 0 else outcome.result[1]
            seats = (a, b) if g % 2 == 0 else (b, a)
            points[seats[0]].append(outcome.scores[0])
            points[seats[1]].append(outcome.scores[1])
            for level, values in outcome.times.items():
                times[level].extend(values)
            for level, values in outcome.cpu.items():
                cpu[level].extend(values)
            searches.extend(outcome.searches)
            # Progress on stderr (a long run interrupted still shows its games so far).
            print(f"  {game_id} {a}:{b} game {g + 1}/{games}: {a} {score:g} of {g + 1}, scores "
                  f"{outcome.scores}", file=sys.stderr, flush=True)
    return PairingResult(game_id, a, b, played, score, dict(points), dict(times), time.perf_counter() - started,
                         dict(cpu), searches, planned=games)


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
    """Append ``row``; a file written with fewer columns is rewritten under today's header first."""
    new = not path.exists() or path.stat().st_size == 0
    if not new:
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            old = list(reader)
            header = tuple(reader.fieldnames or ())
        if header != HISTORY_FIELDS:
            with path.open("w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=HISTORY_FIELDS, extrasaction="ignore")
                writer.writeheader()
                writer.writerows(old)
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=HISTORY_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)


CALIBRATION_TARGET_S = 1.5
"""The move time the calibration aims the p95 at (issue 20's target)."""


def calibration_line(result: PairingResult, simulations: int | None) -> str:
    """CPU ms per search move (p50/p95), simulations per move, stop reasons, and the budget whose p95 would
    be ``CALIBRATION_TARGET_S`` (CPU time scales about linearly with the simulations)."""
    cpu = result.cpu.get("search", [])
    sims = [n for n, _ in result.searches]
    reasons: dict[str, int] = defaultdict(int)
    for _, why in result.searches:
        reasons[why] += 1
    p50, p95 = pct(cpu, .5), pct(cpu, .95)
    out = (f"{result.game_id:15s} calibrate: simulations={simulations} search moves={len(cpu)} "
           f"cpu p50={p50 * 1000:.0f}ms p95={p95 * 1000:.0f}ms sims/move p50={pct(sims, .5):.0f} "
           f"p95={pct(sims, .95):.0f} stopped " + " ".join(f"{k or '-'}={v}" for k, v in sorted(reasons.items())))
    if simulations and p95 > 0:
        out += f"  -> simulations for p95 {CALIBRATION_TARGET_S}s: {int(simulations * CALIBRATION_TARGET_S / p95)}"
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games per pairing and game (seats alternate; "
                        "default 10, or the standard set's counts; --calibrate: 4)")
    parser.add_argument("--game", action="append", choices=GAMES, help="game id (repeatable; default all)")
    parser.add_argument("--pair", action="append", help="A:B level pairing (repeatable; default search:random, "
                        "search:greedy, greedy:random)")
    parser.add_argument("--standard", action="store_true", help="the standard set: every game, the pairings and "
                        "game counts of STANDARD (--games overrides the counts)")
    parser.add_argument("--budget", type=float, default=1.0, help="think-time cap in seconds per search move "
                        "(the service's bot_think_seconds)")
    parser.add_argument("--uncapped", action="store_true", help="no think-time cap: the simulation budget alone "
                        "(results independent of the machine's load)")
    parser.add_argument("--calibrate", action="store_true", help="play search against greedy uncapped and print "
                        "CPU ms per search move (p50/p95) per game at its simulation budget")
    parser.add_argument("--iterations", type=int, default=None, help="search simulations per move instead of "
                        "each game's own budget")
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a field of each game's search configuration (services.application.bots.config.SearchConfig)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once in worker processes (moves do "
                        "not depend on the load unless the cap bites, so more jobs than cores only slow each "
                        "game down; keep room for others on a shared machine)")
    parser.add_argument("--stop-after", type=float, default=None, metavar="MINUTES",
                        help="start no game after this many minutes (the games under way finish); a pairing cut "
                        "short says 'partial: k of n planned games' in its line and its history row")
    parser.add_argument("--history", type=Path, nargs="?", const=HISTORY, default=None,
                        help=f"append each pairing's figures to this CSV (default {HISTORY.name} in bench/)")
    args = parser.parse_args(argv)
    load_games()
    overrides = parse_overrides(args.set)
    budget = None if args.uncapped or args.calibrate else args.budget
    if args.calibrate:
        pairs = [("search", "greedy", args.games or 4)]
    elif args.standard:
        pairs = [(a, b, args.games or n) for a, b, n in STANDARD]
    else:
        pairs = [(*p.split(":"), args.games or 10) for p in (args.pair or ["search:random", "search:greedy",
                                                                           "greedy:random"])]
    commit = commit_id()
    stop_at = None if args.stop_after is None else time.time() + 60 * args.stop_after
    settings = " ".join(sorted(args.set))
    for game_id in args.game or GAMES:
        simulations = simulations_of(game_id, args.iterations, overrides)
        for a, b, n in pairs:
            result = run_pairing(game_id, a, b, n, args.seed, budget, args.iterations, overrides, args.jobs,
                                 stop_at)
            print(result.line(), flush=True)
            if args.calibrate:
                print(calibration_line(result, simulations), flush=True)
            if args.history is not None and result.games:
                append_history(args.history, result.row(commit, budget, simulations, settings))


if __name__ == "__main__":
    main()
