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
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

import orjson

from domain.core import Command
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
    return _legal(record, version, seat, record.to_act())


def _legal(record: GameRecord, version: int, seat: int, to_act: list[int]) -> dict[str, Any]:
    commands = kernel_commands(record, seat)
    if record.status == "active" and seat in to_act:
        commands = record.game.legal_commands(record.state, seat) + commands
    return {"version": version, "seat": seat, "commands": [_command_json(c) for c in commands]}


def _command_json(command: Command) -> dict[str, Any]:
    """``command.model_dump(mode="json", exclude={"seat"})``, without pydantic's serialiser for a command class
    whose fields are all plain JSON values (:func:`_plain_fields`): most legal commands are, and pydantic's dump
    was most of what listing them cost."""
    cls = type(command)
    names = _PLAIN.get(cls)
    if names is None:
        names = _PLAIN[cls] = _plain_fields(cls)
    if not names:
        return command.model_dump(mode="json", exclude={"seat"})
    fields = command.__dict__
    return {name: fields[name] for name in names}


_PLAIN: dict[type, tuple[str, ...]] = {}
_SCALARS = (int, str, bool, type(None))


def _plain_fields(cls: type[Command]) -> tuple[str, ...]:
    """The fields of ``cls`` but ``seat``, in dump order, when pydantic's JSON dump of it is its fields' values
    as they are (each an int, str, bool, None or a Literal of those; no alias, serializer or computed field);
    () otherwise."""
    decorators = cls.__pydantic_decorators__
    if decorators.field_serializers or decorators.model_serializers or cls.model_computed_fields:
        return ()
    for field in cls.model_fields.values():
        if field.alias or field.serialization_alias or field.exclude or not _scalar(field.annotation):
            return ()
    return tuple(name for name in cls.model_fields if name != "seat")


def _scalar(annotation: Any) -> bool:
    if annotation in _SCALARS:
        return True
    origin = get_origin(annotation)
    if origin is Literal:
        return all(type(arg) in _SCALARS for arg in get_args(annotation))
    if origin in (Union, UnionType):
        return all(_scalar(arg) for arg in get_args(annotation))
    return False


def load_legal(raw: bytes) -> bytes:
    """The body of ``GET /legal`` as stored by :func:`seat_models` (JSON bytes: stored as they are when short,
    deflated otherwise)."""
    return raw if raw[:1] == b"{" else zlib.decompress(raw)


def seat_models(record: GameRecord, version: int, updated: float) -> SeatModels:
    """Every inline model of ``record`` at ``version`` (``updated``: the time of its last event). The one
    function that serialises the views a client reads: the processor's append and the rebuild both call it."""
    summary = orjson.dumps(read_models.meta(record, updated).to_json())
    seats: list[int | None] = [None, *range(len(record.seats))]
    boards = record.game.views(record.state, seats) if record.state is not None else [None] * len(seats)
    views = list(zip(seats, read_models.dump_views(summary, seats, boards)))
    to_act = record.to_act()
    legal_json = [orjson.dumps(_legal(record, version, seat, to_act)) for seat in range(len(record.seats))]
    legal = [_stored(answer) for answer in legal_json]
    return SeatModels(version, record.status, to_act, summary, views, legal, legal_json)


RAW_LEGAL_BYTES = 256
"""A legal-commands body up to this long is stored as it is: deflating it saves a few dozen bytes for a few
microseconds (a seat not to act has only the kernel's commands, ``taproom.Resign`` and the like)."""


def _stored(answer: bytes) -> bytes:
    return answer if len(answer) <= RAW_LEGAL_BYTES else _compress(answer, read_models.VIEW_LEVEL)
