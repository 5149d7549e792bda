"""Schema upcasting: events stored under an older schema are read as the current one."""

from __future__ import annotations

from typing import Literal

from domain.core import Event
from domain.core.upcasting import upcaster
from services.infrastructure.eventstore import GENESIS_HASH, Envelope, seal
from tests.fixture_game import COUNTER, Added


class AddedV3(Event):
    """Added as of schema 3: ``amount`` became ``points`` (v2), then ``bonus`` appeared (v3)."""

    type: Literal["AddedV3"] = "AddedV3"
    schema_version = 3
    seat: int
    points: int
    roll: int
    bonus: int


@upcaster("counter", "AddedV3", 1)
def _rename_amount(payload):
    payload["points"] = payload.pop("amount")
    return payload


@upcaster("counter", "AddedV3", 2)
def _add_bonus(payload):
    payload["bonus"] = 0
    return payload


def test_a_v1_event_in_the_store_is_upcast_through_every_step(monkeypatch):
    monkeypatch.setattr(type(COUNTER), "event_types", type(COUNTER).event_types + (AddedV3,))
    COUNTER.__dict__.pop("_events", None)  # rebuild the type index with the new class
    stored_v1 = Envelope(game_id="g", version=4, type="AddedV3", schema_version=1, visibility="public",
                         payload={"type": "AddedV3", "seat": 1, "amount": 2, "roll": 5}, command_id="c",
                         actor="t", ts=1.0, prev_hash=GENESIS_HASH)
    event = stored_v1.event("counter")
    assert isinstance(event, AddedV3) and (event.points, event.bonus, event.roll) == (2, 0, 5)
    COUNTER.__dict__.pop("_events", None)


def test_current_events_are_read_unchanged():
    env = seal("g", 1, Added(seat=0, amount=3, roll=2), "c", "t", 1.0, GENESIS_HASH)
    assert Envelope.from_json(env.to_json()).event("counter") == Added(seat=0, amount=3, roll=2)
