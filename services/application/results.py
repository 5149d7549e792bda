"""What a use case answers for a command it sent: accepted, still queued, or rejected.

Refusals decided before anything is queued (a malformed request, a rule the service checks cheaply)
are raised as :class:`domain.core.RuleError` with a stable ``code``; a command that reached the
processor answers with one of these.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from domain.core import RuleError
from services.infrastructure.commands import CommandOutcome
from services.infrastructure.eventstore import Envelope


class Accepted(BaseModel):
    """The command was applied: the game went from ``from_version`` to ``version``."""

    model_config = ConfigDict(frozen=True)

    status: Literal["accepted"] = "accepted"
    game_id: str
    command_id: str
    from_version: int
    version: int
    events: list[Envelope] | None = None
    """The events it caused, when the use case was asked for them (unredacted: redact before showing)."""
    after: dict[str, Any] | None = None
    """What the append said of the game after the events, when it handed the outcome over: ``version``,
    ``status``, ``to_act`` and, while the mover is still to act, its ``legal`` commands."""


class Queued(BaseModel):
    """Not decided within the wait: the command is on its stream and will be decided; ask ``poll``.

    Every adapter answers it the same way: HTTP 202 with ``{"status": "queued", "command_id", "poll"}``."""

    model_config = ConfigDict(frozen=True)

    status: Literal["queued"] = "queued"
    game_id: str
    command_id: str
    poll: str
    """Where to ask for the outcome (an API path)."""


class Rejected(BaseModel):
    """The processor refused the command; ``code`` is stable (the API maps it to one HTTP status)."""

    model_config = ConfigDict(frozen=True)

    status: Literal["rejected"] = "rejected"
    game_id: str
    command_id: str
    code: str
    message: str
    version: int = 0

    def error(self) -> RuleError:
        return RuleError(self.message, code=self.code)


CommandResult = Accepted | Queued | Rejected


def result_of(outcome: CommandOutcome | None, game_id: str, command_id: str, poll: str,
              events: list[Envelope] | None = None, after: dict[str, Any] | None = None) -> CommandResult:
    """The use case's answer for the outcome a wait found (None: still queued)."""
    if outcome is None:
        return Queued(game_id=game_id, command_id=command_id, poll=poll)
    if not outcome.accepted:
        return Rejected(game_id=game_id, command_id=command_id, code=outcome.code or "rejected",
                        message=outcome.message or "command rejected", version=outcome.version)
    return Accepted(game_id=game_id, command_id=command_id, from_version=outcome.from_version,
                    version=outcome.version, events=events, after=after)


class StillQueued(Exception):
    """Raised by :func:`accepted_or_raise` for a command still queued; the API answers it like every queued
    command (202 with the poll address)."""

    def __init__(self, queued: Queued) -> None:
        super().__init__(f"command {queued.command_id} of game {queued.game_id} is still queued")
        self.queued = queued


def accepted_or_raise(result: CommandResult) -> Accepted:
    """For use cases that answer with something other than the result: a rejection raises its RuleError,
    a queued command :class:`StillQueued`."""
    if isinstance(result, Accepted):
        return result
    if isinstance(result, Rejected):
        raise result.error()
    raise StillQueued(result)
