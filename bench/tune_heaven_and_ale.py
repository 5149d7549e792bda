"""Self-play tuning of the Heaven & Ale evaluation: fit the feature weights to final scores.

Each generation plays seeded 2-player games between greedy bots that judge positions with the
previous generation's evaluation (generation 0: the hand-made estimate), with a few uniformly random
commands for variety. At every ``--every``-th command it records each seat's features
(``domain.heaven_and_ale.heuristics.features``, public state only) and, at the end, each seat's final
score. A ridge regression (numpy least squares) of final score on features gives the next weights.
Everything is seeded (games ``{seed}:{generation}:{g}``), so the data and the fit are reproducible:
the same command gives the same weights. Only the weights are kept, in ``domain/heaven_and_ale/weights.py``.

    .venv/bin/python bench/tune_heaven_and_ale.py --generations 3 --games 120 --jobs 2 --write

Prints per generation the games' mean final score (self-play strength rises as the evaluation improves),
rows, and the fit's R² on held-out games (every fifth game).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domain.catalog import load_games  # noqa: E402
from domain.core.registry import get_game  # noqa: E402
from domain.core.rng import rng_for, seed_from_text  # noqa: E402
from domain.heaven_and_ale import heuristics  # noqa: E402
from domain.heaven_and_ale.board import TRACK_LEN  # noqa: E402
from domain.heaven_and_ale.state import HAState  # noqa: E402

GAME_ID = "heaven-and-ale"
WEIGHTS_FILE = ROOT / "domain" / "heaven_and_ale" / "weights.py"

Evaluate = Callable[[HAState, int], float]


def _apply(game: Any, state: Any, command: Any, rng: random.Random) -> Any:
    state = game.clone(state)
    for event in game.decide(state, command, rng):
        state = game.evolve(state, event)
    return state


def greedy_command(game: Any, state: HAState, seat: int, legal: Sequence[Any], evaluate: Evaluate,
                   rng: random.Random, follow_up: bool = True) -> Any:
    """The bots' greedy policy on the table itself (nothing is hidden that the evaluation reads): the best
    evaluation after the command, or after its best follow-up while the seat still acts."""
    best, choice = -float("inf"), []
    for command in legal:
        sim = random.Random(rng.getrandbits(64))
        after = _apply(game, state, command, sim)
        value = evaluate(after, seat)
        if follow_up and not game.is_over(after) and game.to_act(after) == [seat]:
            follow = game.legal_commands(after, seat)
            if len(follow) > 24:
                follow = rng.sample(follow, 24)
            if follow:
                value = max(evaluate(_apply(game, after, c, sim), seat) for c in follow)
        if value > best + 1e-9:
            best, choice = value, [command]
        elif value >= best - 1e-9:
            choice.append(command)
    return rng.choice(choice)


Task = tuple[str, tuple[float, ...], float, int, bool]


def self_play(task: Task) -> tuple[list[list[float]], list[float], list[int]]:
    """One seeded game: (feature rows, their seat's final score, the final scores)."""
    load_games()
    seed, weights, epsilon, every, follow_up = task
    game = get_game(GAME_ID)
    evaluate = heuristics.make_evaluate(weights) if weights else heuristics.hand_evaluate
    secret = seed_from_text(seed)
    chooser = random.Random(secret + b"|tune")
    events = game.setup(game.parse_options({}), 2, rng_for(secret, 0))
    state = game.fold(None, events)
    version, step = len(events), 0
    rows: list[tuple[int, list[float]]] = []
    while not game.is_over(state):
        if step % every == 0:
            rows.extend((seat, heuristics.features(state, seat)) for seat in range(state.n))
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        if len(legal) == 1:
            command = legal[0]
        elif chooser.random() < epsilon:
            command = chooser.choice(legal)
        else:
            command = greedy_command(game, state, seat, legal, evaluate, chooser, follow_up)
        for event in game.decide(state, command, rng_for(secret, version)):
            state = game.evolve(state, event)
            version += 1
        step += 1
    finals = [int(s.total) for s in sorted(game.scores(state), key=lambda s: s.seat)]
    return [f for _, f in rows], [float(finals[seat]) for seat, _ in rows], finals


def duel(task: tuple[str, tuple[float, ...], bool]) -> list[int]:
    """One seeded game, greedy with ``weights`` in seat 0 (seat 1 when ``swap``) against greedy with the
    hand-made estimate, both looking one command ahead as the bots do; returns [fitted, hand] final scores."""
    seed, weights, swap = task
    return _greedy_duel(seed, heuristics.make_evaluate(weights), swap)


Override = float | bool


def parse_override(item: str) -> tuple[str, Override]:
    """``KEY=VALUE`` of ``heuristics.Params``: a switch (``exact_when_done=1``, ``true``, ``yes``) or a number."""
    key, _, text = item.partition("=")
    kinds = {f.name: f.type for f in dataclasses.fields(heuristics.Params)}
    if key not in kinds:
        raise SystemExit(f"heuristics.Params has no constant {key!r}; it has {', '.join(kinds)}")
    if kinds[key] in (bool, "bool"):
        return key, text.strip().lower() in ("1", "true", "yes", "on")
    return key, float(text)


def duel_params(task: tuple[str, dict[str, Override], bool]) -> list[int]:
    """One seeded game, greedy with the estimate's constants changed by ``overrides`` (seat 1 when ``swap``)
    against greedy with the hand-made ones; returns [changed, hand] final scores."""
    seed, overrides, swap = task
    changed: dict[str, Any] = dict(overrides)  # each value parsed for its field's type (parse_override)
    return _greedy_duel(seed, heuristics.make_hand_evaluate(dataclasses.replace(heuristics.HAND, **changed)), swap)


def _greedy_duel(seed: str, challenger: Any, swap: bool) -> list[int]:
    """Greedy with ``challenger`` (seat 1 when ``swap``) against greedy with the hand-made estimate, one seeded
    game; returns [challenger, hand] final scores."""
    load_games()
    game = get_game(GAME_ID)
    evaluations = [heuristics.hand_evaluate, challenger] if swap else [challenger, heuristics.hand_evaluate]
    secret = seed_from_text(seed)
    chooser = random.Random(secret + b"|duel")
    events = game.setup(game.parse_options({}), 2, rng_for(secret, 0))
    state = game.fold(None, events)
    version = len(events)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        command = legal[0] if len(legal) == 1 else greedy_command(game, state, seat, legal, evaluations[seat],
                                                                   chooser)
        for event in game.decide(state, command, rng_for(secret, version)):
            state = game.evolve(state, event)
            version += 1
    finals = [int(s.total) for s in sorted(game.scores(state), key=lambda s: s.seat)]
    return finals[::-1] if swap else finals


def compare_params(overrides: dict[str, Override], games: int, seed: str, jobs: int) -> None:
    """Greedy with changed constants of the estimate against greedy with the hand-made ones, seats alternating."""
    tasks = [(f"{seed}:params:{g}", overrides, g % 2 == 1) for g in range(games)]
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        results = list(pool.map(duel_params, tasks) if pool is not None else map(duel_params, tasks))
    wins = sum(1.0 if f > h else 0.5 if f == h else 0.0 for f, h in results)
    low, high = wilson(wins, games)
    label = " ".join(f"{k}={v}" for k, v in sorted(overrides.items()))
    print(f"[{label}] vs hand-made, greedy: {games} games, wins {wins / games:.1%} (95% Wilson interval "
          f"{low:.1%}-{high:.1%}), mean score {sum(f for f, _ in results) / games:.1f} against "
          f"{sum(h for _, h in results) / games:.1f}", flush=True)


def compare(weights: tuple[float, ...], games: int, seed: str, jobs: int) -> None:
    """Greedy with the fitted weights against greedy with the hand-made estimate, seats alternating."""
    tasks = [(f"{seed}:duel:{g}", weights, g % 2 == 1) for g in range(games)]
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        results = list(pool.map(duel, tasks) if pool is not None else map(duel, tasks))
    wins = sum(1.0 if f > h else 0.5 if f == h else 0.0 for f, h in results)
    low, high = wilson(wins, games)
    print(f"fitted greedy vs hand-made greedy: {games} games, fitted wins {wins / games:.1%} "
          f"(95% Wilson interval {low:.1%}-{high:.1%}), mean score fitted {sum(f for f, _ in results) / games:.1f} "
          f"hand {sum(h for _, h in results) / games:.1f}", flush=True)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Ridge regression on standardised columns (the bias column unpenalised), returned in raw units."""
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    scale[0] = 1.0
    xs = x / scale
    penalty = np.full(x.shape[1], ridge * len(y))
    penalty[0] = 0.0
    w = np.linalg.solve(xs.T @ xs + np.diag(penalty), xs.T @ y)
    return w / scale


def r2(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    residual = y - x @ w
    return 1.0 - float(residual @ residual) / float(((y - y.mean()) ** 2).sum())


def hand_weights() -> list[float]:
    """The weights under which the fitted estimate is the hand-made one (no Kegs & More)."""
    hand = {"estimate": 1.0, "track_left": heuristics.TRACK_SPACE_VALUE * TRACK_LEN}
    return [hand.get(name, 0.0) for name in heuristics.FEATURES]


def write_weights(weights: Sequence[float], note: str) -> None:
    lines = [f"    {w!r},  # {name}" for w, name in zip(weights, heuristics.FEATURES)]
    WEIGHTS_FILE.write_text(
        '"""Fitted weights of the Heaven & Ale evaluation, one per ``heuristics.FEATURES``.\n'
        'Written by ``bench/tune_heaven_and_ale.py``: do not edit by hand.\n\n'
        f'{note}\n"""\n\nWEIGHTS: tuple[float, ...] = (\n' + "\n".join(lines) + "\n)\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=3)
    parser.add_argument("--games", type=int, default=100, help="self-play games per generation")
    parser.add_argument("--epsilon", type=float, default=0.05, help="share of uniformly random commands")
    parser.add_argument("--every", type=int, default=3, help="record features every this many commands")
    parser.add_argument("--ridge", type=float, default=1e-3)
    parser.add_argument("--seed", default="tune")
    parser.add_argument("--start", choices=("hand", "current"), default="hand",
                        help="generation 0 plays with the hand-made estimate or the committed weights")
    parser.add_argument("--no-follow-up", dest="follow_up", action="store_false",
                        help="greedy judges a command alone, not with its best follow-up (about 3x cheaper games)")
    parser.add_argument("--from-hand", action="store_true",
                        help="fit a correction of the hand-made estimate (ridge shrinks towards it, not towards 0)")
    parser.add_argument("--then-compare", type=int, default=0, metavar="GAMES",
                        help="after the last generation, play its weights against the hand-made estimate")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--compare", type=int, default=0, metavar="GAMES",
                        help="only play this many games of greedy with the committed weights against greedy with "
                             "the hand-made estimate (is the fit an improvement?)")
    parser.add_argument("--write", action="store_true", help=f"write the last weights to {WEIGHTS_FILE.name}")
    parser.add_argument("--params", nargs="*", metavar="KEY=VALUE", default=None,
                        help="only play --compare games (default 20) of greedy with these constants of the estimate "
                             "(heuristics.Params) against greedy with the hand-made ones")
    args = parser.parse_args(argv)
    load_games()
    if args.params is not None:
        overrides = dict(parse_override(item) for item in args.params)
        compare_params(overrides, args.compare or 20, args.seed, args.jobs)
        return
    if args.compare:
        compare(tuple(heuristics.WEIGHTS), args.compare, args.seed, args.jobs)
        return
    weights: tuple[float, ...] = () if args.start == "hand" else tuple(heuristics.WEIGHTS)
    history = []
    for gen in range(args.generations):
        started = time.perf_counter()
        tasks: list[Task] = [(f"{args.seed}:{gen}:{g}", weights, args.epsilon, args.every, args.follow_up)
                             for g in range(args.games)]
        with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else nullcontext() as pool:
            results = list(pool.map(self_play, tasks) if pool is not None else map(self_play, tasks))
        train_x: list[Any] = []
        train_y: list[Any] = []
        test_x: list[Any] = []
        test_y: list[Any] = []
        finals: list[Any] = []
        for g, (rows, targets, scores) in enumerate(results):
            (test_x if g % 5 == 4 else train_x).extend(rows)
            (test_y if g % 5 == 4 else train_y).extend(targets)
            finals.extend(scores)
        xa, ya = np.array(train_x), np.array(train_y)
        if args.from_hand:  # fit only a correction of the hand-made estimate, shrunk towards none
            prior = np.array(hand_weights())
            w = prior + fit(xa, ya - xa @ prior, args.ridge)
        else:
            w = fit(xa, ya, args.ridge)
        held = r2(np.array(test_x), np.array(test_y), w) if test_x else float("nan")
        mean = sum(finals) / len(finals)
        history.append(mean)
        print(f"generation {gen}: {args.games} games, mean final score {mean:.1f} (played with "
              f"{'hand-made estimate' if not weights else 'weights of generation ' + str(gen - 1)}), "
              f"{len(ya)} training rows, held-out R2={held:.3f} ({time.perf_counter() - started:.0f}s)", flush=True)
        weights = tuple(round(float(v), 5) for v in w)
        print(" ".join(f"{v:+.4f}" for v in weights), flush=True)
        if args.write:  # after every generation, so a long run interrupted keeps its last fit
            note = (f"Command: bench/tune_heaven_and_ale.py --generations {args.generations} --games {args.games} "
                    f"--epsilon {args.epsilon} --every {args.every} --ridge {args.ridge} --seed {args.seed} "
                    + ("" if args.follow_up else "--no-follow-up ") + ("--from-hand " if args.from_hand else "") +
                    f"--start {args.start}\nFitted after generation {gen}; self-play mean final score by generation: "
                    + ", ".join(f"{m:.1f}" for m in history) + f"; held-out R2 of this fit {held:.3f}.")
            write_weights(weights, note)
            print(f"wrote {WEIGHTS_FILE.relative_to(ROOT)}", flush=True)
    for name, v in zip(heuristics.FEATURES, weights):
        print(f"  {name:28s} {v:+.4f}")
    if args.then_compare:
        compare(weights, args.then_compare, args.seed, args.jobs)


if __name__ == "__main__":
    main()
