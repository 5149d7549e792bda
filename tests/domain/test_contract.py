"""The decider contract, checked on every registered game with seeded random playouts.

Each game has its own rule tests; these check what the kernel, the bots and the
API rely on, the same way for all games:

* every legal command is accepted by ``decide``, which never changes the state it is given;
* a seat not listed by ``to_act`` has no legal command and is refused with ``NotYourTurn``;
* views are JSON (no objects leak out) for every seat and the spectator, and ``views`` of all seats at once
  equals ``view`` of each;
* events survive a JSON round trip, and folding them again reproduces the state;
* the state survives the game's JSON codec (snapshots) at positions along the game;
* the score sheet adds up.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest

from domain.core import NotYourTurn, RuleError, rng_for, seed_from_text
from tests.games_under_test import games_under_test

GAMES = games_under_test()


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
@pytest.mark.parametrize("players", [2, 3])
def test_decider_contract_over_a_random_game(game, players):
    secret = seed_from_text(f"contract-{game.id}-{players}")
    chooser = random.Random(players)
    options = game.parse_options({})
    events = game.setup(options, players, rng_for(secret, 0))
    state = game.fold(None, events)
    steps = 0
    snapshots = []
    while not game.is_over(state):
        to_act = game.to_act(state)
        assert to_act, "nobody to act in a running game"
        for seat in range(players):
            json.dumps(game.view(state, seat))
            if seat not in to_act:
                assert game.legal_commands(state, seat) == []
        json.dumps(game.view(state, None))
        if steps % 3 == 0:  # the projector's way: every seat's view at once, each the one view() gives
            seats = [None, *range(players)]
            assert [json.dumps(v) for v in game.views(state, seats)] == [json.dumps(game.view(state, s)) for s in seats]
        seat = chooser.choice(to_act)
        legal = game.legal_commands(state, seat)
        assert legal, f"seat {seat} must act but has no legal command"
        idle = [s for s in range(players) if s not in to_act]
        if idle and steps % 7 == 0:
            with pytest.raises(NotYourTurn):
                game.decide(state, legal[0].model_copy(update={"seat": idle[0]}), rng_for(secret, 10**6))
        before = pickle.dumps(state)
        if steps % 13 == 0:
            snapshots.append(game.clone(state))
        if steps % 5 == 0:  # every listed command is accepted, and decide changes nothing
            for command in chooser.sample(legal, min(len(legal), 8)):
                try:
                    game.decide(state, command, rng_for(secret, len(events)))
                except RuleError as err:  # pragma: no cover - the assertion explains
                    pytest.fail(f"listed command {command!r} refused: {err}")
            assert pickle.dumps(state) == before, "decide changed the state"
        command = chooser.choice(legal)
        assert game.is_legal(state, command)
        new = game.decide(state, command, rng_for(secret, len(events)))
        for event in new:
            again = game.parse_event(json.loads(event.model_dump_json()))
            assert again == event, f"{event.type} does not survive JSON"
            state = game.evolve(state, event)
        events += new
        steps += 1
        assert steps < 20_000
    replayed = game.fold(None, [game.parse_event(json.loads(e.model_dump_json())) for e in events])
    assert replayed == state
    for snapshot in snapshots + [state]:
        assert game.decode_state(game.encode_state(snapshot)) == snapshot, "the state codec loses something"
    scores = game.scores(state)
    assert sorted(s.seat for s in scores) == list(range(players))
    for score in scores:
        assert score.total == pytest.approx(sum(score.breakdown.values()))


REAL_GAMES = [g for g in GAMES if g.id != "counter"]


@pytest.mark.parametrize("game", REAL_GAMES, ids=[g.id for g in REAL_GAMES])
def test_every_option_a_player_sets_is_named_and_explained(game):
    """The new-game form is built from the options' JSON schema (GET /games/types): each option a player can
    set shows its title as the label and its description beside it, so neither may be the bare field name."""
    schema = game.Options.model_json_schema()
    for name, prop in schema["properties"].items():
        if "const" in prop:  # nothing to choose (Tiefenthal's module): the form shows no field
            continue
        assert prop.get("description"), f"{game.id} option {name!r} has no description for the new-game form"
        assert game.Options.model_fields[name].title, (
            f"{game.id} option {name!r} has no title of its own: the form would label it {prop.get('title')!r}")
