"""Compressed segments: the settled part of a game's log, moved out of its events stream.

A segment is one field ``"<first>-<last>"`` of the game's segments hash (``Keys.segments``) holding events
``first``..``last`` and the records of the commands that made them. Two formats are read:

* **format 1** (written before the lean format; read, never written): ``zlib(envelopes as stored, one a line,
  a blank line, the command records, one a line)``; its first byte is zlib's ``x``.
* **format 2** (written now, one block per compaction, appended and never rewritten): a flag byte (``\\x02``:
  compressed on its own; ``\\x03``: compressed with the segment before it, decompressed, as the preset
  dictionary, so a small block compresses about as well as one big one without recompressing anything),
  the hash of the block's last event (32 bytes), then its lines as raw deflate (no zlib header or checksum:
  the hashes check the content): per command its
  record (the JSON stored for it), then each of its events as stored *less what is rebuilt on read*:
  ``game_id`` (the key's), ``version`` (the record's ``from_version`` + i), ``prev_hash`` (the event
  before's hash), ``hash`` (computed over the rebuilt event, as when it was sealed) and ``command_id``,
  ``actor``, ``ts`` where they equal the record's. Those fields hold two thirds of a compressed log (a
  SHA-256 in hex does not compress, and each one was stored twice, as ``hash`` and as the next
  ``prev_hash``).

The rebuilt envelopes are the stored ones byte for byte: :func:`encode` rebuilds every event before
leaving anything out, and keeps an event whose rebuild differs (a layout this code does not know, or
an event altered in Redis) whole, prefixed with ``=``. The last event's hash is kept (the block's anchor)
rather than rebuilt: an alteration of a block after it was written makes its last event fail the
chain check (``verify_chain``: "event N was altered"), so tampering still shows, located to the block.
"""

from __future__ import annotations

import hashlib
import zlib
from typing import Any

import orjson

from services.infrastructure.eventstore.envelope import GENESIS_HASH, Envelope

LEAN = 2
LEAN_WITH_DICTIONARY = 3
WINDOW = 32768
"""zlib's window: the part of the previous block a new block can refer to."""
LEVEL = 6

_ORDER = tuple(Envelope.model_fields)  # game_id, version, type, ..., prev_hash, hash: the stored order
_REBUILT = frozenset({"game_id", "version", "prev_hash", "hash"})
_SHARED = ("command_id", "actor", "ts")
_BODY = tuple(name for name in _ORDER if name not in _REBUILT)


class Block:
    """A decoded segment: envelopes (JSON as stored), command records, its decompressed bytes (the next
    block's dictionary) and the hash of its last event. A format-2 block rebuilds its envelopes and parses
    its records only when they are asked for: a block read only as the dictionary of the next one is just
    inflated."""

    __slots__ = ("raw", "anchor", "_events", "_records", "_lazy")

    def __init__(self, events: list[bytes] | None, records: list[dict[str, Any]] | None, raw: bytes, anchor: str,
                 lazy: tuple[str, int, str] | None = None) -> None:
        self.raw = raw
        self.anchor = anchor
        self._events = events
        self._records = records
        self._lazy = lazy  # (game id, first version, hash of the event before) to rebuild from ``raw``

    @property
    def events(self) -> list[bytes]:
        if self._events is None:
            self._parse()
        assert self._events is not None
        return self._events

    @property
    def records(self) -> list[dict[str, Any]]:
        if self._records is None:
            self._parse()
        assert self._records is not None
        return self._records

    def docs(self) -> list[dict[str, Any]]:
        """The block's events decoded for folding (see :func:`fold_docs`), not rebuilt: each has the stored fields
        and ``version``, ``command_id``, ``actor``, ``ts`` and, the last, ``hash``; the others lack ``game_id``,
        ``prev_hash`` and ``hash`` (rebuilding them is what checking the chain needs, not what folding does)."""
        if self._events is not None or self._lazy is None:
            return [orjson.loads(raw) for raw in self.events]
        return _docs(self.raw, self.anchor)

    def _parse(self) -> None:
        assert self._lazy is not None
        game_id, first, prev_hash = self._lazy
        self._events, self._records = _rebuild_all(game_id, first, self.raw, prev_hash, self.anchor)


def _rebuild(game_id: str, version: int, lean: dict[str, Any], record: dict[str, Any],
             prev_hash: str) -> tuple[dict[str, Any], str]:
    """The full envelope fields of a lean event (without ``hash``) and the hash they seal to."""
    fields: dict[str, Any] = {"game_id": game_id, "version": version}
    for name in _BODY:
        if name in lean:
            fields[name] = lean[name]
        elif name in _SHARED and name in record:
            fields[name] = record[name]
    fields["prev_hash"] = prev_hash
    digest = hashlib.sha256(prev_hash.encode() + orjson.dumps(fields, option=orjson.OPT_SORT_KEYS)).hexdigest()
    return fields, digest


def _lean_line(game_id: str, version: int, raw: bytes, record: dict[str, Any], prev_hash: str) -> tuple[bytes, str]:
    """The line that stores one event, and the hash the next event follows."""
    stored = orjson.loads(raw)
    lean = {k: v for k, v in stored.items()
            if k not in _REBUILT and not (k in _SHARED and k in record and record[k] == v)}
    fields, digest = _rebuild(game_id, version, lean, record, prev_hash)
    fields["hash"] = digest
    if digest == stored.get("hash") and orjson.dumps(fields) == raw:
        return orjson.dumps(lean), digest
    return b"=" + raw, str(stored.get("hash", ""))  # kept whole: its rebuild would not be what was stored


def encode(game_id: str, first: int, events: list[bytes], records: list[bytes],
           previous: Block | None) -> tuple[bytes, Block] | None:
    """A format-2 block of ``events`` (versions ``first``.., as stored) and their commands' ``records``
    (JSON as stored, whole commands covering exactly those versions), following ``previous`` (the block
    ending at ``first`` - 1; None only when ``first`` is 1). None: the records do not cover the events."""
    parsed = sorted(((orjson.loads(r), r) for r in records), key=lambda pair: pair[0]["from_version"])
    prev_hash = previous.anchor if previous is not None else GENESIS_HASH
    lines: list[bytes] = []
    at = first - 1
    for record, line in parsed:
        if record["from_version"] != at or record["to_version"] <= at:
            return None
        lines.append(line)
        for version in range(at + 1, record["to_version"] + 1):
            if version - first >= len(events):
                return None
            lean, prev_hash = _lean_line(game_id, version, events[version - first], record, prev_hash)
            lines.append(lean)
        at = record["to_version"]
    if at != first - 1 + len(events):
        return None
    raw = b"\n".join(lines)
    anchor = str(orjson.loads(events[-1]).get("hash", ""))
    if previous is not None and previous.raw:
        flag = LEAN_WITH_DICTIONARY
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, zdict=previous.raw[-WINDOW:])
    else:
        flag, packer = LEAN, zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    # a last hash that is not 64 hex digits (altered) is in its event's line, kept whole
    blob = bytes([flag]) + _binary(anchor) + packer.compress(raw) + packer.flush()
    return blob, Block(events, [p[0] for p in parsed], raw, anchor)


def _binary(digest: str) -> bytes:
    try:
        raw = bytes.fromhex(digest)
    except ValueError:
        return bytes(32)
    return raw if len(raw) == 32 else bytes(32)


def needs_previous(blob: bytes, first: int) -> bool:
    """Whether decoding ``blob`` takes the block before it (format 2 after the first event)."""
    return blob[:1] != b"x" and first > 1


def decode(game_id: str, first: int, blob: bytes, previous: Block | None) -> Block:
    """The block stored as ``blob`` (either format); ``previous``: the block before it when
    :func:`needs_previous` says so."""
    if blob[:1] == b"x":  # format 1: zlib's header
        raw = zlib.decompress(blob)
        stored, _, commands = raw.partition(b"\n\n")
        envelopes = stored.split(b"\n")
        return Block(envelopes, [orjson.loads(c) for c in commands.split(b"\n") if c], raw,
                     str(orjson.loads(envelopes[-1]).get("hash", "")))
    flag, anchor = blob[0], blob[1:33].hex()
    if flag == LEAN_WITH_DICTIONARY:
        assert previous is not None, "a block compressed with the one before it"
        unpacker = zlib.decompressobj(-15, zdict=previous.raw[-WINDOW:])
    elif flag == LEAN:
        unpacker = zlib.decompressobj(-15)
    else:
        raise ValueError(f"segment format {flag} unknown")
    raw = unpacker.decompress(blob[33:]) + unpacker.flush()
    if blob[1:33] == bytes(32):  # the last hash was not 64 hex digits: its event is kept whole, hash and all
        anchor = str(orjson.loads(raw[raw.rindex(b"\n=") + 2:]).get("hash", ""))
    prev_hash = previous.anchor if previous is not None else GENESIS_HASH
    return Block(None, None, raw, anchor, (game_id, first, prev_hash))


def _rebuild_all(game_id: str, first: int, raw: bytes, prev_hash: str,
                 anchor: str) -> tuple[list[bytes], list[dict[str, Any]]]:
    """The envelopes and records of a format-2 block's lines."""
    lines = raw.split(b"\n")
    events: list[bytes] = []
    records: list[dict[str, Any]] = []
    i = 0
    while i < len(lines):
        record = orjson.loads(lines[i])
        records.append(record)
        i += 1
        for version in range(record["from_version"] + 1, record["to_version"] + 1):
            line = lines[i]
            i += 1
            if line[:1] == b"=":
                events.append(line[1:])
                prev_hash = str(orjson.loads(line[1:]).get("hash", ""))
                continue
            fields, digest = _rebuild(game_id, version, orjson.loads(line), record, prev_hash)
            fields["hash"] = anchor if i == len(lines) else digest  # the last one: as it was stored
            events.append(orjson.dumps(fields))
            prev_hash = digest
    if len(events) != sum(r["to_version"] - r["from_version"] for r in records) or not events:
        raise ValueError(f"segment from {first} of {game_id} does not decode")
    return events, records


def _docs(raw: bytes, anchor: str) -> list[dict[str, Any]]:
    """The events of a format-2 block's lines as :meth:`Block.docs` gives them."""
    lines = raw.split(b"\n")
    docs: list[dict[str, Any]] = []
    i = 0
    while i < len(lines):
        record = orjson.loads(lines[i])
        shared = [(name, record[name]) for name in _SHARED if name in record]
        i += 1
        for version in range(record["from_version"] + 1, record["to_version"] + 1):
            line = lines[i]
            i += 1
            if line[:1] == b"=":
                docs.append(orjson.loads(line[1:]))
                continue
            doc = orjson.loads(line)
            for name, value in shared:
                doc.setdefault(name, value)
            doc["version"] = version
            docs.append(doc)
    if docs and "hash" not in docs[-1]:
        docs[-1]["hash"] = anchor
    return docs
