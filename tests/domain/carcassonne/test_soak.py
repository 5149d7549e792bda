"""Random complete games with invariants after every move, and replay-equals-live."""

from __future__ import annotations

import pytest

from domain.carcassonne import GAME
from domain.carcassonne.board import rotated_at
from domain.carcassonne.messages import Pass, PlaceFigure, PlaceTile, RecallAbbot
from domain.carcassonne.state import CarcassonneState
from domain.carcassonne.tiles import tile_counts
from domain.core.playout import random_playout

from .helpers import check_invariants


def _initial_tiles(options: dict) -> int:
    total = sum(tile_counts("base").values())
    if options.get("hills_and_sheep"):
        total += sum(tile_counts("hills_and_sheep").values())
    if options.get("river"):
        total += sum(tile_counts("river").values())
    return total


def play_checked(players: int, options: dict, seed: str) -> tuple[CarcassonneState, list]:
    initial = _initial_tiles(options)
    last_scores: list[list[int]] = [[0] * players]

    def check(state: CarcassonneState, event: object) -> None:
        check_invariants(state, last_scores[0], initial)
        last_scores[0] = list(state.scores)
        seat = state.turn_seat
        legal = set(GAME.legal_commands(state, seat))
        for command in list(legal)[:40]:
            assert GAME.is_legal(state, command)
        # and what is not listed is refused: every figure choice, and a sample of tile positions
        if state.phase == "figure":
            candidates: list = [Pass(seat=seat), RecallAbbot(seat=seat)]
            for f in rotated_at(state, state.placed).features:
                candidates += [PlaceFigure(seat=seat, figure=k, feature=f.local_id)
                               for k in ("follower", "shepherd", "abbot")]
            for command in candidates:
                assert GAME.is_legal(state, command) == (command in legal), command
        elif state.phase == "place":
            for (x, y) in list(state.frontier)[:12]:
                for r in range(4):
                    command = PlaceTile(seat=seat, x=x, y=y, rotation=r)
                    assert GAME.is_legal(state, command) == (command in legal), command

    result = random_playout(GAME, players, seed, options, check=check)
    state = result.state
    assert GAME.is_over(state)
    assert state.tiles_left() == 0
    # every tile placed, discarded or buried exactly once
    assert len(state.placements) + len(state.discarded) + len(state.buried) == initial
    # replay equals live
    assert GAME.fold(None, result.events) == state
    # final sheet matches the running scores
    assert [s.total for s in GAME.scores(state)] == [float(v) for v in state.scores]
    if options.get("hills_and_sheep"):
        assert sum(state.bag) + sum(len(f) for f in state.flocks.values()) == 18
    return state, result.events


OPTION_SETS = [{}, {"hills_and_sheep": True}]


@pytest.mark.soak
def test_random_games_with_abbot(soak) -> None:
    n = soak(100, 6)
    for i in range(n):
        options = {"abbot": True, "hills_and_sheep": bool(i % 2), "river": i % 3 == 0}
        state, events = play_checked(2 + i % 4, options, f"abbot-{i}")
        tiles = [p[2] for p in state.placements] + state.buried + state.discarded
        assert sum(1 for t in tiles if t.endswith("_G")) == 8 + (i % 2) + (i % 3 == 0)


@pytest.mark.soak
def test_random_games_keep_invariants(soak) -> None:
    n = soak(500, 30)
    for i in range(n):
        players = 2 + i % 4
        options = OPTION_SETS[(i // 4) % 2]
        state, _ = play_checked(players, options, f"soak-{i}")
        assert len(state.scores) == players


@pytest.mark.soak
def test_random_games_with_river(soak) -> None:
    n = soak(100, 6)
    for i in range(n):
        options = {"river": True, "hills_and_sheep": bool(i % 2)}
        state, _ = play_checked(2 + i % 4, options, f"river-{i}")
        river = [p for p in state.placements if p[2].startswith("RV_")]
        assert len(river) == 12
        # the river is laid first: spring, ten course tiles, lake
        assert [p[2] for p in state.placements[:12]] == [p[2] for p in river]
        assert state.placements[0][2] == "RV_SPRING" and state.placements[11][2] == "RV_LAKE"


def test_one_game_each_configuration_replays() -> None:
    for options in ({}, {"hills_and_sheep": True}, {"river": True}, {"river": True, "hills_and_sheep": True}):
        state, events = play_checked(3, options, f"quick-{options}")
        # replay from the JSON form too (what the event store keeps)
        parsed = [GAME.parse_event(e.model_dump(mode="json")) for e in events]
        assert GAME.fold(None, parsed) == state
