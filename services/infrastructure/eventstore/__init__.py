"""Redis-backed event store (streams + one Lua append script)."""

from services.infrastructure.eventstore.envelope import GENESIS_HASH, Envelope, seal, verify_chain
from services.infrastructure.eventstore.keys import Keys
from services.infrastructure.eventstore.store import AppendResult, EventStore

__all__ = ["AppendResult", "Envelope", "EventStore", "GENESIS_HASH", "Keys", "seal", "verify_chain"]
