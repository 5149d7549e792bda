"""The inline projections of an append: the game's meta, views and legal commands, written by the append
script with the events (``append.lua``), so the API answers from them without folding the game."""

from __future__ import annotations

from domain.core.lifecycle import GameRecord
from projections.inline import SeatModels, seat_models
from services.infrastructure.eventstore.appends import Inline
from services.infrastructure.eventstore.keys import Keys


def inline_of(keys: Keys, game_id: str, models: SeatModels, mover: int | None) -> Inline:
    """The models as the append script writes them, and the answer's ``after`` for ``mover``'s seat."""
    sets = [(keys.meta(game_id), models.meta)] + [(keys.view(game_id, seat), view) for seat, view in models.views]
    return Inline(sets, keys.legal(game_id), models.legal, models.after(mover))


def inline_for(keys: Keys, game_id: str, record: GameRecord, version: int, updated: float,
               mover: int | None) -> Inline:
    """:func:`inline_of` the models of ``record`` at ``version`` (serialised now: the record changes later)."""
    return inline_of(keys, game_id, seat_models(record, version, updated), mover)
