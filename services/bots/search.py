"""Greedy and determinized Monte Carlo search bots, generic over games (see ``games.py``).

Both start from the seat's view only: ``state_from_view`` samples a full state
consistent with it (a *determinization*), so hidden information is guessed,
never read. The root candidates always come from the ``legal`` list the bot was
given (less what the game's ``prune`` drops), ranked by their greedy value on a
first determinization; the best ``root_width`` are searched.

Two ways to search, chosen per game by its :class:`~services.bots.config.SearchConfig`:

- **UCB** (default): information-set MCTS flattened at the root. Every
  iteration takes the next of several determinizations, picks a root command
  by UCB1 (the greedy value counting as ``prior_visits`` virtual visits), plays
  it and a short playout by the sampled-greedy policy (chance drawn from a
  per-simulation ``random.Random``) and scores the leaf with the game's
  evaluation. Statistics are shared across determinizations; the most visited
  command is the vote.
- **Paired** (``paired=True``): rounds of simulations on common random numbers;
  each round plays every candidate on the same determinization and chance
  seed, and the best mean margin over whole rounds wins.

Playouts stop after ``playout_depth`` commands, or when the turn has changed
hands ``playout_turns`` times. A hand-over counts only when one seat acts alone:
in a simultaneous phase (Tiefenthal's planning) all seats act in one turn, so
neither their interleaving nor the last seat still planning counts.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.core import Command

from .config import SearchConfig
from .games import BotGame

GREEDY_FOLLOW_UP = 24
"""Greedy looks one command further when the same seat still acts (e.g. the figure after a tile, the tile
bought after a move): the best of its follow-ups, or of this many sampled ones when there are more."""
def seat_of(legal: Sequence[Command]) -> int:
    return legal[0].seat


def apply(game: Any, state: Any, command: Command, rng: random.Random) -> Any:
    """``state`` after ``command`` (``state`` is consumed: pass a clone)."""
    for event in game.decide(state, command, rng):
        state = game.evolve(state, event)
    return state


def _after(game: Any, state: Any, command: Command, rng: random.Random) -> Any:
    return apply(game, game.clone(state), command, rng)


def greedy_value(game: Any, adapter: BotGame, state: Any, command: Command, seat: int, rng: random.Random,
                 follow_up: bool = True) -> float:
    """Evaluation after ``command``; if ``seat`` still acts with few options, after its best follow-up."""
    s = _after(game, state, command, rng)
    if follow_up and not game.is_over(s) and game.to_act(s) == [seat]:
        nxt = game.legal_commands(s, seat)
        if len(nxt) > GREEDY_FOLLOW_UP:
            nxt = rng.sample(nxt, GREEDY_FOLLOW_UP)
        if nxt:
            return max(adapter.evaluate(_after(game, s, c, rng), seat) for c in nxt)
    return adapter.evaluate(s, seat)


def candidates_of(adapter: BotGame, view: dict[str, Any], legal: Sequence[Command]) -> list[Command]:
    legal = list(legal)
    return adapter.prune(view, legal) if adapter.prune is not None else legal


def greedy_choice(game: Any, adapter: BotGame, view: dict[str, Any], legal: Sequence[Command],
                  rng: random.Random) -> Command:
    seat = seat_of(legal)
    state = adapter.state_from_view(view, seat, rng, legal=legal)
    scored = _rank(game, adapter, state, candidates_of(adapter, view, legal), seat, rng)
    best = scored[0][0]
    return rng.choice([c for v, c in scored if v >= best - 1e-9])


def _rank(game: Any, adapter: BotGame, state: Any, legal: Sequence[Command], seat: int,
          rng: random.Random, deadline: float | None = None) -> list[tuple[float, Command]]:
    """Root commands with their greedy values, best first (past ``deadline`` without follow-ups)."""
    out = []
    for c in legal:
        sim = random.Random(rng.getrandbits(64))
        follow_up = deadline is None or time.perf_counter() < deadline
        out.append((greedy_value(game, adapter, state, c, seat, sim, follow_up), c))
    out.sort(key=lambda vc: -vc[0])
    return out


def _playout_step(game: Any, adapter: BotGame, state: Any, actor: int, rng: random.Random,
                  sample: int) -> Any | None:
    """One playout command of ``actor`` by the sampled-greedy policy; None when it has no command."""
    legal = game.legal_commands(state, actor)
    if not legal:
        return None
    if len(legal) <= sample:
        options = legal
    else:
        options = rng.sample(legal, sample)
    if len(options) == 1:
        return apply(game, state, options[0], rng)
    best, best_state = -math.inf, None
    for c in options:
        s = _after(game, state, c, rng)
        v = adapter.evaluate(s, actor)
        if best_state is None or v > best:
            best, best_state = v, s
    return best_state


_NO_PHASE = object()


@dataclass
class SearchStats:
    iterations: int = 0
    determinizations: int = 0


def playout(game: Any, adapter: BotGame, state: Any, seat: int, rng: random.Random, config: SearchConfig) -> Any:
    """Play on from ``state`` by the sampled-greedy policy until the game's depth (or the config's turn
    count) is reached; returns the leaf state (``state`` is consumed)."""
    last, switches = seat, 0
    together: Any = _NO_PHASE  # the turn key of the last simultaneous phase seen
    for _ in range(config.playout_depth):
        if game.is_over(state):
            break
        seats = game.to_act(state)
        if not seats:
            break
        if len(seats) > 1:
            # A simultaneous phase (Tiefenthal's planning): every seat acts in the same turn, so whoever
            # plays next hands nothing over; nor does the last seat still planning once the others are done.
            actor = rng.choice(seats)
            together = game.turn_key(state, actor)
        else:
            actor = seats[0]
            if actor != last and game.turn_key(state, actor) != together:
                switches, last = switches + 1, actor
                if config.playout_turns and switches >= config.playout_turns:
                    break
        nxt = _playout_step(game, adapter, state, actor, rng, config.playout_sample)
        if nxt is None:
            break
        state = nxt
    return state


def _searching(adapter: BotGame) -> BotGame:
    """The adapter the search judges with: the game's own search evaluation when it declares one."""
    if adapter.search_evaluate is None:
        return adapter
    return dataclasses.replace(adapter, evaluate=adapter.search_evaluate)


def search_choice(game: Any, adapter: BotGame, view: dict[str, Any], legal: Sequence[Command],
                  rng: random.Random, *, budget: float = 1.0, max_iterations: int | None = None,
                  stats: SearchStats | None = None, config: SearchConfig | None = None) -> Command:
    """The most visited root command after ``budget`` seconds (or ``max_iterations``) of search."""
    legal = list(legal)
    if len(legal) == 1:
        return legal[0]
    config = config or adapter.search
    adapter = _searching(adapter)
    started = time.perf_counter()
    deadline = started + budget
    seat = seat_of(legal)
    dets = [adapter.state_from_view(view, seat, random.Random(rng.getrandbits(64)), legal=legal)]
    ranked = _rank(game, adapter, dets[0], candidates_of(adapter, view, legal), seat, rng,
                   deadline=started + budget / 2 if max_iterations is None else None)
    cut = ranked[min(config.root_width, len(ranked)) - 1][0]
    candidates = [c for v, c in ranked if v >= cut - 1e-9][:2 * config.root_width]
    if len(candidates) == 1:
        return candidates[0]
    prior = {id(c): v for v, c in ranked}
    if config.paired:
        return _paired_choice(game, adapter, view, legal, seat, candidates, prior, dets, rng, config,
                              deadline, max_iterations, stats)
    n = [0] * len(candidates)
    w = [0.0] * len(candidates)
    total = 0
    squash = lambda v: 0.5 + 0.5 * math.tanh(v / adapter.scale)  # noqa: E731
    while True:
        if max_iterations is not None and total >= max_iterations:
            break
        if max_iterations is None and time.perf_counter() >= deadline:
            break
        if total % len(candidates) == 0 and len(dets) < config.determinizations and total:
            dets.append(adapter.state_from_view(view, seat, random.Random(rng.getrandbits(64)), legal=legal))
        det = dets[total % len(dets)]
        pv = config.prior_visits
        log_t = math.log(total + pv * len(candidates))
        i = max(range(len(candidates)),
                key=lambda k: (w[k] + pv * squash(prior[id(candidates[k])])) / (n[k] + pv)
                + config.ucb_c * math.sqrt(log_t / (n[k] + pv)))
        sim = random.Random(rng.getrandbits(64))
        s = playout(game, adapter, _after(game, det, candidates[i], sim), seat, sim, config)
        reward = squash(adapter.evaluate(s, seat))
        n[i] += 1
        w[i] += reward
        total += 1
    if stats is not None:
        stats.iterations, stats.determinizations = total, len(dets)
    if not total:
        return candidates[0]
    # The vote: most visits, then mean reward, then the greedy prior.
    i = max(range(len(candidates)), key=lambda k: (n[k], w[k] / n[k] if n[k] else 0.0, prior[id(candidates[k])]))
    return candidates[i]


def _paired_choice(game: Any, adapter: BotGame, view: dict[str, Any], legal: list[Command], seat: int,
                   candidates: list[Command], prior: dict[int, float], dets: list[Any], rng: random.Random,
                   config: SearchConfig, deadline: float, max_iterations: int | None,
                   stats: SearchStats | None) -> Command:
    """Flat Monte Carlo on common random numbers (see ``SearchConfig.paired``)."""
    sums = [0.0] * len(candidates)
    rounds = total = 0

    def out_of_budget() -> bool:
        if max_iterations is not None:
            return total >= max_iterations
        return time.perf_counter() >= deadline

    # Past twice the determinizations, more rounds only repeat samples: stop early and free the worker.
    while not out_of_budget() and rounds < 2 * config.determinizations:
        if rounds and len(dets) < config.determinizations:
            dets.append(adapter.state_from_view(view, seat, random.Random(rng.getrandbits(64)), legal=legal))
        det = dets[rounds % len(dets)]
        seed = rng.getrandbits(64)
        values = []
        for c in candidates:
            if out_of_budget():
                break
            sim = random.Random(seed)
            leaf = playout(game, adapter, _after(game, det, c, sim), seat, sim, config)
            values.append(adapter.evaluate(leaf, seat))
            total += 1
        if len(values) < len(candidates):
            break  # an unfinished round would compare candidates on different draws: drop it
        sums = [a + b for a, b in zip(sums, values)]
        rounds += 1
    if stats is not None:
        stats.iterations, stats.determinizations = total, len(dets)
    i = max(range(len(candidates)), key=lambda k: (sums[k], prior[id(candidates[k])]))
    return candidates[i]
