"""Undo in the kernel: an event of the log, within one's own turn, never past chance or another seat; the
state after it is what a replay of the log says, and the record of a game with undos verifies."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.core import registry
from domain.core.errors import IllegalMove
from domain.core.lifecycle import (
    CreateGame,
    GameRecord,
    SeatSpec,
    actor_seat,
    apply,
    begin_command,
    execute,
    kernel_commands,
    parse_command,
)
from domain.core.rng import SeedDice
from services.adapters.workers import jobs
from services.infrastructure.audit import export_lines, parse_lines, verify
from services.infrastructure.commands import CommandBus
from services.infrastructure.eventstore import EventStore
from services.infrastructure.settings import jobs_run_with

from ..helpers import Kernel
from .tally import TALLY

GID = "undo1"


@pytest.fixture(autouse=True)
def tally() -> Iterator[None]:
    registry.register(TALLY)
    yield
    registry._GAMES.pop("tally", None)


class Table:
    """Executes commands like the processor does and keeps the log like the store does (command, actor)."""

    def __init__(self, seats: int = 2) -> None:
        self.dice = SeedDice(b"undo-seed")
        self.log: list[tuple[str, str, object]] = []  # (command id, actor, event)
        create = CreateGame(game="tally", options={"rounds": 4}, seats=[SeatSpec(name=f"p{i}", player_id=f"p{i}")
                                                                          for i in range(seats)], seed_commitment="c")
        self.record: GameRecord | None = None
        self.n = 0
        self.do(create, "player:p0")

    def do(self, command, actor: str):
        self.n += 1
        events, self.record = execute(self.record, GID, command, self.dice, actor)
        self.log += [(f"c{self.n}", actor, e) for e in events]
        return events

    def move(self, seat: int, **data):
        return self.do(parse_command(TALLY, {**data, "seat": seat}), f"player:p{seat}")

    def replay(self, upto: int | None = None) -> GameRecord:
        """What a reader of the log folds (``services.infrastructure.aggregates.fold_raw``)."""
        record, last = None, None
        for command_id, actor, event in self.log[:upto]:
            if command_id != last:
                last = command_id
                begin_command(record, actor_seat(record, actor))
            record = apply(record, GID, event)
        assert record is not None
        return record

    def boxes(self, seat: int) -> list[int]:
        assert self.record is not None
        return self.record.state.boxes[seat]


def undoable(table: Table, seat: int) -> bool:
    assert table.record is not None
    return any(c.type == "taproom.Undo" for c in kernel_commands(table.record, seat))


def test_moves_of_ones_turn_are_taken_back_one_by_one() -> None:
    table = Table()
    assert not undoable(table, 0)  # nothing done yet
    table.move(0, type="Mark", box=0)
    table.move(0, type="Mark", box=1)
    assert table.boxes(0) == [0, 1] and undoable(table, 0) and not undoable(table, 1)
    [undone] = table.move(0, type="taproom.Undo")
    assert undone.type == "taproom.MoveUndone" and undone.to_version == table.record.version - 2
    assert table.boxes(0) == [0]
    table.move(0, type="taproom.Undo")
    assert table.boxes(0) == [] and not undoable(table, 0)
    with pytest.raises(IllegalMove, match="nothing to undo"):
        table.move(0, type="taproom.Undo")
    table.move(0, type="Mark", box=2)  # a different move after undoing
    assert table.boxes(0) == [2]
    assert table.replay() == table.record  # the state is what the log says


def test_no_undo_past_a_draw() -> None:
    table = Table()
    table.move(0, type="Mark", box=0)
    table.move(0, type="Draw")
    assert not undoable(table, 0)
    with pytest.raises(IllegalMove):
        table.move(0, type="taproom.Undo")
    table.move(0, type="Mark", box=1)  # after the draw a new stretch begins: back to the draw, not past it
    table.move(0, type="taproom.Undo")
    assert table.boxes(0) == [0] and len(table.record.state.cards[0]) == 1 and not undoable(table, 0)
    assert table.replay() == table.record


def test_no_undo_after_another_seat_moved() -> None:
    table = Table()
    table.move(0, type="Mark", box=0)
    table.move(0, type="Done")
    assert not undoable(table, 0)  # the turn is over
    table.move(1, type="Mark", box=0)
    assert undoable(table, 1) and not undoable(table, 0)
    with pytest.raises(IllegalMove):
        table.move(0, type="taproom.Undo")
    assert table.replay() == table.record


def test_every_version_of_a_log_with_undos_replays_like_it_was_live() -> None:
    table = Table()
    states = []
    for step in [("Mark", 0), ("Mark", 1), ("taproom.Undo", None), ("Mark", 2), ("taproom.Undo", None),
                 ("taproom.Undo", None), ("Mark", 1), ("Done", None)]:
        kind, box = step
        table.move(0, type=kind, **({"box": box} if box is not None else {}))
        states.append((len(table.log), TALLY.clone(table.record.state)))
    for length, state in states:
        assert table.replay(length).state == state


def test_bots_and_the_service_undo_nothing() -> None:
    table = Table()
    table.do(parse_command(TALLY, {"type": "Mark", "box": 0, "seat": 0}), "bot:random")
    assert not undoable(table, 0)
    assert actor_seat(table.record, "seat:1") == 1 and actor_seat(table.record, "system") is None


def test_a_game_with_undos_verifies_through_the_pipeline(fake_client, settings) -> None:
    kernel = Kernel(fake_client, settings)
    bus = CommandBus(EventStore(fake_client, kernel.keys))
    gid = "undo-pipe"
    created = kernel.send(gid, {"type": "taproom.CreateGame", "game": "tally", "options": {"rounds": 2},
                                "seats": [{"name": "a"}, {"name": "b"}], "seed_commitment": ""}, dev_seed="s")
    assert created.accepted

    def play(seat: int, command: dict) -> None:
        cid = bus.submit(gid, command, seat=seat, actor=f"seat:{seat}")
        kernel.pump()
        outcome = bus.outcome(gid, cid)
        assert outcome is not None and outcome.accepted, outcome

    play(0, {"type": "Mark", "box": 0})
    play(0, {"type": "Mark", "box": 1})
    play(0, {"type": "taproom.Undo"})
    play(0, {"type": "Draw"})
    play(0, {"type": "Done"})
    play(1, {"type": "Mark", "box": 2})
    play(1, {"type": "taproom.Undo"})
    play(1, {"type": "Done"})
    kernel.processor.repo.clear()  # read back from the log alone
    record = kernel.processor.repo.current(gid).record
    assert record.status == "ended" and record.state.boxes == [[0], []]
    with jobs_run_with(settings):
        jobs.score_game(gid, connection=fake_client)
    kernel.pump()
    report = verify(*parse_lines(export_lines(kernel.store, gid)))
    assert report.ok and report.replay_ok, report.problems
    types = [e.type for e in kernel.store.read(gid)]
    assert types.count("taproom.MoveUndone") == 2
