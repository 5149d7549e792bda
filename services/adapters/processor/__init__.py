"""The command processor: consumes the shard command streams into per-game aggregates."""

from services.adapters.processor.processor import Processor

__all__ = ["Processor"]
