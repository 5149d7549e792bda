"""Who may take a seat, for callers the domain cannot tell apart.

A registered player's seats are the domain's rule (``domain/core/seating.py``: one seat each unless the game
is hot-seat). A seat token or a guest has no player id, so that rule cannot see them; this one does, in the
same terms: one seat per caller and game, except in a hot-seat game (one device, several seats).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.core import RuleError


def check_one_seat(held: Sequence[int], game_id: str, hot_seat: bool) -> None:
    """Refuse (409 ``already_seated``) a caller who holds ``held`` seats of a game that is not hot-seat:
    otherwise one client could fill every open seat and play a game alone."""
    if held and not hot_seat:
        raise RuleError(f"you hold seat {held[0]} of game {game_id} already; one seat per player", code="already_seated")
