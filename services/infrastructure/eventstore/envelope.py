"""Event envelopes: the stored form of an event, hash-chained per game."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict

from domain.core import Event
from domain.core.lifecycle import KERNEL_EVENTS, parse_event
from domain.core.messages import hide_fields
from domain.core.registry import get_game
from domain.core.upcasting import upcast

GENESIS_HASH = "0" * 64


class Envelope(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: str
    version: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    visibility: str  # "public" | "private"
    private_to: list[int] = []
    private_fields: list[str] = []
    command_id: str
    actor: str
    ts: float
    prev_hash: str
    hash: str = ""

    def body_bytes(self) -> bytes:
        """Canonical bytes of everything but the hash (what the hash covers)."""
        return orjson.dumps(self.model_dump(exclude={"hash"}), option=orjson.OPT_SORT_KEYS)

    def compute_hash(self) -> str:
        return hashlib.sha256(self.prev_hash.encode() + self.body_bytes()).hexdigest()

    def model_copy(self, *, update: Any = None, deep: bool = False) -> Envelope:
        copied = super().model_copy(update=update, deep=deep)
        copied.__dict__.pop("_json", None)  # the JSON seal kept is of the original
        return copied

    def to_json(self) -> bytes:
        cached = getattr(self, "_json", None)  # set by seal: the envelope is frozen, its JSON never changes
        return cached if cached is not None else orjson.dumps(self.model_dump())

    @classmethod
    def from_json(cls, raw: bytes | str) -> Envelope:
        """Parse and validate (records from outside, e.g. a file to verify)."""
        return cls.model_validate(orjson.loads(raw))

    @classmethod
    def trusted(cls, raw: bytes | str) -> Envelope:
        """Parse without validation: only for what this service itself wrote to its store."""
        return cls.trusted_values(orjson.loads(raw))

    @classmethod
    def trusted_values(cls, values: dict[str, Any]) -> Envelope:
        """:meth:`trusted` of what is already parsed (an envelope a reply carried in its JSON)."""
        return cls._complete(values) if values.keys() == _FIELDS else cls.model_construct(**values)

    @classmethod
    def _complete(cls, values: dict[str, Any]) -> Envelope:
        """What ``model_construct`` makes of a dict holding every field, without its per-field work (an
        envelope is built per event on the processor's and the API's hot paths)."""
        env = cls.__new__(cls)
        object.__setattr__(env, "__dict__", values)
        object.__setattr__(env, "__pydantic_fields_set__", set(_FIELDS))
        object.__setattr__(env, "__pydantic_extra__", None)
        object.__setattr__(env, "__pydantic_private__", None)
        return env

    def event(self, game_type: str) -> Event:
        """The domain event, upcast to the current schema of its type."""
        return decode_event(game_type, self.type, self.schema_version, self.payload)

    def redacted(self, seat: int | None, game_over: bool) -> dict[str, Any]:
        """What ``seat`` may see of this envelope: private fields hidden until the game ends."""
        # every field is plain JSON data (no models inside): a shallow copy is its dump, without pydantic's walk
        data = {k: v for k, v in self.__dict__.items() if k not in _UNSHOWN}
        if self.visibility == "private" and not game_over and (seat is None or seat not in self.private_to):
            data["payload"] = hide_fields(self.payload, self.private_fields)
        return data


_FIELDS = frozenset(Envelope.model_fields)
_UNSHOWN = frozenset({"private_to", "private_fields"})


def decode_event(game_type: str, type_name: str, schema_version: int, payload: dict[str, Any]) -> Event:
    """A stored payload as the current domain event (upcast first when its schema is older)."""
    cls = _event_class(game_type, type_name)
    if cls is not None and schema_version < cls.schema_version:
        payload = upcast(game_type, type_name, schema_version, payload, cls.schema_version)
    return parse_event(game_type, payload)


_DECODERS: dict[tuple[str, str, int], tuple[Any, Callable[[dict[str, Any]], Event]]] = {}


def event_decoder(game_type: str, type_name: str, schema_version: int) -> Callable[[dict[str, Any]], Event]:
    """:func:`decode_event` for one (game, type, schema version), looked up once: the hot path of folding a log
    (an event of the current schema is its model's validation alone). Kept per registered game object, so a
    game registered anew is looked up anew."""
    kernel = type_name in KERNEL_EVENTS
    game: Any = None if kernel else _registered(game_type)
    key = ("" if kernel else game_type, type_name, schema_version)
    found = _DECODERS.get(key)
    if found is not None and found[0] is game:
        return found[1]
    cls = _event_class(game_type, type_name) if kernel or game is not None else None
    if cls is not None and schema_version >= cls.schema_version and _type_name_of(cls) == type_name:
        decoder: Callable[[dict[str, Any]], Event] = cls.__pydantic_validator__.validate_python  # model_validate
    else:
        def decoder(payload: dict[str, Any]) -> Event:
            return decode_event(game_type, type_name, schema_version, payload)
    _DECODERS[key] = (game, decoder)
    return decoder


def _registered(game_type: str) -> Any:
    try:
        return get_game(game_type)
    except Exception:  # unknown: decode_event says so when it is asked
        return None


def _type_name_of(cls: type[Event]) -> str:
    return str(cls.model_fields["type"].default)


def _event_class(game_type: str, type_name: str) -> type[Event] | None:
    if type_name in KERNEL_EVENTS:
        return KERNEL_EVENTS[type_name]
    return get_game(game_type)._event_index().get(type_name)


def seal(game_id: str, version: int, event: Event, command_id: str, actor: str, ts: float, prev_hash: str) -> Envelope:
    """Wrap a domain event into a hashed envelope following ``prev_hash``."""
    private = bool(event.private_fields)
    fields: dict[str, Any] = dict(
        game_id=game_id, version=version, type=event.type, schema_version=type(event).schema_version,
        payload=event.model_dump(mode="json"), visibility="private" if private else "public",
        private_to=sorted(event.private_to()) if private else [],
        private_fields=sorted(event.private_fields), command_id=command_id, actor=actor, ts=ts,
        prev_hash=prev_hash,
    )
    # What compute_hash covers (every field but the hash, keys sorted), serialized once from the plain values
    # instead of through model_dump; test_eventstore checks the two agree.
    digest = hashlib.sha256(prev_hash.encode() + orjson.dumps(fields, option=orjson.OPT_SORT_KEYS)).hexdigest()
    fields["hash"] = digest
    env = Envelope._complete(fields)
    object.__setattr__(env, "_json", orjson.dumps(fields))  # what to_json gives (same field order), never stale:
    return env                                               # the envelope is frozen


def verify_chain(envelopes: list[Envelope]) -> tuple[bool, str]:
    """Check versions are consecutive from 1 and every hash links; returns (ok, reason)."""
    prev = GENESIS_HASH
    for expected, env in enumerate(envelopes, start=1):
        if env.version != expected:
            return False, f"version {env.version} where {expected} was expected"
        if env.prev_hash != prev:
            return False, f"event {env.version} does not follow the previous hash"
        if env.compute_hash() != env.hash:
            return False, f"event {env.version} was altered (hash mismatch)"
        prev = env.hash
    return True, "ok"
