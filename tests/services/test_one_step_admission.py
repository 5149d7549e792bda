"""A move by a token and on a game the API process already knows takes one round trip: the command is checked
on the cached principal and record, and ``gate.lua`` admits, claims and queues it in the step the request then
waits behind, only while the token still stands and the game is still at that record's version. Anything that
changed (a rotated token, a move made through another API process) sends the request the long way, which
answers as it always did; so does a spent rate, which the gate refuses itself."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.adapters.api.routers import play

from .test_api import bearer, settled, wait_for

pytestmark = pytest.mark.cluster  # the real-Redis variants run on the Redis Cluster too (conftest.py)


@pytest.fixture
def long_ways(monkeypatch) -> list[str]:
    """The games of the moves admitted the long way (:func:`services.adapters.api.admission.admit`)."""
    seen: list[str] = []
    admit = play.admit

    async def counted(ctx: Any, call: Any, game_id: str, *args: Any, **kwargs: Any) -> Any:
        if call.method == "POST":
            seen.append(game_id)
        return await admit(ctx, call, game_id, *args, **kwargs)

    monkeypatch.setattr(play, "admit", counted)
    return seen


def _one_step(clients: Any) -> bool:
    """Whether moves can take one step: not on a Redis Cluster, where the rate counters live on another
    server than the game (there every move is admitted the long way)."""
    return not clients.separate


def _apps(clients: Any, settings: Any, n: int) -> list[TestClient]:
    """``n`` API processes; the rate counters share the event store's client unless the store is a cluster."""
    apps = []
    for _ in range(n):
        client = clients()
        queue = clients.queue() if clients.separate else client
        apps.append(TestClient(create_app(client, settings, queue_client=queue)))
    return apps


def _counter_game(api: TestClient) -> tuple[str, str, str]:
    r = settled(api, api.post("/games", json={"game": "counter", "options": {"target": 50},
                                              "seats": [{"name": "ann"}, {"name": "bob"}]}))
    assert r.status_code in (200, 201), r.text
    game = r.json()
    wait_for(api, f"/games/{game['game_id']}", until=lambda b: b.get("version") == 3, timeout=120)
    return game["game_id"], game["seats"][0]["token"], game["seats"][1]["token"]


def _move(api: TestClient, game_id: str, token: str, **body: Any) -> Any:
    return settled(api, api.post(f"/games/{game_id}/commands", headers=bearer(token),
                                 json={"type": "Add", "amount": 1, **body}))


def test_a_known_token_and_game_move_in_one_step(service, clients, settings, long_ways):
    (api,) = _apps(clients, settings, 1)
    with api:
        g, ann, bob = _counter_game(api)
        first = _move(api, g, ann)
        assert first.status_code == 200, first.text
        assert long_ways.count(g) == 1  # new to this process: the long way, which caches token and record
        versions = [first.json()["version"]]
        for token in (bob, ann, bob):
            moved = _move(api, g, token)
            assert moved.status_code == 200, moved.text
            versions.append(moved.json()["version"])
        assert long_ways.count(g) == (2 if _one_step(clients) else 4)  # bob's token was new; then one step each
        assert versions == sorted(versions) and len(set(versions)) == 4
        again = _move(api, g, bob, command_id="same")  # one id, one outcome, also in one step
        assert _move(api, g, bob, command_id="same").json() == again.json()
        assert _move(api, g, bob, command_id="same", amount=2).json()["code"] == "command_id_reused"


def test_a_game_moved_through_another_process_is_admitted_the_long_way(service, clients, settings, long_ways):
    first, second = _apps(clients, settings, 2)
    with first, second:
        g, ann, bob = _counter_game(first)
        assert _move(first, g, ann).status_code == 200
        assert _move(first, g, bob).status_code == 200  # first knows both tokens and the game at its head
        assert _move(second, g, ann).status_code == 200  # the game moves on through the other process
        seen = len(long_ways)
        moved = _move(first, g, bob)  # first's record is a move behind: its gate lets nothing through
        assert moved.status_code == 200, moved.text
        assert len(long_ways) == seen + 1  # (as every move on a cluster)
        assert moved.json()["version"] == wait_for(first, f"/games/{g}")["version"]
        refused = _move(first, g, bob)  # bob's turn is over: refused as the log says, not the cache
        assert (refused.status_code, refused.json()["code"]) == (409, "not_your_turn")


def test_a_rotated_token_is_refused_in_one_step_too(service, clients, settings, long_ways):
    (api,) = _apps(clients, settings, 1)
    with api:
        old = api.post("/players", json={"name": "Ann"}).json()["token"]
        game = settled(api, api.post("/games", headers=bearer(old), json={
            "game": "counter", "options": {"target": 50}, "seats": [{"me": True}, {"me": True}], "hot_seat": True}))
        assert game.status_code in (200, 201), game.text
        g = game.json()["game_id"]
        wait_for(api, f"/games/{g}", until=lambda b: b.get("version", 0) >= 3, timeout=120)
        assert _move(api, g, old).status_code == 200  # token and game cached
        assert _move(api, g, old).status_code == 200
        new = api.post("/players/me/token", headers=bearer(old)).json()["token"]
        refused = _move(api, g, old)
        assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
        assert _move(api, g, new).status_code == 200


def test_the_answers_legal_commands_are_what_legal_says(service, clients, settings):
    """While the caller's seat is still to act (Carcassonne: the meeple after the tile), the answer carries its
    legal commands, equal to ``/legal``'s answer at that version."""
    (api,) = _apps(clients, settings, 1)
    with api:
        r = settled(api, api.post("/games", json={"game": "carcassonne", "seed": "one-step",
                                                  "seats": [{"name": "ann"}, {"name": "bob"}]}))
        assert r.status_code in (200, 201), r.text
        g, tokens = r.json()["game_id"], [s["token"] for s in r.json()["seats"]]
        wait_for(api, f"/games/{g}", until=lambda b: b.get("status") == "active", timeout=120)
        carried = 0
        for _ in range(6):
            to_act = wait_for(api, f"/games/{g}")["to_act"][0]
            legal = api.get(f"/games/{g}/legal", headers=bearer(tokens[to_act])).json()
            command = next(c for c in legal["commands"] if not c["type"].startswith("taproom."))
            moved = settled(api, api.post(f"/games/{g}/commands", headers=bearer(tokens[to_act]), json=command))
            assert moved.status_code == 200, moved.text
            answer = moved.json()
            if "legal" in answer:
                carried += 1
                assert answer["legal"] == api.get(f"/games/{g}/legal", headers=bearer(tokens[to_act])).json()
        assert carried >= 3  # every tile is followed by its meeple choice


def test_a_spent_rate_is_refused_by_the_gate(service, clients, settings, long_ways):
    tight = settings.model_copy(update={"rate_limit_command": "3/minute"})
    (api,) = _apps(clients, tight, 1)
    with api:
        g, ann, bob = _counter_game(api)
        assert _move(api, g, ann).status_code == 200  # the long way: one of ann's 3
        assert _move(api, g, bob).status_code == 200
        seen = len(long_ways)
        codes = [_move(api, g, ann, amount=1).status_code for _ in range(3)]
        assert codes == [200, 409, 429]  # a move, one refused by the rules (it counts), then none left
        assert len(long_ways) == seen + (0 if _one_step(clients) else 3)  # refused by the gate itself


def test_a_seat_taken_after_the_record_was_cached_is_the_takers(service, clients, settings, long_ways):
    """The cached record says the seat is open: checked on it, the move is refused locally, so it is admitted
    the long way, on the record at the log's head, where the seat is the joiner's."""
    first, second = _apps(clients, settings, 2)
    with first, second:
        ann = first.post("/players", json={"name": "Ann"}).json()["token"]
        bob = first.post("/players", json={"name": "Bob"}).json()["token"]
        created = settled(first, first.post("/games", headers=bearer(ann), json={
            "game": "counter", "options": {"target": 50}, "seats": [{"me": True}, {}]}))
        assert created.status_code in (200, 201), created.text
        g = created.json()["game_id"]
        wait_for(first, f"/games/{g}", until=lambda b: "version" in b, timeout=120)
        early = _move(first, g, bob)  # bob holds no seat yet; first now knows his token and the open seat
        assert (early.status_code, early.json()["code"]) == (403, "not_your_seat")
        joined = second.post(f"/games/{g}/join", headers=bearer(bob), json={})
        assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text
        wait_for(second, f"/games/{g}", until=lambda b: b.get("status") == "active", timeout=120)
        assert _move(second, g, ann).status_code == 200  # through the other process: first's record is behind
        seen = len(long_ways)
        moved = _move(first, g, bob)
        assert moved.status_code == 200, moved.text
        assert len(long_ways) == seen + 1
