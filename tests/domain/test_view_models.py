"""Every game's view models (``Game.view_models``) read its views and give the same JSON back, byte for byte,
and declare every key the views carry (the models forbid any other: a key nobody declared fails), for every seat and the spectator along
seeded games with default and flipped options. No game named here."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from pydantic import BaseModel

from domain.core import rng_for, seed_from_text
from domain.core.views import dump_view, parse_view
from tests.games_under_test import flipped_options, games_under_test

GAMES = [g for g in games_under_test()]
EVERY = 3


def _undeclared(value: Any, path: str = "") -> list[str]:
    if isinstance(value, BaseModel):
        out = [f"{path}.{k}" for k in (value.model_extra or {})]
        for name in type(value).model_fields:
            out += _undeclared(getattr(value, name), f"{path}.{name}")
        return out
    if isinstance(value, list):
        return [x for i, v in enumerate(value) for x in _undeclared(v, f"{path}[{i}]")]
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in _undeclared(v, f"{path}.{k}")]
    return []


def _views(game, options: dict[str, Any], players: int):
    secret = seed_from_text(f"views-{game.id}-{sorted(options)}-{players}")
    chooser = random.Random(players)
    events = game.setup(game.parse_options(options), players, rng_for(secret, 0))
    state = game.fold(None, events)
    step = 0
    while True:
        if step % EVERY == 0 or game.is_over(state):
            yield None, game.view(state, None)
            for seat in range(players):
                yield seat, game.view(state, seat)
        if game.is_over(state):
            return
        seat = chooser.choice(game.to_act(state))
        new = game.decide(state, chooser.choice(game.legal_commands(state, seat)), rng_for(secret, len(events)))
        events += new
        state = game.fold(state, new)
        step += 1


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_view_models_read_the_views_and_give_them_back_unchanged(game):
    models = game.view_models
    assert models is not None, f"{game.id} declares no view models"
    checked = 0
    for options, players in (({}, 2), (flipped_options(game), min(4, game.max_players))):
        for seat, view in _views(game, options, players):
            model = models.spectator if seat is None else models.seat
            parsed = parse_view(model, view)
            assert json.dumps(dump_view(parsed)) == json.dumps(view), (seat, checked)
            assert _undeclared(parsed) == [], (seat, checked)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_a_key_nobody_declared_fails_validation(game):
    from pydantic import ValidationError

    _, view = next(iter(_views(game, {}, 2)))
    with pytest.raises(ValidationError):
        parse_view(game.view_models.spectator, {**view, "undeclared": 1})
    _, seat_view = list(_views(game, {}, 2))[1]
    with pytest.raises(ValidationError):
        parse_view(game.view_models.seat, {**seat_view, "undeclared": 1})
