"""Fit the Carcassonne search evaluation's completion model (``heuristics.OUTLOOK``) to self-play.

Plays seeded greedy-against-greedy games (base game, 2 players); at every tile placement it records each
occupied unfinished city and road (the unseen tiles that fit each empty cell it needs) and each occupied
monastery (its empty neighbours), then whether the feature was completed by the end of the game. A grid search
picks, per kind, the :class:`~domain.carcassonne.heuristics.Outlook` with the lowest Brier score.

Run: .venv/bin/python bench/carcassonne_outlook.py [--games 16] [--seed outlook]
(16 games: about 3 CPU-minutes; the figures printed are those quoted in ``heuristics.OUTLOOK``).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.carcassonne.heuristics import OUTLOOK, Outlook, _Outlook
from domain.carcassonne.tiles import CITY, KIND_NAMES, MONASTERY, ROAD
from domain.catalog import load_games
from domain.core.registry import get_game
from domain.core.rng import rng_for, seed_from_text
from services.application.bots import greedy_bot

Sample = tuple[int, list[int], int, int, bool]
"""(kind, unseen tiles fitting each empty cell on the frontier, empty cells off it, unseen tiles, completed)."""


def _around(x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def samples(games: int, seed: str) -> list[Sample]:
    load_games()
    game = get_game("carcassonne")
    out: list[Sample] = []
    for number in range(games):
        secret = seed_from_text(f"{seed}{number}")
        events = game.setup(game.parse_options({}), 2, rng_for(secret, 0))
        state = game.fold(None, events)
        version = len(events)
        chooser = random.Random(number)
        pending: list[tuple[int, int, list[int], int, int]] = []
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            if state.phase == "place":
                o = _Outlook(state)
                for root in sorted({state.root[n] for n in state.followers}):
                    kind = state.kind[root]
                    if kind in (CITY, ROAD) and state.open[root] > 0:
                        cells = o.shape(root)[0]
                        pending.append((state.members[root][0], kind, [o.fits(c) for c in cells], 0, o.total))
                    elif kind == MONASTERY:
                        x, y, _, _ = state.placements[state.node_tile[root]]
                        empty = [c for c in _around(x, y) if c not in state.board]
                        pending.append((root, kind, [o.fits(c) for c in empty if c in state.frontier],
                                        sum(1 for c in empty if c not in state.frontier), o.total))
            legal = game.legal_commands(state, seat)
            command = greedy_bot("carcassonne", game.view(state, seat), legal, random.Random(chooser.getrandbits(64)))
            for event in game.decide(state, command, rng_for(secret, version)):
                state = game.evolve(state, event)
                version += 1
        for node, kind, fits, lone, total in pending:
            root = state.root[node]
            if kind == MONASTERY:
                x, y, _, _ = state.placements[state.node_tile[root]]
                done = all(c in state.board for c in _around(x, y))
            else:
                done = state.open[root] == 0
            out.append((kind, fits, lone, total, done))
    return out


def chance(model: Outlook, fits: list[int], lone: int, total: int) -> float:
    """The model's chance of completion, as ``_Outlook.fill_chances`` and ``_Outlook.completion`` compute it."""
    rates = sorted([model.share * f / total for f in fits] + [model.share * model.lone] * lone)
    p = model.per_cell ** (len(rates) - 1) if rates else 1.0
    draws = model.attention * total / 2
    for k, f in enumerate(rates):
        left = draws - model.cost * k
        p *= 0.0 if left <= 0 or f <= 0 else 1.0 - (1.0 - min(f, 1.0)) ** left
    return p


def brier(model: Outlook, data: list[Sample]) -> float:
    return sum((chance(model, f, lone, t) - done) ** 2 for _, f, lone, t, done in data) / max(1, len(data))


GRID = {
    CITY: itertools.product((0.15, 0.25, 0.35, 0.5, 0.7, 1.0), (0.1, 0.25, 0.4, 0.7, 1.0, 1.5),
                            (0.0, 2.0, 4.0, 6.0, 8.0), (1.0, 0.7, 0.5, 0.35), (0.0,)),
    ROAD: itertools.product((0.25, 0.5, 0.7, 1.0), (0.1, 0.15, 0.25, 0.4, 0.7, 1.0), (0.0, 2.0, 4.0),
                            (1.0, 0.7, 0.5, 0.35), (0.0,)),
    MONASTERY: itertools.product((0.2, 0.35, 0.5), (1.0, 1.5, 2.0, 3.0), (1.0, 2.0, 3.0, 4.0), (1.0,),
                                 (0.15, 0.3, 0.45)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--seed", default="calib")
    args = parser.parse_args()
    data = samples(args.games, args.seed)
    for kind, grid in GRID.items():
        mine = [d for d in data if d[0] == kind]
        best = min((Outlook(*params) for params in grid), key=lambda m: brier(m, mine))
        print(f"{KIND_NAMES[kind]:>9}: {len(mine)} samples, completed {sum(d[4] for d in mine) / len(mine):.2f};"
              f" Brier in use {brier(OUTLOOK[kind], mine):.4f}, best {brier(best, mine):.4f} at {best}")


if __name__ == "__main__":
    main()
