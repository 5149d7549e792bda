"""Finished games leave Redis for a cold store and are read back from it transparently (issue 18)."""

from .archiver import (
    DEFAULT_READER,
    ArchivedGame,
    Archiver,
    ArchiveReader,
    ArchiveResult,
    register_side_key,
    side_keys,
)
from .coldstore import ColdStore, DirectoryStore, cold_store, open_uri, register_scheme

__all__ = ["DEFAULT_READER", "ArchiveReader", "ArchiveResult", "ArchivedGame", "Archiver", "ColdStore",
           "DirectoryStore", "cold_store", "open_uri", "register_scheme", "register_side_key", "side_keys"]
