"""Turn structure, validation errors, legal command lists, setup and options."""

from __future__ import annotations

import random

import pytest

from domain.carcassonne import GAME, CarcassonneOptions
from domain.carcassonne.board import placements
from domain.carcassonne.messages import GameStarted, Pass, PlaceFigure, PlaceTile, TendFlock, TileDiscarded, TileDrawn
from domain.carcassonne.state import FIGURE, OVER, PLACE
from domain.core import GameNotActive, IllegalMove, InvalidCommand, InvalidOptions, NotYourTurn
from domain.core.playout import random_playout

from .helpers import Table


def _new(players: int = 2, **options: bool):
    opts = GAME.parse_options(options)
    events = GAME.setup(opts, players, random.Random(7))
    return GAME.fold(None, events), events


def test_setup_places_the_start_tile_and_draws() -> None:
    state, events = _new(3)
    assert isinstance(events[0], GameStarted) and isinstance(events[-1], TileDrawn)
    assert state.placements == [(0, 0, "D", 0)]
    assert state.phase == PLACE and state.turn_seat == 0 and state.current_tile is not None
    assert state.tiles_left() == 70  # 72 - start tile - the tile in hand
    assert state.supply == [7, 7, 7]


def test_setup_with_hills_and_sheep() -> None:
    state, _ = _new(2, hills_and_sheep=True)
    assert state.tiles_left() == 88
    assert sum(state.bag) == 18


def test_player_counts() -> None:
    opts = GAME.parse_options({})
    for n in (1, 6):
        with pytest.raises(InvalidOptions):
            GAME.setup(opts, n, random.Random(1))
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"tower": True})
    assert GAME.parse_options({"hills_and_sheep": True}) == CarcassonneOptions(hills_and_sheep=True)


def test_wrong_seat_and_wrong_phase() -> None:
    state, _ = _new()
    with pytest.raises(NotYourTurn):
        GAME.decide(state, Pass(seat=1), random.Random(1))
    with pytest.raises(IllegalMove):
        GAME.decide(state, Pass(seat=0), random.Random(1))
    with pytest.raises(IllegalMove):
        GAME.decide(state, TendFlock(seat=0, action="grow"), random.Random(1))


def test_tile_must_fit_and_touch() -> None:
    t = Table(["E", "B"], hills_and_sheep=False)
    for x, y, r in ((5, 5, 0), (0, 0, 0), (0, 1, 0), (0, -1, 0)):
        with pytest.raises(IllegalMove, match=r"does not fit"):
            GAME.decide(t.state, PlaceTile(seat=0, x=x, y=y, rotation=r), random.Random(1))
    assert PlaceTile(seat=0, x=0, y=1, rotation=2) in GAME.legal_commands(t.state, 0)


def test_unknown_feature_is_invalid() -> None:
    t = Table(["E", "B"], hills_and_sheep=False)
    t.place(0, 1, 2)
    with pytest.raises(InvalidCommand, match="no feature 'r0'"):
        GAME.decide(t.state, PlaceFigure(seat=0, feature="r0"), random.Random(1))
    with pytest.raises(InvalidCommand):
        GAME.parse_command({"type": "PlaceTile", "x": 1, "y": 0, "rotation": 4})
    with pytest.raises(InvalidCommand):
        GAME.parse_command({"type": "Castle"})


def test_legal_commands_match_is_legal_and_decide() -> None:
    state, _ = _new(2, hills_and_sheep=True)
    legal = GAME.legal_commands(state, 0)
    assert legal and all(GAME.is_legal(state, c) for c in legal)
    assert GAME.legal_commands(state, 1) == []
    # every position/rotation on the frontier that is not listed is refused
    listed = {(c.x, c.y, c.rotation) for c in legal if isinstance(c, PlaceTile)}
    for (x, y) in state.frontier:
        for r in range(4):
            assert GAME.is_legal(state, PlaceTile(seat=0, x=x, y=y, rotation=r)) == ((x, y, r) in listed)
    events = GAME.decide(state, legal[0], random.Random(2))
    state = GAME.fold(state, events)
    assert state.phase == FIGURE
    figure = GAME.legal_commands(state, 0)
    assert Pass(seat=0) in figure and all(GAME.is_legal(state, c) for c in figure)


def test_game_over_refuses_commands() -> None:
    t = Table(["E"], hills_and_sheep=False)
    t.turn(0, 1, 2)
    assert t.state.phase == OVER and GAME.is_over(t.state) and GAME.to_act(t.state) == []
    with pytest.raises(GameNotActive):
        GAME.decide(t.state, Pass(seat=1), random.Random(1))
    assert GAME.legal_commands(t.state, 1) == []


def test_unplaceable_tile_is_discarded_and_another_drawn() -> None:
    # C (city on all four sides) fits only against a city edge; once E closes the start city there is none
    t = Table(["E", "C", "B"], hills_and_sheep=False)
    t.place(0, 1, 2)                           # closes the only city edge
    assert not list(placements(t.state, "C"))
    events = t.skip(draws=("C", "B"))
    assert [type(e).__name__ for e in events][-2:] == ["TileDiscarded", "TileDrawn"]
    assert isinstance(events[-2], TileDiscarded) and events[-2].tile == "C"
    assert t.state.discarded == ["C"] and t.state.current_tile == "B"


def test_last_tile_ends_the_game_with_final_scoring() -> None:
    t = Table(["U"], hills_and_sheep=False)
    events = t.turn(1, 0, 0, figure="r0")
    names = [type(e).__name__ for e in events]
    assert names[-2:] == ["FeatureScored", "GameEnded"]
    assert t.state.phase == OVER and t.score(0) == 2
    [score] = [s for s in GAME.scores(t.state) if s.seat == 0]
    assert score.total == 2 and score.breakdown["roads"] == 2
    assert set(score.breakdown) == {"roads", "cities", "monasteries", "vineyards", "gardens", "fields", "sheep"}


def test_random_playout_finishes_with_five_players() -> None:
    result = random_playout(GAME, 5, "five", {"hills_and_sheep": True})
    assert GAME.is_over(result.state)
    assert len(GAME.scores(result.state)) == 5


def test_clone_is_independent() -> None:
    state, _ = _new()
    copy = GAME.clone(state)
    assert copy == state
    command = GAME.legal_commands(state, 0)[0]
    GAME.fold(copy, GAME.decide(copy, command, random.Random(3)))
    assert copy != state and len(state.placements) == 1


def test_heuristic_prefers_the_seat_ahead() -> None:
    from domain.carcassonne.heuristics import estimated_points, evaluate

    t = Table(["E", "U"], hills_and_sheep=False)
    t.place(0, 1, 2)
    t.follower("c0")                           # seat 0 scores 4
    assert evaluate(t.state, 0) > 0 > evaluate(t.state, 1)
    assert estimated_points(t.state)[0] >= t.score(0)
    result = random_playout(GAME, 3, "heur", {"hills_and_sheep": True})
    final = [float(s) for s in result.state.scores]
    assert estimated_points(result.state) == final  # at the end the estimate is the score
