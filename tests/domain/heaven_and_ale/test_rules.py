"""Edge cases of the base game: setup, movement, buying, discs, privileges, barrels, rounds, scoring."""

from __future__ import annotations

import random

import pytest

from domain.core import IllegalMove, InvalidCommand, InvalidOptions, NotYourTurn
from domain.heaven_and_ale import GAME
from domain.heaven_and_ale import commands as c
from domain.heaven_and_ale import events as ev
from domain.heaven_and_ale.board import DISC_SPACES, MONK_SPACES, RESOURCE_SPACES
from domain.heaven_and_ale.garden import SPOT_INDEX
from domain.heaven_and_ale.production import COLOUR_INDEX, START_MARKERS
from domain.heaven_and_ale.supply import TILE_CODES

from .helpers import Table, check_invariants, clear_board, plant, put_tile


@pytest.mark.parametrize("players,rounds", [(2, 3), (3, 4), (4, 6)])
def test_setup(players: int, rounds: int) -> None:
    t = Table(players, f"setup-{players}")
    s = t.state
    assert s.rounds == rounds and s.phase == "placing"
    assert all(len(s.tiles[k]) == 1 for k in RESOURCE_SPACES) and all(len(s.tiles[k]) == 1 for k in MONK_SPACES)
    assert all(s.tiles[k][0] >= 25 for k in MONK_SPACES)
    assert [s.discs[k] for k in DISC_SPACES] == [1] * 6
    start = s.start_player
    assert s.players[start].slot == 0  # the first-player starting space, no reward
    # The others place counter-clockwise, each taking the reward at once.
    order = []
    while s.phase == "placing":
        seat = GAME.to_act(s)[0]
        order.append(seat)
        slot = "ducats" if "ducats" in {x.slot for x in t.legal(seat)} else t.legal(seat)[0].slot
        money = s.players[seat].money
        t.do(c.EnterStartingArea(seat=seat, slot=slot, colour="hops" if slot == "resource" else None))
        s = t.state
        if slot == "ducats":
            assert s.players[seat].money == money + 2
    assert order == [(start - i) % players for i in range(1, players)]
    assert s.phase == "playing" and s.turn == start and s.step == "move"
    for seat, p in enumerate(s.players):
        assert p.money in (25, 27)
        assert p.brewmaster in (-9, -8)
        assert sum(p.markers) - sum(START_MARKERS) in (0, 2)
    check_invariants(s)


def test_options_and_player_counts() -> None:
    assert GAME.parse_options({"rounds": 6}).rounds == 6
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"rounds": 5})
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"expansion": True})
    with pytest.raises(InvalidOptions):
        GAME.setup(GAME.parse_options({}), 5, random.Random(1))
    t = Table(2, "six", rounds=6)
    assert t.state.rounds == 6


def test_movement_rules() -> None:
    t = Table(3, "move").start()
    s, seat = t.state, t.seat
    other = (seat + 1) % 3
    with pytest.raises(NotYourTurn):
        GAME.decide(s, c.Move(seat=other, space=1), t.rng())
    with pytest.raises(IllegalMove):
        t.do(c.Move(seat=seat, space=28))
    with pytest.raises(IllegalMove):
        t.do(c.BuyTile(seat=seat, tile="wood-1", spot="S0"))  # no buying before moving
    with pytest.raises(InvalidCommand):
        GAME.parse_command({"type": "Move", "seat": seat, "space": "far"})
    s.discs[4] = 0  # disc space A without a disc cannot be chosen
    assert c.Move(seat=seat, space=4) not in t.legal()
    with pytest.raises(IllegalMove):
        t.do(c.Move(seat=seat, space=4))
    # A resource space is reachable only if a tile is affordable (emergency coins included).
    clear_board(s)
    put_tile(s, 1, TILE_CODES["wood-5"])
    s.players[seat].money = 0
    assert c.Move(seat=seat, space=1) in t.legal()  # 5 cards x 3 ducats cover the 5 for a shady spot
    s.players[seat].cards = ["ducats"]
    assert c.Move(seat=seat, space=1) not in t.legal()
    s.players[seat].money = 2
    t.do(c.Move(seat=seat, space=1))
    assert t.state.step == "buy" and not [x for x in t.legal() if isinstance(x, c.BuyTile)]
    with pytest.raises(IllegalMove):
        t.do(c.EndBuying(seat=seat))  # at least one tile must be bought
    t.do(c.UseEmergencyCoin(seat=seat, card="ducats"))
    assert t.state.players[seat].money == 5 and t.state.players[seat].cards == []
    with pytest.raises(IllegalMove):
        t.do(c.BuyTile(seat=seat, tile="wood-5", spot="S0"))  # sunny costs 10
    t.do(c.BuyTile(seat=seat, tile="wood-5", spot="H0"))
    assert t.state.players[seat].money == 0 and t.state.tiles[1] == []
    with pytest.raises(IllegalMove):
        t.do(c.Move(seat=seat, space=2))  # the turn is in the buying step
    check_invariants(t.state)


def test_last_player_must_take_the_first_player_space() -> None:
    t = Table(2, "first").start()
    a = t.seat
    b = 1 - a
    t.do(next(x for x in t.legal() if isinstance(x, c.Move)))
    while t.state.turn == a:  # finish a's turn (buy one tile, stop) whatever the space
        t.do(next(x for x in t.legal() if not isinstance(x, c.UseEmergencyCoin)))
    t.do(next(x for x in t.legal() if isinstance(x, c.Move)))
    while t.state.turn == b:
        t.do(next(x for x in t.legal() if not isinstance(x, c.UseEmergencyCoin)))
    assert t.state.slots == [-1, -1, -1, -1]
    t.do(c.EnterStartingArea(seat=a, slot="ducats"))
    assert t.state.turn == b
    slots = {x.slot for x in t.legal() if isinstance(x, c.EnterStartingArea)}
    assert slots == {"first"}
    with pytest.raises(IllegalMove):
        t.do(c.EnterStartingArea(seat=b, slot="brewmaster"))
    t.do(c.EnterStartingArea(seat=b, slot="first"))
    assert t.state.round == 2 and t.state.turn == b  # the first player starts the next round


def test_round_preparation_and_last_round_extra_discs() -> None:
    t = Table(2, "rounds").start()
    s = t.state
    tiles_before = [len(x) for x in s.tiles]
    for _ in range(2):
        t.do(next(x for x in t.legal() if isinstance(x, c.EnterStartingArea) and x.slot != "resource"))
    s = t.state
    assert s.round == 2
    assert all(len(s.tiles[k]) == tiles_before[k] + 1 for k in RESOURCE_SPACES + MONK_SPACES)
    assert [s.discs[k] for k in DISC_SPACES] == [1] * 6  # refilled to exactly one, no piling up
    for _ in range(2):
        t.do(next(x for x in t.legal() if isinstance(x, c.EnterStartingArea) and x.slot != "resource"))
    s = t.state
    assert s.round == 3 == s.rounds
    assert {k: s.discs[k] for k in DISC_SPACES} == {4: 1, 7: 2, 12: 2, 16: 1, 20: 1, 24: 1}
    for _ in range(2):
        t.do(next(x for x in t.legal() if isinstance(x, c.EnterStartingArea) and x.slot != "resource"))
    assert GAME.is_over(t.state)
    scores = GAME.scores(t.state)
    first = t.state.slots[0]
    assert scores[first].breakdown["first_player"] == 1
    assert scores[1 - first].breakdown["first_player"] == 0
    t3 = Table(3, "rounds3", rounds=3).start()
    for _ in range(6):
        t3.do(next(x for x in t3.legal() if isinstance(x, c.EnterStartingArea) and x.slot != "resource"))
    assert t3.state.round == 3 and t3.state.discs[16] == 2  # 3p: the first A/B/C space too


def test_marker_cap_pays_ducats_and_brewmaster_cap() -> None:
    t = Table(2, "cap").start()
    s, seat = t.state, t.seat
    clear_board(s)
    plant(s, seat, 0, TILE_CODES["wood-4"])  # S0, sunny
    plant(s, seat, 1, TILE_CODES["wood-3"])  # S1, sunny
    p = s.players[seat]
    p.markers[COLOUR_INDEX["wood"]] = 18
    money = p.money
    t.do(c.Move(seat=seat, space=12))  # disc space C
    t.do(c.TakeDisc(seat=seat, spot="wood"))
    p = t.state.players[seat]
    assert p.markers[COLOUR_INDEX["wood"]] == 20
    assert p.money == money + 5  # 7 steps, 2 fit, 5 pay a ducat each


def test_space_a_names_any_fertility_number() -> None:
    """Base rules, 4 Gameplay, space A: "nominate one fertility number (1 to 5)" -- also one no tile of yours shows
    (it activates nothing); the x spot still needs a resource tile on the board (RULES_NOTES R5)."""
    t = Table(2, "name-any").start()
    s, seat = t.state, t.seat
    clear_board(s)
    plant(s, seat, SPOT_INDEX["S0"], TILE_CODES["wood-3"])
    p = s.players[seat]
    markers, money, brew = list(p.markers), p.money, p.brewmaster
    t.do(c.Move(seat=seat, space=4))  # disc space A
    assert {x.number for x in t.legal() if isinstance(x, c.TakeDisc)} == {1, 2, 3, 4, 5}
    events = t.do(c.TakeDisc(seat=seat, spot="x", number=5))
    p = t.state.players[seat]
    assert p.discs[0] and not any(isinstance(e, ev.RewardsGained) for e in events)
    assert (p.markers, p.money, p.brewmaster) == (markers, money, brew)
    # Monks only: the x spot "scores a type of tile that is not present", so space A cannot be reached.
    t2 = Table(2, "name-none").start()
    clear_board(t2.state)
    plant(t2.state, t2.seat, SPOT_INDEX["S0"], TILE_CODES["monk-1"])
    assert c.Move(seat=t2.seat, space=4) not in t2.legal()


def test_barrels_large_first_then_small() -> None:
    t = Table(2, "barrels").start()
    s = t.state
    a = t.seat
    b = 1 - a
    for p in s.players:
        p.brewmaster = 3  # goal 9: brewmaster on 1 or beyond
    t.do(c.Move(seat=a, space=14))
    assert t.state.players[a].large == [9] and t.state.large[9] == a
    assert t.state.turn == b
    t.do(c.Move(seat=b, space=14))
    assert t.state.players[b].small == [9] and t.state.small[9] == b
    assert t.state.turn == a
    assert c.Move(seat=a, space=26) not in t.legal()  # nothing left to claim for a
    check_invariants(t.state)


def test_privilege_pair_card_and_decline() -> None:
    t = Table(2, "privilege").start()
    s, seat = t.state, t.seat
    clear_board(s)
    plant(s, seat, 15, TILE_CODES["wood-2"])  # H0: shady wood-2
    s.players[seat].discs[0] = True  # the x spot already has a disc: the wood spot completes pair (x, wood)
    s.discs[4] = 0  # (keep the count conserved: that disc came from space A)
    money = s.players[seat].money
    t.do(c.Move(seat=seat, space=12))
    t.do(c.TakeDisc(seat=seat, spot="wood"))
    assert t.state.step == "privilege" and t.state.pair == 0
    assert t.state.players[seat].money == money + 2
    legal = t.legal()
    assert c.PlacePrivilege(seat=seat, card="resource", colour="barley") in legal
    assert c.PlacePrivilege(seat=seat, card="discs", colour="barley") in legal  # barley is least advanced
    assert c.PlacePrivilege(seat=seat, card="discs", colour="wood") not in legal
    with pytest.raises(IllegalMove):
        t.do(c.PlacePrivilege(seat=seat, card="discs", colour="wood"))
    t.do(c.PlacePrivilege(seat=seat, card="ducats"))
    p = t.state.players[seat]
    assert p.money == money + 2 + 12 and p.pairs[0] == "ducats" and "ducats" not in p.cards
    check_invariants(t.state)


def test_disc_count_card_moves_least_advanced_marker() -> None:
    t = Table(2, "disccard").start()
    s, seat = t.state, t.seat
    clear_board(s)
    plant(s, seat, 15, TILE_CODES["wood-2"])
    s.players[seat].discs[0] = True
    s.discs[4] = 0
    t.do(c.Move(seat=seat, space=12))
    t.do(c.TakeDisc(seat=seat, spot="wood"))
    barley = t.state.players[seat].markers[COLOUR_INDEX["barley"]]
    events = t.do(c.PlacePrivilege(seat=seat, card="discs", colour="barley"))
    assert any(isinstance(e, ev.PrivilegePlaced) for e in events)
    assert t.state.players[seat].markers[COLOUR_INDEX["barley"]] == barley + 2  # 2 discs on the board


def test_shed_can_be_enclosed_twice_by_one_tile() -> None:
    """S4 touches sheds A and B: filling it last encloses both, resolved one after another."""
    t = Table(2, "twosheds").start()
    s, seat = t.state, t.seat
    clear_board(s)
    for spot in ("H1", "H0", "S0", "S1", "H4", "H6", "S6", "S9", "H9"):
        plant(s, seat, SPOT_INDEX[spot], TILE_CODES["yeast-1"] if spot != "H6" else TILE_CODES["hops-1"])
    put_tile(s, 1, TILE_CODES["water-1"])
    t.do(c.Move(seat=seat, space=1))
    events = t.do(c.BuyTile(seat=seat, tile="water-1", spot="S4"))
    assert [e.sheds for e in events if isinstance(e, ev.ShedsEnclosed)] == [["A", "B"]]
    built = [e for e in events if isinstance(e, ev.ShedBuilt)]
    assert built[0].shed == "A" and built[0].fertility == 6 and built[0].shed_type == 0  # 0-7: 6 steps, type 0
    # Shed A (type 0) resolves by itself; shed B is built too (sum 6) and also type 0.
    assert [b.shed for b in built] == ["A", "B"]
    assert t.state.players[seat].brewmaster == -9 + 6 + 6  # the start player got no starting-space reward
    assert t.state.step == "buy"
