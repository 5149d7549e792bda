"""Webhooks to this machine: refused by default, admitted by the development setting (and only this machine)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from domain.core import InvalidCommand
from services.adapters.api.app import create_app
from services.application.notifications.notify import deliver_webhook, verify_signature
from services.infrastructure.settings import Settings, jobs_run_with

from .test_notifications import url_of


def app_with(client, prefix: str, **flags: bool) -> TestClient:  # type: ignore[no-untyped-def]
    return TestClient(create_app(client, Settings(redis_url=None, key_prefix=prefix, shards=4, **flags),
                                 getattr(client, "taproom_queue", None)))


def player_token(http: TestClient) -> dict[str, str]:
    token = http.post("/players", json={"name": "Dev"}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def test_loopback_webhooks_are_refused_unless_the_development_setting_is_on(client, prefix) -> None:  # type: ignore[no-untyped-def]
    assert Settings(redis_url=None).webhook_allow_loopback is False  # off by default
    with app_with(client, prefix) as http:
        refused = http.put("/players/me/webhook", headers=player_token(http), json={"url": "http://127.0.0.1:9/h"})
        assert refused.status_code == 422 and refused.json()["code"] == "invalid_command"
        assert "TAPROOM_WEBHOOK_ALLOW_LOOPBACK" in refused.json()["message"]
    with app_with(client, prefix, webhook_allow_loopback=True) as http:
        me = player_token(http)
        for url in ("http://127.0.0.1:8765/h", "http://localhost:8765/h", "http://[::1]:8765/h"):
            created = http.put("/players/me/webhook", headers=me, json={"url": url})
            assert created.status_code == 201, (url, created.text)
        for url in ("http://10.1.2.3/h", "http://192.168.0.7/h", "http://169.254.169.254/latest"):
            still = http.put("/players/me/webhook", headers=me, json={"url": url})
            assert still.status_code == 422, url  # only this machine: private networks and metadata stay out


def test_a_delivery_reaches_a_local_receiver_with_the_setting_on(client, prefix, receiver) -> None:  # type: ignore[no-untyped-def]
    with app_with(client, prefix, webhook_allow_loopback=True) as http:
        me = player_token(http)
        secret = http.put("/players/me/webhook", headers=me, json={"url": url_of(receiver)}).json()["secret"]
        player_id = http.get("/players/me", headers=me).json()["player_id"]
    body = '{"kind": "your_turn"}'
    # the job checks again, with its worker's settings: without the setting, no request leaves
    with jobs_run_with(Settings(redis_url=None, key_prefix=prefix, shards=4)), pytest.raises(InvalidCommand):
        deliver_webhook(player_id, body, "d1", "your_turn", connection=client)
    assert receiver.received == []
    with jobs_run_with(Settings(redis_url=None, key_prefix=prefix, shards=4, webhook_allow_loopback=True)):
        result = deliver_webhook(player_id, body, "d1", "your_turn", connection=client)
    assert result["status"] == 200
    headers, received = receiver.received[0]
    assert verify_signature(secret, received, headers["X-Taproom-Signature"])
