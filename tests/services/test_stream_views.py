"""The game stream's ``view`` frame: after each run of events, what the caller's ``/view`` and ``/legal`` would
answer at that version (a spectator: the public view, no commands), so a page follows the stream alone; and a
seat's stream never carries another seat's view."""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

import fakeredis
import orjson

from projections import read_models
from services.adapters.api.principals import Principal
from services.adapters.api.stream_views import SeatFrames
from services.infrastructure.eventstore import Keys

from .test_api import bearer, new_game, settled, wait_for
from .test_api_lifecycle import sse_messages


def _stream(api: Any, gid: str, after: int, token: str | None = None) -> list[dict[str, Any]]:
    """The stream's messages from ``after`` until its short timeout ends it."""
    headers = bearer(token) if token else None
    with api.stream("GET", f"/games/{gid}/stream", params={"after": after, "timeout": 0.5}, headers=headers) as s:
        return sse_messages("".join(s.iter_text()))


def _unclocked(body: dict[str, Any]) -> dict[str, Any]:
    body.pop("clock", None)  # the routes add the clock of now; the stream leaves it to GET /clock
    return body


def _moved(api: Any, gid: str, token: str, amount: int) -> int:
    answer = settled(api, api.post(f"/games/{gid}/commands", headers=bearer(token),
                                   json={"type": "Add", "amount": amount}), bearer(token))
    assert answer.status_code == 200, answer.text
    return int(answer.json()["version"])


def test_each_seat_stream_ends_a_run_of_events_with_that_seats_view_and_legal_commands(api):
    game = new_game(api, target=60)
    gid, (ann, bob) = game["game_id"], [s["token"] for s in game["seats"]]
    start = wait_for(api, f"/games/{gid}", until=lambda b: b.get("version") == 3)["version"]
    version = _moved(api, gid, ann, 2)
    for seat, token in ((0, ann), (1, bob)):
        messages = _stream(api, gid, start, token)
        assert [m["event"] for m in messages] == ["game_event"] * (version - start) + ["view", "end"]
        frame = messages[-2]["data"]
        assert frame["view"] == _unclocked(api.get(f"/games/{gid}/view", headers=bearer(token)).json())
        assert frame["legal"] == api.get(f"/games/{gid}/legal", headers=bearer(token)).json()
        assert frame["view"]["seat"] == seat and frame["legal"]["seat"] == seat
        assert frame["view"]["version"] == frame["legal"]["version"] == version
    assert "Add" in {c["type"] for c in _stream(api, gid, start, bob)[-2]["data"]["legal"]["commands"]}  # bob's turn


def test_a_spectator_stream_carries_the_public_view_and_no_commands(api):
    game = new_game(api, target=60)
    gid, ann = game["game_id"], game["seats"][0]["token"]
    start = wait_for(api, f"/games/{gid}", until=lambda b: b.get("version") == 3)["version"]
    version = _moved(api, gid, ann, 1)
    messages = _stream(api, gid, start)
    frame = messages[-2]["data"]
    assert messages[-2]["event"] == "view" and set(frame) == {"view"}
    assert frame["view"] == _unclocked(api.get(f"/games/{gid}").json())
    assert frame["view"]["seat"] is None and frame["view"]["version"] == version
    assert b"my_cards" not in orjson.dumps(messages)  # no seat's own hand


def test_a_stream_from_the_head_sends_nothing_until_the_next_move(api):
    game = new_game(api, target=60)
    gid, ann = game["game_id"], game["seats"][0]["token"]
    head = wait_for(api, f"/games/{gid}", until=lambda b: b.get("version") == 3)["version"]
    assert [m["event"] for m in _stream(api, gid, head, ann)] == ["end"]


def _store(server: fakeredis.FakeServer, keys: Keys, gid: str, views: dict[int | None, dict[str, Any]],
           legal: dict[int, dict[str, Any]]) -> None:
    sync = fakeredis.FakeRedis(server=server)
    for seat, view in views.items():
        sync.set(keys.view(gid, seat), read_models.dump_view(view))
    for seat, body in legal.items():
        sync.hset(keys.legal(gid), str(seat), zlib.compress(orjson.dumps(body)))


def _meta(version: int, to_act: list[int], seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A whole stored meta (every key GameMeta declares, and none it does not)."""
    return read_models.GameMeta.model_validate({
        "game_id": "g1", "game": "counter", "options": {}, "version": version, "status": "active",
        "to_act": to_act, "seats": [{"open": False, **s} for s in seats], "seed_commitment": "c", "updated": 0.0,
    }).to_json()


def test_a_frame_is_sent_only_at_the_version_of_the_last_event_and_only_for_a_seat_still_held():
    keys, gid, server = Keys("t:", 4), "g1", fakeredis.FakeServer()
    ann = Principal(kind="player", player_id="ann")
    seats = [{"seat": 0, "player_id": "ann"}, {"seat": 1, "player_id": "ann"}]  # a hot-seat game: both ann's
    meta = _meta(7, [1], seats)
    legal = {0: {"version": 7, "seat": 0, "commands": []}, 1: {"version": 7, "seat": 1, "commands": [{"type": "Add"}]}}
    _store(server, keys, gid, {0: {**meta, "seat": 0, "board": {"mine": 0}}, 1: {**meta, "seat": 1, "board": {"mine": 1}}},
           legal)
    frames = SeatFrames.of(keys, gid, ann, read_models.GameMeta.model_validate(meta), chosen=1, asked=None)

    async def frame(version: int) -> dict[str, Any] | None:
        raw = await frames.frame(fakeredis.aioredis.FakeRedis(server=server), version)
        return orjson.loads(raw.split(b"data: ", 1)[1]) if raw is not None else None

    shown = asyncio.run(frame(7))
    assert shown is not None and shown["view"]["seat"] == 1 and shown["legal"]["seat"] == 1  # the seat to act
    assert asyncio.run(frame(6)) is None  # the models are ahead of the events sent: the next run brings it
    # the seats went to bots (a vote of the table): the stream shows them no more
    taken = _meta(7, [1], [{**s, "bot": "random"} for s in seats])
    _store(server, keys, gid, {0: {**taken, "seat": 0, "board": {}}, 1: {**taken, "seat": 1, "board": {}}}, legal)
    assert asyncio.run(frame(7)) is None
