"""JSON codecs of game states and kernel records (snapshots): data that cannot run code when loaded.

A snapshot is read back from Redis, which is not a trusted source of code, so it is never a pickle.
Every game's state is a dataclass tree that pydantic can dump to JSON and validate back (a game with an
unusual field, such as a dict keyed by tuples, annotates it with :data:`TupleKeyed`); the round trip
gives a state equal to the original, which the decider contract test checks for every game.

    encode_state(state) -> bytes       decode_state(cls, data) -> state
(the kernel record's own codec, ``encode_record``/``decode_record``, is in :mod:`domain.core.record`, which
builds on this module: this one imports nothing of the kernel, so it sits below both ``game`` and ``record``).
"""

from __future__ import annotations

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
