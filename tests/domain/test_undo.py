"""Undo with every registered engine: seeded games with random undos, played through the kernel.

Checks, at every step: the Undo offered to a seat takes back its own last command: the game is as it was at the
undo's ``to_version`` with the other seats' later commands (only in a simultaneous phase) folded again; it never
reaches back past an event the game says reveals something, nor past another seat's command outside a
simultaneous phase; right after a revealing command, or another seat's move in a sequential turn, nothing is
undoable. At the end the
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
    start = record.version
    steps: list[tuple[int, int, int, bool, bool, list[Any]]] = []  # (seat, from, to, revealed, together, events)
    undone: Counter[str] = Counter()
    last_type: dict[int, list[str]] = {s: [] for s in range(seats)}
    for n in range(1, max_commands):
        if record.status != "active":
            break
        seat = rng.choice(record.to_act())
        before = record.version
        together = len(record.to_act()) > 1  # a simultaneous phase: the other seats' undos survive this move
        if can_undo(record, seat) and rng.random() < 0.35:
            events, record = execute(record, gid, Undo(seat=seat), dice, f"player:p{seat}")
            [event] = events
            # the seat's own last step goes; every later step is another seat's, made in a simultaneous phase
            later = [s for s in steps if s[1] >= event.to_version]
            assert later and later[0][0] == seat and later[0][1] == event.to_version, later
            assert not later[0][3] and all(s[0] != seat and s[4] and not s[3] for s in later[1:]), later
            undone[last_type[seat].pop()] += 1
            steps.remove(later[0])
            # the game is as if that command had never been made: the start with every command still standing
            expected = game.fold(game.clone(states[start]), [e for s in steps for e in s[5]
                                                             if not e.type.startswith("taproom.")])
            assert record.state == expected, f"{game.id}: undo to {event.to_version} differs"
        else:
            command = rng.choice(game.legal_commands(record.state, seat))
            events, record = execute(record, gid, command, dice, f"player:p{seat}")
            revealed = any(game.reveals(e) for e in events)
            steps.append((seat, before, record.version, revealed, together, list(events)))
            last_type[seat].append(command.type)
            if revealed:
                assert not can_undo(record, seat), f"{game.id}: {command.type} revealed, yet undo is offered"
            for other in range(seats):
                if other != seat and (not together or revealed):
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
