"""Undo within one's own turn, as an event of the append-only log (pure, like the rest of the kernel).

A seat's holder may take back their own moves of the turn they are in, one command at a time, until
something was revealed or decided by chance, or another seat acted: the policy of the big sites, so no
draw can be fished for by undoing and trying again. In a simultaneous phase (several seats to act at once)
the other seats' commands do not stop it: each seat takes back its own latest command, the others' stay. *Which* events stop an undo is the game's to say
(``Game.undo_barrier(event, after, actor)``: chance, revealed information, the end of the actor's turn);
the kernel adds that any command of another seat or of the service stops it too.

How the log stays the truth: the record keeps an *undo trail* while a human seat plays a stretch of
undoable commands: a copy of the game state where the stretch began (``base``), the game events since
then, and where each command began. ``taproom.MoveUndone(seat, to_version)`` puts the game back as it
was at ``to_version`` (the base, with the trail's events before that command folded again; in a
simultaneous phase the other seats' steps since are folded again too); the record's
version still moves on (the undo is an event like any other). The trail is folded from the log alone:
:func:`begin_command` is told, before a command's events are folded, which seat acts (live by
``execute``, in replay from each envelope's ``actor``), so a replay, a snapshot and ``taproom verify``
reach the same state after any undo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .errors import GameNotActive, IllegalMove
from .messages import Command, Event

if TYPE_CHECKING:
    from .game import Game
    from .record import GameRecord


class NothingToUndo(IllegalMove):
    """The seat has nothing it may take back now (chance, a reveal, its turn over, another seat's move)."""

    code = "nothing_to_undo"


class Undo(Command):
    """Take back the seat's last command of this turn (legal when ``taproom.Undo`` is among its legal commands)."""

    type: Literal["taproom.Undo"] = "taproom.Undo"


class MoveUndone(Event):
    """``seat``'s last command is taken back: the game is as it was at ``to_version``."""

    type: Literal["taproom.MoveUndone"] = "taproom.MoveUndone"
    seat: int
    to_version: int


@dataclass
class UndoStep:
    """One command of ``seat`` in the trail: the record's version before it and the game events it caused."""

    seat: int
    version: int
    turn: Any = None  # the seat's ``turn_key`` when the command began: a command that leads into its next turn is final
    events: list[Event] = field(default_factory=list)


@dataclass
class UndoTrail:
    """The stretch of undoable commands: the state before it (``base``) and each command's events, in order.

    In a sequential turn every step is one seat's. In a simultaneous phase (several seats to act at once, their
    decisions independent of each other: Tiefenthal's planning, where each seat places dice on its own board)
    the seats' steps interleave; a seat whose part of the phase is over (``locked``: it finished planning) can
    no longer take its steps back, but they stay in the trail so the others' undos refold them."""

    base: Any
    steps: list[UndoStep] = field(default_factory=list)
    locked: list[int] = field(default_factory=list)
    together: bool = False  # begun in a simultaneous phase (several seats to act at once)

    def last_of(self, seat: int) -> UndoStep | None:
        return next((step for step in reversed(self.steps) if step.seat == seat), None)


def actor_seat(record: GameRecord | None, actor: str | None) -> int | None:
    """The seat a command's actor (an envelope's ``actor``) played, when it names one human seat; else None.

    ``seat:<n>`` is a seat token; ``player:<id>`` the player's seat (in a hot-seat game the one of their seats
    to act, when exactly one is); bots, the service and the autopilot name no seat, and undo nothing.
    """
    if record is None or not actor:
        return None
    kind, _, who = actor.partition(":")
    if kind == "seat" and who.isdigit():
        return int(who)
    if kind != "player" or not who:
        return None
    held = [i for i, s in enumerate(record.seats) if s.player_id == who and s.bot is None]
    if len(held) > 1:
        to_act = set(record.to_act())
        held = [i for i in held if i in to_act]
    return held[0] if len(held) == 1 else None


def _hard_barrier(game: Game[Any], event: Event, after: Any, actor: int) -> bool:
    """An event nobody may undo past (chance, something revealed, the end); the end of the actor's own part of
    the turn is a soft barrier (:func:`after_game_event` locks the actor's steps instead)."""
    if getattr(game, "undo_barrier", None) is None:  # a game that does not say is never undoable
        return True
    return bool(game.reveals(event) or game.is_over(after))


def _turn_over(game: Game[Any], event: Event, after: Any, step: UndoStep) -> bool:
    """The acting seat's turn is over: the game says so, or the seat is in its next turn (``turn_key``)."""
    if game.undo_barrier(event, after, step.seat):
        return True
    return bool(game.turn_key(after, step.seat) != step.turn)


def _together(record: GameRecord, seat: int, trail: UndoTrail) -> bool:
    """The trail was begun in a simultaneous phase that ``seat`` still acts in: the others' steps stay."""
    return trail.together and seat in record.to_act()


def begin_command(record: GameRecord | None, seat: int | None) -> None:
    """Before the events of a command are folded: who acts (None: a bot, the service, or unknown).

    A command of another seat ends the trail (nothing before it is undone any more) unless the phase is
    simultaneous; either way the seat now acting starts its own steps."""
    if record is None:
        return
    trail = record.undo
    if seat is None or not _plays_own_seat(record, seat):
        record.undo = None  # a bot or the service acted: nothing before this is undone any more
        record.acting = None
        return
    if trail is not None and any(step.seat != seat for step in trail.steps) and not _together(record, seat, trail):
        record.undo = None
    record.acting = seat


def _plays_own_seat(record: GameRecord, seat: int) -> bool:
    if record.status != "active" or not 0 <= seat < len(record.seats):
        return False
    info = record.seats[seat]
    return info.bot is None and info.autopilot is None and info.overdue is None


def before_game_event(record: GameRecord) -> None:
    """The first game event of the acting seat's command opens a step of the trail (a new trail if none)."""
    seat = record.acting
    if seat is None:
        return
    record.acting = None
    if record.state is None or record.status != "active":
        return
    trail = record.undo
    if trail is None:
        trail = record.undo = UndoTrail(base=record.game.clone(record.state), together=len(record.to_act()) > 1)
    game = record.game
    turn = game.turn_key(record.state, seat) if seat in game.to_act(record.state) else None
    trail.steps.append(UndoStep(seat=seat, version=record.version, turn=turn))


def after_game_event(record: GameRecord, event: Event) -> None:
    trail = record.undo
    if trail is None or not trail.steps:
        return
    step = trail.steps[-1]
    step.events.append(event)
    game = record.game
    if _hard_barrier(game, event, record.state, step.seat):
        record.undo = None
        return
    if step.seat not in trail.locked and _turn_over(game, event, record.state, step):
        trail.locked.append(step.seat)  # the seat's part is over: its steps are final
    if all(s.seat in trail.locked for s in trail.steps):
        record.undo = None


def undone(record: GameRecord, event: MoveUndone) -> None:
    """Fold ``MoveUndone``: the trail's base with every step but the seat's last folded again."""
    trail = record.undo
    record.acting = None
    step = None if trail is None else trail.last_of(event.seat)
    if trail is None or step is None:  # cannot happen for an event decided by ``decide_undo``
        return
    trail.steps.remove(step)
    game = record.game
    state = game.clone(trail.base)
    for kept in trail.steps:
        for past in kept.events:
            state = game.evolve(state, past)
    record.state = state


def undo_point(record: GameRecord, seat: int) -> int | None:
    """The version ``seat`` would go back to by undoing now, or None when it may not undo."""
    trail = record.undo
    if record.status != "active" or trail is None or seat in trail.locked:
        return None
    step = trail.last_of(seat)
    if step is None or seat not in record.to_act():
        return None
    return step.version


def decide_undo(record: GameRecord, command: Undo) -> Sequence[Event]:
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status}; moves are undone while it runs")
    to_version = undo_point(record, command.seat)
    if to_version is None:
        raise NothingToUndo(f"seat {command.seat} has nothing to undo at version {record.version}: only its own "
                          "moves of this turn, back to the last draw, reveal or move of another seat")
    return [MoveUndone(seat=command.seat, to_version=to_version)]
