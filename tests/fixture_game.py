"""A tiny game that drives the kernel in tests and benchmarks (not registered in production).

Seats take turns adding 1 to 3 to a shared counter; every move also rolls a
die (chance in ``decide``) and deals the mover a secret card that only they may
see until the game ends (hidden information). The game ends when the counter
reaches ``target``.

It declares its capabilities like the real games (bot support, what reveals, view models, the state
codec) and the shared tests reach it the way they reach them: through its package's ``GAME`` and the
registry (``tests/games_under_test.py``), with no special case.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from domain.core import BotSupport, Command, Event, Game, IllegalMove, NotYourTurn, Score, ViewModels
from domain.core.views import ViewModel


class CounterOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    target: int = 20


class Add(Command):
    type: Literal["Add"] = "Add"
    amount: int


class CounterSetUp(Event):
    type: Literal["CounterSetUp"] = "CounterSetUp"
    players: int
    target: int


class Added(Event):
    type: Literal["Added"] = "Added"
    seat: int
    amount: int
    roll: int


class CardDealt(Event):
    type: Literal["CardDealt"] = "CardDealt"
    private_fields = frozenset({"card"})
    seat: int
    card: int

    def private_to(self) -> frozenset[int]:
        return frozenset({self.seat})


class CounterSpectatorView(ViewModel):
    total: int
    target: int
    turn: int
    points: list[int]
    cards_held: list[int]


class CounterSeatView(CounterSpectatorView):
    my_cards: list[int]


@dataclass
class CounterState:
    players: int
    target: int
    total: int = 0
    turn: int = 0
    points: list[int] = field(default_factory=list)
    cards: list[list[int]] = field(default_factory=list)


class CounterGame(Game[CounterState]):
    id = "counter"
    title = "Counter (test fixture)"
    summary = "Take turns adding 1 to 3 to a shared counter; the game ends when it reaches the target."
    min_players = 1
    max_players = 6
    Options = CounterOptions
    command_types = (Add,)
    event_types = (CounterSetUp, Added, CardDealt)
    state_type = CounterState
    view_models = ViewModels(seat=CounterSeatView, spectator=CounterSpectatorView)

    def bot_support(self) -> BotSupport:
        return BotSupport(state_from_view, evaluate, scale=5.0)

    def progress(self, state: CounterState) -> float | None:
        return min(1.0, state.total / state.target)

    def reveals(self, event: Event) -> bool:
        # Every move rolls a die and deals a card; only the opening is free of chance.
        return not isinstance(event, CounterSetUp)

    def setup(self, options: BaseModel, n_seats: int, rng: random.Random) -> list[Event]:
        assert isinstance(options, CounterOptions)
        return [CounterSetUp(players=n_seats, target=options.target)]

    def decide(self, state: CounterState, command: Command, rng: random.Random) -> list[Event]:
        if command.seat != state.turn:
            raise NotYourTurn(f"seat {command.seat} may not act; seat {state.turn} is to act")
        assert isinstance(command, Add)
        if not 1 <= command.amount <= 3:
            raise IllegalMove(f"amount must be 1 to 3, not {command.amount}")
        return [
            Added(seat=command.seat, amount=command.amount, roll=rng.randint(1, 6)),
            CardDealt(seat=command.seat, card=rng.randint(1, 100)),
        ]

    def evolve(self, state: CounterState | None, event: Event) -> CounterState:
        if isinstance(event, CounterSetUp):
            return CounterState(players=event.players, target=event.target, points=[0] * event.players,
                                cards=[[] for _ in range(event.players)])
        assert state is not None
        if isinstance(event, Added):
            state.total += event.amount
            state.points[event.seat] += event.amount
            state.turn = (state.turn + 1) % state.players
        elif isinstance(event, CardDealt):
            state.cards[event.seat].append(event.card)
        return state

    def legal_commands(self, state: CounterState, seat: int) -> list[Command]:
        if seat != state.turn or self.is_over(state):
            return []
        return [Add(seat=seat, amount=a) for a in (1, 2, 3)]

    def to_act(self, state: CounterState) -> list[int]:
        return [] if self.is_over(state) else [state.turn]

    def view(self, state: CounterState, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"total": state.total, "target": state.target, "turn": state.turn,
                                "points": list(state.points), "cards_held": [len(c) for c in state.cards]}
        if seat is not None:
            view["my_cards"] = list(state.cards[seat])
        return view

    def is_over(self, state: CounterState) -> bool:
        return state.total >= state.target

    def scores(self, state: CounterState) -> list[Score]:
        return [Score.of(seat, {"added": state.points[seat]}, tiebreak=[sum(state.cards[seat])])
                for seat in range(state.players)]


def state_from_view(view: dict[str, Any], seat: int, rng: random.Random,
                    legal: Sequence[Any] | None = None) -> CounterState:
    """The counter's state from ``seat``'s view: the other seats' cards (hidden) are sampled."""
    held = view["cards_held"]
    cards = [list(view["my_cards"]) if s == seat else [rng.randint(1, 100) for _ in range(n)]
             for s, n in enumerate(held)]
    return CounterState(players=len(held), target=view["target"], total=view["total"], turn=view["turn"],
                        points=list(view["points"]), cards=cards)


def evaluate(state: CounterState, seat: int) -> float:
    """Points ahead of the best other seat."""
    others = [p for s, p in enumerate(state.points) if s != seat]
    return state.points[seat] - max(others, default=0)


COUNTER = CounterGame()
GAME = COUNTER
