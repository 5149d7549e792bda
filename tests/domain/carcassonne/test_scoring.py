"""Classic scoring cases (carcassonne.md §5, §8), each built move by move through the engine's commands.

The start tile D lies at (0, 0): city cap N, road W-E, field strip f0 between
city and road, field f1 south of the road. Seat 0 moves first.
"""

from __future__ import annotations

from domain.carcassonne import GAME
from domain.carcassonne.messages import FeatureScored, PlaceFigure

from .helpers import Table


def scored(events: list) -> list[FeatureScored]:
    return [e for e in events if isinstance(e, FeatureScored)]


def test_two_tile_city_scores_4_during_play() -> None:
    t = Table(["E", "U"], hills_and_sheep=False)
    t.place(0, 1, 2)  # E turned so its city faces south onto the start tile's city
    events = t.follower("c0")
    [city] = scored(events)
    assert (city.kind, city.completed, city.tiles, city.points, city.winners) == ("city", True, 2, 4, [0])
    assert t.score(0) == 4 and t.breakdown(0)["cities"] == 4
    assert t.state.supply[0] == 7  # the knight came straight back


def test_four_sided_city_closed_by_caps_scores_12() -> None:
    # C (pennant) in the middle of four caps: 5 tiles + 1 pennant = 12 (§8 case 2)
    t = Table(["U", "U", "E", "E", "C", "E"], hills_and_sheep=False)
    t.turn(1, 0, 0)                  # seat 0: straight road east of the start
    t.turn(-1, 0, 0)                 # seat 1: straight road west
    t.turn(-1, 1, 1, figure="c0")    # seat 0: cap facing east, knight
    t.turn(1, 1, 3)                  # seat 1: cap facing west
    t.turn(0, 1, 0)                  # seat 0: C joins start city and both caps
    assert t.score(0) == 0
    events = t.turn(0, 2, 2)         # seat 1: the last cap closes it
    [city] = scored(events)
    assert (city.tiles, city.points, city.winners) == (5, 12, [0])
    assert t.score(0) == 12 and t.score(1) == 0


def test_shared_majority_both_score() -> None:
    t = Table(["U", "U", "E", "E", "C", "E"], hills_and_sheep=False)
    t.turn(1, 0, 0)
    t.turn(-1, 0, 0)
    t.turn(-1, 1, 1, figure="c0")    # seat 0 knight
    t.turn(1, 1, 3, figure="c0")     # seat 1 knight in a separate cap
    t.turn(0, 1, 0)                  # joined: 1 knight each
    events = t.turn(0, 2, 2)
    [city] = scored(events)
    assert city.winners == [0, 1] and city.points == 12
    assert t.score(0) == 12 and t.score(1) == 12
    assert t.state.supply == [7, 7]


def test_larger_majority_takes_all() -> None:
    t = Table(["U", "U", "E", "E", "B", "B", "E", "C"], hills_and_sheep=False)
    t.turn(1, 0, 0)                  # seat 0
    t.turn(-1, 0, 0)                 # seat 1
    t.turn(-1, 1, 1, figure="c0")    # seat 0 knight, cap facing east
    t.turn(1, 1, 3, figure="c0")     # seat 1 knight, cap facing west
    t.turn(1, 2, 0)                  # seat 0: B gives access to (0, 2)
    t.turn(2, 2, 0)                  # seat 1
    t.turn(0, 2, 2, figure="c0")     # seat 0 second knight, cap facing south
    events = t.turn(0, 1, 0)         # seat 1: C joins all three caps and the start city
    [city] = scored(events)
    assert (city.points, city.winners) == (12, [0])  # 5 tiles + 1 pennant, doubled
    assert t.score(0) == 12 and t.score(1) == 0
    assert sorted(r[0] for r in city.returned) == [0, 0, 1]


def test_farmer_touching_two_cities_scores_6() -> None:
    t = Table(["H", "E"], hills_and_sheep=False)
    t.place(0, 1, 0)                 # H: south cap closes the start city, north cap open
    t.follower("f0")                 # farmer between the two caps
    t.turn(0, 2, 2)                  # seat 1 closes the north cap city
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["fields"] == 6
    assert t.score(1) == 0


def test_city_touched_twice_by_one_field_scores_once() -> None:
    t = Table(["E", "U", "B"], hills_and_sheep=False)
    t.place(0, 1, 2)
    t.follower("f0")                 # farmer on the field around the closing cap
    t.turn(1, 0, 0)                  # road east; its north field meets the start strip
    t.turn(1, 1, 0)                  # B joins the cap's field and the strip: one field, one city
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["fields"] == 3


def test_field_split_by_road() -> None:
    t = Table(["E", "U", "U"], hills_and_sheep=False)
    t.turn(0, 1, 2)                  # seat 0 closes the start city (nobody in it)
    t.turn(1, 0, 0, figure="f1")     # seat 1 farmer south of the road
    t.turn(-1, 0, 0, figure="f0")    # seat 0 farmer on the strip touching the city
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["fields"] == 3
    assert t.breakdown(1)["fields"] == 0


def test_farmer_majority_in_field() -> None:
    t = Table(["U", "U", "E", "B", "A"], hills_and_sheep=False)
    t.turn(-1, 0, 0, figure="f0")    # seat 0 farmer: strip north of the road
    t.place(1, 0, 0)                 # seat 1: the strip is taken, the south field is free
    assert PlaceFigure(seat=1, figure="follower", feature="f0") not in GAME.legal_commands(t.state, 1)
    t.follower("f1")                 # seat 1 farmer south of the road
    t.turn(0, 1, 2, figure="f0")     # seat 0 farmer around the cap that closes the start city
    t.turn(1, 1, 0)                  # seat 1: B joins the cap's field and the strip (2 farmers of seat 0)
    t.turn(2, 0, 1)                  # seat 0: A ends the road; its field joins north and south
    assert GAME.is_over(t.state)
    assert t.root(-1, 0, "f0") == t.root(1, 0, "f1")
    assert t.breakdown(0)["fields"] == 3 and t.breakdown(1)["fields"] == 0


def test_monastery_at_game_end_scores_one_plus_neighbours() -> None:
    t = Table(["B", "E"], hills_and_sheep=False)
    t.turn(0, -1, 0, figure="m")     # monk south of the start tile
    t.turn(1, -1, 0)                 # a neighbour east of the monastery
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["monasteries"] == 3  # itself + start tile + E
    assert t.breakdown(0)["vineyards"] == 0


def test_completed_monastery_scores_9() -> None:
    t = Table(["B", "U", "U", "E", "E", "B", "B", "B"], hills_and_sheep=False)
    t.turn(0, -1, 0, figure="m")
    t.turn(-1, 0, 0)
    t.turn(1, 0, 0)
    t.turn(-1, -1, 3)
    t.turn(1, -1, 1)
    t.turn(-1, -2, 0)
    t.turn(0, -2, 0)
    events = t.turn(1, -2, 0)
    monastery = [e for e in scored(events) if e.kind == "monastery"]
    assert len(monastery) == 1 and monastery[0].points == 9 and monastery[0].completed
    assert t.breakdown(0)["monasteries"] == 9


def test_road_loop_scores_each_tile_once() -> None:
    t = Table(["V", "V", "V", "V"], hills_and_sheep=False)
    t.turn(0, -1, 3, figure="r0")    # seat 0 thief
    t.turn(1, -1, 0)
    t.turn(0, -2, 2)
    events = t.turn(1, -2, 1)
    [road] = scored(events)
    assert (road.kind, road.completed, road.tiles, road.points, road.winners) == ("road", True, 4, 4, [0])


def test_incomplete_road_and_city_at_game_end() -> None:
    t = Table(["U", "M"], hills_and_sheep=False)
    t.turn(1, 0, 0, figure="r0")     # seat 0 thief on the start road
    t.turn(0, 1, 2, figure="c0")     # seat 1: M (pennant) on the start city; its west side stays open
    assert GAME.is_over(t.state)
    assert t.breakdown(0)["roads"] == 2   # start tile + U
    assert t.breakdown(1)["cities"] == 3  # 2 tiles + 1 pennant, halved values at game end


def test_follower_only_on_unoccupied_feature() -> None:
    t = Table(["U", "U", "U"], hills_and_sheep=False)
    t.turn(1, 0, 0, figure="r0")
    t.place(-1, 0, 0)
    legal = GAME.legal_commands(t.state, 1)
    assert PlaceFigure(seat=1, figure="follower", feature="r0") not in legal
    assert PlaceFigure(seat=1, figure="follower", feature="f0") in legal
    assert not GAME.is_legal(t.state, PlaceFigure(seat=1, figure="follower", feature="r0"))


def test_followers_run_out() -> None:
    stack = ["B"] * 8 + ["B"] * 8
    t = Table(stack, hills_and_sheep=False)
    cells = [(0, -i) for i in range(1, 17)]
    for _i, (x, y) in enumerate(cells[:14]):
        t.turn(x, y, 0, figure="m")
    assert t.state.supply == [0, 0]
    t.place(*cells[14], 0)
    assert GAME.legal_commands(t.state, 0) == [GAME.parse_command({"type": "Pass", "seat": 0})]
