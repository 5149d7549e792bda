"""The settings page (notification kinds, quiet hours, e-mail, Web Push) and the service worker, in Chromium.

Web Push in headless Chromium: the page registers ``/sw.js`` and asks ``pushManager.subscribe`` with the
server's VAPID key. Whether the subscription can be made depends on the browser reaching its push service
(none here: no network), so the push test accepts either outcome the page is built for: the subscription is
stored on the server (checked through the API), or the page says in words that the browser could not
subscribe (what happens here: Chromium says "Registration failed - permission denied"). The rest of the
round trip (POST of ``toJSON()``, turning off: ``unsubscribe`` and DELETE) is tested with
``pushManager.subscribe`` replaced by a stand-in that returns a well-formed subscription. The worker's ``push`` handling is tested by dispatching a synthetic ``PushEvent`` inside it and
reading ``registration.getNotifications()``. ``TAPROOM_UPDATE_SCREENSHOTS=1`` writes the page's screenshots
to ``docs/screenshots/``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer, register_player, sign_in

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" \
    if os.environ.get("TAPROOM_UPDATE_SCREENSHOTS") else Path(os.environ.get("TMPDIR", "/tmp"))


def vapid_pair() -> tuple[str, str]:
    """A fresh key pair as ``taproom vapid-keys`` prints it (base64url raw private key, uncompressed point)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    def b64url(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(key.private_numbers().private_value.to_bytes(32, "big")), b64url(public)


@pytest.fixture
def push_and_mail(web_server: WebServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Web Push and e-mail switched on for the live server during one test (the session's server is shared:
    monkeypatch puts the settings back). The SMTP host is a closed port: verification mails fail and are retried."""
    private, public = vapid_pair()
    monkeypatch.setattr(web_server.settings, "vapid_private_key", private)
    monkeypatch.setattr(web_server.settings, "vapid_public_key", public)
    monkeypatch.setattr(web_server.settings, "smtp_host", "127.0.0.1")
    monkeypatch.setattr(web_server.settings, "smtp_port", 9)
    monkeypatch.setattr(web_server.settings, "smtp_tls", "none")
    yield public


def settings_of(web_server: WebServer, token: str) -> dict[str, Any]:
    with web_server.api(token) as client:
        answer = client.get("/players/me/notification-settings")
        assert answer.status_code == 200, answer.text
        return answer.json()


def open_settings(page: Any, web_server: WebServer, name: str) -> dict[str, Any]:
    player = register_player(web_server, name)
    sign_in(page, player)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Settings").click()
    page.wait_for_url("**/#/settings")
    expect(page.get_by_role("heading", name="Notifications")).to_be_visible()
    return player


def test_kinds_and_quiet_hours_round_trip(new_page: Any, web_server: WebServer):
    page = new_page()
    player = open_settings(page, web_server, "Sam")
    zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    # quiet hours are off by default; the zone proposed is the browser's
    expect(page.get_by_label("Time zone")).to_have_value(zone)
    expect(page.get_by_label("From")).to_be_disabled()

    page.get_by_label("A deadline is close").uncheck()
    page.get_by_label("An autopilot took my seat").uncheck()
    page.get_by_label("Hold notifications during quiet hours").check()
    page.get_by_label("From").fill("23:15")
    page.get_by_label("Until").fill("06:45")
    page.get_by_label("Time zone").fill("Europe/Berlin")
    page.get_by_label("Game over, with the result").select_option("digest")
    page.get_by_label("Daily digest at").select_option("19")
    page.get_by_label("An e-mail for every turn").check()
    page.get_by_role("button", name="Save notification settings").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()

    prefs = settings_of(web_server, player["token"])["preferences"]
    assert "deadline_soon" not in prefs["kinds"] and "taken_over" not in prefs["kinds"]
    assert "your_turn" in prefs["kinds"] and "invited" in prefs["kinds"]
    assert prefs["quiet_hours"] == {"start": "23:15:00", "end": "06:45:00", "timezone": "Europe/Berlin"}
    assert prefs["email"]["kinds"]["game_over"] == "digest" and prefs["email"]["kinds"]["your_turn"] == "immediate"
    assert prefs["email"]["digest_hour"] == 19 and prefs["email"]["every_turn"] is True

    page.reload()
    expect(page.get_by_label("A deadline is close")).not_to_be_checked()
    expect(page.get_by_label("It is my turn")).to_be_checked()
    expect(page.get_by_label("Hold notifications during quiet hours")).to_be_checked()
    expect(page.get_by_label("From")).to_have_value("23:15")
    expect(page.get_by_label("Until")).to_have_value("06:45")
    expect(page.get_by_label("Time zone")).to_have_value("Europe/Berlin")
    expect(page.get_by_label("Game over, with the result")).to_have_value("digest")
    expect(page.get_by_label("Daily digest at")).to_have_value("19")
    expect(page.get_by_label("An e-mail for every turn")).to_be_checked()

    # an unknown zone is refused in words, and nothing changes on the server
    page.get_by_label("Time zone").fill("Mars/Olympus")
    page.get_by_role("button", name="Save notification settings").click()
    expect(page.get_by_role("alert")).to_contain_text("Mars/Olympus")
    assert settings_of(web_server, player["token"])["preferences"]["quiet_hours"]["timezone"] == "Europe/Berlin"

    # switching quiet hours off by keyboard alone
    page.get_by_label("Time zone").fill("Europe/Berlin")
    page.get_by_label("Hold notifications during quiet hours").focus()
    page.keyboard.press("Space")
    page.get_by_role("button", name="Save notification settings").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    assert settings_of(web_server, player["token"])["preferences"]["quiet_hours"] is None


def test_email_address_from_the_page_is_pending_then_removed(new_page: Any, web_server: WebServer,
                                                              push_and_mail: str):
    page = new_page()
    player = open_settings(page, web_server, "Mia")
    expect(page.locator(".email-state")).to_have_text("No address yet.")
    page.get_by_label("Address", exact=True).fill("mia@example.org")
    page.get_by_role("button", name="Send confirmation link").click()
    expect(page.get_by_role("status").filter(has_text="Pending")).to_contain_text("mia@example.org")
    expect(page.get_by_role("status").filter(has_text="Pending")).to_contain_text("Check your inbox")
    assert settings_of(web_server, player["token"])["email"]["pending"] == "mia@example.org"

    page.reload()
    expect(page.locator(".email-state")).to_contain_text("Pending: mia@example.org")
    page.get_by_role("button", name="Remove e-mail address").click()
    expect(page.locator(".email-state")).to_have_text("No address yet.")
    email = settings_of(web_server, player["token"])["email"]
    assert email["pending"] is None and email["address"] is None


def test_email_disabled_and_push_disabled_are_said_in_words(new_page: Any, web_server: WebServer):
    page = new_page()
    open_settings(page, web_server, "Noa")
    expect(page.get_by_text("This server sends no e-mail (no mail server is configured).")).to_be_visible()
    expect(page.get_by_text("This server sends no Web Push (no VAPID key is configured).")).to_be_visible()


def test_push_on_registers_the_worker_and_subscribes_or_says_why_not(new_page: Any, web_server: WebServer,
                                                                      push_and_mail: str):
    page = new_page()
    page.context.grant_permissions(["notifications"])
    player = open_settings(page, web_server, "Ola")
    toggle = page.get_by_label("Push notifications on this browser")
    expect(toggle).to_be_enabled()
    expect(toggle).not_to_be_checked()
    toggle.click()  # controlled: it shows the outcome, not the click
    outcome = page.locator(".settings [role=status].ok:not(:empty), .settings .error").filter(has_text="push")
    expect(outcome.first).to_be_visible(timeout=20_000)

    # the service worker is registered for the whole site, whatever the push service said
    scope = page.evaluate("navigator.serviceWorker.getRegistration('/').then(r => r && r.scope)")
    assert scope == web_server.url + "/"
    server = settings_of(web_server, player["token"])["push"]
    if page.locator(".settings .error").count():  # headless Chromium without a push service
        error = page.locator(".settings .error").inner_text()
        assert "This browser could not subscribe to push notifications" in error, error
        expect(toggle).not_to_be_checked()
        assert server["subscriptions"] == []
        return  # the subscription round trip is tested below with the push service stood in for
    expect(toggle).to_be_checked()
    assert len(server["subscriptions"]) == 1
    toggle.click()
    expect(page.get_by_role("status").filter(has_text="off for this browser")).to_be_visible()
    assert settings_of(web_server, player["token"])["push"]["subscriptions"] == []


def test_service_worker_shows_a_push_as_a_notification(new_page: Any, web_server: WebServer):
    page = new_page()
    page.context.grant_permissions(["notifications"])
    page.goto("/")
    answer = page.request.get("/sw.js")
    assert answer.ok and "javascript" in answer.headers["content-type"]
    assert answer.headers["service-worker-allowed"] == "/"
    with page.context.expect_event("serviceworker") as event:
        page.evaluate("navigator.serviceWorker.register('/sw.js', {scope: '/'})")
    worker = event.value
    page.evaluate("navigator.serviceWorker.ready")
    shown = worker.evaluate("""async () => {
        // showNotification needs an active worker: wait for activation (the page's "ready" may come first)
        for (let i = 0; i < 100 && self.registration.active?.state !== "activated"; i++) {
            await new Promise(r => setTimeout(r, 100));
        }
        const data = {kind: "your_turn", title: "Your turn", body: "Ana moved in Counter", url: "/#/game/g1",
                      game_id: "g1"};
        const event = new PushEvent("push", {data: JSON.stringify(data)});
        let handed = null;  // what the worker's handler hands to waitUntil: showNotification's promise
        event.waitUntil = (promise) => { handed = promise; };
        self.dispatchEvent(event);
        if (!handed) return "the push handler handed nothing to waitUntil";
        try { await handed; } catch (err) { return "showNotification failed: " + err; }
        const found = await self.registration.getNotifications();
        return found.map(n => ({title: n.title, body: n.body, data: n.data, tag: n.tag}));
    }""")
    assert shown == [{"title": "Your turn", "body": "Ana moved in Counter", "tag": "game-g1-your_turn",
                      "data": {"url": "/#/game/g1", "kind": "your_turn", "game_id": "g1"}}]


@pytest.mark.parametrize("width", [1280, 375])
def test_settings_page_fits_and_is_captured(new_page: Any, web_server: WebServer, push_and_mail: str, width: int):
    page = new_page(width=width, height=900)
    open_settings(page, web_server, "Lou")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"settings-{width}.png"), full_page=True)


def test_notification_click_closes_it_and_goes_for_the_games_window(new_page: Any, web_server: WebServer):
    """A synthetic click cannot focus or open a window (browsers allow that only for a real click on a
    notification), so what is checked is that the handler closes the notification and then asks for the
    window showing the notification's url: the browser's refusal names that step."""
    page = new_page()
    page.context.grant_permissions(["notifications"])
    page.goto("/#/lobby")
    with page.context.expect_event("serviceworker") as event:
        page.evaluate("navigator.serviceWorker.register('/sw.js', {scope: '/'})")
    worker = event.value
    result = worker.evaluate("""async () => {
        for (let i = 0; i < 100 && self.registration.active?.state !== "activated"; i++) {
            await new Promise(r => setTimeout(r, 100));
        }
        await self.registration.showNotification("Your turn", {body: "b", data: {url: "/#/lobby"}});
        const [notification] = await self.registration.getNotifications();
        const event = new NotificationEvent("notificationclick", {notification});
        let handed = null;
        event.waitUntil = (promise) => { handed = promise; };
        self.dispatchEvent(event);
        let outcome = "resolved";
        try { await handed; } catch (err) { outcome = err.name + ": " + err.message; }
        const windows = await self.clients.matchAll({type: "window", includeUncontrolled: true});
        return {outcome, left: (await self.registration.getNotifications()).length,
                windows: windows.map(w => new URL(w.url).hash)};
    }""")
    assert result["left"] == 0
    assert "#/lobby" in result["windows"]
    # focus() of the open tab is what the handler tried: refused without a real click, or done
    assert result["outcome"] == "resolved" or "focus a window" in result["outcome"], result


FAKE_PUSH = """
  (() => {
    let current = null;
    const fake = (endpoint, keys) => ({
      endpoint,
      toJSON: () => ({endpoint, expirationTime: null, keys}),
      unsubscribe: async () => { current = null; window.__unsubscribed = (window.__unsubscribed || 0) + 1; return true; },
    });
    PushManager.prototype.subscribe = async function (options) {
      window.__subscribeKey = Array.from(new Uint8Array(options.applicationServerKey));
      current = fake(ENDPOINT, KEYS);
      return current;
    };
    PushManager.prototype.getSubscription = async function () { return current; };
  })();
"""


def test_push_on_and_off_round_trip_with_a_stand_in_push_service(new_page: Any, web_server: WebServer,
                                                                 push_and_mail: str):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()  # noqa: E731
    endpoint = "https://93.184.216.34/push/send/abc123"  # a public address literal: no DNS needed
    keys = {"p256dh": b64(point), "auth": b64(os.urandom(16))}
    page = new_page()
    page.context.grant_permissions(["notifications"])
    page.add_init_script(FAKE_PUSH.replace("ENDPOINT", json.dumps(endpoint)).replace("KEYS", json.dumps(keys)))
    player = open_settings(page, web_server, "Pia")
    toggle = page.get_by_label("Push notifications on this browser")
    expect(toggle).to_be_enabled()
    toggle.click()
    expect(page.get_by_role("status").filter(has_text="on for this browser")).to_be_visible()
    expect(toggle).to_be_checked()
    # the page subscribed with the server's VAPID key, decoded from base64url
    sent_key = bytes(page.evaluate("window.__subscribeKey"))
    assert sent_key == base64.urlsafe_b64decode(push_and_mail + "=" * (-len(push_and_mail) % 4))
    sub_id = hashlib.sha256(endpoint.encode()).hexdigest()[:16]
    assert settings_of(web_server, player["token"])["push"]["subscriptions"] == [sub_id]
    expect(page.get_by_text("1 browser of yours receives push notifications.")).to_be_visible()

    toggle.focus()
    page.keyboard.press("Space")  # off, by keyboard
    expect(page.get_by_role("status").filter(has_text="off for this browser")).to_be_visible()
    expect(toggle).not_to_be_checked()
    assert page.evaluate("window.__unsubscribed") == 1
    assert settings_of(web_server, player["token"])["push"]["subscriptions"] == []
