"""Hills & Sheep: the worked examples of the expansion text and the edge cases that trip engines.

Every position is built move by move through the engine's commands (see
helpers.Table). Start tile D at (0, 0); seat 0 ("you") moves first, seat 1 is Blue.
"""

from __future__ import annotations

from domain.carcassonne import GAME
from domain.carcassonne.messages import (
    FeatureScored,
    FlockFieldExtended,
    FlockGathered,
    FlockScattered,
    PlaceFigure,
    TendFlock,
    TileBuried,
    TokenDrawn,
)
from domain.carcassonne.state import PLACE, TEND

from .helpers import Table

WOLF = 0


def of(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


# -- hills ---------------------------------------------------------------------------------


def _hill_city(east_cap: str, east_rotation: int, hills: bool = True) -> Table:
    """Seat 0 knight on the west cap (a hill tile), seat 1 knight on the east cap, C joins, seat 1 closes."""
    west = "HS_CFR_H" if hills else "E"
    t = Table(["U", "U", west, east_cap, "C", "E", "B"], hills_and_sheep=True)
    t.turn(1, 0, 0)
    t.turn(-1, 0, 0)
    t.place(-1, 1, 1, bury="B" if hills else None)
    t.follower("c0")
    t.turn(1, 1, east_rotation, figure="c0", bury="B" if east_cap != "E" else None)
    t.turn(0, 1, 0)
    return t


def test_hill_breaks_a_tie_example_2() -> None:
    """Hills, Example 2: you and Blue each have a knight; yours is on a hill: you score 12, Blue 0."""
    t = _hill_city("E", 3)
    events = t.turn(0, 2, 2)
    [city] = of(events, FeatureScored)
    assert city.points == 12 and city.winners == [0]
    assert t.score(0) == 12 and t.score(1) == 0
    assert t.state.supply == [7, 7]  # both knights return, the loser's too


def test_hill_tie_unbroken_when_both_on_hills() -> None:
    t = Table(["U", "U", "HS_CFR_H", "HS_CRR_H", "C", "E", "B", "B"], hills_and_sheep=True)
    t.turn(1, 0, 0)
    t.turn(-1, 0, 0)
    t.turn(-1, 1, 1, figure="c0", bury="B")
    t.turn(1, 1, 3, figure="c0", bury="B")   # HS_CRR_H turned: city faces west
    t.turn(0, 1, 0)
    events = t.turn(0, 2, 2)
    [city] = of(events, FeatureScored)
    assert city.winners == [0, 1] and t.score(0) == t.score(1) == 12


def test_tie_without_hills_shares() -> None:
    t = _hill_city("E", 3, hills=False)
    events = t.turn(0, 2, 2)
    [city] = of(events, FeatureScored)
    assert city.winners == [0, 1]


def test_hill_buries_a_tile_face_down() -> None:
    t = Table(["HS_CFR_H", "U", "B"], hills_and_sheep=True)
    events = t.place(0, 1, 2, bury="U")
    [buried] = of(events, TileBuried)
    assert buried.tile == "U" and buried.redacted(0)["tile"] == "hidden" and buried.redacted(None)["tile"] == "hidden"
    assert t.state.buried == ["U"] and t.state.remaining == {"B": 1}
    assert t.state.tiles_left() == 1


def test_hill_drawn_last_buries_nothing() -> None:
    t = Table(["HS_CFR_H"], hills_and_sheep=True)
    events = t.place(0, 1, 2)
    assert not of(events, TileBuried)
    t.follower("f0")
    assert GAME.is_over(t.state) and t.state.buried == []
    assert t.breakdown(0)["fields"] == 3  # the hill closed the start city; its west field touches it


def test_hill_that_fits_nowhere_takes_its_tile_with_it(monkeypatch) -> None:
    """Hills: "If you draw a tile with a hill, immediately take another facedown tile" -- also when the hill
    then fits nowhere and is discarded (RULES_NOTES 9.4): the tile under it leaves the game unseen."""
    import domain.carcassonne.game as game_module

    real = game_module.is_placeable
    monkeypatch.setattr(game_module, "is_placeable", lambda s, tile: tile != "HS_CFR_H" and real(s, tile))
    t = Table(["U", "HS_CFR_H", "B", "E"], hills_and_sheep=True)
    t.place(1, 0, 0)
    events = t.skip(draws=("HS_CFR_H", "B", "E"))  # the hill is drawn, buries B, is discarded; E is drawn
    kinds = [type(e).__name__ for e in events]
    assert kinds[-3:] == ["TileDiscarded", "TileBuried", "TileDrawn"]
    [buried] = of(events, TileBuried)
    assert buried.tile == "B" and buried.x is None and buried.y is None
    assert buried.redacted(1)["tile"] == "hidden" and buried.redacted(None)["tile"] == "hidden"
    assert t.state.current_tile == "E" and t.state.buried == ["B"] and t.state.discarded == ["HS_CFR_H"]
    assert t.state.tiles_left() == 0
    view = GAME.view(t.state, 1)
    assert view["unseen_tiles"] == {"B": 1} and view["buried_count"] == 1


def test_hill_drawn_last_and_discarded_buries_nothing(monkeypatch) -> None:
    """Publisher clarification 3 (a hill drawn last has nothing under it) holds for a discarded hill too."""
    import domain.carcassonne.game as game_module

    real = game_module.is_placeable
    monkeypatch.setattr(game_module, "is_placeable", lambda s, tile: tile != "HS_CFR_H" and real(s, tile))
    t = Table(["U", "HS_CFR_H"], hills_and_sheep=True)
    t.place(1, 0, 0)
    events = t.skip(draws=("HS_CFR_H",))
    assert not of(events, TileBuried) and GAME.is_over(t.state) and t.state.buried == []


def test_hill_breaks_a_farmer_tie_at_game_end() -> None:
    t = Table(["HS_CFR_H", "U", "B", "X"], hills_and_sheep=True)
    t.place(0, 1, 2, bury="X")                 # hill closes the start city
    t.follower("f0")                           # your farmer on the hill's east field
    t.turn(1, 0, 0, figure="f0")               # Blue's farmer on the strip north of the road
    t.turn(1, 1, 0)                            # B joins both fields: one farmer each
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["fields"] == 3 and t.breakdown(1)["fields"] == 0


# -- vineyards -------------------------------------------------------------------------------


def _vineyard_ring(last: bool) -> Table:
    stack = ["B", "U", "U", "HS_C_V_SPLIT", "HS_C_V_SPLIT", "B", "HS_C_V_SPLIT"] + (["B"] if last else [])
    t = Table(stack, hills_and_sheep=True)
    t.turn(0, -1, 0, figure="m")     # seat 0 monk south of the start
    t.turn(-1, 0, 0)
    t.turn(1, 0, 0)
    t.turn(-1, -1, 3)                # vineyard, city turned outwards
    t.turn(1, -1, 1)                 # vineyard
    t.turn(-1, -2, 0)
    t.turn(0, -2, 2)                 # third vineyard, city turned outwards (south)
    return t


def test_vineyards_add_3_each_to_a_completed_monastery_example_1() -> None:
    """Vineyards, Example 1: a monastery with 3 vineyards around it scores 9 + 3 + 3 + 3 = 18."""
    t = _vineyard_ring(last=True)
    events = t.turn(1, -2, 0)
    [monastery] = [e for e in of(events, FeatureScored) if e.kind == "monastery" and e.winners]
    assert monastery.points == 18 and monastery.bonus == 9
    assert t.breakdown(0)["monasteries"] == 9 and t.breakdown(0)["vineyards"] == 9


def test_vineyards_never_count_at_game_end() -> None:
    t = _vineyard_ring(last=False)
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["monasteries"] == 8  # 1 + 7 neighbours
    assert t.breakdown(0)["vineyards"] == 0


# -- shepherds: worked examples --------------------------------------------------------------


def test_placing_a_shepherd_draws_a_sheep_example_1() -> None:
    t = Table(["E", "B"], hills_and_sheep=True)
    t.place(0, 1, 2)
    events = t.shepherd("f0", token=3)
    assert of(events, TokenDrawn)[0].token == 3
    assert t.state.flocks == {0: [3]} and t.state.bag[3] == 4
    assert t.state.supply[0] == 7  # the shepherd is not a follower


def test_placing_a_shepherd_draws_the_wolf() -> None:
    t = Table(["E", "B"], hills_and_sheep=True)
    t.place(0, 1, 2)
    events = t.shepherd("f0", token=WOLF)
    assert of(events, FlockScattered) and t.state.shepherds == {}
    assert t.state.bag == [2, 4, 5, 5, 2]  # the wolf went back into the bag
    assert t.state.phase == PLACE and t.seat == 1  # the figure step is used up


def _two_flocks(blue_grows: int = 3) -> Table:
    """Example 2 setup: your flock 2+2 (field north of the start city), Blue's 1+3 (strip north of the road)."""
    t = Table(["E", "U", "B", "U", "B", "X"], hills_and_sheep=True)
    t.place(0, 1, 2)
    t.shepherd("f0", token=2)                  # you: field around the cap
    t.place(1, 0, 0)
    t.shepherd("f0", token=1)                  # Blue: strip north of the road
    t.place(-1, 1, 0)                          # you extend your field ...
    events = t.skip()
    assert of(events, FlockFieldExtended) and t.state.phase == TEND
    assert set(GAME.legal_commands(t.state, 0)) == {TendFlock(seat=0, action="grow"),
                                                     TendFlock(seat=0, action="gather")}
    t.tend("grow", token=2)                    # ... and grow
    t.place(2, 0, 0)
    t.skip()
    t.tend("grow", token=blue_grows)           # Blue grows too
    assert t.state.flocks == {0: [2, 2], 1: [1, blue_grows]}
    t.place(1, 1, 0)                           # B joins both fields
    assert t.root(0, 1, "f0") == t.root(1, 0, "f0")
    t.skip()
    assert t.state.phase == TEND
    return t


def test_multiple_shepherds_gather_example_2() -> None:
    t = _two_flocks()
    events = t.tend("gather")
    [gathered] = of(events, FlockGathered)
    assert gathered.seats == [0, 1] and gathered.points == 8
    assert t.score(0) == 8 and t.score(1) == 8
    assert t.breakdown(0)["sheep"] == 8
    assert t.state.shepherds == {} and sum(t.state.bag) == 18


def test_wolf_scatters_every_shepherd_in_the_field_example_2() -> None:
    t = _two_flocks()
    events = t.tend("grow", token=WOLF)
    [scattered] = of(events, FlockScattered)
    assert scattered.seats == [0, 1] and sorted(scattered.tokens) == [1, 2, 2, 3]
    assert t.score(0) == 0 and t.score(1) == 0
    assert t.state.shepherds == {} and t.state.bag == [2, 4, 5, 5, 2]


def _loop(stack_extra: tuple[str, ...] = ()) -> Table:
    return Table(["U", "V", "V", "V", "V", *stack_extra], hills_and_sheep=True)


def test_grow_then_closed_field_gathers_example_3() -> None:
    """Example 3: you grow, and your tile closed the field: the flock goes to the stable, 7 points."""
    t = _loop(("B",))
    t.turn(-1, 0, 0)
    t.turn(0, -1, 3)
    t.place(1, -1, 0)
    t.shepherd("f1", token=3)                  # inner corner of the road loop
    t.turn(0, -2, 2)                           # Blue extends your field: nothing happens to your flock
    assert t.state.flocks == {0: [3]}
    t.place(1, -2, 1)                          # you close the loop and the inner field
    t.skip()
    assert t.state.phase == TEND
    events = t.tend("grow", token=4)
    [gathered] = of(events, FlockGathered)
    assert gathered.closed and gathered.points == 7 and gathered.seats == [0]
    assert t.breakdown(0)["sheep"] == 7 and t.state.shepherds == {}


def test_closing_a_field_gathers_the_opponents_flock() -> None:
    t = _loop(("B",))
    t.turn(-1, 0, 0)
    t.place(0, -1, 3)
    t.shepherd("f1", token=3)                  # Blue's shepherd in the inner corner
    t.turn(1, -1, 0)                           # you extend Blue's field: nothing to tend for you
    t.turn(0, -2, 2)                           # Blue extends its own field ...
    t.tend("grow", token=1)                    # ... and grows
    events = t.turn(1, -2, 1)                  # you close it: Blue scores at once
    [gathered] = of(events, FlockGathered)
    assert gathered.seats == [1] and gathered.points == 4 and gathered.closed
    assert t.score(1) == 4 and t.score(0) == 0


def test_shepherd_placed_in_an_inner_field_closed_on_placement() -> None:
    t = _loop(("B",))
    t.turn(-1, 0, 0)
    t.turn(0, -1, 3)
    t.turn(1, -1, 0)
    t.turn(0, -2, 2)
    t.place(1, -2, 1)                          # this tile closes the inner field
    events = t.shepherd("f1", token=2)         # one draw, then gathered at once
    assert [type(e).__name__ for e in events][:3] == ["ShepherdPlaced", "TokenDrawn", "FlockGathered"]
    assert t.score(0) == 2 and t.state.shepherds == {}


def test_wolf_in_a_closed_field_on_placement() -> None:
    t = _loop(("B",))
    t.turn(-1, 0, 0)
    t.turn(0, -1, 3)
    t.turn(1, -1, 0)
    t.turn(0, -2, 2)
    t.place(1, -2, 1)
    events = t.shepherd("f1", token=WOLF)
    assert of(events, FlockScattered) and not of(events, FlockGathered)
    assert t.score(0) == 0


def test_shepherd_may_join_a_farmer_and_a_farmer_a_shepherd() -> None:
    t = Table(["E", "B", "B"], hills_and_sheep=True)
    t.turn(0, 1, 2, figure="f0")               # your farmer next to the completed start city
    t.place(-1, 1, 0)
    assert PlaceFigure(seat=1, figure="follower", feature="f0") not in GAME.legal_commands(t.state, 1)
    t.shepherd("f0", token=1)                  # Blue's shepherd joins the farmer's field
    t.place(1, 1, 0)
    assert PlaceFigure(seat=0, figure="shepherd", feature="f0") not in GAME.legal_commands(t.state, 0)
    t.skip()
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["fields"] == 3
    assert t.breakdown(1)["sheep"] == 0        # flocks left at game end score nothing


def test_farmer_may_join_a_field_with_a_shepherd() -> None:
    t = Table(["E", "B"], hills_and_sheep=True)
    t.place(0, 1, 2)
    t.shepherd("f0", token=4)
    t.turn(-1, 1, 0, figure="f0")              # Blue's farmer in the shepherd's field
    assert GAME.is_over(t.state)
    assert t.breakdown(1)["fields"] == 3 and t.score(0) == 0


def test_only_one_shepherd_per_player_and_per_field() -> None:
    t = Table(["E", "B", "U", "B"], hills_and_sheep=True)
    t.place(0, 1, 2)
    t.shepherd("f0", token=1)
    t.place(-1, 1, 0)                          # Blue: the field already holds a shepherd
    legal = GAME.legal_commands(t.state, 1)
    assert not [c for c in legal if isinstance(c, PlaceFigure) and c.figure == "shepherd"]
    assert not GAME.is_legal(t.state, PlaceFigure(seat=1, figure="shepherd", feature="f0"))
    t.skip()
    t.place(1, 0, 0)                           # you: your shepherd is on the board
    legal = GAME.legal_commands(t.state, 0)
    assert not [c for c in legal if isinstance(c, PlaceFigure) and c.figure == "shepherd"]


def test_a_shepherd_placed_this_turn_is_not_tended() -> None:
    t = Table(["E", "B", "B"], hills_and_sheep=True)
    t.place(0, 1, 2)
    events = t.shepherd("f0", token=1)
    assert not of(events, FlockFieldExtended) and t.state.phase == PLACE


def test_gather_scores_flock_and_frees_the_shepherd() -> None:
    t = Table(["E", "B", "B", "B"], hills_and_sheep=True)
    t.place(0, 1, 2)
    t.shepherd("f0", token=4)
    t.turn(0, 2, 0)                            # Blue extends: nothing for Blue to tend
    t.place(-1, 1, 0)
    t.skip()
    events = t.tend("gather")
    assert of(events, FlockGathered)[0].points == 4
    assert t.score(0) == 4 and 0 not in t.state.shepherds


def test_no_shepherds_without_the_expansion() -> None:
    t = Table(["E", "B"], hills_and_sheep=False)
    t.place(0, 1, 2)
    legal = GAME.legal_commands(t.state, 0)
    assert not [c for c in legal if isinstance(c, PlaceFigure) and c.figure == "shepherd"]
    assert not GAME.is_legal(t.state, PlaceFigure(seat=0, figure="shepherd", feature="f0"))


# -- the two special tiles ----------------------------------------------------------------------


def test_multi_edge_city_joins_both_segments_through_one_edge() -> None:
    t = Table(["HS_CC_V_MULTI", "E", "E"], hills_and_sheep=True)
    t.place(0, 1, 2)                           # both city segments touch the start city's edge
    assert t.root(0, 1, "c0") == t.root(0, 1, "c1") == t.root(0, 0, "c0")
    t.follower("c1")
    t.turn(1, 1, 3)
    assert t.score(0) == 0
    events = t.turn(-1, 1, 1)
    [city] = of(events, FeatureScored)
    assert (city.tiles, city.points, city.winners) == (4, 8, [0])


def test_multi_edge_city_cannot_complete_while_shared_edge_is_open() -> None:
    t = Table(["HS_CC_V_MULTI", "E", "E"], hills_and_sheep=True)
    t.place(0, 1, 1)                           # c1 faces the start city; its shared edge (east) is open
    assert t.root(0, 1, "c1") == t.root(0, 0, "c0") != t.root(0, 1, "c0")
    t.follower("c1")
    assert t.state.open[t.root(0, 1, "c1")] == 1
    events = t.turn(1, 1, 3)                   # a cap on the shared edge joins c0 and c1
    assert not of(events, FeatureScored)
    assert t.root(0, 1, "c0") == t.root(0, 1, "c1")
    events = t.turn(0, 2, 2)
    [city] = of(events, FeatureScored)
    assert (city.tiles, city.points, city.winners) == (4, 8, [0])


def test_split_field_tile_joins_across_one_edge() -> None:
    t = Table(["HS_C_V_SPLIT", "B"], hills_and_sheep=True)
    t.place(0, 1, 2)
    assert t.root(0, 1, "f0") != t.root(0, 1, "f1")
    t.follower("f0")
    t.place(0, 2, 0)                           # one field across the split edge joins both halves
    assert t.root(0, 1, "f0") == t.root(0, 1, "f1")
    assert PlaceFigure(seat=1, figure="follower", feature="f0") not in GAME.legal_commands(t.state, 1)


def test_split_field_halves_are_separate_fields() -> None:
    t = Table(["HS_C_V_SPLIT", "B"], hills_and_sheep=True)
    t.turn(0, 1, 2, figure="f0")
    t.turn(-1, 1, 0, figure="f0")              # B joins only the west half: free for Blue
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["fields"] == 3 and t.breakdown(1)["fields"] == 3


# -- rule variants: each open question is one constant (RULES_NOTES.md) -------------------------


def test_variant_each_shepherd_scores_its_own_flock(monkeypatch) -> None:
    import domain.carcassonne.shepherds as shepherds

    monkeypatch.setattr(shepherds, "MULTIPLE_SHEPHERDS_SHARE_TOTAL", False)
    t = _two_flocks(blue_grows=4)
    t.tend("gather")
    assert t.score(0) == 4 and t.score(1) == 5


def test_variant_wolf_on_placement_leaves_the_figure_step(monkeypatch) -> None:
    import domain.carcassonne.game as game

    monkeypatch.setattr(game, "SHEPHERD_WOLF_ENDS_FIGURE_STEP", False)
    t = Table(["E", "B"], hills_and_sheep=True)
    t.place(0, 1, 2)
    t.shepherd("f0", token=WOLF)
    assert t.state.phase == "figure" and t.seat == 0
    legal = GAME.legal_commands(t.state, 0)
    assert PlaceFigure(seat=0, figure="follower", feature="f0") in legal
    assert not [c for c in legal if isinstance(c, PlaceFigure) and c.figure == "shepherd"]
    t.follower("f0")
    assert t.seat == 1


def test_variant_hills_do_not_break_ties(monkeypatch) -> None:
    import domain.carcassonne.scoring as scoring

    monkeypatch.setattr(scoring, "HILL_TIEBREAK", "none")
    t = _hill_city("E", 3)
    events = t.turn(0, 2, 2)
    assert of(events, FeatureScored)[0].winners == [0, 1]
