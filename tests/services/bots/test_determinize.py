"""Game-specific checks of ``state_from_view`` (the round trip every game passes is
``tests/domain/test_determinize_round_trip.py``)."""

from __future__ import annotations

import random

from domain.core.registry import get_game

from .helpers import positions


def test_carcassonne_burials_are_sampled_not_read() -> None:
    """The tiles under hills are dealt from the pooled unseen tiles: different rngs give different burials."""
    game = get_game("carcassonne")
    from domain.carcassonne.determinize import state_from_view
    state = next(s for s in positions("carcassonne", {"hills_and_sheep": True}, 2, "burials") if len(s.buried) >= 3)
    view = game.view(state, 0)
    burials = {tuple(state_from_view(view, 0, random.Random(k)).buried) for k in range(20)}
    assert len(burials) > 1
    for sampled in burials:
        assert len(sampled) == len(state.buried)


def test_tiefenthal_opponent_deck_is_sampled_with_public_totals() -> None:
    game = get_game("tiefenthal")
    from domain.tiefenthal.determinize import state_from_view
    from domain.tiefenthal.scoring import vp
    state = list(positions("tiefenthal", {}, 2, "decks", 1))[150]
    view = game.view(state, 0)
    sampled = state_from_view(view, 0, random.Random(3))
    opponent = sampled.players[1]
    assert len(opponent.deck_top) + len(opponent.deck_rest) == view["players"][1]["deck_count"]
    assert vp(opponent) == view["players"][1]["victory_points"]
    assert "deck_rest" not in view["players"][1]
