"""Views and hidden information: the piles' contents and order never reach a client."""

from __future__ import annotations

import json

from domain.heaven_and_ale import GAME
from domain.heaven_and_ale.heuristics import evaluate

from .helpers import Table
from .test_soak import busy_playout


def _without_me(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "me"}


def test_views_are_public_json_and_identical_for_every_seat() -> None:
    checked = 0

    def check(state, event) -> None:
        nonlocal checked
        spectator = GAME.view(state, None)
        json.dumps(spectator)
        assert spectator["me"] is None
        for seat in range(state.n):
            view = GAME.view(state, seat)
            assert view["me"] == seat
            assert _without_me(view) == _without_me(spectator)
        checked += 1

    state, events = busy_playout(3, "views", {"kegs_and_more": True}, check=check)
    assert checked > 100
    for event in events:
        assert event.is_public()
        for seat in (None, 0, 1, 2):
            assert event.redacted(seat) == event.model_dump(mode="json")


def test_view_does_not_depend_on_the_piles_contents() -> None:
    """Two tables that differ only in which tiles remain face down look the same to everyone."""
    t = Table(3, "piles").start()
    a = GAME.view(t.state, 0)
    other = GAME.clone(t.state)
    pile = other.piles[0]
    donor = next(i for i, n in enumerate(pile) if n > 0)
    taker = next(i for i, n in enumerate(pile) if i != donor)
    pile[donor] -= 1
    pile[taker] += 1
    monks = other.monk_piles[1]
    monks[0] -= 1
    monks[1] += 1
    assert other != t.state
    for seat in (None, 0, 1, 2):
        assert GAME.view(other, seat) == GAME.view(t.state, seat)
    assert a["resource_piles"] == [sum(p) for p in t.state.piles]
    assert all(isinstance(n, int) for n in a["resource_piles"] + [a["monk_piles_left"]])  # sizes only


def test_view_shows_what_a_client_needs() -> None:
    t = Table(2, "needs", kegs_and_more=True).start()
    v = GAME.view(t.state, t.seat)
    assert v["phase"] == "playing" and v["turn"] == t.seat and v["step"] == "move"
    assert len(v["track"]) == 28 and v["track"][3]["monk_cost"] == 4
    assert v["boards"][t.seat]["ducats"] == t.state.players[t.seat].money
    assert v["boards"][0]["delivery"]["kegs"] == 1 and v["carter_die"]["space"] == t.state.die_space
    assert set(v["starting_spaces"]) == {"first", "ducats", "brewmaster", "resource"}


def test_heuristic_prefers_the_richer_position() -> None:
    t = Table(2, "heur").start()
    base = evaluate(t.state, 0)
    assert evaluate(t.state, 0) == -evaluate(t.state, 1)  # two players: one's gain is the other's loss
    t.state.players[0].large.append(3)  # a 4-point barrel
    assert evaluate(t.state, 0) > base
    assert evaluate(t.state, 1) < evaluate(t.state, 0)


def test_events_and_commands_round_trip_through_json() -> None:
    """The event store keeps JSON: parsing every stored event back and replaying gives the same state."""
    state, events = busy_playout(2, "json", {"kegs_and_more": True})
    stored = [json.loads(json.dumps(e.model_dump(mode="json"))) for e in events]
    parsed = [GAME.parse_event(d) for d in stored]
    assert parsed == events
    assert GAME.fold(None, parsed) == state
    schema = GAME.schema()
    assert schema["id"] == "heaven-and-ale" and "ResolveStorageTile" in schema["commands"]
    t = Table(2, "json-cmd").start()
    for command in t.legal():
        data = json.loads(command.model_dump_json())
        assert GAME.parse_command(data) == command


def test_the_view_carries_the_turn_facts_a_bot_needs() -> None:
    """Where the figure started, whether it acted, tiles bought and sheds pending are public: a state rebuilt
    from a seat's view has them exactly (guessed, a wrong "bought" made bot playouts buy a needless tile)."""
    import random

    from domain.heaven_and_ale.determinize import state_from_view

    checked = [0]

    def check(state, _event) -> None:
        if state.turn == -1 or GAME.is_over(state):
            return
        seat = state.turn
        rebuilt = state_from_view(GAME.view(state, seat), seat, random.Random(0))
        assert (rebuilt.turn_from, rebuilt.acted, rebuilt.bought, rebuilt.sheds_pending) == \
            (state.turn_from, state.acted, state.bought, state.sheds_pending)
        assert GAME.legal_commands(rebuilt, seat) == GAME.legal_commands(state, seat)
        checked[0] += 1

    busy_playout(2, "turn-facts", {"kegs_and_more": True}, check=check)
    assert checked[0] > 50


def test_the_track_shows_the_price_a_purchase_is_charged() -> None:
    """Each tile on the track carries its sunny and shady price (§3.5): the client shows these numbers and never
    works a price out; each equals the cost the TileBought event charges for that tile on such a spot."""
    from domain.heaven_and_ale import commands as c
    from domain.heaven_and_ale.events import TileBought
    from domain.heaven_and_ale.supply import TILE_CODES

    from .helpers import clear_board, put_tile

    t = Table(2, "prices").start()
    clear_board(t.state)
    put_tile(t.state, 1, TILE_CODES["hops-3"])
    put_tile(t.state, 3, TILE_CODES["monk-2"])
    t.state.players[t.seat].money = 30
    track = GAME.view(t.state, t.seat)["track"]
    assert track[1]["prices"] == {"hops-3": {"sunny": 6, "shady": 3}}
    monk_cost = track[3]["monk_cost"]
    assert track[3]["prices"] == {"monk-2": {"sunny": 2 * monk_cost, "shady": monk_cost}}
    assert "prices" not in track[2]  # no tile, no price
    t.do(c.Move(seat=t.seat, space=1))
    for spot, side in (("S0", "sunny"), ("H0", "shady")):  # decide only: the state stays as it is
        events = GAME.decide(t.state, c.BuyTile(seat=t.seat, tile="hops-3", spot=spot), t.rng())
        assert [e.cost for e in events if isinstance(e, TileBought)] == [track[1]["prices"]["hops-3"][side]], spot
