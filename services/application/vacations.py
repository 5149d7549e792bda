"""Vacations: a player pauses the clocks of all their seats for some days a year."""

from __future__ import annotations

from domain.core import RuleError
from services.application.clocks.vacation import Vacations
from services.infrastructure.bootstrap import Root


def _vacations(root: Root, days_per_year: int | None) -> Vacations:
    allowance = root.settings.vacation_days_per_year if days_per_year is None else days_per_year
    return Vacations(root.redis, root.keys, allowance, root.clock)


def vacation_status(root: Root, player_id: str, *, days_per_year: int | None = None) -> dict[str, object]:
    return _vacations(root, days_per_year).status(player_id)


def start_vacation(root: Root, player_id: str, days: float, *,
                   days_per_year: int | None = None) -> dict[str, object]:
    """Pause the clocks of all the player's seats for ``days`` days from now (counted against this year's
    allowance); returns the vacation status."""
    vacations = _vacations(root, days_per_year)
    vacations.start(player_id, days)
    return vacations.status(player_id)


def end_vacation(root: Root, player_id: str, *, days_per_year: int | None = None) -> dict[str, object]:
    """End the current vacation now (unused days return to the allowance); ``not_found`` when there is none."""
    vacations = _vacations(root, days_per_year)
    if vacations.end(player_id) is None:
        raise RuleError("you are not on vacation", code="not_found")
    return vacations.status(player_id)
