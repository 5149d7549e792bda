"""JSON codecs of game states and kernel records (snapshots): data that cannot run code when loaded.

A snapshot is read back from Redis, which is not a trusted source of code, so it is never a pickle.
Every game's state is a dataclass tree that pydantic can dump to JSON and validate back (a game with an
unusual field, such as a dict keyed by tuples, annotates it with :data:`TupleKeyed`); the round trip
gives a state equal to the original, which the decider contract test checks for every game.

    encode_record(record) -> bytes     decode_record(data) -> GameRecord (ValueError when unreadable)
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, TypeVar

from pydantic import BeforeValidator, PlainSerializer, TypeAdapter

S = TypeVar("S")


def _pairs_out(mapping: dict[tuple[Any, ...], Any]) -> list[list[Any]]:
    return [[*key, value] for key, value in mapping.items()]


def _pairs_in(data: Any) -> Any:
    if isinstance(data, list):
        return {tuple(item[:-1]): item[-1] for item in data}
    return data


TupleKeyed = Annotated[S, PlainSerializer(_pairs_out, when_used="json"), BeforeValidator(_pairs_in)]
"""A dict keyed by tuples, written to JSON as ``[[*key, value], ...]`` (JSON objects key by strings)."""


def as_tuples(data: Any) -> Any:
    """JSON lists back to tuples, all the way down (turn keys are nested tuples)."""
    if isinstance(data, list):
        return tuple(as_tuples(x) for x in data)
    return data


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def adapter(cls: Any) -> TypeAdapter[Any]:
    """One pydantic adapter per class (building one is slow, using it is fast)."""
    found = _ADAPTERS.get(cls)
    if found is None:
        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return found


def encode_state(state: Any) -> bytes:
    return adapter(type(state)).dump_json(state)


def decode_state(cls: type[S], data: bytes | str) -> S:
    result: S = adapter(cls).validate_json(data)
    return result


def encode_record(record: Any) -> bytes:
    """The kernel record as JSON; its game state is encoded by its game (``Game.encode_state``)."""
    from .record import GameRecord

    assert isinstance(record, GameRecord)
    body = adapter(GameRecord).dump_python(dataclasses.replace(record, state=None), mode="json")
    state = None if record.state is None else record.game.encode_state(record.state).decode()
    return adapter(dict[str, Any]).dump_json({"record": body, "state": state})


def decode_record(data: bytes | str) -> Any:
    """A record written by :func:`encode_record`; ValueError (pydantic's) when the data is not one."""
    from .record import GameRecord

    raw = adapter(dict[str, Any]).validate_json(data)
    record: GameRecord = adapter(GameRecord).validate_python(raw["record"])
    if raw["state"] is not None:
        record.state = record.game.decode_state(raw["state"])
    return record
