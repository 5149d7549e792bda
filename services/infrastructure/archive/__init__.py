"""Finished games leave Redis for a cold store (issue 18); the read side lives in ``services.infrastructure.eventstore.archived``."""

from services.infrastructure.archive.archiver import Archiver, ArchiveResult, register_side_key, side_keys
from services.infrastructure.eventstore.archived import (
    DEFAULT_READER,
    ArchivedGame,
    ArchiveReader,
    ColdStore,
    DirectoryStore,
    cold_store,
    open_uri,
    register_scheme,
)

__all__ = ["DEFAULT_READER", "ArchiveReader", "ArchiveResult", "ArchivedGame", "Archiver", "ColdStore",
           "DirectoryStore", "cold_store", "open_uri", "register_scheme", "register_side_key", "side_keys"]
