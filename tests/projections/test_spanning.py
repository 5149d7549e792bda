"""The read models spanning games as a pure fold: a meta and its waits give a game's entries; two entries in a
row give the writes; waiting-since is a fold over the log's commands."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from pydantic import ValidationError

from projections.read_models import GameMeta, load_meta
from projections.spanning import (
    INBOX_OTHER,
    Step,
    Waits,
    changes,
    entries_of,
    fold_waits,
    step_of,
    wait_step,
    waiting_seats,
)


def meta(version: int, status: str = "active", to_act: tuple[int, ...] = (0,), updated: float = 100.0,
         **extra: Any) -> GameMeta:
    seats = [{"seat": 0, "name": "ann", "player_id": "ann", "open": False},
             {"seat": 1, "name": "bob", "player_id": "bob", "open": False},
             {"seat": 2, "name": "bot", "bot": "random", "open": False}]
    return GameMeta.model_validate({"game_id": "g", "game": "counter", "options": {}, "version": version,
                                    "status": status, "seats": extra.pop("seats", seats), "to_act": list(to_act),
                                    "seed_commitment": "", "updated": updated, **extra})


def test_a_seat_waits_since_the_command_after_which_it_waited_at_every_command():
    steps = [Step(2, 10.0, frozenset({0})), Step(3, 11.0, frozenset({0})),  # seat 0's two-step turn
             Step(4, 12.0, frozenset({1})), Step(5, 13.0, frozenset({0, 1})), Step(6, 14.0, frozenset({0}))]
    waits = fold_waits(Waits(), steps)
    assert waits == Waits(6, {0: 13.0})  # seat 0 stopped waiting at 4: its wait started again at 5
    assert fold_waits(Waits(), steps[:2]).since == {0: 10.0}  # the turn's second step keeps its start
    assert fold_waits(fold_waits(Waits(), steps[:3]), steps[3:]) == waits  # folding in pieces is folding once


def test_bots_and_seats_nobody_holds_wait_for_nobody():
    assert waiting_seats(meta(5, to_act=(0, 1, 2))) == {0, 1}  # the bot's seat awaits nobody
    assert step_of(meta(5, to_act=(2,), updated=7.5)) == Step(5, 7.5, frozenset())


def test_entries_of_a_meta_and_its_waits():
    active = entries_of(meta(6, to_act=(1,), updated=20.0), Waits(6, {1: 18.0}))
    assert active.inbox == {0: ("ann", INBOX_OTHER * 2 - 20.0), 1: ("bob", 18.0)}
    assert (active.lobby, active.finished, active.invitations) == (None, None, ())
    invited = [{"seat": 0, "name": "ann", "player_id": "ann", "open": False},
               {"seat": 1, "open": False, "invited": {"player_id": "cy", "name": "Cy", "expires_at": 99.0}}]
    opened = entries_of(meta(1, status="open", to_act=(), updated=5.0, seats=invited), Waits(1))
    assert (opened.lobby, opened.invitations) == (5.0, (("cy", "g:1", 99.0),))
    assert entries_of(meta(9, status="scored", to_act=(), updated=30.0), Waits(9)).finished == 30.0
    with pytest.raises(AssertionError):
        entries_of(meta(6), Waits(5))  # waits of another version


def test_changes_write_what_differs_and_unlist_once():
    opened = entries_of(meta(1, status="open", to_act=(), updated=5.0), Waits(1))
    first = entries_of(meta(3, to_act=(0,), updated=8.0), Waits(3, {0: 8.0}))
    todo = changes(opened, first)
    assert todo.unlist and todo.lobby is None and set(todo.inbox) == {("ann", 8.0), ("bob", INBOX_OTHER * 2 - 8.0)}
    second = entries_of(meta(4, to_act=(0,), updated=9.0), Waits(4, {0: 8.0}))  # ann's turn goes on
    todo = changes(first, second)
    assert not todo.unlist and todo.inbox == (("bob", INBOX_OTHER * 2 - 9.0),)  # ann's entry stands as it is
    assert changes(None, second).unlist and len(changes(None, second).inbox) == 2  # nothing known: all of it


def test_wait_step_keeps_no_seat_that_stopped_waiting():
    assert wait_step(Waits(1, {0: 1.0, 1: 1.0}), Step(2, 2.0, frozenset({1}))) == Waits(2, {1: 1.0})


def test_the_meta_is_read_as_a_model_that_refuses_undeclared_keys():
    stored = orjson.dumps(meta(4).to_json())
    read = load_meta(stored)
    assert read == meta(4) and orjson.dumps(read.to_json()) == stored  # the stored bytes come back as they were
    with pytest.raises(ValidationError):
        load_meta(stored[:-1] + b',"surprise":1}')
    seats = orjson.loads(stored)
    seats["seats"][0]["surprise"] = 1
    with pytest.raises(ValidationError):
        load_meta(orjson.dumps(seats))
