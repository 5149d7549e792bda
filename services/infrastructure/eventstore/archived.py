"""Archived games, read side: the cold store interface and reading an archive back.

A finished game leaves Redis for a cold store (``services.infrastructure.archive`` writes it); its summary in Redis
(``Keys.archived``) names the archive by URI, and every read of the event store answers from it through an
:class:`ArchiveReader` (see ``EventStore.archive_of``).

A cold store holds immutable objects by name (``put_many``/``put``/``get``/``exists``/``delete``/``uri``).
The embedded default is a directory (:class:`DirectoryStore`): an object is written to a temporary file,
flushed to disk and renamed into place, so a reader never sees half an object. A deployment's is PostgreSQL
(``services.infrastructure.coldstore``, ``TAPROOM_COLD_STORE_URL``): a game's objects and its result rows go in
one transaction, and every process reaching the database reads them back. Another store (an object store: S3,
GCS, ...) implements :class:`ColdStore` with its client and registers its URI scheme with
:func:`register_scheme`; an archived game's summary names its objects by URI, and the process reads them
through the reader of its composition root (``services.infrastructure.bootstrap``) or :func:`open_uri`.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urlparse

import orjson


class ColdStore(Protocol):
    """Immutable objects by name (a relative path such as ``tr/s3/<game>.jsonl.gz``).

    The contract (``tests/services/test_cold_store_contract.py`` holds every store to it): an object reads back
    byte for byte, by name and by the URI ``put_many`` returned, from another store object over the same place
    (another process, another machine); a name replaced is replaced whole; a name never stored raises
    ``FileNotFoundError``; a name that is not relative (``/x``, ``a/../b``) raises ``ValueError``."""

    def put_many(self, objects: Mapping[str, bytes], results: Sequence[Any] = ()) -> dict[str, str]:
        """Store every object (and a finished game's result rows, where the store keeps a results table)
        at once where the store has transactions, each object whole in any case; returns each name's URI."""

    def put(self, name: str, data: bytes) -> str:
        """Store ``data`` under ``name`` (replacing an object of that name whole); returns its URI."""

    def get(self, name: str) -> bytes:
        """The object's bytes; raises ``FileNotFoundError`` when there is none."""

    def exists(self, name: str) -> bool: ...

    def delete(self, name: str) -> None:
        """Remove the object (nothing when there is none)."""

    def uri(self, name: str) -> str:
        """The URI naming the object for :func:`open_uri`."""


class DirectoryStore:
    """A cold store in a local (or mounted network) directory."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).expanduser().resolve()

    def _path(self, name: str) -> Path:
        if not name or name.startswith("/") or ".." in name.split("/"):
            raise ValueError(f"object name {name!r} is not a relative name")
        path = (self.root / name).resolve()
        if self.root not in path.parents:
            raise ValueError(f"object name {name!r} leaves the store")
        return path

    def put_many(self, objects: Mapping[str, bytes], results: Sequence[Any] = ()) -> dict[str, str]:
        """Each object whole, one after another (a directory has no transaction: a crash between two leaves
        the first, which the archive's next run rewrites); no results table (``results`` are not kept)."""
        return {name: self.put(name, data) for name, data in objects.items()}

    def put(self, name: str, data: bytes) -> str:
        path = self._path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return self.uri(name)

    def get(self, name: str) -> bytes:
        return self._path(name).read_bytes()

    def exists(self, name: str) -> bool:
        return self._path(name).is_file()

    def delete(self, name: str) -> None:
        self._path(name).unlink(missing_ok=True)

    def uri(self, name: str) -> str:
        return self._path(name).as_uri()


_SCHEMES: dict[str, Callable[[str], bytes]] = {}
_lock = threading.Lock()


def register_scheme(scheme: str, reader: Callable[[str], bytes]) -> None:
    """Let :func:`open_uri` read ``scheme://...`` URIs (an object store's ``get`` by URI)."""
    with _lock:
        _SCHEMES[scheme] = reader


def _read_file_uri(uri: str) -> bytes:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)).read_bytes()


register_scheme("file", _read_file_uri)


def open_uri(uri: str) -> bytes:
    """The bytes of the object ``uri`` names (``file://`` built in; others by :func:`register_scheme`)."""
    scheme = urlparse(uri).scheme
    reader = _SCHEMES.get(scheme)
    if reader is None:
        raise LookupError(f"no cold store reads {scheme!r} URIs here (register_scheme)")
    return reader(uri)


def cold_store(archive_dir: str | None) -> DirectoryStore:
    """The configured cold store: the directory ``archive_dir`` (default: ``$XDG_DATA_HOME/taproom/archive``)."""
    if archive_dir:
        return DirectoryStore(archive_dir)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return DirectoryStore(os.path.join(base, "taproom", "archive"))


@dataclass
class ArchivedGame:
    """An archive read back: what the event store answers from once the game left Redis."""

    envelopes: list[bytes]  # envelope JSON, as the events stream held it
    commands: list[dict[str, Any]]  # accepted command records, by version
    rejections: dict[str, dict[str, Any]]
    seed: bytes | None
    side: dict[str, Any] = field(default_factory=dict)
    by_id: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_id = {c["command_id"]: c for c in self.commands}


def _decode_record(raw: bytes) -> tuple[list[bytes], list[dict[str, Any]], bytes | None]:
    envelopes: list[bytes] = []
    commands: list[dict[str, Any]] = []
    seed: bytes | None = None
    for line in raw.splitlines():
        if not line.strip():
            continue
        item = orjson.loads(line)
        kind = item.pop("kind", None)
        if kind == "event":
            envelopes.append(orjson.dumps(item))
            if item.get("type") == "taproom.SeedRevealed":
                seed = bytes.fromhex(item["payload"]["seed"])
        elif kind == "command":
            commands.append(item)
    commands.sort(key=lambda c: c["from_version"])
    return envelopes, commands, seed


class ArchiveReader:
    """Reads archives by their pointer, keeping the last ``cache_size`` in memory (archives never change)."""

    def __init__(self, cache_size: int = 32, opener: Callable[[str], bytes] = open_uri) -> None:
        self.cache_size = cache_size
        self.opener = opener
        self._cache: OrderedDict[str, ArchivedGame] = OrderedDict()
        self._lock = threading.Lock()

    def load(self, pointer: dict[str, Any]) -> ArchivedGame:
        uri = pointer["uri"]
        with self._lock:
            found = self._cache.get(uri)
            if found is not None:
                self._cache.move_to_end(uri)
                return found
        packed = self.opener(uri)
        if hashlib.sha256(packed).hexdigest() != pointer.get("sha256", hashlib.sha256(packed).hexdigest()):
            raise ValueError(f"the archive {uri} does not match its summary (sha256): it was altered")
        envelopes, commands, seed = _decode_record(gzip.decompress(packed))
        side_doc: dict[str, Any] = {}
        if pointer.get("side_uri"):
            side_doc = orjson.loads(gzip.decompress(self.opener(pointer["side_uri"])))
        game = ArchivedGame(envelopes, commands, side_doc.get("rejections", {}), seed, side_doc.get("side", {}))
        with self._lock:
            self._cache[uri] = game
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return game


DEFAULT_READER = ArchiveReader()
"""The reader every event store shares unless given another (one cache per process)."""
