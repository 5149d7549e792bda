"""Presence: no "your turn" e-mail or push while the player has the game open (its live stream connected);
one after the grace period once they leave, if the turn is still theirs. The webhook is not held.

The open page is what the stream route writes (:class:`Presence`, checked over a real server below); the
clock is the table's, moved by hand: no test sleeps for the grace period."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.application.presence import Presence
from services.infrastructure.settings import Settings

from ..test_api import served
from .conftest import Table
from .test_email_and_push import (
    Inbox,
    async_settings,
    http,
    register,
    smtp,
    subscription,
    vapid,
    verified,
)

FIXTURES = (async_settings, http, smtp, vapid)
"""The e-mail tests' fixtures (an SMTP server, VAPID keys, the settings and API over them), used here by name."""

GRACE = 120  # the default presence_grace_seconds


def presence(table: Table) -> Presence:
    return Presence(table.client, table.reactor.keys, table.clock)


def bobs_move(table: Table, gid: str) -> None:
    table.kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="seat:0")
    table.settle()


def pushes(receiver: Any) -> list[Any]:
    return [h for h, _ in receiver.received if {k.lower(): v for k, v in h.items()}.get("content-encoding") == "aes128gcm"]


def turns(inbox: Inbox) -> list[Any]:
    return [m for m in inbox.messages if m["Subject"] == "Taproom: your turn"]


def alice_and_bob(table: Table, http: TestClient, inbox: Inbox, receiver: Any = None) -> tuple[str, str, dict]:
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    if receiver is not None:  # a webhook and a browser's push subscription, both answered by the receiver
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
        assert http.put("/players/me/webhook", json={"url": url}, headers=auth).status_code in (200, 201)
        assert http.post("/players/me/push-subscriptions", json=subscription(receiver)[0],
                         headers=auth).status_code == 201
    inbox.messages.clear()
    # bob (a seat token) is to act first: nothing for alice yet
    gid = table.create([{"name": "bob"}, {"name": "alice", "player_id": pid}], target=1000)
    assert not turns(inbox)
    return pid, gid, auth


def test_watching_the_game_holds_the_email_and_one_goes_out_after_the_grace_once_left(
        table: Table, http: TestClient, smtp: tuple[Inbox, int], receiver: Any) -> None:
    inbox = smtp[0]
    pid, gid, auth = alice_and_bob(table, http, inbox, receiver)
    page = presence(table)
    page.here(pid, gid, "tab1")  # alice's game page: its stream is connected
    bobs_move(table, gid)
    assert not turns(inbox)  # she is looking at it: no e-mail
    assert [n["kind"] for n in http.get("/players/me/notifications", headers=auth).json()["notifications"]
            ][:1] == ["your_turn"]  # the in-app list has it
    hooks = [h for h, _ in receiver.received if h.get("X-Taproom-Event") == "your_turn"]
    assert len(hooks) == 1  # the webhook is unchanged: at once
    assert not pushes(receiver)  # no push either

    for _ in range(5):  # she keeps the page open for ten minutes (the stream renews every 20 s; here every 2 min)
        table.tick(GRACE)
        page.here(pid, gid, "tab1")
    assert not turns(inbox)

    page.gone(pid, gid, "tab1")  # she closes the page; it is still her turn
    table.tick(GRACE - 1)
    assert not turns(inbox)
    table.tick(2)
    assert len(turns(inbox)) == 1 and len(pushes(receiver)) == 1
    table.tick(3 * GRACE)
    assert len(turns(inbox)) == 1 and len(pushes(receiver)) == 1  # one, not one per look
    assert len([h for h, _ in receiver.received if h.get("X-Taproom-Event") == "your_turn"]) == 1


def test_a_player_who_moves_while_watching_gets_nothing_after_leaving(
        table: Table, http: TestClient, smtp: tuple[Inbox, int]) -> None:
    inbox = smtp[0]
    pid, gid, _ = alice_and_bob(table, http, inbox)
    page = presence(table)
    page.here(pid, gid, "tab1")
    bobs_move(table, gid)
    table.tick(30)
    assert table.add(gid, 1).accepted  # alice moves on the page
    page.gone(pid, gid, "tab1")
    table.tick(10 * GRACE)
    assert not turns(inbox)


def test_a_page_whose_process_died_lapses_after_the_ttl_and_the_grace_runs_from_there(
        table: Table, http: TestClient, smtp: tuple[Inbox, int]) -> None:
    inbox = smtp[0]
    pid, gid, _ = alice_and_bob(table, http, inbox)
    presence(table).here(pid, gid, "tab1")  # then the API process holding the stream dies: no renewal, no close
    bobs_move(table, gid)
    table.tick(60 + GRACE - 2)  # the entry lapses 60 s (presence_ttl_seconds) after its last renewal
    assert not turns(inbox)
    table.tick(3)
    assert len(turns(inbox)) == 1


def test_without_the_page_open_the_email_goes_at_once_and_a_page_on_another_game_does_not_hold_it(
        table: Table, http: TestClient, smtp: tuple[Inbox, int]) -> None:
    inbox = smtp[0]
    pid, gid, _ = alice_and_bob(table, http, inbox)
    presence(table).here(pid, "another-game", "tab1")
    bobs_move(table, gid)
    assert len(turns(inbox)) == 1


def test_the_stream_route_marks_the_player_present_for_every_process_until_the_page_closes(
        table: Table, settings: Settings) -> None:
    """Over a real server (the in-process transport does not stream): the player's open stream is seen by
    another process's :class:`Presence` (the reactor's), and the closed page counts as left."""
    app = create_app(table.client, settings, table.jobs, clock=table.clock)
    app.state.async_settings = table.reactor.async_settings
    elsewhere = Presence(table.client, table.reactor.keys, table.clock)
    with TestClient(app) as http_:
        pid, auth, _ = register(http_)
        gid = table.create([{"name": "bob"}, {"name": "alice", "player_id": pid}], target=1000)
        assert http_.get("/inbox", headers=auth).status_code == 200
        assert elsewhere.online([pid])[pid] is not None  # an inbox poll: online
        with served(app) as (base, loop):
            async def open_and_close() -> None:
                async with httpx.AsyncClient(base_url=base, timeout=10) as client:
                    async with client.stream("GET", f"/games/{gid}/stream", headers=auth) as stream:
                        seen = b""
                        chunks = stream.aiter_raw()
                        while b": connected" not in seen:
                            seen += await anext(chunks)
                        assert elsewhere.watching(pid, gid) and not elsewhere.watching(pid, "other")
                        assert elsewhere.away_since(pid, gid) is None

            asyncio.run_coroutine_threadsafe(open_and_close(), loop).result(20)
            deadline = time.monotonic() + 10  # the server notices the closed page within its next read
            while elsewhere.watching(pid, gid):
                assert time.monotonic() < deadline, "the closed page still counts as open"
                time.sleep(0.05)
        away = elsewhere.away_since(pid, gid)
        assert away is not None and away <= table.clock.now()
