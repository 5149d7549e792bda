"""Redis-backed event store (streams + one Lua append script)."""

from .envelope import GENESIS_HASH, Envelope, seal, verify_chain
from .keys import Keys
from .store import AppendResult, EventStore

__all__ = ["AppendResult", "Envelope", "EventStore", "GENESIS_HASH", "Keys", "seal", "verify_chain"]
