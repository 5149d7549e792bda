"""The context of one decision, shared by every engine (see ENGINES.md in this package)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Generic, TypeVar

from .messages import Event

S = TypeVar("S")


class Decision(Generic[S]):
    """One command being decided: the events emitted so far and the state they lead to.

    ``state`` is the state as the events so far leave it, in a private copy: the state given to ``decide``
    is never changed. Two ways to keep it, one result:

    * eager (``eager=True``): the copy is made at once and each event is folded as it is emitted, so a
      handler may hold ``state`` in a local and see it change (Carcassonne, Heaven & Ale are written so);
    * lazy (the default): the given state serves until an event is emitted; the copy is made, and the
      pending events folded, when ``state`` is next read, so a decision that never looks again copies
      nothing (Tiefenthal's handlers re-read ``ctx.state`` after emitting).

    ``rng`` is the decision's only source of chance.
    """

    __slots__ = ("_base", "_copy", "_evolve", "_pending", "_work", "events", "rng")

    def __init__(self, state: S | None, rng: random.Random,
                 evolve: Callable[[S | None, Event], S], copy: Callable[[S], S], *, eager: bool = False) -> None:
        self._base = state
        self._work: S | None = copy(state) if eager and state is not None else None
        self._pending = -1 if eager else 0
        self._evolve = evolve
        self._copy = copy
        self.rng = rng
        self.events: list[Event] = []

    @property
    def state(self) -> S:
        if self._pending > 0:
            work = self._work
            if work is None and self._base is not None:
                work = self._copy(self._base)
            for event in self.events[len(self.events) - self._pending:]:
                work = self._evolve(work, event)
            self._work = work
            self._pending = 0
        state = self._work if self._work is not None else self._base
        assert state is not None
        return state

    def emit(self, *events: Event) -> None:
        self.events.extend(events)
        if self._pending < 0:  # eager
            for event in events:
                self._work = self._evolve(self._work, event)
        else:
            self._pending += len(events)
