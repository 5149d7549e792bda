"""A tiny game with undoable steps, for the kernel's undo tests (registered by a fixture, never in production).

A turn is any number of ``Mark`` commands (undoable: nothing hidden, nothing random), optionally a ``Draw``
(a random card: chance, so a barrier), and ``Done`` (the next seat acts). The game ends after ``rounds``
turns in all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from domain.core import Command, Event, Game, IllegalMove, NotYourTurn, Score


class TallyOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    rounds: int = 4


class Mark(Command):
    type: Literal["Mark"] = "Mark"
    box: int


class Draw(Command):
    type: Literal["Draw"] = "Draw"


class Done(Command):
    type: Literal["Done"] = "Done"


class TallySetUp(Event):
    type: Literal["TallySetUp"] = "TallySetUp"
    players: int
    rounds: int


class Marked(Event):
    type: Literal["Marked"] = "Marked"
    seat: int
    box: int


class CardDrawn(Event):
    type: Literal["CardDrawn"] = "CardDrawn"
    seat: int
    card: int


class TurnDone(Event):
    type: Literal["TurnDone"] = "TurnDone"
    seat: int


@dataclass
class TallyState:
    players: int
    rounds: int
    turn: int = 0
    turns: int = 0
    boxes: list[list[int]] = field(default_factory=list)
    cards: list[list[int]] = field(default_factory=list)


class TallyGame(Game[TallyState]):
    id = "tally"
    title = "Tally (undo test fixture)"
    min_players = 2
    max_players = 4
    Options = TallyOptions
    command_types = (Mark, Draw, Done)
    event_types = (TallySetUp, Marked, CardDrawn, TurnDone)

    def reveals(self, event: Event) -> bool:
        return isinstance(event, (TallySetUp, CardDrawn))

    def undo_barrier(self, event: Event, after: TallyState, actor: int) -> bool:
        return self.reveals(event) or self.is_over(after) or actor not in self.to_act(after)

    def setup(self, options: BaseModel, n_seats: int, rng: random.Random) -> list[Event]:
        assert isinstance(options, TallyOptions)
        return [TallySetUp(players=n_seats, rounds=options.rounds)]

    def decide(self, state: TallyState, command: Command, rng: random.Random) -> list[Event]:
        if command.seat != state.turn:
            raise NotYourTurn(f"seat {command.seat} may not act")
        if not self.is_legal(state, command):
            raise IllegalMove(f"{command.type} is not legal now")
        if isinstance(command, Mark):
            return [Marked(seat=command.seat, box=command.box)]
        if isinstance(command, Draw):
            return [CardDrawn(seat=command.seat, card=rng.randint(1, 1000))]
        return [TurnDone(seat=command.seat)]

    def evolve(self, state: TallyState | None, event: Event) -> TallyState:
        if isinstance(event, TallySetUp):
            return TallyState(players=event.players, rounds=event.rounds, boxes=[[] for _ in range(event.players)],
                              cards=[[] for _ in range(event.players)])
        assert state is not None
        if isinstance(event, Marked):
            state.boxes[event.seat].append(event.box)
        elif isinstance(event, CardDrawn):
            state.cards[event.seat].append(event.card)
        elif isinstance(event, TurnDone):
            state.turns += 1
            state.turn = (state.turn + 1) % state.players
        return state

    def legal_commands(self, state: TallyState, seat: int) -> list[Command]:
        if seat != state.turn or self.is_over(state):
            return []
        return [*(Mark(seat=seat, box=b) for b in range(3) if b not in state.boxes[seat]), Draw(seat=seat),
                Done(seat=seat)]

    def to_act(self, state: TallyState) -> list[int]:
        return [] if self.is_over(state) else [state.turn]

    def view(self, state: TallyState, seat: int | None) -> dict[str, Any]:
        return {"turn": state.turn, "boxes": [list(b) for b in state.boxes], "cards": [len(c) for c in state.cards]}

    def is_over(self, state: TallyState) -> bool:
        return state.turns >= state.rounds

    def scores(self, state: TallyState) -> list[Score]:
        return [Score.of(s, {"boxes": len(state.boxes[s])}) for s in range(state.players)]


TALLY = TallyGame()
