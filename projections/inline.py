"""The models written with every append (inline projections): what a game's clients read on every move.

The processor writes them in the same atomic step as the events (``append.lua``), so they are never behind
the log and no API process folds a game to answer: the meta (:class:`~projections.read_models.GameMeta`),
the public view and every seat's view (compressed), each seat's legal commands (the exact body of
``GET /games/{id}/legal``, compressed) and what the answer to the move says after the events (who acts,
the status, the mover's next legal commands). A rebuild (``taproom projections rebuild``) writes the same
bytes from the log alone: :func:`seat_models` is the one place they are made.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import orjson

from domain.core.lifecycle import GameRecord, kernel_commands
from projections import read_models

try:  # ISA-L's deflate, as read_models compresses views (any zlib reads it)
    from isal.isal_zlib import compress as _compress
except ImportError:  # pragma: no cover - isal is a dependency
    from zlib import compress as _compress


@dataclass(frozen=True)
class SeatModels:
    """A game's inline models at one version, serialised."""

    version: int
    status: str
    to_act: list[int]
    meta: bytes
    views: list[tuple[int | None, bytes]]  # (seat or None for the public view, stored view)
    legal: list[bytes]  # per seat: the compressed body of GET /legal
    legal_json: list[bytes]  # the same, uncompressed (for the answer to a move; not stored)

    def after(self, seat: int | None) -> bytes:
        """What the answer to a move by ``seat`` needs once the events are in (JSON): the version, the status,
        the seats to act and, while ``seat`` is still to act, its legal commands (as ``/legal`` answers)."""
        head = b'{"version":%d,"status":%s,"to_act":%s' % (self.version, orjson.dumps(self.status),
                                                          orjson.dumps(self.to_act))
        if seat is not None and self.status == "active" and seat in self.to_act and 0 <= seat < len(self.legal):
            return head + b',"legal":' + self.legal_json[seat] + b"}"
        return head + b"}"


def legal_for(record: GameRecord, version: int, seat: int) -> dict[str, Any]:
    """The seat's legal commands now: the game's when it is to act, and the kernel's whenever they apply."""
    commands = kernel_commands(record, seat)
    if record.status == "active" and seat in record.to_act():
        commands = record.game.legal_commands(record.state, seat) + commands
    return {"version": version, "seat": seat, "commands": [c.model_dump(mode="json", exclude={"seat"})
                                                           for c in commands]}




def load_legal(raw: bytes) -> bytes:
    """The body of ``GET /legal`` as stored by :func:`seat_models` (JSON bytes)."""
    return zlib.decompress(raw)


def seat_models(record: GameRecord, version: int, updated: float) -> SeatModels:
    """Every inline model of ``record`` at ``version`` (``updated``: the time of its last event). The one
    function that serialises the views a client reads: the processor's append and the rebuild both call it."""
    summary = orjson.dumps(read_models.meta(record, updated).to_json())
    seats: list[int | None] = [None, *range(len(record.seats))]
    boards = record.game.views(record.state, seats) if record.state is not None else [None] * len(seats)
    views = list(zip(seats, read_models.dump_views(summary, seats, boards)))
    legal_json = [orjson.dumps(legal_for(record, version, seat)) for seat in range(len(record.seats))]
    legal = [_compress(answer, read_models.VIEW_LEVEL) for answer in legal_json]
    return SeatModels(version, record.status, record.to_act(), summary, views, legal, legal_json)
