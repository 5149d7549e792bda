"""The Taverns of Tiefenthal, Module 1: the game's face (decider interface)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Hashable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.core import BotSupport, Command, Event, Game, GameNotActive, InvalidCommand, Score
from domain.core.capabilities import THREE_TURNS

from . import actions, data, description, events, flow, legal, scoring, view
from .commands import COMMAND_TYPES
from .events import EVENT_TYPES
from .evolve import apply
from .state import OVER, TiefenthalState
from .view_models import VIEW_MODELS

SEARCH = dataclasses.replace(THREE_TURNS, playout_depth=16, simulations=170, determinizations=16)
"""The search bot's settings: three turns deep (longer playouts: a turn has more commands) on common random
numbers, 170 simulations per move (at 150 the cap of 24 rounds, twice 12 determinizations, stopped most moves at
144). CPU per search move p50 0.32 s, p95 1.06 s in arena games at load 25 (0.80 s at 150 simulations and load 6);
against greedy 4 of 6 games (a partial run: bench/strength_history.csv); racing off (unproven, see Carcassonne)."""


class TiefenthalOptions(BaseModel):
    """Module 1 only; later modules will add switches here."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    module: Literal[1] = 1
    # titles and descriptions are what the web client's new-game form shows (GET /games/types: options_schema)
    counter_guest_redraw: bool = Field(True, title="Counter guests redraw", description=(
        "A counter guest may be spent to clear your tavern and draw it again."))
    """A counter guest may be spent in phase B to clear and refill the tavern (see RULES_NOTES)."""
    rounds: int = Field(data.ROUNDS.value, ge=1, le=data.ROUNDS.value, title="Rounds", description=(
        "8 in the rulebook; fewer make a short game."))
    """Fewer than 8 rounds only for a short development game (quick browser tests, tutorials)."""


class TiefenthalGame(Game[TiefenthalState]):
    id = "tiefenthal"
    title = "The Taverns of Tiefenthal"
    summary = ("Build up a tavern deck: draft dice, serve guests, earn beer and money, and buy better staff and "
               "furnishings over eight evenings. Plays with the rules of module 1.")
    min_players = 2
    max_players = 4
    Options = TiefenthalOptions
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES
    pass_commands = ("EndTurn", "FinishPlanning")
    view_models = VIEW_MODELS
    state_type = TiefenthalState

    def bot_support(self) -> BotSupport:
        from . import determinize, heuristics

        return BotSupport(determinize.state_from_view, heuristics.evaluate, scale=8.0,
                          search=SEARCH, prune=determinize.prune)

    def progress(self, state: TiefenthalState) -> float | None:
        # Rounds played of the game's rounds (eight, or the option's fewer).
        if self.is_over(state):
            return 1.0
        return max(0, state.round - 1) / max(1, state.rounds)

    def reveals(self, event: Event) -> bool:
        # Chance: cards drawn into the tavern (the deck is unordered), the dice, a guest turned up from the
        # guest deck. Everything else is public and follows from the command.
        if isinstance(event, events.GuestRecruited):
            return event.refill is not None
        return isinstance(event, (events.GameSetUp, events.TavernFilled, events.WaitressDiceRolled,
                                  events.WhiteDiceRolled))

    def setup(self, options: BaseModel, n_seats: int, rng: random.Random) -> list[Event]:
        self.check_seats(options, n_seats)
        assert isinstance(options, TiefenthalOptions)
        return flow.setup_events(n_seats, rng, redraw=options.counter_guest_redraw, rounds=options.rounds)

    def decide(self, state: TiefenthalState, command: Command, rng: random.Random) -> list[Event]:
        if not isinstance(command, COMMAND_TYPES):
            raise InvalidCommand(f"unknown command {getattr(command, 'type', command)!r} for {self.id}")
        if state.phase == OVER:
            raise GameNotActive("the game is over")
        err = actions.check(state, command)
        if err is not None:
            raise err
        ctx = flow.Ctx(state, rng)
        actions.execute(ctx, command, rng)
        return ctx.events

    def evolve(self, state: TiefenthalState | None, event: Event) -> TiefenthalState:
        return apply(state, event)

    def legal_commands(self, state: TiefenthalState, seat: int) -> list[Command]:
        return legal.legal_commands(state, seat)

    def is_legal(self, state: TiefenthalState, command: Command) -> bool:
        return actions.check(state, command) is None

    def to_act(self, state: TiefenthalState) -> list[int]:
        return actions.to_act(state)

    def description(self, options: BaseModel | None = None) -> dict[str, Any] | None:
        return description.describe()

    def turn_key(self, state: TiefenthalState, seat: int) -> Hashable:
        # A seat's turn is its part of one phase of one round (a planning phase is one turn, however many
        # dice it places); in the draft (D) each pick is a turn.
        return (state.round, state.phase, state.picks if state.phase == "D" else 0)

    def view(self, state: TiefenthalState, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def is_over(self, state: TiefenthalState) -> bool:
        return state.phase == OVER

    def scores(self, state: TiefenthalState) -> list[Score]:
        return scoring.scores(state)

    def clone(self, state: TiefenthalState) -> TiefenthalState:
        return state.copy()


GAME = TiefenthalGame()
