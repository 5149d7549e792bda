"""Base models for commands (imperative) and events (past tense).

Both are frozen pydantic models with a stable ``type`` name. Events also carry
a class-level schema version and may mark fields as *private*: such fields are
hidden from every seat not listed by :meth:`Event.private_to` until the game
ends (a buried tile, a card drawn into one player's hand).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

SYSTEM_SEAT = -1
"""The seat of commands issued by the service itself (final scoring, timeouts)."""

REDACTED = "hidden"
"""What a private field reads as for a seat that may not see it."""


class Command(BaseModel):
    """An intention of one seat. ``seat`` is filled in by the service from the caller's credentials."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    seat: int = SYSTEM_SEAT


class Event(BaseModel):
    """A fact that happened in a game; ``evolve`` only copies these facts into state."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    schema_version: ClassVar[int] = 1
    private_fields: ClassVar[frozenset[str]] = frozenset()

    def private_to(self) -> frozenset[int]:
        """Seats allowed to see the private fields before the game ends (default: nobody)."""
        return frozenset()

    def is_public(self) -> bool:
        return not self.private_fields

    def visible_to(self, seat: int | None) -> bool:
        """True when ``seat`` (None = spectator) may see every field of this event now."""
        return not self.private_fields or (seat is not None and seat in self.private_to())

    def redacted(self, seat: int | None) -> dict[str, Any]:
        """The payload as ``seat`` may see it while the game is running."""
        data = self.model_dump(mode="json")
        return data if self.visible_to(seat) else hide_fields(data, self.private_fields)


def hide_fields(payload: dict[str, Any], private_fields: Iterable[str]) -> dict[str, Any]:
    """The one redaction rule: ``payload`` with each private field reading :data:`REDACTED` (a copy)."""
    hidden = frozenset(private_fields)
    return {k: (REDACTED if k in hidden else v) for k, v in payload.items()}
