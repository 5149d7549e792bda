"""The read models that span games (the lobby, the finished list, standing invitations, the players' inboxes)
as a pure fold: a game's meta at one version, with since when each of its seats waits, gives the game's entries
in them (:func:`entries_of`); two entries in a row give the writes that turn one into the other
(:func:`changes`). The projector only runs these and stores what they say; a rebuild runs the same functions on
what it folds from the log, so it writes the same entries byte for byte.

**Waiting since** (an inbox's order): a seat waits for its holder while it is to act, held by a player and not
played by a bot. It waits since the recorded time (the log's ``ts``) of the first command after which it has
been waiting at every command since: a fold over every command of the log (:func:`wait_step`, over
:class:`Step`), never the moment a projector happened to look.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from domain.core.lifecycle import GameRecord
from projections.read_models import GameMeta

INBOX_OTHER = 10_000_000_000.0
"""Inbox scores: games awaiting the player score their waiting-since time (Unix seconds, below this); the
others ``2 * INBOX_OTHER - updated``, after them, latest first."""


# -- waiting since: a fold over the commands of a game's log ------------------------------------------------
@dataclass(frozen=True)
class Step:
    """A state a game passed through, as the inbox reads it: the version after a command, the recorded time
    of that command (its events' ``ts``) and the seats then waiting for their holders."""

    version: int
    ts: float
    waiting: frozenset[int]


@dataclass(frozen=True)
class Waits:
    """The fold's state for one game: at ``version``, since when each waiting seat waits."""

    version: int = 0
    since: Mapping[int, float] = field(default_factory=dict)


def wait_step(waits: Waits, step: Step) -> Waits:
    """``waits`` after one more command: a seat still waiting keeps its time, one that starts waiting takes the
    command's, one that stops is dropped."""
    return Waits(step.version, {seat: waits.since.get(seat, step.ts) for seat in sorted(step.waiting)})


def fold_waits(waits: Waits, steps: Iterable[Step]) -> Waits:
    for step in steps:
        waits = wait_step(waits, step)
    return waits


def waiting_in(record: GameRecord) -> frozenset[int]:
    """The seats of ``record`` waiting for their holders (what :func:`waiting_seats` reads of its meta)."""
    return frozenset(s for s in record.to_act() if record.seats[s].player_id and not record.seats[s].bot)


def waiting_seats(meta: GameMeta) -> frozenset[int]:
    """The seats waiting for their holders: to act, held by a player, not played by a bot (a seat a bot took
    over by vote awaits nobody)."""
    seats = meta.seats
    return frozenset(s for s in meta.to_act if 0 <= s < len(seats) and seats[s].player_id and not seats[s].bot)


def step_of(meta: GameMeta) -> Step:
    """The command that brought the game to ``meta`` as a step (its ``updated`` is that command's time)."""
    return Step(meta.version, meta.updated, waiting_seats(meta))


# -- a game's entries in the models spanning games ----------------------------------------------------------
@dataclass(frozen=True)
class Entries:
    """A game's entries at one version of its meta. ``lobby``/``finished``: its score there, None when it is not
    listed; ``invitations``: (player, member, expiry) of each standing invitation of an open game; ``inbox``:
    per seat held by a player, (player, score)."""

    version: int
    lobby: float | None
    finished: float | None
    invitations: tuple[tuple[str, str, float], ...]
    inbox: Mapping[int, tuple[str, float]]


def entries_of(meta: GameMeta, waits: Waits) -> Entries:
    """The game's entries from its meta and ``waits`` (at the meta's version)."""
    assert waits.version == meta.version, "waits and meta at one version"
    invitations = tuple((info.invited.player_id, f"{meta.game_id}:{seat}", info.invited.expires_at)
                        for seat, info in enumerate(meta.seats) if info.invited is not None) \
        if meta.status == "open" else ()
    inbox = {seat: (info.player_id, waits.since.get(seat, INBOX_OTHER * 2 - meta.updated))
             for seat, info in enumerate(meta.seats) if info.player_id}
    return Entries(meta.version, meta.updated if meta.status == "open" else None,
                   meta.updated if meta.status == "scored" else None, invitations, inbox)


@dataclass(frozen=True)
class Changes:
    """The writes that bring the stored models from one game's entries to its next. Lobby, finished and
    invitation entries are written again each time (idempotent; an invitation's reader drops ended ones);
    the lobby entry is removed once; an inbox entry only when it changed."""

    lobby: float | None
    unlist: bool
    finished: float | None
    invitations: tuple[tuple[str, str, float], ...]
    inbox: tuple[tuple[str, float], ...]


def changes(before: Entries | None, after: Entries) -> Changes:
    """What to write for ``after`` when the stored models hold ``before`` (None: unknown, as after a restart)."""
    unlist = after.lobby is None and (before is None or before.lobby is not None)  # a game never opens again
    inbox = tuple(entry for seat, entry in after.inbox.items() if before is None or before.inbox.get(seat) != entry)
    return Changes(after.lobby, unlist, after.finished, after.invitations, inbox)
