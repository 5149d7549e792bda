"""E-mail and Web Push for people: a local SMTP server (aiosmtpd) and a local HTTP push receiver on
127.0.0.1 take what the service sends; the tests read the messages and decrypt the pushes."""

from __future__ import annotations

import base64
import email
import email.policy
import json
import os
import re
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, time, timedelta, timezone
from typing import Any

import http_ece
import orjson
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from pydantic import SecretStr

from services.adapters.api.app import create_app
from services.application.notifications.notify import Webhooks
from services.application.notifications.prefs import NotificationPrefs, Preferences, QuietHours
from services.infrastructure.settings import AsyncSettings, Settings

from .conftest import DAY, HOUR, Table

PUBLIC_URL = "https://taproom.test"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Inbox:
    """An aiosmtpd handler that keeps every message; ``fail`` answers that many with a temporary error."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self.raw: list[bytes] = []
        """Each message's bytes exactly as the SMTP client sent them (no parser between)."""
        self.fail = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.fail:
            self.fail -= 1
            return "451 4.3.0 try again later"
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert envelope.rcpt_tos == [message["To"]]
        self.messages.append(message)  # type: ignore[arg-type]
        self.raw.append(envelope.original_content or envelope.content)
        return "250 OK"

    def texts(self) -> list[str]:
        return [plain(m) for m in self.messages]


def plain(message: email.message.EmailMessage) -> str:
    """The text part (every notification also has an HTML one; a verification e-mail is text only)."""
    part = message.get_body(("plain",))
    assert part is not None
    return part.get_content()  # type: ignore[no-any-return,attr-defined]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    controller.stop()


@pytest.fixture
def vapid() -> tuple[str, str]:
    """(private key as base64url of the raw 32 bytes, public key as the page's applicationServerKey)."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(private), b64url(public)


@pytest.fixture
def async_settings(smtp: tuple[Inbox, int], vapid: tuple[str, str],
                   monkeypatch: pytest.MonkeyPatch) -> AsyncSettings:
    # jobs never carry the secrets (rq keeps job arguments in Redis): they read them from the environment
    monkeypatch.setenv("TAPROOM_VAPID_PRIVATE_KEY", vapid[0])
    return AsyncSettings(webhook_allow_private=True, system_command_wait_seconds=0, public_url=PUBLIC_URL,
                         smtp_host="127.0.0.1", smtp_port=smtp[1], smtp_tls="none", smtp_timeout_seconds=5,
                         mail_from="Taproom <turns@taproom.test>", mail_retry_intervals=[60, 120],
                         vapid_private_key=SecretStr(vapid[0]), vapid_public_key=vapid[1],
                         vapid_subject="mailto:ops@taproom.test", push_retry_intervals=[30])


@pytest.fixture
def http(table: Table, settings: Settings, async_settings: AsyncSettings) -> Iterator[TestClient]:
    app = create_app(table.client, settings, table.jobs, clock=table.clock)
    app.state.async_settings = async_settings
    with TestClient(app) as client:
        yield client


def register(http: TestClient, name: str = "alice") -> tuple[str, dict[str, str], str]:
    player = http.post("/players", json={"name": name}).json()
    return player["player_id"], {"Authorization": f"Bearer {player['token']}"}, player["token"]


def verified(http: TestClient, table: Table, inbox: Inbox, auth: dict[str, str], address: str) -> None:
    asked = http.put("/players/me/email", json={"address": address}, headers=auth)
    assert asked.status_code == 202 and asked.json() == {"pending": address}
    table.settle()
    link = re.search(r"https://taproom\.test(/email/verify\?token=\S+)", inbox.texts()[-1])
    assert link and inbox.messages[-1]["To"] == address
    page = http.get(link.group(1))
    assert page.status_code == 200 and address in page.text
    again = http.get(link.group(1))  # single use
    assert again.status_code == 404 and again.headers["content-type"].startswith("text/html")  # a page, not JSON
    assert "unknown, used or expired" in again.text and 'href="/#/settings"' in again.text
    assert http.get("/players/me/notification-settings", headers=auth).json()["email"] == {
        "address": address, "pending": None, "enabled": True}


def test_your_turn_is_mailed_once_per_game_per_hour_with_a_link_and_one_click_unsubscribe(
        table: Table, http: TestClient, smtp: tuple[Inbox, int], clock) -> None:
    inbox = smtp[0]
    pid, auth, token = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    inbox.messages.clear()

    gid = table.create([{"name": "alice", "player_id": pid}, {"bot": "random"}], target=1000)
    assert len(inbox.messages) == 1
    message = inbox.messages[0]
    text = plain(message)
    assert message["Subject"] == "Taproom: your turn" and message["From"] == "Taproom <turns@taproom.test>"
    assert f"{PUBLIC_URL}/#/game/{gid}" in text
    assert token not in message.as_string()  # never the player's credential
    unsubscribe = message["List-Unsubscribe"].strip("<>")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and unsubscribe in text

    assert table.add(gid, 0).accepted  # the bot answers: alice's turn again within the hour
    turns = [n for n in http.get("/players/me/notifications", headers=auth).json()["notifications"]
             if n["kind"] == "your_turn"]
    assert len(turns) == 2 and len(inbox.messages) == 1
    clock.advance(HOUR + 1)
    assert table.add(gid, 0).accepted
    assert len(inbox.messages) == 2

    path = unsubscribe.removeprefix(PUBLIC_URL)
    page = http.get(path)  # a browser (or a mail scanner) opening the link: a button, nothing changed
    assert page.status_code == 200 and 'method="post"' in page.text
    assert Preferences(table.client, table.reactor.keys).get(pid).email.mode("your_turn") == "immediate"
    done = http.post(path, content=b"List-Unsubscribe=One-Click",
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert done.status_code == 200
    prefs = Preferences(table.client, table.reactor.keys).get(pid)
    assert prefs.email.mode("your_turn") == "off" and prefs.email.mode("game_over") == "immediate"
    clock.advance(HOUR + 1)
    assert table.add(gid, 0).accepted
    assert len(inbox.messages) == 2  # unsubscribed; the in-app list still has it
    refused = http.post("/email/unsubscribe?token=nope")
    assert refused.status_code == 404 and refused.headers["content-type"].startswith("text/html")
    assert "unknown or expired" in refused.text


def test_a_refused_email_is_retried_with_backoff(table: Table, http: TestClient, smtp: tuple[Inbox, int]) -> None:
    inbox = smtp[0]
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    inbox.messages.clear()
    inbox.fail = 1
    table.reactor.async_play.notifier.send(pid, "invited", {"game_id": "g1", "game": "counter", "seat": 1,
                                                            "by": "bob"}, dedupe="invited:g1")
    table.settle()
    assert inbox.messages == [] and len(table.queue.scheduled_job_registry.get_job_ids()) == 1
    table.tick(30)
    assert inbox.messages == []  # the first backoff is 60 s
    table.tick(31)
    assert len(inbox.messages) == 1 and "You are invited to seat 1 of a counter game" in inbox.texts()[0]


def test_game_over_carries_the_result(table: Table, http: TestClient, smtp: tuple[Inbox, int], clock) -> None:
    inbox = smtp[0]
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    gid = table.create([{"name": "alice", "player_id": pid}, {"bot": "random"}], target=4)
    while table.record(gid).status == "active":
        clock.advance(HOUR + 1)
        assert table.add(gid, 0, 3).accepted
    over = [m for m in inbox.messages if m["Subject"] == "Taproom: game over"]
    assert len(over) == 1
    assert re.search(rf"Game {gid} has ended: you placed [12] \(seat 0: \d+, seat 1: \d+\)\.", plain(over[0]))


def test_the_daily_digest_gathers_messages_into_one_email(table: Table, http: TestClient,
                                                          smtp: tuple[Inbox, int], clock) -> None:
    inbox = smtp[0]
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    inbox.messages.clear()
    choice = {"email": {"kinds": {"your_turn": "digest", "invited": "digest"}, "digest_hour": 7},
              "quiet_hours": None}
    assert http.put("/players/me/notification-settings", json=choice, headers=auth).status_code == 200
    notifier = table.reactor.async_play.notifier
    notifier.send(pid, "your_turn", {"game_id": "g1", "seat": 0}, dedupe="t1")
    notifier.send(pid, "invited", {"game_id": "g2", "game": "counter", "seat": 1}, dedupe="i2")
    notifier.send(pid, "game_over", {"game_id": "g3", "seat": 0, "place": 1, "scores": []}, dedupe="o3")
    table.settle()
    assert [m["Subject"] for m in inbox.messages] == []  # game_over was switched off by leaving it out
    due = NotificationPrefs.model_validate(choice).next_digest(clock.now())
    table.tick(due - clock.now() + 1)
    assert len(inbox.messages) == 1 and inbox.messages[0]["Subject"] == "Taproom: your daily digest (2)"
    text = inbox.texts()[0]
    # not a bare "g3": the random unsubscribe token can hold those two letters (a 1-in-100 flake seen in CI)
    assert f"{PUBLIC_URL}/#/game/g1" in text and f"{PUBLIC_URL}/#/game/g2" in text
    assert f"{PUBLIC_URL}/#/game/g3" not in text and "game g3" not in text.lower()
    assert inbox.messages[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    table.tick(DAY)
    assert len(inbox.messages) == 1  # sent items left the digest


def test_kinds_and_quiet_hours_apply_to_webhook_email_and_push(table: Table, http: TestClient,
                                                               smtp: tuple[Inbox, int], receiver, clock) -> None:  # type: ignore[no-untyped-def]
    inbox = smtp[0]
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    inbox.messages.clear()
    Webhooks(table.client, table.reactor.keys).register(pid, f"http://127.0.0.1:{receiver.server_address[1]}/h",
                                                        allow_private=True)
    sub, key, secret = subscription(receiver)
    assert http.post("/players/me/push-subscriptions", json=sub, headers=auth).status_code == 201
    now = datetime.fromtimestamp(clock.now(), UTC)
    start, end = (now - timedelta(hours=1)).time(), (now + timedelta(hours=2)).time().replace(second=0, microsecond=0)
    choice = {"kinds": ["your_turn", "game_over"], "quiet_hours": {"start": start.isoformat(),
                                                                   "end": end.isoformat(), "timezone": "UTC"}}
    assert http.put("/players/me/notification-settings", json=choice, headers=auth).status_code == 200
    notifier = table.reactor.async_play.notifier
    notifier.send(pid, "your_turn", {"game_id": "g1", "seat": 0}, dedupe="t1")
    notifier.send(pid, "invited", {"game_id": "g2", "game": "counter", "seat": 1}, dedupe="i2")
    table.settle()
    assert inbox.messages == [] and receiver.received == []  # quiet
    assert [n["kind"] for n in notifier.recent(pid)] == ["invited", "your_turn"]  # the in-app list has both
    table.tick(2 * HOUR + 61)
    # a push is told by its encoding (its encrypted bytes are random and may well start with "{"), and read decrypted
    received = [("push", orjson.loads(http_ece.decrypt(body, private_key=key, auth_secret=secret,
                                                       version="aes128gcm")))
                if {k.lower(): v for k, v in headers.items()}.get("content-encoding") == "aes128gcm"
                else ("webhook", orjson.loads(body)) for headers, body in receiver.received]
    # the webhook's and the push of "your turn"; "invited" is off
    assert sorted((via, message["kind"]) for via, message in received) == [("push", "your_turn"),
                                                                           ("webhook", "your_turn")]
    assert [m["Subject"] for m in inbox.messages] == ["Taproom: your turn"]


def subscription(receiver: Any) -> tuple[dict[str, Any], ec.EllipticCurvePrivateKey, bytes]:
    """A push subscription as a browser makes one, with keys the test holds."""
    key = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    endpoint = f"http://127.0.0.1:{receiver.server_address[1]}/push/{b64url(os.urandom(6))}"
    return {"endpoint": endpoint, "keys": {"p256dh": b64url(public), "auth": b64url(auth)}}, key, auth


def test_your_turn_push_decrypts_to_what_the_page_shows(table: Table, http: TestClient, receiver,  # type: ignore[no-untyped-def]
                                                        vapid: tuple[str, str]) -> None:
    pid, auth, token = register(http)
    assert http.get("/push/key").json() == {"public_key": vapid[1]}
    sub, key, secret = subscription(receiver)
    created = http.post("/players/me/push-subscriptions", json=sub, headers=auth)
    assert created.status_code == 201
    gid = table.create([{"name": "alice", "player_id": pid}, {"bot": "random"}], target=1000)
    assert len(receiver.received) == 1
    raw_headers, body = receiver.received[0]
    headers = {k.lower(): v for k, v in raw_headers.items()}
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) == 86400
    scheme, _, params = headers["authorization"].partition(" ")
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert scheme == "vapid" and fields["k"] == vapid[1]
    claims = json.loads(base64.urlsafe_b64decode(fields["t"].split(".")[1] + "=="))
    assert claims["aud"] == f"http://127.0.0.1:{receiver.server_address[1]}" and claims["sub"] == "mailto:ops@taproom.test"
    plain = http_ece.decrypt(body, private_key=key, auth_secret=secret, version="aes128gcm")
    assert json.loads(plain) == {"kind": "your_turn", "title": "Your turn", "game_id": gid,
                                 "body": f"It is your turn in Counter (test fixture) (game {gid}).", "url": f"{PUBLIC_URL}/#/game/{gid}"}
    assert token.encode() not in plain

    receiver.statuses.append(410)  # the browser dropped it: the subscription goes
    assert table.add(gid, 0).accepted
    assert len(receiver.received) == 2
    assert http.get("/players/me/notification-settings", headers=auth).json()["push"]["subscriptions"] == []


def test_bad_input_gets_stable_codes(http: TestClient) -> None:
    _, auth, _ = register(http)
    bad = http.put("/players/me/email", json={"address": "alice at example"}, headers=auth)
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_email"
    injected = http.put("/players/me/email", json={"address": "a@b.org\r\nBcc: x@y.org"}, headers=auth)
    assert injected.json()["code"] == "invalid_email"
    for choice in ({"kinds": ["your_turn", "gossip"]}, {"quiet_hours": {"start": "22:00", "end": "07:00",
                                                                        "timezone": "Mars/Olympus"}},
                   {"email": {"kinds": {"seat_vote": "immediate"}}}, {"email": {"kinds": {"your_turn": "hourly"}}}):
        answer = http.put("/players/me/notification-settings", json=choice, headers=auth)
        assert answer.status_code == 422 and answer.json()["code"] == "invalid_request", choice
    weak = {"endpoint": "http://127.0.0.1:9/p", "keys": {"p256dh": b64url(b"\x04" + b"1" * 10), "auth": "x"}}
    assert http.post("/players/me/push-subscriptions", json=weak, headers=auth).json()["code"] == "invalid_request"
    assert http.delete("/players/me/push-subscriptions/nope", headers=auth).json()["code"] == "not_found"
    assert http.get("/players/me/notification-settings").status_code == 401


def test_quiet_hours_over_midnight_in_the_players_zone() -> None:
    quiet = QuietHours(start=time(22), end=time(7, 30), timezone="Europe/Berlin")
    berlin = datetime(2026, 11, 30, 23, 15, tzinfo=timezone(timedelta(hours=1))).timestamp()  # CET
    assert quiet.until(berlin) == datetime(2026, 12, 1, 6, 30, tzinfo=UTC).timestamp()
    early = datetime(2026, 12, 1, 5, 0, tzinfo=UTC).timestamp()  # 06:00 in Berlin
    assert quiet.until(early) == datetime(2026, 12, 1, 6, 30, tzinfo=UTC).timestamp()
    assert quiet.until(datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp()) is None


def test_deadline_near_is_mailed_by_the_scheduled_warning(table: Table, http: TestClient,
                                                          smtp: tuple[Inbox, int]) -> None:
    inbox = smtp[0]
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    inbox.messages.clear()
    table.create([{"name": "alice", "player_id": pid}, {"bot": "random"}], pace="1d", target=1000)
    assert [m["Subject"] for m in inbox.messages] == ["Taproom: your turn"]
    table.tick(12 * HOUR - 120)
    assert len(inbox.messages) == 1
    table.tick(180)  # the warning job 12 hours before the deadline (the scheduler releases it)
    assert [m["Subject"] for m in inbox.messages][1:] == ["Taproom: your deadline is near"]
    assert "times out in 12 hours" in inbox.texts()[1]


def test_smtp_credentials_come_from_the_workers_environment_not_the_job(
        table: Table, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword
    from rq.job import Job

    from services.application.notifications.mail import Mailer

    logins: list[tuple[bytes, bytes]] = []

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        assert isinstance(data, LoginPassword)
        logins.append((data.login, data.password))
        return AuthResult(success=data.password == b"s3cret-pass")

    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port, authenticator=authenticator,
                            auth_required=True, auth_require_tls=False)  # plain text: a test on loopback only
    controller.start()
    try:
        monkeypatch.setenv("TAPROOM_SMTP_PASSWORD", "s3cret-pass")
        mail_settings = AsyncSettings(smtp_host="127.0.0.1", smtp_port=port, smtp_tls="none",
                                      smtp_username="taproom", smtp_password=SecretStr("s3cret-pass"),
                                      public_url=PUBLIC_URL, mail_retry_intervals=[])
        mailer = Mailer(table.client, table.reactor.keys, table.queue, mail_settings, table.clock)
        table.client.hset(table.reactor.keys.email("alice"), "address", "alice@example.org")
        body = orjson.dumps({"kind": "invited", "game_id": "g9", "game": "counter", "seat": 0})
        assert mailer.dispatch("alice", "invited", body, "d9", NotificationPrefs(), None) == "immediate"
        job = Job.fetch(table.queue.job_ids[0], connection=table.jobs)
        assert "s3cret" not in repr(job.args) + repr(job.kwargs)  # rq keeps job arguments in Redis
        assert job.kwargs == {}  # no settings at all: the job runs under its worker's
        # the worker's settings, read from its environment (the password is not passed: it comes from there)
        table.worker.settings = Settings(**{**mail_settings.model_dump(exclude={"smtp_password"}),
                                            "key_prefix": settings.key_prefix, "shards": settings.shards})
        assert table.worker.settings.smtp_password.get_secret_value() == "s3cret-pass"
        table.settle()
        assert logins == [(b"taproom", b"s3cret-pass")] and len(inbox.messages) == 1
    finally:
        controller.stop()


def test_every_turn_lifts_the_hourly_limit_and_vapid_keys_are_printed(table: Table, http: TestClient,
                                                                        smtp: tuple[Inbox, int]) -> None:
    from click.testing import CliRunner

    from services.adapters.cli.main import cli

    inbox = smtp[0]
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    inbox.messages.clear()
    choice = {"email": {"kinds": {"your_turn": "immediate"}, "every_turn": True}}
    assert http.put("/players/me/notification-settings", json=choice, headers=auth).status_code == 200
    gid = table.create([{"name": "alice", "player_id": pid}, {"bot": "random"}], target=1000)
    assert table.add(gid, 0).accepted and table.add(gid, 0).accepted
    assert [m["Subject"] for m in inbox.messages] == ["Taproom: your turn"] * 3

    assert http.delete("/players/me/email", headers=auth).status_code == 204
    assert table.add(gid, 0).accepted
    assert len(inbox.messages) == 3  # no address, no e-mail

    printed = CliRunner().invoke(cli, ["vapid-keys"]).output.splitlines()
    keys = dict(line.split("=", 1) for line in printed)
    assert len(base64.urlsafe_b64decode(keys["TAPROOM_VAPID_PUBLIC_KEY"] + "=")) == 65
    assert len(base64.urlsafe_b64decode(keys["TAPROOM_VAPID_PRIVATE_KEY"] + "=")) == 32


def test_push_subscriptions_are_capped_per_player(http: TestClient, receiver: Any,
                                                  async_settings: AsyncSettings) -> None:
    """The attack run stored 300 for one account, each notification fanned out to all of them: at most
    ``max_push_subscriptions_per_player``; a browser subscribing again replaces its own."""
    assert async_settings.max_push_subscriptions_per_player == 10  # the default
    cap = 3
    http.app.state.async_settings = async_settings.model_copy(update={"max_push_subscriptions_per_player": cap})
    _, auth, _ = register(http)
    browser = subscription(receiver)[0]
    subs = [{**browser, "endpoint": f"{browser['endpoint']}-{i}"} for i in range(cap + 2)]  # a browser each
    made = [http.post("/players/me/push-subscriptions", json=s, headers=auth) for s in subs[:cap]]
    assert all(m.status_code == 201 for m in made), [m.text for m in made if m.status_code != 201][:1]
    over = http.post("/players/me/push-subscriptions", json=subs[cap], headers=auth)
    assert (over.status_code, over.json()["code"]) == (409, "too_many_push_subscriptions"), over.text
    assert str(cap) in over.json()["message"]
    assert http.post("/players/me/push-subscriptions", json=subs[0], headers=auth).status_code == 201  # its own again
    shown = http.get("/players/me/notification-settings", headers=auth).json()["push"]["subscriptions"]
    assert len(shown) == cap
    http.delete(f"/players/me/push-subscriptions/{shown[0]}", headers=auth)
    assert http.post("/players/me/push-subscriptions", json=subs[cap + 1], headers=auth).status_code == 201
