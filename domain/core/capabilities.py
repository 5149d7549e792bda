"""What a game declares about itself beyond the decider (OpenSpiel style): the shared shapes.

A game answers these on its :class:`~domain.core.game.Game` (no shared code names a game):

* ``pass_commands``: the command types that give a turn up, in order of preference; the kernel's
  skip policy (timeouts) plays the first one the rules offer, else the game's first legal command.
* ``bot_support()``: a :class:`BotSupport` (state from a seat's view, evaluation, pruning, search
  settings) or None (bots then play randomly).
* ``description(options)``: the static facts a client needs to draw the game.
* ``reveals(event)`` / ``undo_barrier(event, after, actor)``: which events no undo may cross.
* ``view_models``: a :class:`ViewModels` (the pydantic models of the seat and spectator views).
* ``encode_state`` / ``decode_state``: a JSON codec of the state (snapshots; never pickle).

Everything here is plain data: the services read it, the domain never imports the services.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

PLAYOUT_SAMPLE = 4
"""Playout policy: the best of this many random legal commands by one-step evaluation."""
ROOT_WIDTH = 6
"""Search considers only this many best root commands by greedy value (plus ties, at most twice as many)."""
PRIOR_VISITS = 2
"""Each root command starts with this many virtual visits worth its greedy value (a progressive bias)."""
DETERMINIZATIONS = 12
UCB_C = 0.7
RACE_MIN_ROUNDS = 4
"""Racing drops no candidate before this many paired rounds (too few differences for a standard error)."""


@dataclass(frozen=True)
class SearchSettings:
    """Search knobs of the search bot: the module constants are the defaults, a game declares its own."""

    root_width: int = ROOT_WIDTH
    prior_visits: int = PRIOR_VISITS
    determinizations: int = DETERMINIZATIONS
    ucb_c: float = UCB_C
    playout_sample: int = PLAYOUT_SAMPLE
    playout_turns: int = 0
    """Stop a playout when the turn has changed hands this many times (2: after the opponents' replies,
    back at the searching seat); 0 counts commands only (the game's ``playout_depth``)."""
    playout_depth: int = 4
    """Commands simulated after the candidate before the heuristic judges the position (a cap)."""
    paired: bool = False
    """Compare the root commands on common random numbers: each round of simulations takes one
    determinization and one chance seed and plays every candidate under both, so the comparison sees
    the commands' difference, not the luck of the draw; the best mean margin over whole rounds wins."""
    simulations: int | None = None
    """The search's budget per move, in simulations (one candidate played out and judged): the same view,
    legal commands and rng give the same move however busy the machine is. The think time
    (``Settings.bot_think_seconds``) stays a hard cap on top, reached only on an overloaded machine.
    None: time only (the search runs until the think time is spent)."""
    common_chance: bool = False
    """Paired search only: in a round, every candidate's playout draws the chance of its k-th command from
    the same seed, apart from the seed that samples the playout policy's options, so all candidates meet the
    same tiles (cards, tokens) in the same order; otherwise one stream serves both, and the draws part as
    soon as the policy samples lists of different lengths (after the first draw or so)."""
    race_z: float = 0.0
    """Racing (paired search only): after ``RACE_MIN_ROUNDS`` rounds, a candidate whose paired difference to
    the leader is below zero by more than ``race_z`` standard errors plays no more rounds, and the search
    stops as soon as one candidate is left (a clearly dominant move costs few simulations). 0: off."""


THREE_TURNS = SearchSettings(paired=True, playout_turns=3, playout_depth=12, playout_sample=16)
"""Each candidate is played on through the opponent's reply and the seat's own next turn (sampled-greedy
policy, best of 16), on determinizations with common random numbers; the best mean margin wins.

Arena (bench/arena.py, search vs greedy, fixed simulations per move), Carcassonne: stopping at the end
of the seat's own turn plays like greedy (49% of 100 games); stopping after the opponent's reply is
worse (37-47%: the evaluation then sees the opponent use an open feature but never the seat itself);
through the seat's next turn it wins 68% (80 games, 95% interval 57-77%). Tiefenthal, the same with
longer playouts (its turns have more commands): 78% (50 games, 65-87%)."""

WHOLE_TURN = SearchSettings(paired=True, playout_turns=1, playout_depth=12, playout_sample=64)
"""Each candidate is played to the end of the seat's own turn by the full greedy policy, on several
determinizations: greedy over whole turns. Heaven & Ale uses it: with the hand-made evaluation it won 65%
against greedy (arena, 40 games, 95% interval 50-78%), while longer playouts lost to greedy there (through
the opponent's reply 25%, through the seat's next turn 35-37%, 16-20 games each); with the search's own
evaluation (``heuristics.SEARCH``, issue 20) 93% (60 games, 84-97%), mean score 31.6 against 11.2; with 3.5 disc
visits per round in it 91% (60 games, 81-96%), 32.8 against 12.8."""


class StateFromView(Protocol):
    """A state consistent with the seat's view, hidden parts sampled from ``rng``; ``legal`` (the seat's
    legal commands) may settle public turn flags the view omits."""

    def __call__(self, view: dict[str, Any], seat: int, rng: random.Random,
                 legal: Sequence[Any] | None = None) -> Any: ...


Evaluate = Callable[[Any, int], float]
"""(state, seat) -> the seat's estimated margin over the best opponent."""

Prune = Callable[[dict[str, Any], list[Any]], list[Any]]


@dataclass(frozen=True)
class BotSupport:
    """What the generic greedy and search bots need from one game."""

    state_from_view: StateFromView
    evaluate: Evaluate
    scale: float = 10.0
    """A margin of about this many points counts as a clear lead (rewards are squashed by it)."""
    search: SearchSettings = SearchSettings()
    """How the search bot plays this game (tuned with ``bench/arena.py``)."""
    search_evaluate: Evaluate | None = None
    """The search bot's own evaluation (root ranking, playout policy, leaves); None: ``evaluate``. Lets a game
    give search a stronger (or dearer) evaluation while the greedy level keeps its own."""
    leaf_evaluate: Evaluate | None = None
    """The search's judgement of the root commands (their ranking) and of its playouts' leaves, while the
    playout policy keeps ``search_evaluate`` (or ``evaluate``): a dearer evaluation costs little there, a
    few hundred calls a move against tens of thousands in the playouts. None: the playout policy's."""
    prune: Prune | None = None
    """Drops legal commands a bot should never consider (e.g. moves that only undo a move: they let a
    heuristic bot cycle forever); it must leave at least one command."""


@dataclass(frozen=True)
class ViewModels:
    """The pydantic models of a game's views: ``seat`` validates ``view(state, seat)``, ``spectator``
    validates ``view(state, None)``; dumped with ``by_alias=True, exclude_unset=True`` they give the
    view's JSON back unchanged. Never on the engine's inner loop: the views stay plain dicts there."""

    seat: type[BaseModel]
    spectator: type[BaseModel]
