"""A game's pace: how long a seat may take per turn, and what a missed deadline costs (pure).

Chosen at creation and stored in ``taproom.GameCreated``; the kernel
(:mod:`domain.core.lifecycle`) applies it, the service's clocks
(``services.application.clocks``) time it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

from .errors import InvalidOptions, plain_errors

TimeoutPolicy = Literal["autopilot", "skip"]
TakeoverVote = Literal["end", "replace", "none"]

TAKEOVER_AFTER = 3
"""Consecutive timeouts after which the autopilot keeps a seat, for games created without saying."""
TAKEOVER_VOTE: TakeoverVote = "end"
"""What the other seats may vote for once a seat is taken over, for games created without saying."""


class Pace(BaseModel):
    """How long a seat may take, and what happens when it runs out (chosen at creation).

    Either a fixed time per move (``per_move_seconds``) or a time bank
    (``bank_seconds``, plus ``increment_seconds`` after each move); neither
    means untimed. ``open_expiry_seconds`` closes an open game nobody fills
    (the service has a default when it is not given).

    ``takeover_after``: consecutive timeouts after which the policy keeps the
    seat; ``takeover_vote``: what the other seats may then vote for. Both are
    filled in at creation (:func:`new_game_pace`); a pace stored without them
    (games created before they existed) keeps the old meaning: the first
    timeout takes the seat over and nobody votes, so old records replay and
    verify unchanged.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    per_move_seconds: int | None = Field(default=None, ge=1, le=30 * 86400)
    bank_seconds: int | None = Field(default=None, ge=1, le=90 * 86400)
    increment_seconds: int = Field(default=0, ge=0, le=30 * 86400)
    on_timeout: TimeoutPolicy = "autopilot"
    autopilot_level: str = Field(default="random", max_length=32)
    open_expiry_seconds: int | None = Field(default=None, ge=1, le=365 * 86400)
    takeover_after: int | None = Field(default=None, ge=1, le=100)
    takeover_vote: TakeoverVote | None = None

    @model_serializer(mode="wrap")
    def _dump(self, handler: Any) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name in ("takeover_after", "takeover_vote"):  # absent in stored paces from before them
            if data.get(name, 0) is None:
                del data[name]
        return data

    @model_validator(mode="after")
    def _one_clock(self) -> Pace:
        if self.per_move_seconds is not None and self.bank_seconds is not None:
            raise ValueError("choose per_move_seconds or bank_seconds, not both")
        if self.increment_seconds and self.bank_seconds is None:
            raise ValueError("increment_seconds needs a time bank (bank_seconds)")
        return self

    @property
    def timed(self) -> bool:
        return self.per_move_seconds is not None or self.bank_seconds is not None

    @property
    def timeouts_to_takeover(self) -> int:
        return self.takeover_after or 1

    @property
    def vote(self) -> TakeoverVote:
        return self.takeover_vote or "none"


PACE_PRESETS: dict[str, Pace] = {
    "1h": Pace(per_move_seconds=3600),
    "1d": Pace(per_move_seconds=86400),
    "3d": Pace(per_move_seconds=3 * 86400),
    "bank": Pace(bank_seconds=7 * 86400, increment_seconds=12 * 3600),
}
"""Named paces a client may give instead of a full :class:`Pace` (``"1d"``: a day per move)."""


def parse_pace(raw: Pace | str | dict[str, Any] | None) -> Pace | None:
    """A pace from a preset name, a dict or a model (None: untimed)."""
    if raw is None or isinstance(raw, Pace):
        return raw
    if isinstance(raw, str):
        if raw not in PACE_PRESETS:
            raise InvalidOptions(f"unknown pace {raw!r}; presets: {', '.join(PACE_PRESETS)}")
        return PACE_PRESETS[raw]
    try:
        return Pace.model_validate(raw)
    except Exception as exc:
        raise InvalidOptions(f"invalid pace: {plain_errors(exc)}") from None


def new_game_pace(raw: Pace | str | dict[str, Any] | None) -> Pace | None:
    """The pace of a game created now: :func:`parse_pace` with this version's defaults written in.

    The defaults go into the CreateGame command rather than into the model, so a stored command
    re-run by ``taproom verify`` means what it meant when it was recorded.
    """
    pace = parse_pace(raw)
    if pace is None:
        return None
    update: dict[str, Any] = {}
    if pace.takeover_after is None:
        update["takeover_after"] = TAKEOVER_AFTER
    if pace.takeover_vote is None:
        update["takeover_vote"] = TAKEOVER_VOTE
    return pace.model_copy(update=update)
