"""A decided command waiting to be committed, and the outcomes a command id already has."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.infrastructure.aggregates import Loaded
from services.infrastructure.commands import CommandMessage, CommandOutcome
from services.infrastructure.eventstore.store import AppendRequest


@dataclass
class Plan:
    """A decided command waiting to be committed (``append`` None: nothing to append)."""

    message: CommandMessage
    ack: tuple[str, Any]
    outcome: CommandOutcome
    append: AppendRequest | None = None
    after: Loaded | None = None
    snapshot: bytes | None = None  # the record encoded at ``after.version``, when a snapshot is due


def _known(game_id: str, command_id: str, applied: dict[str, Any] | None,
           rejection: dict[str, Any] | None) -> CommandOutcome | None:
    """The outcome a command id already has: accepted (from its record), rejected, or None (undecided)."""
    if applied is not None:
        return CommandOutcome.from_record(game_id, command_id, applied)
    return CommandOutcome.model_validate(rejection) if rejection is not None else None


def _settled_result(game_id: str, command_id: str, result: Any) -> CommandOutcome:
    """The outcome behind a "dup" (applied) or "refused" (rejected) answer of the append script."""
    if result.status == "dup":
        return CommandOutcome.from_record(game_id, command_id, result.record or {})
    return CommandOutcome.model_validate(result.record)


def _accepted(game_id: str, command_id: str, audit: dict[str, Any]) -> CommandOutcome:
    return CommandOutcome.from_record(game_id, command_id, audit)
