"""The decider interface every game implements.

A game is stateless code around a state object it owns:

* ``setup(options, n_seats, rng) -> events``: the opening events; the first one
  creates the state when folded with ``evolve(None, event)``.
* ``decide(state, command, rng) -> events``: validates ``command`` (raising a
  :class:`~domain.core.errors.RuleError`) and returns the resulting events.
  All chance is sampled here from ``rng`` and written into the events.
* ``evolve(state, event) -> state``: folds one event; never fails, no checks,
  no randomness. It may mutate ``state`` in place and return it: callers that
  need the old state keep a :meth:`clone`.
* ``legal_commands(state, seat)``: every legal command of ``seat`` now; the same
  rules validate commands in ``decide`` so "legal" means one thing everywhere.
* ``to_act(state)``: the seats that must act now (several in simultaneous phases).
* ``turn_key(state, seat)`` (optional): which turn ``seat`` is in, for games where
  one seat can take two turns in a row (see :meth:`Game.turn_key`).
* ``view(state, seat | None)``: what that seat (None = spectator) may see, built
  from the state, JSON-ready; hidden information is never in it.
* ``is_over(state)`` and ``scores(state)``: the end and the score sheet.

States are plain dataclasses that compare with ``==``, so replay-equals-live can be
asserted, and that round-trip through JSON (``encode_state``/``decode_state``), so snapshots
are stored as data. What else a game declares is in :mod:`domain.core.capabilities`.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from . import codec
from .capabilities import BotSupport, ViewModels
from .errors import InvalidCommand, InvalidOptions, plain_errors
from .messages import Command, Event

S = TypeVar("S")


class NoOptions(BaseModel):
    """Options model of a game without options."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Score(BaseModel):
    """One seat's final score sheet.

    ``breakdown`` lists every scoring category so players see where points came
    from; ``tiebreak`` is compared (higher is better) when totals are equal.
    Points are exact: halves are allowed and carried as floats only at this
    boundary (a multiple of 1/2 is exact in binary floating point).
    """

    model_config = ConfigDict(frozen=True)

    seat: int
    total: float
    breakdown: dict[str, float] = Field(default_factory=dict)
    tiebreak: tuple[float, ...] = ()

    @classmethod
    def of(cls, seat: int, breakdown: dict[str, int | Fraction | float], tiebreak: Sequence[int | Fraction | float] = ()) -> Score:
        exact = {k: Fraction(v) for k, v in breakdown.items()}
        return cls(
            seat=seat,
            total=float(sum(exact.values(), Fraction(0))),
            breakdown={k: float(v) for k, v in exact.items()},
            tiebreak=tuple(float(t) for t in tiebreak),
        )


def rank(scores: Sequence[Score]) -> dict[int, int]:
    """Place per seat (1 = first); equal total and tiebreak share a place."""
    ordered = sorted(scores, key=lambda s: (s.total, s.tiebreak), reverse=True)
    places: dict[int, int] = {}
    for index, score in enumerate(ordered):
        if index and (score.total, score.tiebreak) == (ordered[index - 1].total, ordered[index - 1].tiebreak):
            places[score.seat] = places[ordered[index - 1].seat]
        else:
            places[score.seat] = index + 1
    return places


class Game(ABC, Generic[S]):
    """Base class of every game. Subclasses declare static facts once as class attributes."""

    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str] = ""
    """A few sentences for a newcomer choosing a game (the start page's card): what you do, what wins."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]] = NoOptions
    command_types: ClassVar[tuple[type[Command], ...]]
    event_types: ClassVar[tuple[type[Event], ...]]

    # -- capabilities (see domain.core.capabilities) -------------------------
    pass_commands: ClassVar[tuple[str, ...]] = ()
    """Command types that give a turn up, by preference; the kernel's skip policy (a timed-out seat)
    plays the first the rules offer, else the game's first legal command."""
    view_models: ClassVar[ViewModels | None] = None
    """The pydantic models of the seat and spectator views (for the API's schema), None if not declared."""
    state_type: ClassVar[type | None] = None
    """The state class (a dataclass tree): its JSON codec makes snapshots; None: this game has none."""
    example_options: ClassVar[dict[str, Any]] = {}
    """Options that show most of the game (its expansions on): the golden playthrough and the shared
    tests play them besides the defaults."""

    # -- static facts -------------------------------------------------------
    def player_range(self, options: BaseModel) -> tuple[int, int]:
        """Allowed seat counts for these options (an expansion may add a colour)."""
        return self.min_players, self.max_players

    def parse_options(self, raw: dict[str, Any] | None) -> BaseModel:
        try:
            return self.Options.model_validate(raw or {})
        except Exception as exc:  # pydantic.ValidationError
            raise InvalidOptions(f"invalid options for {self.id}: {plain_errors(exc)}") from None

    def check_seats(self, options: BaseModel, n_seats: int) -> None:
        low, high = self.player_range(options)
        if not low <= n_seats <= high:
            raise InvalidOptions(f"{self.id} takes {low} to {high} players with these options, not {n_seats}")

    # -- the decider --------------------------------------------------------
    @abstractmethod
    def setup(self, options: BaseModel, n_seats: int, rng: random.Random) -> list[Event]: ...

    @abstractmethod
    def decide(self, state: S, command: Command, rng: random.Random) -> list[Event]: ...

    @abstractmethod
    def evolve(self, state: S | None, event: Event) -> S: ...

    @abstractmethod
    def legal_commands(self, state: S, seat: int) -> list[Command]: ...

    @abstractmethod
    def to_act(self, state: S) -> list[int]: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    def views(self, state: S, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """The views of several seats (None: the spectator) of one state, each equal to :meth:`view` of it: the
        projector writes every seat's after each command. By default :meth:`view` of each; a game whose views
        share costly parts (Carcassonne's features) builds those once. The views may share sub-objects: treat
        them as read-only."""
        return [self.view(state, seat) for seat in seats]

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def scores(self, state: S) -> list[Score]: ...

    # -- helpers with sensible defaults ------------------------------------
    def turn_key(self, state: S, seat: int) -> Hashable:
        """Which turn ``seat`` (one of ``to_act``) is in now: equal keys between two commands mean the same turn.

        A seat's *turn* is a stretch of commands during which it stays in ``to_act`` and this key stays
        the same: every step of a multi-step turn (a tile and then its figure, a move and then its
        purchases, a whole planning phase) keeps it; the seat's next turn changes it. The default (one
        key) suits games where another seat always acts in between; a game in which one seat can take
        two turns in a row (Heaven & Ale's rearmost figure moves again) returns something that changes.
        Deadlines and timeouts (``domain.core.lifecycle``) run per turn in this sense.
        """
        return None

    def bot_support(self) -> BotSupport | None:
        """What the generic greedy and search bots need (state from view, evaluation, pruning, search
        settings); None: bots play this game at random."""
        return None

    def progress(self, state: S) -> float | None:
        """How much of the game is played, 0.0 to 1.0 (tiles placed of the tiles in the game, rounds done of
        the rounds); None when the game cannot say. The ratings' fair-play policy reads it for a game the
        table ended by vote (``projections.ratings.EARLY_END_LINE``)."""
        return None

    def reveals(self, event: Event) -> bool:
        """True when ``event`` carries chance or shows what was hidden (a drawn tile, a die roll, a card
        turned up): nobody may undo past it. The default (every event) makes a game that does not say
        never undoable."""
        return True

    def undo_barrier(self, event: Event, after: S, actor: int) -> bool:
        """True when no undo may go back past ``event``, an event of a command of ``actor`` that left the
        game in ``after``: the event reveals something, or the actor's turn is over (another seat acts
        next, or the game ended). The undo itself (a service of social play) also stops at any command of
        another seat in between."""
        return self.reveals(event) or self.is_over(after) or actor not in self.to_act(after)

    def encode_state(self, state: S) -> bytes:
        """The state as JSON (snapshots; never pickle: they are read back from Redis)."""
        return codec.encode_state(state)

    def decode_state(self, data: bytes | str) -> S:
        """A state from :meth:`encode_state`'s JSON, equal to the one encoded; ValueError when unreadable."""
        if self.state_type is None:
            raise ValueError(f"{self.id} has no state codec")
        state: S = codec.decode_state(self.state_type, data)
        return state

    def clone(self, state: S) -> S:
        """An independent copy of ``state`` (search bots branch from it)."""
        return copy.deepcopy(state)

    def fold(self, state: S | None, events: Sequence[Event]) -> S:
        for event in events:
            state = self.evolve(state, event)
        assert state is not None
        return state

    def is_legal(self, state: S, command: Command) -> bool:
        return command in self.legal_commands(state, command.seat)

    def parse_command(self, data: dict[str, Any]) -> Command:
        """A command model from JSON data; unknown types and bad fields raise InvalidCommand."""
        kind = data.get("type")
        cls = self._command_index().get(kind) if isinstance(kind, str) else None
        if cls is None:
            known = ", ".join(sorted(self._command_index()))
            raise InvalidCommand(f"unknown command type {kind!r} for {self.id}; expected one of: {known}")
        try:
            return cls.model_validate(data)
        except Exception as exc:
            raise InvalidCommand(f"invalid {kind} command: {plain_errors(exc)}") from None

    def parse_event(self, data: dict[str, Any]) -> Event:
        """An event model from stored JSON data (already upcast to the current schema)."""
        cls = self._event_index()[data["type"]]
        return cls.model_validate(data)

    def _command_index(self) -> dict[str, type[Command]]:
        index = self.__dict__.get("_commands")
        if index is None:
            index = {_type_name(c): c for c in self.command_types}
            self.__dict__["_commands"] = index
        return index

    def _event_index(self) -> dict[str, type[Event]]:
        index = self.__dict__.get("_events")
        if index is None:
            index = {_type_name(e): e for e in self.event_types}
            self.__dict__["_events"] = index
        return index

    def description(self, options: BaseModel | None = None) -> dict[str, Any] | None:
        """Static, JSON-ready facts a client needs to draw the game (tile geometry, board layout).

        The same for every game of these options and never dependent on a state, so clients may cache
        it; None when the game provides none (a generic client then draws from the view alone).
        """
        return None

    def schema(self) -> dict[str, Any]:
        """Public description for ``GET /games/types``."""
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": self.Options.model_json_schema(),
            "commands": {name: TypeAdapter(cls).json_schema() for name, cls in self._command_index().items()},
            "has_description": self.description() is not None,
        }


def _type_name(cls: type[BaseModel]) -> str:
    """The stable type name of a command or event class: the default of its ``type`` field."""
    default = cls.model_fields["type"].default
    if not isinstance(default, str):
        raise TypeError(f"{cls.__name__} must declare `type: Literal[...] = '...'`")
    return default
