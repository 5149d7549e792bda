"""E-mail as it goes on the wire: the raw bytes the SMTP server received (no decoding parser between), the
one-click unsubscribe of RFC 8058 without a login, and the two parts (text and HTML) of every notification."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from services.application.notifications.prefs import Preferences

from .conftest import Table
from .test_email_and_push import (
    PUBLIC_URL,
    Inbox,
    async_settings,
    http,
    plain,
    register,
    smtp,
    vapid,
    verified,
)

FIXTURES = (async_settings, http, smtp, vapid)
"""The e-mail tests' fixtures (an SMTP server, VAPID keys, the settings and API over them), used here by name."""


def raw_headers(raw: bytes) -> list[bytes]:
    """The header lines exactly as sent (a folded header continues on lines starting with white space)."""
    head = raw.split(b"\r\n\r\n", 1)[0]
    return head.split(b"\r\n")


def test_list_unsubscribe_goes_out_as_one_unencoded_line_with_its_one_click_post(
        table: Table, http: TestClient, smtp: tuple[Inbox, int]) -> None:
    inbox = smtp[0]
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    inbox.messages.clear()
    inbox.raw.clear()
    table.create([{"name": "alice", "player_id": pid}, {"bot": "random"}], target=1000)
    assert len(inbox.raw) == 1
    lines = raw_headers(inbox.raw[0])
    at = [i for i, line in enumerate(lines) if line.lower().startswith(b"list-unsubscribe:")]
    assert len(at) == 1
    line = lines[at[0]]
    # the whole URL on the header's own line, in angle brackets, no RFC 2047 encoded-word, no folding
    assert re.fullmatch(rb"List-Unsubscribe: <https://taproom\.test/email/unsubscribe\?token=[A-Za-z0-9_-]{43}>",
                        line), line
    assert b"=?" not in line and not lines[at[0] + 1][:1].isspace()
    assert b"List-Unsubscribe-Post: List-Unsubscribe=One-Click" in lines

    # RFC 8058: the mail provider POSTs to that URL with no cookie and no token of the player
    url = line.split(b"<", 1)[1].rstrip(b">").decode()
    done = http.post(url.removeprefix(PUBLIC_URL), content=b"List-Unsubscribe=One-Click",
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert done.status_code == 200 and done.headers["content-type"].startswith("text/html")
    assert Preferences(table.client, table.reactor.keys).get(pid).email.mode("your_turn") == "off"


def test_a_your_turn_email_has_a_text_and_an_accessible_html_part(
        table: Table, http: TestClient, smtp: tuple[Inbox, int]) -> None:
    inbox = smtp[0]
    pid, auth, _ = register(http, "alice")
    verified(http, table, inbox, auth, "alice@example.org")
    _, bob_auth, _ = register(http, "bob")
    inbox.messages.clear()
    hostile = "<b>Bo & \"Co\"</b>"
    # bob (a seat token's holder named with markup) moves first; then it is alice's turn, 1 day a move
    gid = table.create([{"name": hostile}, {"name": "alice", "player_id": pid}],
                       pace={"per_move_seconds": 86400}, target=1000)
    assert not inbox.messages
    table.kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="seat:0")  # as the seat's token
    table.settle()
    assert len(inbox.messages) == 1
    message = inbox.messages[0]
    assert message.get_content_type() == "multipart/alternative"
    text, page = plain(message), message.get_body(("html",)).get_content()  # type: ignore[union-attr]
    link = f"{PUBLIC_URL}/#/game/{gid}"
    # who moved, what is asked, the deadline, the game page (not its JSON route)
    assert f"{hostile} moved." in text and f"Play your move: {link}" in text and "Deadline: " in text
    assert f"{PUBLIC_URL}/#/settings" in text and f"/games/{gid}" not in text
    assert hostile not in page and html.escape(hostile) + " moved." in page
    assert re.search(r"Deadline: \w{3} \d{1,2} \w{3}, \d\d:\d\d \(UTC\)\.", page)
    buttons = re.findall(r'<a href="([^"]+)"[^>]*>Play your move</a>', page)
    assert buttons == [link]
    assert '<html lang="en">' in page and "<h1" in page and "<title>Your turn</title>" in page
    hrefs = re.findall(r'href="([^"]+)"', page)
    assert all(h == link or h.startswith(f"{PUBLIC_URL}/#/settings") or "/email/unsubscribe?token=" in h
               for h in hrefs), hrefs


def test_the_digest_has_both_parts_with_game_pages(table: Table, http: TestClient,
                                                   smtp: tuple[Inbox, int]) -> None:
    inbox = smtp[0]
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    settings = http.get("/players/me/notification-settings", headers=auth).json()["preferences"]
    settings["email"]["kinds"]["your_turn"] = "digest"
    assert http.put("/players/me/notification-settings", json=settings, headers=auth).status_code == 200
    inbox.messages.clear()
    gid = table.create([{"name": "alice", "player_id": pid}, {"bot": "random"}], target=1000)
    table.tick(86400)
    assert len(inbox.messages) == 1
    message = inbox.messages[0]
    assert message.get_content_type() == "multipart/alternative"
    page = message.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert f'href="{PUBLIC_URL}/#/game/{gid}"' in page and f"{PUBLIC_URL}/#/game/{gid}" in plain(message)


def test_every_link_of_an_email_opens_a_page_a_browser_shows(table: Table, http: TestClient,
                                                            smtp: tuple[Inbox, int]) -> None:
    """The game page and the settings are the web client's routes (``/#/...``, the page at ``/``); the server's
    own links (verify, unsubscribe) answer HTML, their refusals too; none is a JSON route."""
    inbox = smtp[0]
    pid, auth, _ = register(http)
    verified(http, table, inbox, auth, "alice@example.org")
    table.create([{"name": "alice", "player_id": pid}, {"bot": "random"}], target=1000)
    links = set()
    for message in inbox.messages:
        for part in message.walk():
            if part.get_content_maintype() == "text":
                links |= set(re.findall(r"https://taproom\.test[^\s\"<>]*", part.get_content()))
    assert len(links) >= 4, links  # verify, game, settings, unsubscribe
    for link in links:
        path = html.unescape(link).removeprefix(PUBLIC_URL)
        if "#/" in path:
            assert path.split("#/")[0] == "/" and re.fullmatch(r"(game/[0-9a-f]+|settings)", path.split("#/")[1])
            path = "/"
        page = http.get(path)
        assert page.status_code in (200, 404) and page.headers["content-type"].startswith("text/html"), path
    for path in ("/email/verify", "/email/unsubscribe", "/email/unsubscribe?token=" + "x" * 101):
        page = http.get(path)  # a truncated or mangled link: still a page
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html"), path
        assert 'href="/#/settings"' in page.text
