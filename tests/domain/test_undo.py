"""Undo with every registered engine: seeded games with random undos, played through the kernel.

Checks, at every step: the Undo offered to a seat takes the game back exactly to the state it had at the
undo's ``to_version``; it never reaches back past an event the game says reveals something or past a command
of another seat; right after a revealing command or another seat's move nothing is undoable. At the end the
log, folded as a reader folds it, gives the live record. Each engine must have undoable commands.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from domain.catalog import load_games
from domain.core.lifecycle import (
    CreateGame,
    GameRecord,
    SeatSpec,
    Undo,
    actor_seat,
    apply,
    begin_command,
    execute,
    kernel_commands,
)
from domain.core.registry import all_games
from domain.core.rng import SeedDice

load_games()
ENGINES = [g for g in all_games() if g.id in ("carcassonne", "heaven-and-ale", "tiefenthal")]


def can_undo(record: GameRecord, seat: int) -> bool:
    return any(isinstance(c, Undo) for c in kernel_commands(record, seat))


def play(game: Any, options: dict[str, Any], seed: str, seats: int = 2, max_commands: int = 400) -> Counter[str]:
    dice = SeedDice(seed.encode())
    rng = random.Random(seed)
    gid = f"undo-{game.id}"
    log: list[tuple[int, str, Any]] = []  # (command number, actor, event)
    events, record = execute(None, gid, CreateGame(game=game.id, options=options, seed_commitment="c", seats=[
        SeatSpec(name=f"p{i}", player_id=f"p{i}") for i in range(seats)]), dice, "player:p0")
    log += [(0, "player:p0", e) for e in events]
    states = {record.version: game.clone(record.state)}
    steps: list[tuple[int, int, int, bool]] = []  # (seat, from version, to version, revealed)
    undone: Counter[str] = Counter()
    last_type: dict[int, list[str]] = {s: [] for s in range(seats)}
    for n in range(1, max_commands):
        if record.status != "active":
            break
        seat = rng.choice(record.to_act())
        before = record.version
        if can_undo(record, seat) and rng.random() < 0.35:
            events, record = execute(record, gid, Undo(seat=seat), dice, f"player:p{seat}")
            [event] = events
            assert record.state == states[event.to_version], f"{game.id}: undo to {event.to_version} differs"
            # nothing between that version and now was revealed or done by another seat
            between = [s for s in steps if s[1] >= event.to_version]
            assert between and all(s[0] == seat and not s[3] for s in between), between
            undone[last_type[seat].pop()] += 1
            steps = [s for s in steps if s[1] < event.to_version]
        else:
            command = rng.choice(game.legal_commands(record.state, seat))
            events, record = execute(record, gid, command, dice, f"player:p{seat}")
            revealed = any(game.reveals(e) for e in events)
            steps.append((seat, before, record.version, revealed))
            last_type[seat].append(command.type)
            if revealed:
                assert not can_undo(record, seat), f"{game.id}: {command.type} revealed, yet undo is offered"
            for other in range(seats):
                if other != seat:
                    assert not can_undo(record, other), f"{game.id}: seat {other} may undo past seat {seat}'s move"
        log += [(n, f"player:p{seat}", e) for e in events]
        states[record.version] = game.clone(record.state)
    replayed, last = None, None
    for number, actor, event in log:
        if number != last:
            last = number
            begin_command(replayed, actor_seat(replayed, actor))
        replayed = apply(replayed, gid, event)
    assert replayed == record, f"{game.id}: the log folds to another record than the live one"
    return undone


@pytest.mark.parametrize("game", ENGINES, ids=lambda g: g.id)
def test_every_engine_has_undoable_commands_within_the_limits(game: Any) -> None:
    undone: Counter[str] = Counter()
    for n, options in enumerate([{}, getattr(game, "example_options", {})]):
        undone += play(game, options, seed=f"undo-{n}")
    assert undone, f"{game.id} offered no undo in two seeded games"
    print(game.id, dict(undone))
