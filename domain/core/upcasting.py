"""Schema upcasting: stored events of an older schema version become current ones on read.

Register ``upcast(game_id, event_type, from_version)`` steps; each takes the
payload dict of version N and returns version N+1. Steps chain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Payload = dict[str, Any]
_STEPS: dict[tuple[str, str, int], Callable[[Payload], Payload]] = {}


def upcaster(game_id: str, event_type: str, from_version: int) -> Callable[[Callable[[Payload], Payload]], Callable[[Payload], Payload]]:
    """Decorator registering the step from ``from_version`` to ``from_version + 1``."""

    def register(step: Callable[[Payload], Payload]) -> Callable[[Payload], Payload]:
        _STEPS[(game_id, event_type, from_version)] = step
        return step

    return register


def upcast(game_id: str, event_type: str, version: int, payload: Payload, target: int) -> Payload:
    """Apply steps until ``payload`` is at schema ``target``."""
    while version < target:
        step = _STEPS.get((game_id, event_type, version))
        if step is None:
            raise LookupError(f"no upcaster for {game_id}/{event_type} v{version}->v{version + 1}")
        payload = step(dict(payload))
        version += 1
    return payload
