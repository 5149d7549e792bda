"""The stored legal commands (``projections.inline``) are serialised without pydantic where a command class allows
it: byte for byte what pydantic's dump gives, for every legal list of seeded random games of every game."""

from __future__ import annotations

import random
import zlib
from typing import Any

import orjson
import pytest

from domain.catalog import load_games
from domain.core import commitment
from domain.core.kernel_messages import CreateGame, Vote
from domain.core.lifecycle import GameRecord, execute, kernel_commands, parse_command
from domain.core.rng import SeedDice
from projections.inline import _plain_fields, legal_for, load_legal, seat_models

GAMES = [game.id for game in load_games()]


def _pydantic_legal(record: GameRecord, version: int, seat: int) -> dict[str, Any]:
    """What ``legal_for`` gave when every command went through pydantic's dump."""
    commands = kernel_commands(record, seat)
    if record.status == "active" and seat in record.to_act():
        commands = record.game.legal_commands(record.state, seat) + commands
    return {"version": version, "seat": seat,
            "commands": [c.model_dump(mode="json", exclude={"seat"}) for c in commands]}


def _playout(game: str, seed: int, moves: int) -> Any:
    secret = bytes([seed]) * 32
    create = parse_command(None, {"type": "taproom.CreateGame", "game": game, "seat": -1,
                                  "seats": [{"name": "ann", "player_id": "a"}, {"name": "bob", "player_id": "b"}],
                                  "seed_commitment": commitment(secret), "hot_seat": False})
    events, record = execute(None, f"g{seed}", create, SeedDice(secret), None)
    version = len(events)
    chooser = random.Random(seed)
    for _ in range(moves):
        yield record, version
        if record.status != "active":
            return
        seat = record.to_act()[0]
        command = chooser.choice(record.game.legal_commands(record.state, seat))
        events, record = execute(record, f"g{seed}", command, SeedDice(secret), f"player:{'ab'[seat]}")
        version += len(events)


@pytest.mark.parametrize("game", GAMES)
def test_legal_lists_are_what_pydantic_dumps_byte_for_byte(game):
    for seed in (1, 2):
        for record, version in _playout(game, seed, 60):
            for seat in range(len(record.seats)):
                assert orjson.dumps(legal_for(record, version, seat)) == orjson.dumps(
                    _pydantic_legal(record, version, seat))
            models = seat_models(record, version, 1.0)
            for seat, stored in enumerate(models.legal):
                assert orjson.loads(load_legal(stored)) == _pydantic_legal(record, version, seat)


def test_a_command_with_fields_beyond_plain_values_keeps_pydantics_dump():
    assert _plain_fields(CreateGame) == ()  # seats, options, pace: models and dicts
    assert _plain_fields(Vote) == ("type", "about_seat", "choice")


def test_a_short_legal_list_is_stored_as_it_is_and_a_long_one_deflated():
    short, long = b'{"version":3,"seat":1,"commands":[]}', b'{"commands":[' + b'{"type":"Pass"},' * 100 + b"{}]}"
    assert load_legal(short) == short
    assert load_legal(zlib.compress(long)) == long
