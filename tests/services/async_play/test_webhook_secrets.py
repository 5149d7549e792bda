"""Webhook secrets are encrypted at rest with server keys, rotate, and older plain-text ones migrate
(issue 16, item 6)."""

from __future__ import annotations

import json

import pytest
import redis
from click.testing import CliRunner
from fastapi.testclient import TestClient

from services.application.notifications.notify import Webhooks, deliver_webhook
from services.infrastructure.eventstore import Keys
from services.infrastructure.secretbox import InvalidToken, SecretBox, SecretsUnavailable, new_key, secret_box
from services.infrastructure.settings import Settings, jobs_run_with

URL = "http://127.0.0.1:9/hook"


@pytest.fixture
def keys(prefix: str) -> Keys:
    return Keys(prefix, 4)


def stored_values(client: redis.Redis, keys: Keys) -> list[bytes]:
    return [v for key in client.scan_iter(match=f"{keys.prefix}*") if client.type(key) == b"hash"
            for v in client.hgetall(key).values()]


def test_the_secret_is_stored_encrypted_and_read_back(client, keys):
    box = SecretBox([new_key().encode()])
    secret = Webhooks(client, keys, box).register("alice", URL, allow_private=True)
    assert not any(secret.encode() in value for value in stored_values(client, keys))
    assert Webhooks(client, keys, box).get("alice") == (URL, secret)
    assert Webhooks(client, keys, SecretBox([new_key().encode()])).url("alice") == URL  # the URL needs no key
    with pytest.raises(InvalidToken):
        Webhooks(client, keys, SecretBox([new_key().encode()])).get("alice")


def test_keys_rotate_without_losing_a_secret(client, keys):
    old, new = new_key().encode(), new_key().encode()
    secret = Webhooks(client, keys, SecretBox([old])).register("alice", URL, allow_private=True)
    both = Webhooks(client, keys, SecretBox([new, old]))
    assert both.get("alice") == (URL, secret)  # the new key first, the old one still opens
    assert both.reencrypt_all() == {"resealed": 1, "encrypted": 0, "unreadable": 0}
    assert Webhooks(client, keys, SecretBox([new])).get("alice") == (URL, secret)  # the old key can go
    with pytest.raises(InvalidToken):
        Webhooks(client, keys, SecretBox([old])).get("alice")


def test_plain_text_secrets_of_older_versions_are_encrypted(client, keys):
    for player in ("bob", "cat"):
        client.hset(keys.webhook(player), mapping={"url": URL, "secret": f"plain-{player}", "created": 1.0})
    hooks = Webhooks(client, keys, SecretBox([new_key().encode()]))
    assert hooks.get("bob") == (URL, "plain-bob")  # still delivers, and is encrypted on that first read
    assert client.hget(keys.webhook("bob"), "secret") is None
    assert hooks.reencrypt_all() == {"resealed": 1, "encrypted": 1, "unreadable": 0}
    assert not any(b"plain-" in value for value in stored_values(client, keys))
    assert hooks.get("cat") == (URL, "plain-cat")


def test_a_secret_no_key_opens_is_skipped_not_retried(client, keys, monkeypatch):
    Webhooks(client, keys, SecretBox([new_key().encode()])).register("alice", URL, allow_private=True)
    monkeypatch.setattr("services.application.notifications.notify.get_settings",
                        lambda: Settings(redis_url=None, webhook_secret_keys=new_key()))
    with jobs_run_with(Settings(redis_url=None, key_prefix=keys.prefix, shards=keys.shards,
                                webhook_allow_private=True)):
        result = deliver_webhook("alice", "{}", "d1", "your_turn", connection=client)
    assert result == {"skipped": "secret unreadable"}


def test_keys_are_required_on_a_shared_redis_and_checked_at_start():
    with pytest.raises(SecretsUnavailable):
        secret_box(Settings(redis_url="redis://127.0.0.1:6379/13"))
    assert secret_box(Settings(redis_url=None)) is secret_box(Settings(redis_url=None))  # one key per process
    with pytest.raises(ValueError, match="Fernet key"):
        Settings(webhook_secret_keys="not-a-key")


def test_registering_over_http_without_keys_on_a_shared_redis_is_refused(fake_client, settings):
    from services.adapters.api.app import create_app

    shared = settings.model_copy(update={"redis_url": "redis://127.0.0.1:6379/13", "webhook_allow_private": True})
    app = create_app(fake_client, shared)
    app.state.async_settings = shared
    with TestClient(app) as api:
        token = api.post("/players", json={"name": "ann"}).json()["token"]
        r = api.put("/players/me/webhook", headers={"Authorization": f"Bearer {token}"}, json={"url": URL})
        assert (r.status_code, r.json()["code"]) == (503, "unavailable")
        keyed = shared.model_copy(update={"webhook_secret_keys": Settings(webhook_secret_keys=new_key())
                                          .webhook_secret_keys})
        app.state.async_settings = keyed
        r = api.put("/players/me/webhook", headers={"Authorization": f"Bearer {token}"}, json={"url": URL})
        assert r.status_code == 201, r.text
        assert api.get("/players/me/webhook", headers={"Authorization": f"Bearer {token}"}).json()["url"] == URL
    assert not any(r.json()["secret"].encode() in v for v in stored_values(fake_client, Keys(settings.key_prefix)))


@pytest.mark.integration
def test_the_cli_reencrypts_under_the_newest_key(prefix, monkeypatch):
    from tests.services.conftest import REAL_URL, cleanup, real_redis

    client = real_redis()
    keys = Keys(prefix, 16)
    old, new = new_key(), new_key()
    try:
        secret = Webhooks(client, keys, SecretBox([old.encode()])).register("alice", URL, allow_private=True)
        client.hset(keys.webhook("bob"), mapping={"url": URL, "secret": "plain"})
        monkeypatch.setenv("REDIS_URL", REAL_URL)
        monkeypatch.setenv("TAPROOM_KEY_PREFIX", prefix)
        monkeypatch.setenv("TAPROOM_WEBHOOK_SECRET_KEYS", f"{new},{old}")
        from services.adapters.cli.main import cli
        from services.infrastructure.settings import get_settings

        get_settings.cache_clear()
        try:
            result = CliRunner().invoke(cli, ["webhooks", "reencrypt"])
        finally:
            get_settings.cache_clear()
        assert result.exit_code == 0, result.output
        assert json.loads(result.output.strip().splitlines()[-1]) == {"resealed": 1, "encrypted": 1, "unreadable": 0}
        assert Webhooks(client, keys, SecretBox([new.encode()])).get("alice") == (URL, secret)
        assert Webhooks(client, keys, SecretBox([new.encode()])).get("bob") == (URL, "plain")
    finally:
        cleanup(client, prefix)
