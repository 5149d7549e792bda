"""Undo within one's own turn, as an event of the append-only log (pure, like the rest of the kernel).

A seat's holder may take back their own moves of the turn they are in, one command at a time, until
something was revealed or decided by chance, or another seat acted: the policy of the big sites, so no
draw can be fished for by undoing and trying again. *Which* events stop an undo is the game's to say
(``Game.undo_barrier(event, after, actor)``: chance, revealed information, the end of the actor's turn);
the kernel adds that any command of another seat or of the service stops it too.

How the log stays the truth: the record keeps an *undo trail* while a human seat plays a stretch of
undoable commands: a copy of the game state where the stretch began (``base``), the game events since
then, and where each command began. ``taproom.MoveUndone(seat, to_version)`` puts the game back as it
was at ``to_version`` (the base, with the trail's events before that command folded again); the record's
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


class Undo(Command):
    """Take back the seat's last command of this turn (legal when ``taproom.Undo`` is among its legal commands)."""

    type: Literal["taproom.Undo"] = "taproom.Undo"


class MoveUndone(Event):
    """``seat``'s last command is taken back: the game is as it was at ``to_version``."""

    type: Literal["taproom.MoveUndone"] = "taproom.MoveUndone"
    seat: int
    to_version: int


@dataclass
class UndoTrail:
    """The stretch of ``seat``'s undoable commands: the state before it, its game events, where each command began."""

    seat: int
    base: Any
    steps: list[tuple[int, int]] = field(default_factory=list)  # (version before the command, trail events before it)
    events: list[Event] = field(default_factory=list)


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


def _barrier(game: Game[Any], event: Event, after: Any, actor: int) -> bool:
    declared = getattr(game, "undo_barrier", None)
    if declared is None:  # a game that does not say is never undoable
        return True
    return bool(declared(event, after, actor))


def begin_command(record: GameRecord | None, seat: int | None) -> None:
    """Before the events of a command are folded: who acts (None: a bot, the service, or unknown)."""
    if record is None:
        return
    trail = record.undo
    if seat is None or not _plays_own_seat(record, seat) or (trail is not None and trail.seat != seat):
        record.undo = None  # another seat or the service acted: nothing before this is undone any more
        record.acting = None
        return
    record.acting = seat


def _plays_own_seat(record: GameRecord, seat: int) -> bool:
    if record.status != "active" or not 0 <= seat < len(record.seats):
        return False
    info = record.seats[seat]
    return info.bot is None and info.autopilot is None and info.overdue is None


def before_game_event(record: GameRecord) -> None:
    """The first game event of the acting seat's command opens a step of its trail (a new trail if none)."""
    seat = record.acting
    if seat is None:
        return
    record.acting = None
    if record.state is None or record.status != "active":
        return
    trail = record.undo
    if trail is None:
        trail = record.undo = UndoTrail(seat=seat, base=record.game.clone(record.state))
    trail.steps.append((record.version, len(trail.events)))


def after_game_event(record: GameRecord, event: Event) -> None:
    trail = record.undo
    if trail is None:
        return
    if _barrier(record.game, event, record.state, trail.seat):
        record.undo = None
    else:
        trail.events.append(event)


def undone(record: GameRecord, event: MoveUndone) -> None:
    """Fold ``MoveUndone``: the state before the trail's last command."""
    trail = record.undo
    record.acting = None
    if trail is None or not trail.steps:  # cannot happen for an event decided by ``decide_undo``
        return
    _, count = trail.steps.pop()
    game = record.game
    state = game.clone(trail.base)
    for past in trail.events[:count]:
        state = game.evolve(state, past)
    del trail.events[count:]
    record.state = state


def undo_point(record: GameRecord, seat: int) -> int | None:
    """The version ``seat`` would go back to by undoing now, or None when it may not undo."""
    trail = record.undo
    if record.status != "active" or trail is None or trail.seat != seat or not trail.steps:
        return None
    if seat not in record.to_act():
        return None
    return trail.steps[-1][0]


def decide_undo(record: GameRecord, command: Undo) -> Sequence[Event]:
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status}; moves are undone while it runs")
    to_version = undo_point(record, command.seat)
    if to_version is None:
        raise IllegalMove(f"seat {command.seat} has nothing to undo at version {record.version}: only its own "
                          "moves of this turn, back to the last draw, reveal or move of another seat")
    return [MoveUndone(seat=command.seat, to_version=to_version)]
