"""Snapshots are JSON (``domain.core.codec``): a kernel record, with its game's state, seats, pace, votes
and a timed-out turn, decodes equal to the record encoded, for every game (no game named here); one of another
shape is refused."""

from __future__ import annotations

import random
import zlib

import orjson
import pytest

from domain.core import rng_for, seed_from_text
from domain.core.lifecycle import ClaimSeat, CreateGame, Pace, SeatSpec, TimeOut, execute
from domain.core.messages import SYSTEM_SEAT
from domain.core.record import decode_record, encode_record
from services.infrastructure.eventstore.store import SNAPSHOT_FORMAT, EventStore
from tests.games_under_test import games_under_test, ids

GAMES = games_under_test()


class Dice:
    def __init__(self, name: str) -> None:
        self.secret = seed_from_text(name)

    def rng(self, version: int) -> random.Random:
        return rng_for(self.secret, version)

    def reveal(self) -> bytes:
        return self.secret


@pytest.mark.parametrize("game", GAMES, ids=ids(GAMES))
def test_a_record_survives_its_json_snapshot(game):
    dice = Dice(f"codec-{game.id}")
    pace = Pace(per_move_seconds=3600, on_timeout="skip", takeover_after=3)
    create = CreateGame(seat=SYSTEM_SEAT, game=game.id, options=game.example_options, seed_commitment="c",
                        seats=[SeatSpec(name="ann", player_id="p1"), SeatSpec()], pace=pace, hot_seat=False)
    _, record = execute(None, "g", create, dice)
    assert decode_record(encode_record(record)) == record  # open: no state yet
    _, record = execute(record, "g", ClaimSeat(seat=1, name="bob", player_id="p2"), dice)
    chooser = random.Random(game.id)
    for step in range(40):
        if record.status != "active":
            break
        seat = chooser.choice(record.to_act())
        if step % 3 == 0 and record.seats[seat].overdue is None:
            command = TimeOut(seat=SYSTEM_SEAT, for_seat=seat, at_version=record.version)
        else:
            command = chooser.choice(record.game.legal_commands(record.state, seat))
        _, record = execute(record, "g", command, dice)
        back = decode_record(encode_record(record))
        assert back == record, f"step {step}"
        assert back.to_act() == record.to_act()
    assert any(s.timeouts or s.autopilot for s in record.seats)


@pytest.mark.parametrize("game", GAMES, ids=ids(GAMES))
def test_a_record_of_another_shape_is_not_read_back(game):
    """A snapshot written before a field existed would read it as its default (``ended_by``: a game the table
    ended by vote read as one that was not): a record of another shape, or of none, is refused, and the store
    then replays the log instead."""
    create = CreateGame(seat=SYSTEM_SEAT, game=game.id, options=game.example_options, seed_commitment="c",
                        seats=[SeatSpec(name="ann", player_id="p1"), SeatSpec()], hot_seat=False)
    _, record = execute(None, "g", create, Dice(f"shape-{game.id}"))
    written = orjson.loads(encode_record(record))
    for shape in ("0123456789abcdef", None):  # other code's, and a snapshot from before shapes were written
        older = {**written, "shape": shape} if shape else {k: v for k, v in written.items() if k != "shape"}
        with pytest.raises(ValueError, match="another shape"):
            decode_record(orjson.dumps(older))
        raw = {b"version": b"1", b"hash": b"h", b"format": str(SNAPSHOT_FORMAT).encode(),
               b"state": zlib.compress(orjson.dumps(older))}
        assert EventStore.snapshot_from(raw) is None
