"""Greedy and determinized Monte Carlo search bots, generic over games (see ``games.py``).

Both start from the seat's view only: ``state_from_view`` samples a full state
consistent with it (a *determinization*), so hidden information is guessed,
never read. The root candidates always come from the ``legal`` list the bot was
given (less what the game's ``prune`` drops), ranked by their greedy value on a
first determinization; the best ``root_width`` are searched.

Two ways to search, chosen per game by its :class:`~services.application.bots.config.SearchConfig`:

- **UCB** (default): information-set MCTS flattened at the root. Every
  iteration takes the next of several determinizations, picks a root command
  by UCB1 (the greedy value counting as ``prior_visits`` virtual visits), plays
  it and a short playout by the sampled-greedy policy (chance drawn from a
  per-simulation ``random.Random``) and scores the leaf with the game's
  evaluation. Statistics are shared across determinizations; the most visited
  command is the vote.
- **Paired** (``paired=True``): rounds of simulations on common random numbers;
  each round plays every candidate on the same determinization and chance
  seed, and the best mean margin over whole rounds wins. With ``common_chance`` the chance of each playout
  command comes from its own seed of the round (:func:`step_chance`), apart from the policy's sampling, so
  every candidate meets the same draws all the way, not only until the policy's sampling parts the streams.

**Budget**: each game's settings give a number of ``simulations`` per move (a simulation plays one
candidate out and judges it), so a move depends only on the view, the legal commands and the rng, not
on how busy the machine is; the think time (``budget`` seconds) is a hard cap on top. Paired search
also races: a candidate clearly behind the leader on paired differences stops playing, and the search
stops when one is left.

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
from services.application.bots.config import RACE_MIN_ROUNDS, SearchConfig
from services.application.bots.games import BotGame, Evaluate

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
                  sample: int, chance: int | None = None) -> Any | None:
    """One playout command of ``actor`` by the sampled-greedy policy; None when it has no command. With a
    ``chance`` seed, every option is tried on chance drawn afresh from it (the same draw whichever option),
    ``rng`` only sampling the options."""
    legal = game.legal_commands(state, actor)
    if not legal:
        return None
    if len(legal) <= sample:
        options = legal
    else:
        options = rng.sample(legal, sample)
    if len(options) == 1:
        return apply(game, state, options[0], rng if chance is None else random.Random(chance))
    best, best_state = -math.inf, None
    for c in options:
        s = _after(game, state, c, rng if chance is None else random.Random(chance))
        v = adapter.evaluate(s, actor)
        if best_state is None or v > best:
            best, best_state = v, s
    return best_state


_NO_PHASE = object()
CHANCE_STRIDE = 1_000_003
"""Spreads a round's chance seed over its playout steps (:func:`step_chance`)."""
CHANCE_MASK = (1 << 64) - 1


@dataclass
class SearchStats:
    iterations: int = 0
    determinizations: int = 0
    rounds: int = 0
    """Paired rounds completed (paired search only)."""
    stopped: str = ""
    """Why the search stopped: ``budget`` (its simulations spent), ``cap`` (the think time ran out first),
    ``race`` (one candidate left), ``rounds`` (every determinization seen twice) or ``greedy`` (one
    candidate from the start)."""


def step_chance(chance: int, step: int) -> int:
    """The chance seed of a playout's ``step``-th command under the round's ``chance`` seed."""
    return (chance * CHANCE_STRIDE + step) & CHANCE_MASK


def playout(game: Any, adapter: BotGame, state: Any, seat: int, rng: random.Random, config: SearchConfig,
            chance: int | None = None) -> Any:
    """Play on from ``state`` by the sampled-greedy policy until the game's depth (or the config's turn
    count) is reached; returns the leaf state (``state`` is consumed). With a ``chance`` seed the k-th command
    draws its chance from :func:`step_chance` (``SearchConfig.common_chance``), not from ``rng``."""
    last, switches = seat, 0
    together: Any = _NO_PHASE  # the turn key of the last simultaneous phase seen
    for step in range(config.playout_depth):
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
        nxt = _playout_step(game, adapter, state, actor, rng, config.playout_sample,
                            None if chance is None else step_chance(chance, step))
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
                  rng: random.Random, *, budget: float | None = 1.0, max_iterations: int | None = None,
                  stats: SearchStats | None = None, config: SearchConfig | None = None) -> Command:
    """The search's choice after ``max_iterations`` simulations (default: the config's ``simulations``),
    or when ``budget`` seconds have passed (the hard cap; None: no cap). With neither a simulation count
    nor a cap the search would not end: it then plays the greedy choice."""
    legal = list(legal)
    if len(legal) == 1:
        return legal[0]
    config = config or adapter.search
    limit = _simulations(max_iterations, config, budget)
    adapter = _searching(adapter)
    judge = adapter if adapter.leaf_evaluate is None else dataclasses.replace(adapter, evaluate=adapter.leaf_evaluate)
    started = time.perf_counter()
    deadline = math.inf if budget is None else started + budget
    seat = seat_of(legal)
    dets = [adapter.state_from_view(view, seat, random.Random(rng.getrandbits(64)), legal=legal)]
    ranked = _rank(game, judge, dets[0], candidates_of(adapter, view, legal), seat, rng,
                   deadline=_ranking_deadline(started, budget, limit, deadline))
    cut = ranked[min(config.root_width, len(ranked)) - 1][0]
    candidates = [c for v, c in ranked if v >= cut - 1e-9][:2 * config.root_width]
    stats = stats if stats is not None else SearchStats()
    if len(candidates) == 1:
        stats.stopped = "greedy"
        return candidates[0]
    prior = {id(c): v for v, c in ranked}
    budgeted = _Budget(limit, deadline)
    if config.paired:
        return _paired_choice(game, adapter, view, seat, candidates, prior, dets, rng, config, budgeted,
                              stats, legal, judge.evaluate)
    return _ucb_choice(game, adapter, view, seat, candidates, prior, dets, rng, config, budgeted, stats, legal,
                       judge.evaluate)


def _simulations(max_iterations: int | None, config: SearchConfig, budget: float | None) -> int | None:
    """The simulation count (None: until the time cap); 0 when neither a count nor a cap would end it."""
    limit = max_iterations if max_iterations is not None else config.simulations
    return 0 if limit is None and budget is None else limit


def _ranking_deadline(started: float, budget: float | None, limit: int | None, deadline: float) -> float:
    """Time-only search ranks within half its time; a counted search ranks whole (the same move whatever
    the load), the cap still cutting the follow-ups on an overloaded machine."""
    return started + budget / 2 if limit is None and budget is not None else deadline


@dataclass
class _Budget:
    """Simulations left (``limit``, None: unlimited) and the wall-clock cap (``deadline``)."""

    limit: int | None
    deadline: float

    def why_not(self, spent: int, more: int = 1) -> str:
        """Why ``more`` simulations after ``spent`` are not affordable ('' when they are)."""
        if self.limit is not None and spent + more > self.limit:
            return "budget"
        if time.perf_counter() >= self.deadline:
            return "cap"
        return ""


def _ucb_choice(game: Any, adapter: BotGame, view: dict[str, Any], seat: int, candidates: list[Command],
                prior: dict[int, float], dets: list[Any], rng: random.Random, config: SearchConfig,
                budget: _Budget, stats: SearchStats, legal: list[Command], judge: Evaluate) -> Command:
    """Information-set MCTS flattened at the root (see the module's docstring)."""
    n = [0] * len(candidates)
    w = [0.0] * len(candidates)
    total = 0
    squash = lambda v: 0.5 + 0.5 * math.tanh(v / adapter.scale)  # noqa: E731
    while not (stopped := budget.why_not(total)):
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
        reward = squash(judge(s, seat))
        n[i] += 1
        w[i] += reward
        total += 1
    stats.iterations, stats.determinizations, stats.stopped = total, len(dets), stopped
    if not total:
        return candidates[0]
    # The vote: most visits, then mean reward, then the greedy prior.
    i = max(range(len(candidates)), key=lambda k: (n[k], w[k] / n[k] if n[k] else 0.0, prior[id(candidates[k])]))
    return candidates[i]


def _race(rounds: list[list[float]], alive: list[int], z: float) -> list[int]:
    """The candidates still in the race: those whose paired difference to the leader (the best mean over
    ``rounds``, each round a value per candidate) is not below zero by more than ``z`` standard errors."""
    m = len(rounds)
    if z <= 0 or m < RACE_MIN_ROUNDS:
        return alive
    leader = max(alive, key=lambda k: sum(r[k] for r in rounds))
    kept = []
    for k in alive:
        diffs = [r[k] - r[leader] for r in rounds]
        mean = sum(diffs) / m
        var = sum((d - mean) ** 2 for d in diffs) / (m - 1)
        if k == leader or mean + z * math.sqrt(var / m) >= 0:
            kept.append(k)
    return kept


def _paired_choice(game: Any, adapter: BotGame, view: dict[str, Any], seat: int, candidates: list[Command],
                   prior: dict[int, float], dets: list[Any], rng: random.Random, config: SearchConfig,
                   budget: _Budget, stats: SearchStats, legal: list[Command], judge: Evaluate) -> Command:
    """Flat Monte Carlo on common random numbers (see ``SearchConfig.paired``), with racing
    (``SearchConfig.race_z``): only whole rounds count, each over the candidates still in the race."""
    alive = list(range(len(candidates)))
    rounds: list[list[float]] = []
    total = 0
    stopped = ""
    # Past twice the determinizations, more rounds only repeat samples: stop early and free the worker.
    while len(alive) > 1 and len(rounds) < 2 * config.determinizations:
        stopped = budget.why_not(total, len(alive))
        if stopped:
            break
        if rounds and len(dets) < config.determinizations:
            dets.append(adapter.state_from_view(view, seat, random.Random(rng.getrandbits(64)), legal=legal))
        det = dets[len(rounds) % len(dets)]
        seed = rng.getrandbits(64)
        values = [0.0] * len(candidates)
        for k in alive:
            if budget.why_not(total) == "cap":
                break
            sim = random.Random(seed)
            leaf = playout(game, adapter, _after(game, det, candidates[k], sim), seat, sim, config,
                           seed if config.common_chance else None)
            values[k] = judge(leaf, seat)
            total += 1
        else:
            rounds.append(values)
            alive = _race(rounds, alive, config.race_z)
            continue
        stopped = "cap"  # an unfinished round would compare candidates on different draws: drop it
        break
    else:
        stopped = "race" if len(alive) == 1 else "rounds"
    stats.iterations, stats.determinizations, stats.rounds, stats.stopped = total, len(dets), len(rounds), stopped
    i = max(alive, key=lambda k: (sum(r[k] for r in rounds), prior[id(candidates[k])]))
    return candidates[i]
