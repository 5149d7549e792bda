"""``state_from_view``: a state rebuilt from one seat's view shows that seat the same view and legal commands."""

from __future__ import annotations

import importlib
import random

import pytest

from domain.core.registry import get_game

from .helpers import CONFIGS, positions

MODULES = {"carcassonne": "domain.carcassonne.determinize", "heaven-and-ale": "domain.heaven_and_ale.determinize",
           "tiefenthal": "domain.tiefenthal.determinize"}
EVERY = {"carcassonne": 7, "heaven-and-ale": 2, "tiefenthal": 5}


@pytest.mark.parametrize("game_id,options,players", CONFIGS,
                         ids=[f"{g}-{p}p-{i}" for i, (g, _, p) in enumerate(CONFIGS)])
def test_view_and_legal_commands_survive_determinization(game_id: str, options: dict, players: int) -> None:
    game = get_game(game_id)
    state_from_view = importlib.import_module(MODULES[game_id]).state_from_view
    checked = 0
    for i, state in enumerate(positions(game_id, options, players, f"det-{game_id}-{players}", EVERY[game_id])):
        for seat in range(players):
            view = game.view(state, seat)
            legal = game.legal_commands(state, seat)
            sampled = state_from_view(view, seat, random.Random(i * 10 + seat), legal=legal)
            assert game.view(sampled, seat) == view, (i, seat)
            assert game.legal_commands(sampled, seat) == legal, (i, seat)
            assert game.to_act(sampled) == game.to_act(state)
            checked += 1
    assert checked > 20


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
