"""The coach: post-game analysis of a seat's decisions by the search bot, from that seat's view only.

For every decision of a seat (a game command it chose among two or more legal ones), the analysis gets
what the seat had when it decided — its view and its legal commands, nothing else — and

1. asks the search bot (:func:`~services.application.bots.search.search_choice`, the game's own settings, no think-time
   cap so the answer does not depend on the load) for its best command from that view;
2. values the played command and the best one on the same ``rounds`` paired playouts: each round samples
   one determinization of the view (hidden parts guessed exactly as the bots guess them) and one chance
   seed, plays each candidate and then the search's own playout policy with common chance
   (:func:`~services.application.bots.search.step_chance`: the same tiles, cards and dice for both), and judges the leaf
   with the search's evaluation (an estimated final score margin over the best opponent);
3. reports ``value_played``, ``value_best`` (means over the rounds) and ``loss = max(0, value_best -
   value_played)``: what the decision cost, in the game's points, by the search's own estimate.

A seat's **accuracy** is the mean over its decisions of ``100 * exp(-loss / scale)``, ``scale`` being the
game's :attr:`~domain.core.capabilities.BotSupport.scale` (the margin that counts as a clear lead): a decision
the search agrees with scores 100, one that costs a clear lead about 37.

Deterministic for a seed: every random draw comes from ``random.Random`` seeded by (seed, version, seat).
Nothing here touches Redis or the clock except the CPU time it reports (:class:`Cost`).
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.core import Command
from domain.core.registry import get_game
from services.application.bots.games import BotGame, bot_game
from services.application.bots.search import SearchStats, apply, playout, search_choice

VALUE_ROUNDS = 16
"""Paired rounds (one determinization and one chance seed each) valuing the played and the best command."""
MIN_SHOWN_LOSS = 0.05
"""Losses below this many points are rounded to 0 (the noise of the estimate, not a mistake)."""


@dataclass(frozen=True)
class Decision:
    """What a seat had when it decided, and what it played: the only input the analysis reads."""

    version: int
    """The game's version when the seat decided (the state before its command)."""
    seat: int
    view: dict[str, Any]
    legal: Sequence[Command]
    played: Command
    turn: int = 0
    """The game's turn number at the decision (1 for the first turn; several decisions may share a turn)."""


@dataclass
class Cost:
    """What an analysis spent: decisions analysed, simulations played, CPU seconds. The budget is counted in
    simulations (the game's per search move, plus ``2 * rounds`` to value the two commands), never in wall-clock
    time: a loaded machine makes the job slower, not different."""

    decisions: int = 0
    simulations: int = 0
    cpu_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "simulations": self.simulations, "cpu_seconds": round(self.cpu_seconds, 2)}


def command_data(command: Command) -> dict[str, Any]:
    return command.model_dump(mode="json")


def _same(a: Command, b: Command) -> bool:
    return command_data(a) == command_data(b)


def _searching(adapter: BotGame) -> tuple[BotGame, Callable[[Any, int], float]]:
    """The adapter whose evaluation drives the playouts, and the leaf judge (as the search uses them)."""
    policy = adapter if adapter.search_evaluate is None else dataclasses.replace(adapter, evaluate=adapter.search_evaluate)
    return policy, (adapter.leaf_evaluate or policy.evaluate)


def value_pair(game: Any, adapter: BotGame, decision: Decision, candidates: Sequence[Command],
               rng: random.Random, rounds: int = VALUE_ROUNDS) -> tuple[list[float], int]:
    """Each candidate's mean leaf value over ``rounds`` paired playouts on common chance, and the playouts
    played. Only the decision's view and legal commands are read (the determinizations guess the rest)."""
    policy, judge = _searching(adapter)
    config = adapter.search
    totals = [0.0] * len(candidates)
    for _ in range(rounds):
        det = adapter.state_from_view(decision.view, decision.seat, random.Random(rng.getrandbits(64)),
                                      legal=decision.legal)
        seed = rng.getrandbits(64)
        for k, command in enumerate(candidates):
            sim = random.Random(seed)
            after = apply(game, game.clone(det), command, sim)
            totals[k] += judge(playout(game, policy, after, decision.seat, sim, config, seed), decision.seat)
    return [t / rounds for t in totals], rounds * len(candidates)


def _rng_for(seed: str, decision: Decision) -> random.Random:
    return random.Random(f"coach|{seed}|{decision.version}|{decision.seat}")


PREVIEW_EVENTS = 6
"""At most this many events of a command are kept to name it (the boards word events, not commands)."""


def preview(game: Any, adapter: BotGame, decision: Decision, command: Command, seed: int) -> list[dict[str, Any]]:
    """The events ``command`` leads to on a determinization of the decision's view, chance left out
    (``game.reveals``: a drawn tile is a guess there): what a board's ``describe`` words to name the move."""
    det = adapter.state_from_view(decision.view, decision.seat, random.Random(seed), legal=decision.legal)
    try:
        events = game.decide(det, command, random.Random(seed))
    except Exception:  # a determinization that cannot take it (never expected): the move goes unnamed
        return []
    shown = [e for e in events if not game.reveals(e)][:PREVIEW_EVENTS]
    return [{"type": e.type, "payload": e.model_dump(mode="json")} for e in shown]


def analyse_decision(game: Any, adapter: BotGame, decision: Decision, seed: str, cost: Cost,
                     rounds: int = VALUE_ROUNDS) -> dict[str, Any]:
    """One decision: the search's best command, both values, the loss (see the module's docstring)."""
    rng = _rng_for(seed, decision)
    stats = SearchStats()
    best = search_choice(game, adapter, decision.view, decision.legal, rng, budget=None, stats=stats)
    same = _same(best, decision.played)
    candidates = [decision.played] if same else [decision.played, best]
    values, played_out = value_pair(game, adapter, decision, candidates, rng, rounds)
    value_played, value_best = values[0], values[-1]
    loss = max(0.0, value_best - value_played)
    cost.decisions += 1
    cost.simulations += stats.iterations + played_out
    named = rng.getrandbits(64)
    return {"version": decision.version, "turn": decision.turn, "played": command_data(decision.played),
            "best": command_data(best), "played_events": preview(game, adapter, decision, decision.played, named),
            "best_events": preview(game, adapter, decision, best, named), "value_played": round(value_played, 2), "value_best": round(value_best, 2),
            "loss": round(loss, 2) if loss >= MIN_SHOWN_LOSS else 0.0, "agreed": same}


def accuracy(losses: Iterable[float], scale: float) -> float | None:
    """``100 * mean(exp(-loss / scale))`` over the decisions (None without decisions)."""
    values = [math.exp(-loss / scale) for loss in losses]
    return round(100.0 * sum(values) / len(values), 1) if values else None


@dataclass
class Analysis:
    """A game's analysis: per analysed seat its decisions, accuracy and mean loss, and the cost."""

    game: str
    seats: list[dict[str, Any]] = field(default_factory=list)
    cost: Cost = field(default_factory=Cost)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seats": self.seats, "cost": self.cost.to_dict()}


def analyse(game_id: str, decisions: Iterable[Decision], seed: str = "coach",
            rounds: int = VALUE_ROUNDS, simulations: int | None = None, share: float = 1.0) -> Analysis:
    """Analyse ``decisions`` (any seats, in any order) of a game of type ``game_id``; deterministic for
    ``seed``. ``simulations`` overrides the search's budget per decision (default: the game's own, as its search
    bot plays, times ``share``). Games without bot support cannot be analysed (ValueError)."""
    game = get_game(game_id)
    adapter = bot_game(game_id)
    if adapter is None:
        raise ValueError(f"{game_id} declares no bot support: the coach cannot analyse it")
    if simulations is None and share != 1.0 and adapter.search.simulations:
        simulations = max(1, round(adapter.search.simulations * share))
    if simulations is not None:
        adapter = dataclasses.replace(adapter, search=dataclasses.replace(adapter.search, simulations=simulations))
    result = Analysis(game_id)
    per_seat: dict[int, list[dict[str, Any]]] = {}
    cpu = time.process_time()
    for decision in decisions:
        per_seat.setdefault(decision.seat, []).append(analyse_decision(game, adapter, decision, seed, result.cost, rounds))
    result.cost.cpu_seconds = time.process_time() - cpu
    for seat in sorted(per_seat):
        rows = per_seat[seat]
        losses = [row["loss"] for row in rows]
        result.seats.append({"seat": seat, "accuracy": accuracy(losses, adapter.scale),
                             "mean_loss": round(sum(losses) / len(losses), 3), "decisions": rows})
    return result


def decisions_of(game: Any, steps: Iterable[tuple[Any, int, Command, int]], seats: set[int] | None = None,
                 view_of: Callable[[Any, int], dict[str, Any]] | None = None) -> Iterator[Decision]:
    """The decisions in a replay: ``steps`` yields (state before the command, version, command, seat) for each
    game command; a decision is kept when its seat is in ``seats`` (None: every seat) and had two or more
    legal commands. ``view_of(state, seat)`` builds what the seat saw (default ``game.view``): the state itself
    never reaches the analysis. Turns are counted by the game's ``turn_key`` changing hands."""
    view_of = view_of or game.view
    turn, last_key = 0, object()
    for state, version, command, seat in steps:
        key = (seat, game.turn_key(state, seat))
        if key != last_key:
            turn, last_key = turn + 1, key
        if seats is not None and seat not in seats:
            continue
        legal = game.legal_commands(state, seat)
        if len(legal) < 2:
            continue
        yield Decision(version=version, seat=seat, view=view_of(state, seat), legal=legal, played=command, turn=turn)


Step = tuple[Any, int, Command, int]
"""(state before the command, version, command, seat): one game command of a replay."""


def bot_game_steps(game_id: str, bots: Sequence[Callable[..., Command]], seed: str,
                   options: dict[str, Any] | None = None) -> tuple[list[Step], Any]:
    """A seeded game of bots straight through the decider (no service), as ``bench/arena.py`` plays them
    (seat i plays by ``bots[i]``, chance from ``rng_for(seed, version)``): every step and the final state.
    The benchmarks, the validation and the tests analyse such games."""
    from domain.core.rng import rng_for, seed_from_text

    game = get_game(game_id)
    secret = seed_from_text(seed)
    events = game.setup(game.parse_options(options or {}), len(bots), rng_for(secret, 0))
    state = game.fold(None, events)
    version = len(events)
    chooser = random.Random(secret + b"|bots")
    steps: list[Step] = []
    while not game.is_over(state):
        seat = chooser.choice(game.to_act(state))
        legal = game.legal_commands(state, seat)
        command = bots[seat](game_id, game.view(state, seat), legal, random.Random(chooser.getrandbits(64)))
        steps.append((game.clone(state), version, command, seat))
        for event in game.decide(state, command, rng_for(secret, version)):
            state = game.evolve(state, event)
            version += 1
        if len(steps) > 20_000:
            raise RuntimeError(f"{game_id}: no end after {len(steps)} commands")
    return steps, state
