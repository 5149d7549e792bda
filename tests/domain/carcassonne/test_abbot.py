"""The Abbot option (carcassonne.md §5.6): abbots on monasteries and gardens, recall, vineyards (§9.6)."""

from __future__ import annotations

from domain.carcassonne import GAME
from domain.carcassonne.messages import AbbotRecalled, FeatureScored, PlaceFigure, RecallAbbot

from .helpers import Table


def _garden_ring(last: bool) -> Table:
    t = Table(["E_G", "U", "U", "B", "B", "B", "B"] + (["B"] if last else []), hills_and_sheep=False, abbot=True)
    t.place(0, 1, 2)                           # garden copy of E closes the start city
    legal = GAME.legal_commands(t.state, 0)
    assert PlaceFigure(seat=0, figure="follower", feature="g") not in legal
    assert PlaceFigure(seat=0, figure="abbot", feature="g") in legal
    assert not GAME.is_legal(t.state, PlaceFigure(seat=0, figure="follower", feature="g"))
    t.abbot("g")
    assert t.state.supply[0] == 7              # the abbot is not one of the seven followers
    t.turn(1, 0, 0)
    t.turn(-1, 0, 0)
    t.turn(-1, 1, 0)
    t.turn(1, 1, 0)
    t.turn(-1, 2, 0)
    t.turn(0, 2, 0)
    return t


def test_completed_garden_scores_9_for_the_abbot() -> None:
    t = _garden_ring(last=True)
    events = t.turn(1, 2, 0)
    [garden] = [e for e in events if isinstance(e, FeatureScored) and e.kind == "garden"]
    assert garden.points == 9 and garden.winners == [0] and garden.abbots == [(0, 0, 1, "g")]
    assert t.breakdown(0)["gardens"] == 9
    assert 0 not in t.state.abbots


def test_abbot_scores_like_an_incomplete_monastery_at_game_end() -> None:
    t = _garden_ring(last=False)
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["gardens"] == 8      # 1 + 7 neighbours


def test_recalling_the_abbot_scores_now_instead_of_a_figure() -> None:
    t = Table(["E_G", "U", "U", "B"], hills_and_sheep=False, abbot=True)
    t.place(0, 1, 2)
    t.abbot("g")
    t.turn(1, 0, 0)
    t.place(-1, 0, 0)
    assert RecallAbbot(seat=0) in GAME.legal_commands(t.state, 0)
    assert not [c for c in GAME.legal_commands(t.state, 0) if isinstance(c, PlaceFigure) and c.figure == "abbot"]
    events = t.recall()
    [recalled] = [e for e in events if isinstance(e, AbbotRecalled)]
    assert recalled.points == 4 and recalled.kind == "garden"  # 1 + start tile + two roads
    assert t.breakdown(0)["gardens"] == 4 and t.state.abbots == {}
    assert not GAME.is_legal(t.state, RecallAbbot(seat=1))


def test_abbot_on_a_completed_monastery_gets_the_vineyard_bonus() -> None:
    t = Table(["B", "U", "U", "HS_C_V_SPLIT", "HS_C_V_SPLIT", "B", "B", "B"], hills_and_sheep=True, abbot=True)
    t.place(0, -1, 0)
    t.abbot("m")
    t.turn(-1, 0, 0)
    t.turn(1, 0, 0)
    t.turn(-1, -1, 3)
    t.turn(1, -1, 1)
    t.turn(-1, -2, 0)
    t.turn(0, -2, 0)
    events = t.turn(1, -2, 0)
    [monastery] = [e for e in events if isinstance(e, FeatureScored) and e.winners]
    assert monastery.points == 15 and monastery.abbots
    assert t.breakdown(0)["monasteries"] == 9 and t.breakdown(0)["vineyards"] == 6


def test_no_abbot_without_the_option() -> None:
    t = Table(["B", "E"], hills_and_sheep=False)
    t.place(0, -1, 0)
    legal = GAME.legal_commands(t.state, 0)
    assert not [c for c in legal if isinstance(c, (RecallAbbot,)) or getattr(c, "figure", "") == "abbot"]
    assert not GAME.is_legal(t.state, PlaceFigure(seat=0, figure="abbot", feature="m"))
    assert not GAME.is_legal(t.state, RecallAbbot(seat=0))
