"""Per-game bot adapters: how to rebuild a state from a seat's view and how to judge a position.

Adding a game's bots is one ``register(BotGame(...))`` line below: the game's
``determinize.state_from_view`` (samples what the seat cannot see) and a
``heuristics.evaluate(state, seat)`` (estimated margin over the best opponent).
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .config import SearchConfig


class StateFromView(Protocol):
    """``domain/<game>/determinize.state_from_view``: a state consistent with the seat's view, hidden parts
    sampled from ``rng``; ``legal`` (the seat's legal commands) may settle public turn flags the view omits."""

    def __call__(self, view: dict[str, Any], seat: int, rng: random.Random,
                 legal: Sequence[Any] | None = None) -> Any: ...


Evaluate = Callable[[Any, int], float]


@dataclass(frozen=True)
class BotGame:
    """What the generic greedy and search bots need from one game."""

    game_id: str
    state_from_view: StateFromView
    evaluate: Evaluate
    scale: float = 10.0
    """A margin of about this many points counts as a clear lead (rewards are squashed by it)."""
    search: SearchConfig = SearchConfig()
    """How the search bot plays this game (tuned with ``bench/arena.py``)."""
    prune: Callable[[dict[str, Any], list[Any]], list[Any]] | None = None
    """Drops legal commands a bot should never consider (e.g. moves that only undo a move: they let a
    heuristic bot cycle forever); it must leave at least one command."""


_GAMES: dict[str, BotGame] = {}


def register(adapter: BotGame) -> BotGame:
    _GAMES[adapter.game_id] = adapter
    return adapter


def bot_game(game_id: str) -> BotGame | None:
    """The adapter of ``game_id``, or None when the game has no determinizer yet (bots then play randomly)."""
    _load()
    return _GAMES.get(game_id)


def _tiefenthal_prune(view: dict[str, Any], legal: list[Any]) -> list[Any]:
    """Moving a die that is already placed only undoes a move; a heuristic bot would shuffle it for ever."""
    me = next(p for p in view["players"] if p["seat"] == view["you"])
    placed = {d["die"] for d in me["dice"] if d["space"] is not None}
    kept = [c for c in legal if not (c.type == "PlaceDie" and c.die in placed)]
    return kept or legal


THREE_TURNS = SearchConfig(paired=True, playout_turns=3, playout_depth=12, playout_sample=16)
"""Each candidate is played on through the opponent's reply and the seat's own next turn (sampled-greedy
policy, best of 16), on determinizations with common random numbers; the best mean margin wins.

Arena (bench/arena.py, search vs greedy, fixed simulations per move), Carcassonne: stopping at the end
of the seat's own turn plays like greedy (49% of 100 games); stopping after the opponent's reply is
worse (37-47%: the evaluation then sees the opponent use an open feature but never the seat itself);
through the seat's next turn it wins 68% (80 games, 95% interval 57-77%). Tiefenthal, the same with
longer playouts (its turns have more commands): 78% (50 games, 65-87%)."""

WHOLE_TURN = SearchConfig(paired=True, playout_turns=1, playout_depth=12, playout_sample=64)
"""Each candidate is played to the end of the seat's own turn by the full greedy policy, on several
determinizations: greedy over whole turns. Heaven & Ale uses it: it wins 65% against greedy (arena, 40
games, 95% interval 50-78%), while longer playouts lost to greedy there (through the opponent's reply
25%, through the seat's next turn 35-37%, 16-20 games each): its evaluation is the limit."""

_loaded = False
_load_lock = threading.Lock()


def _load() -> None:
    """Register the bundled games once; worker threads wait until all are registered."""
    global _loaded
    if _loaded:
        return
    with _load_lock:
        if not _loaded:
            _register_bundled()
            _loaded = True


def _register_bundled() -> None:
    from domain.carcassonne import determinize as carcassonne_det
    from domain.carcassonne import heuristics as carcassonne_h
    from domain.heaven_and_ale import determinize as ha_det
    from domain.heaven_and_ale import heuristics as ha_h
    from domain.tiefenthal import determinize as tf_det
    from domain.tiefenthal import heuristics as tf_h

    register(BotGame("carcassonne", carcassonne_det.state_from_view, carcassonne_h.evaluate,
                     scale=10.0, search=THREE_TURNS))
    register(BotGame("heaven-and-ale", ha_det.state_from_view, ha_h.evaluate, scale=4.0, search=WHOLE_TURN))
    register(BotGame("tiefenthal", tf_det.state_from_view, tf_h.evaluate, scale=8.0,
                     search=dataclasses.replace(THREE_TURNS, playout_depth=16), prune=_tiefenthal_prune))
