"""Issue 38: e-mails and pushes in the player's language setting (German here), whatever the sender's."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient

from services.application.notifications.words import describe, digest_subject
from tests.services.async_play import test_email_and_push as base
from tests.services.async_play.conftest import Table

# the e-mail tests' fixtures (a local SMTP server, VAPID keys, the app with them), shared by name
smtp, vapid, async_settings, http = base.smtp, base.vapid, base.async_settings, base.http
PUBLIC_URL, Inbox, register, subscription, verified = (base.PUBLIC_URL, base.Inbox, base.register, base.subscription,
                                                       base.verified)
TITLE = "Counter (test fixture)"  # the fixture game's title, which a "your turn" message names


def german(http: TestClient, auth: dict[str, str]) -> None:
    saved = http.put("/players/me/language", json={"language": "de"}, headers=auth)
    assert saved.status_code == 200 and saved.json() == {"language": "de"}


def test_a_your_turn_email_arrives_in_german_for_a_player_whose_setting_is_german(
        table: Table, http: TestClient, smtp: tuple[Inbox, int]) -> None:
    inbox = smtp[0]
    pid, auth, _ = register(http)
    german(http, auth)
    verified(http, table, inbox, auth, "anke@example.org")
    confirm = inbox.texts()[0].replace("\r\n", "\n")
    assert confirm.startswith("Öffne diesen Link, um Benachrichtigungen von Taproom")
    assert inbox.messages[0]["Subject"] == "Taproom: Bestätige deine E-Mail-Adresse"
    inbox.messages.clear()
    # the notification settings saved afterwards (without the language) keep it
    assert http.put("/players/me/notification-settings", json={"quiet_hours": None}, headers=auth).status_code == 200

    gid = table.create([{"name": "anke", "player_id": pid}, {"bot": "random"}], target=1000)
    assert len(inbox.messages) == 1
    message = inbox.messages[0]
    text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")  # type: ignore[union-attr]
    assert message["Subject"] == "Taproom: Du bist am Zug"
    assert text.startswith(f"Du bist in {TITLE} am Zug (Partie {gid}).\n\nMach deinen Zug: {PUBLIC_URL}/#/game/{gid}")
    assert re.search(r"Diese E-Mails abbestellen: https://\S+/email/unsubscribe\?token=", text)
    for english in ("your turn", "Open the game", "Stop these"):
        assert english.lower() not in text.lower()

    # the pages the e-mail's links open speak German too (the browser's language, else the player's setting)
    path = message["List-Unsubscribe"].strip("<>").removeprefix(PUBLIC_URL)
    page = http.get(path, headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert "<h1>Abbestellen</h1>" in page.text and "Diese E-Mails abbestellen</button>" in page.text
    done = http.post(path, content=b"List-Unsubscribe=One-Click",
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert "<h1>Abbestellt</h1>" in done.text and "Keine E-Mails mehr zu „Du bist am Zug“." in done.text


def test_a_push_arrives_in_german(table: Table, http: TestClient, receiver) -> None:  # type: ignore[no-untyped-def]
    import http_ece

    pid, auth, _ = register(http)
    german(http, auth)
    sub, key, secret = subscription(receiver)
    assert http.post("/players/me/push-subscriptions", json=sub, headers=auth).status_code == 201
    gid = table.create([{"name": "anke", "player_id": pid}, {"bot": "random"}], target=1000)
    _, body = receiver.received[0]
    plain = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=secret, version="aes128gcm"))
    assert plain["title"] == "Du bist am Zug" and plain["body"] == f"Du bist in {TITLE} am Zug (Partie {gid})."


def test_counts_numbers_and_dates_follow_the_locale() -> None:
    from datetime import datetime

    day = 86400
    _, line = describe("absence_warning", {"game_id": "g1", "idle_seconds": 11 * day, "vote_in_seconds": day}, "de")
    assert "seit 11 Tagen" in line and "innerhalb von 1 Tag " in line
    _, line = describe("game_over", {"game_id": "g1", "place": 1, "scores": [{"seat": 1, "total": 1234.5}]}, "de")
    assert line == "Die Partie g1 ist beendet: Du bist auf Platz 1 gelandet (Platz 1: 1.234,5)."
    assert describe("game_over", {"game_id": "g1", "place": 1, "scores": [{"seat": 1, "total": 1234.5}]})[1] \
        == "Game g1 has ended: you placed 1 (seat 1: 1,234.5)."
    when = datetime(2026, 3, 12, 9, 0)
    assert digest_subject(3, when, "de") == "Taproom: deine Tageszusammenfassung vom 12. März 2026 (3)"
    assert digest_subject(3, when, "en") == "Taproom: your daily digest of March 12, 2026 (3)"
    # a language nobody offers reads in English, never a crash
    assert describe("your_turn", {"game_id": "g1"}, "xx") == ("Your turn", "It is your turn in game g1.")
