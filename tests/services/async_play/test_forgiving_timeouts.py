"""Forgiving timeouts through the pipeline and the HTTP API, on the injected clock (issue 23).

Games are created through ``POST /games`` as a new user would, so the pace gets the defaults a new game
gets (taken over after 3 timeouts in a row, the table may vote to end); the table is the synchronous
processor + projector + reactor + worker of ``conftest.Table``, and time moves by ``Table.tick``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from domain.catalog import load_games
from services.infrastructure.aggregates import Repository
from services.infrastructure.audit import verify

from .conftest import Table

load_games()


@dataclass
class Player:
    player_id: str
    auth: dict[str, str]


def answered(table: Table, call: Callable[[], Any]) -> Any:
    """``call()`` (a request to ``waiting_api``) on a thread while this one processes its command, as the
    processor would: so a refusal comes back as the HTTP error a client sees."""
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(call()))
    thread.start()
    while thread.is_alive():
        table.kernel.pump()
        thread.join(0.01)
    table.settle()
    return result[0]


def player(api: TestClient, name: str) -> Player:
    body = api.post("/players", json={"name": name}).json()
    return Player(body["player_id"], {"Authorization": f"Bearer {body['token']}"})


def start_game(table: Table, api: TestClient, alice: Player, bob: Player, game: str, pace: Any,
               options: dict[str, Any] | None = None) -> str:
    """alice creates a two-seat game and bob joins it, through the API."""
    created = api.post("/games", headers=alice.auth, json={"game": game, "options": options or {}, "seed": "issue-23",
                                                           "seats": [{"me": True}, {}], "pace": pace})
    assert created.status_code in (201, 202), created.json()
    gid: str = created.json()["game_id"]
    table.settle()
    joined = api.post(f"/games/{gid}/join", headers=bob.auth, json={})
    assert joined.status_code in (200, 202), joined.json()
    table.settle()
    assert table.record(gid).status == "active"
    return gid


def count(table: Table, gid: str, kind: str, after: int = 0) -> int:
    return sum(1 for e in table.kernel.store.read(gid, after=after) if e.type == kind)


def assert_verified(table: Table, gid: str) -> None:
    """The record verifies (every command re-run reproduces every event, timeouts included), and the
    record folded from the log alone equals the live one."""
    report = verify(table.kernel.store.read(gid), table.kernel.store.command_records(gid))
    assert report.seed_revealed and report.ok and report.replay_ok, report.problems
    replayed = Repository(table.kernel.store, cache_size=1, use_snapshots=False).current(gid).record
    assert replayed is not None and replayed.seats == table.record(gid).seats


def test_both_seats_miss_one_deadline_and_each_loses_one_turn_not_the_game(table: Table, api: TestClient) -> None:
    """The issue's reproduction: 2-player Carcassonne, autopilot, nobody moves (60 s per move rather than
    the issue's 5 s: the test clock follows wall time too, and a slow machine must not cross a deadline).
    Before the fix, the second timeout let the autopilot play every remaining move of both seats."""
    alice, bob = player(api, "alice"), player(api, "bob")
    gid = start_game(table, api, alice, bob, "carcassonne", {"per_move_seconds": 60, "on_timeout": "autopilot"})
    start = table.record(gid).version
    assert table.record(gid).to_act() == [0]

    table.tick(61)  # alice misses her deadline: the autopilot plays her turn (a tile, then its figure choice)
    assert count(table, gid, "TilePlaced", after=start) == 1 and table.record(gid).to_act() == [1]

    table.tick(61)  # bob misses his
    record = table.record(gid)
    assert count(table, gid, "TilePlaced", after=start) == 2  # one turn each, not the rest of the game
    assert record.status == "active" and record.to_act() == [0]
    assert count(table, gid, "taproom.TurnTimedOut") == 2 and count(table, gid, "taproom.SeatReturned") == 2
    assert count(table, gid, "taproom.SeatAutopiloted") == 0
    assert [s.timeouts for s in record.seats] == [1, 1]

    # alice's next turn is hers, with a deadline of its own: nothing happens before it
    version = record.version
    table.tick(40)
    assert table.record(gid).version == version
    view = api.get(f"/games/{gid}/view", headers=alice.auth).json()
    assert [s["timeouts"] for s in view["seats"]] == [1, 1] and view["pace"]["takeover_after"] == 3
    row = view["clock"]["seats"][0]
    assert row["timeouts"] == 1 and row["deadline"] - row["waiting_since"] == pytest.approx(60, abs=0.01)
    assert row["deadline"] > view["clock"]["now"] and view["clock"]["takeover_after"] == 3
    notes = api.get("/players/me/notifications", headers=alice.auth).json()["notifications"]
    timed_out = [n for n in notes if n["kind"] == "timed_out"]
    assert len(timed_out) == 1 and timed_out[0]["reclaim"]["url"] == f"/games/{gid}/reclaim"
    assert timed_out[0]["timeouts"] == 1 and timed_out[0]["takeover_after"] == 3

    # alice plays her own turn (its every step): her count starts again
    while table.record(gid).to_act() == [0]:
        move = api.get(f"/games/{gid}/legal", headers=alice.auth).json()["commands"][0]
        assert api.post(f"/games/{gid}/commands", headers=alice.auth, json=move).status_code in (200, 202)
        table.settle()
    assert table.record(gid).seats[0].timeouts == 0

    # bob misses twice more (three in a row), alice once in between: bob's seat is taken over; alice
    # ends the game as it stands by her vote, and the record (every timeout in it) verifies
    for seat in (1, 0, 1):
        assert table.record(gid).to_act() == [seat]
        table.tick(61)
    record = table.record(gid)
    assert record.seats[1].autopilot == "autopilot" and record.seats[0].autopilot is None
    assert [s.timeouts for s in record.seats] == [1, 3] and record.to_act() == [0]
    assert api.post(f"/games/{gid}/votes", headers=alice.auth,
                    json={"about_seat": 1, "choice": "end"}).status_code in (200, 202)
    table.settle()
    assert table.record(gid).status == "scored"
    assert count(table, gid, "taproom.TurnTimedOut") == 5
    assert_verified(table, gid)


def test_three_timeouts_in_a_row_hand_the_seat_over_and_the_table_votes_to_end(
        table: Table, api: TestClient, waiting_api: TestClient) -> None:
    alice, bob = player(api, "alice"), player(api, "bob")
    gid = start_game(table, api, alice, bob, "counter", {"per_move_seconds": 60}, {"target": 1000})
    for _ in range(2):  # alice misses twice; bob answers each time
        table.tick(61)
        assert table.record(gid).seats[0].autopilot is None
        assert table.add(gid, 1, 1).accepted
    # bob may not vote yet: nobody is taken over
    assert all(c["type"] != "taproom.Vote" for c in api.get(f"/games/{gid}/legal", headers=bob.auth).json()["commands"])
    version = table.record(gid).version
    refused = answered(table, lambda: waiting_api.post(f"/games/{gid}/votes", headers=bob.auth,
                                                       json={"about_seat": 0, "choice": "end"}))
    assert refused.status_code == 422 and refused.json()["code"] == "illegal_move"
    assert "not taken over" in refused.json()["message"] and table.record(gid).version == version
    table.tick(61)  # the third in a row
    record = table.record(gid)
    assert record.seats[0].autopilot == "autopilot" and record.seats[0].timeouts == 3
    assert table.add(gid, 1, 1).accepted  # bob moves; the autopilot answers for alice at once
    assert table.record(gid).to_act() == [1]
    kinds = [n["kind"] for n in api.get("/players/me/notifications", headers=alice.auth).json()["notifications"]]
    assert kinds.count("timed_out") == 2 and kinds.count("taken_over") == 1

    legal = api.get(f"/games/{gid}/legal", headers=bob.auth).json()["commands"]
    assert {"type": "taproom.Vote", "about_seat": 0, "choice": "end"} in legal
    wrong = answered(table, lambda: waiting_api.post(f"/games/{gid}/votes", headers=bob.auth,
                                                     json={"about_seat": 0, "choice": "replace"}))
    assert wrong.status_code == 422 and "not to replace" in wrong.json()["message"]
    malformed = waiting_api.post(f"/games/{gid}/votes", headers=bob.auth, json={"about_seat": 0, "choice": "kick"})
    assert malformed.status_code == 422 and malformed.json()["code"] == "invalid_request"
    voted = api.post(f"/games/{gid}/commands", headers=bob.auth, json={"type": "taproom.Vote", "about_seat": 0,
                                                                     "choice": "end"})
    assert voted.status_code in (200, 202), voted.json()
    table.settle()
    record = table.record(gid)
    assert record.status == "scored" and count(table, gid, "taproom.VotePassed") == 1
    assert [s.total for s in record.scores] == [float(p) for p in record.state.points]
    assert "game_over" in [n["kind"] for n in
                           api.get("/players/me/notifications", headers=alice.auth).json()["notifications"]]
    assert_verified(table, gid)


def test_reclaiming_resets_the_count_of_timeouts(table: Table, api: TestClient, receiver: Any) -> None:
    alice, bob = player(api, "alice"), player(api, "bob")
    hook = {"url": f"http://127.0.0.1:{receiver.server_address[1]}/hook"}
    assert api.put("/players/me/webhook", headers=alice.auth, json=hook).status_code == 201
    gid = start_game(table, api, alice, bob, "counter", {"per_move_seconds": 60}, {"target": 30})
    for _ in range(2):
        table.tick(61)
        assert table.add(gid, 1, 1).accepted
    assert table.record(gid).seats[0].timeouts == 2
    delivered = [orjson.loads(body) for headers, body in receiver.received
                 if headers.get("X-Taproom-Event") == "timed_out"]
    assert [(m["game_id"], m["timeouts"]) for m in delivered] == [(gid, 1), (gid, 2)]
    assert {"type": "taproom.ReclaimSeat"} in api.get(f"/games/{gid}/legal", headers=alice.auth).json()["commands"]
    reclaimed = api.post(f"/games/{gid}/reclaim", headers=alice.auth)
    assert reclaimed.status_code in (200, 202)  # 503: still queued (the table settles below)
    table.settle()
    assert table.record(gid).seats[0].timeouts == 0
    table.tick(61)  # one more miss is the first of a new run, not the third
    assert table.record(gid).seats[0].autopilot is None and table.record(gid).seats[0].timeouts == 1
    while table.record(gid).status == "active":  # both play it out, so the record's seed is revealed
        assert table.add(gid, table.record(gid).to_act()[0], 3).accepted
    assert_verified(table, gid)


def test_the_table_votes_to_replace_a_taken_over_player_with_a_bot(table: Table, api: TestClient) -> None:
    alice, bob = player(api, "alice"), player(api, "bob")
    pace = {"per_move_seconds": 60, "takeover_after": 1, "takeover_vote": "replace"}
    gid = start_game(table, api, alice, bob, "counter", pace, {"target": 40})
    table.tick(61)
    assert table.record(gid).seats[0].autopilot == "autopilot"
    assert api.post(f"/games/{gid}/votes", headers=bob.auth,
                    json={"about_seat": 0, "choice": "replace"}).status_code in (200, 202)
    table.settle()
    record = table.record(gid)
    assert record.seats[0].bot == "random" and record.seats[0].autopilot is None
    notes = api.get("/players/me/notifications", headers=alice.auth).json()["notifications"]
    assert [n["kind"] for n in notes][:2] == ["replaced", "taken_over"]  # newest first; one voter: no vote pending
    # the seat is the bot's: alice's token no longer holds it
    assert api.post(f"/games/{gid}/reclaim", headers=alice.auth).json()["code"] == "not_your_seat"
    while table.record(gid).status == "active":
        assert table.add(gid, 1, 1).accepted  # the bot answers every move of bob's
    assert table.record(gid).status == "scored"
    assert_verified(table, gid)


def test_a_seat_that_takes_two_turns_in_a_row_gets_a_fresh_deadline_for_the_second(table: Table) -> None:
    """Heaven & Ale's rearmost figure may move twice in a row: the seat never leaves ``to_act``, but its
    turn key changes, so its clock starts again (steps as the reactor sees them: version, time, turns)."""
    gid = table.create([{"name": "alice", "player_id": "alice"}, {"name": "bob", "player_id": "bob"}],
                       pace={"per_move_seconds": 60}, settle=False)
    clocks = table.reactor.async_play.clocks
    record = table.record(gid)
    base = record.version
    first = clocks.update(record, base + 1, 1000.0, steps=[(base + 1, 1000.0, frozenset({(0, "turn-a")}))])
    assert [(seat, wait.version) for seat, wait in first] == [(0, base + 1)]
    same = clocks.update(record, base + 2, 1030.0, steps=[(base + 2, 1030.0, frozenset({(0, "turn-a")}))])
    assert same == [] and clocks.wait(gid, 0).since == 1000.0  # a step within the turn: the clock runs on
    again = clocks.update(record, base + 3, 1050.0, steps=[(base + 3, 1050.0, frozenset({(0, "turn-b")}))])
    assert [(seat, wait.version, wait.since) for seat, wait in again] == [(0, base + 3, 1050.0)]
    assert clocks.wait(gid, 0).turn == "turn-b"


def test_a_pending_vote_is_a_message_to_the_taken_over_player(table: Table) -> None:
    seats = [{"name": n, "player_id": n} for n in ("alice", "bob", "carol")]
    gid = table.create(seats, pace={"per_move_seconds": 60, "takeover_after": 1, "takeover_vote": "end"})
    table.tick(61)
    outcome = table.kernel.send(gid, {"type": "taproom.Vote", "about_seat": 0, "choice": "end"}, seat=1)
    assert outcome.accepted
    table.settle()
    notes = table.reactor.async_play.notifier.recent("alice")
    vote = next(n for n in notes if n["kind"] == "seat_vote")
    assert vote["votes"] == [1] and vote["voters"] == [1, 2] and vote["reclaim"]["url"] == f"/games/{gid}/reclaim"
    assert table.record(gid).status == "active"  # carol has not voted
