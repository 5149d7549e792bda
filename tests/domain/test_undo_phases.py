"""Undo per game, phase by phase (issue 34): a seeded game of each title is walked through every phase; after
each command the test checks what the game's RULES_NOTES.md says about taking it back:

* a command the rules let its seat take back offers ``taproom.Undo`` (seen at least once per such phase);
* a command that ends the seat's part of the phase or reveals something (a draw, a roll, a card turned up) is
  final: no Undo is offered, and one sent anyway is refused with the stable code ``nothing_to_undo`` and
  changes nothing.

Some of the offered undos are taken, so the walk also goes on from states reached by an undo.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain.catalog import load_games
from domain.core.errors import RuleError
from domain.core.lifecycle import CreateGame, GameRecord, SeatSpec, Undo, execute, kernel_commands
from domain.core.registry import get_game
from domain.core.rng import SeedDice
from services.application.bots import greedy_bot

load_games()


def _hea_phase(state: Any) -> str:
    return state.step if state.phase == "playing" else state.phase


@dataclass(frozen=True)
class Walk:
    game: str
    options: dict[str, Any]
    phases: frozenset[str]  # every phase the walk must reach
    undoable: frozenset[tuple[str, str]]  # (phase, command type): must be seen offering an undo
    final: frozenset[tuple[str, str]]  # (phase, command type): never offers one
    phase_of: Callable[[Any], str] = lambda state: str(state.phase)
    greedy: float = 0.0  # share of moves chosen by the greedy bot (reaches the deeper steps)
    seeds: tuple[str, ...] = ("walk-1",)
    max_commands: int = 1500
    extra: dict[str, Any] = field(default_factory=dict)


WALKS = [
    Walk("carcassonne", {}, frozenset({"place", "figure"}),
         undoable=frozenset({("place", "PlaceTile")}),
         final=frozenset({("figure", "PlaceFigure"), ("figure", "Pass")})),
    Walk("carcassonne", {"hills_and_sheep": True}, frozenset({"place", "figure", "tend"}),
         undoable=frozenset({("place", "PlaceTile"), ("figure", "PlaceFigure")}),
         final=frozenset({("tend", "TendFlock")})),
    Walk("heaven-and-ale", {"kegs_and_more": True},
         frozenset({"placing", "arranging", "move", "buy", "disc", "barrel", "shed", "storage", "goods", "cart"}),
         undoable=frozenset({("arranging", "PlaceStorageTile"), ("move", "Move"), ("buy", "BuyTile"),
                             ("buy", "UseEmergencyCoin"), ("barrel", "ClaimBarrels"), ("shed", "ChooseShedTiles"),
                             ("storage", "ResolveStorageTile")}),
         final=frozenset({("placing", "EnterStartingArea"), ("cart", "UseCarterDie")}),
         phase_of=_hea_phase, greedy=1.0, seeds=("walk-3",), max_commands=400),
    Walk("tiefenthal", {}, frozenset({"A", "B", "D", "E", "F"}),
         undoable=frozenset({("E", "PlaceDie"), ("F", "PlaceDie"), ("F", "TakeDie"), ("F", "BuyCard"),
                             ("F", "UpgradeTile")}),
         final=frozenset({("A", "ChooseBonus"), ("B", "KeepTavern"), ("B", "RedrawTavern"), ("D", "PickDie"),
                          ("E", "FinishPlanning"), ("F", "EndTurn")})),
]


def can_undo(record: GameRecord, seat: int) -> bool:
    return any(isinstance(c, Undo) for c in kernel_commands(record, seat))


def walk(spec: Walk, seed: str) -> tuple[set[str], dict[tuple[str, str], set[bool]], Counter[str]]:
    game = get_game(spec.game)
    dice, rng = SeedDice(seed.encode()), random.Random(seed)
    _, record = execute(None, "walk", CreateGame(game=spec.game, options=spec.options, seed_commitment="c", seats=[
        SeatSpec(name=f"p{i}", player_id=f"p{i}") for i in range(2)]), dice, "player:p0")
    phases: set[str] = set()
    seen: dict[tuple[str, str], set[bool]] = defaultdict(set)
    refused: Counter[str] = Counter()
    for _ in range(spec.max_commands):
        if record.status != "active":
            break
        seat = rng.choice(record.to_act())
        phase = spec.phase_of(record.state)
        phases.add(phase)
        legal = game.legal_commands(record.state, seat)
        if spec.greedy and rng.random() < spec.greedy:
            command = greedy_bot(spec.game, game.view(record.state, seat), legal, rng)
        else:
            command = rng.choice(legal)
        _, record = execute(record, "walk", command, dice, f"player:p{seat}")
        offered = can_undo(record, seat)
        seen[(phase, command.type)].add(offered)
        if not offered:
            version = record.version
            with pytest.raises(RuleError) as refusal:
                execute(record, "walk", Undo(seat=seat), dice, f"player:p{seat}")
            assert refusal.value.code in ("nothing_to_undo", "game_not_active"), refusal.value
            assert record.version == version
            refused[refusal.value.code] += 1
        elif rng.random() < 0.3:
            _, record = execute(record, "walk", Undo(seat=seat), dice, f"player:p{seat}")
    return phases, seen, refused


@pytest.mark.parametrize("spec", WALKS, ids=lambda w: f"{w.game}{'+' if w.options else ''}")
def test_undo_in_every_phase_as_the_rules_notes_say(spec: Walk) -> None:
    phases: set[str] = set()
    seen: dict[tuple[str, str], set[bool]] = defaultdict(set)
    refused: Counter[str] = Counter()
    for seed in spec.seeds:
        got_phases, got_seen, got_refused = walk(spec, seed)
        phases |= got_phases
        refused += got_refused
        for key, outcomes in got_seen.items():
            seen[key] |= outcomes
    assert spec.phases <= phases, f"{spec.game}: the walk never reached {sorted(spec.phases - phases)}"
    for key in spec.undoable:
        assert True in seen.get(key, set()), f"{spec.game}: {key} never offered an undo; seen {dict(seen)}"
    for key in spec.final:
        assert key in seen, f"{spec.game}: the walk never played {key}"
        assert seen[key] == {False}, f"{spec.game}: {key} offered an undo"
    assert refused["nothing_to_undo"] > 0
