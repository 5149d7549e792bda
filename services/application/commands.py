"""Send one command through the command stream and answer with a typed result."""

from __future__ import annotations

from domain.core import Command
from services.application.results import CommandResult, result_of
from services.infrastructure.bootstrap import Root
from services.infrastructure.commands import new_reply


def poll_path(game_id: str, command_id: str | None = None) -> str:
    """The API path that answers a queued command's outcome (a game's, for creation and joins)."""
    return f"/games/{game_id}/commands/{command_id}" if command_id else f"/games/{game_id}"


def actor_of(player_id: str | None, seat: int | None = None) -> str:
    """Who a command is recorded as coming from: a player, else a seat token's seat, else a guest."""
    if player_id:
        return f"player:{player_id}"
    return f"seat:{seat}" if seat is not None else "guest"


def send(root: Root, game_id: str, command: Command, *, seat: int, actor: str, command_id: str | None = None,
         expected_version: int | None = None, dev_seed: str | None = None, wait: float | None = None,
         poll: str | None = None) -> CommandResult:
    """Queue ``command`` for ``seat`` and wait up to ``wait`` seconds (default: the settings'
    ``command_wait_seconds``; 0: do not wait) for its outcome."""
    timeout = root.settings.command_wait_seconds if wait is None else wait
    reply = new_reply() if timeout > 0 else None  # the processor hands the outcome over on it: no polling
    command_id = root.bus.submit(game_id, command, seat=seat, actor=actor, command_id=command_id,
                                 expected_version=expected_version, dev_seed=dev_seed, reply=reply)
    outcome = root.bus.wait(game_id, command_id, timeout, reply=reply) if timeout > 0 else None
    return result_of(outcome, game_id, command_id, poll or poll_path(game_id, command_id))
