"""A job a game waits for: the reactor enqueues it, the watchdog enqueues it again when it vanished."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class JobSpec:
    job_id: str
    func: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    retry: tuple[int, list[int]] | None = None
    delay: float | None = None  # run this many seconds from now (a scheduled job), else at once
