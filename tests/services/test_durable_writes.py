"""The durability rule for every acknowledged write (``services.infrastructure.durability``): a write request
answers 2xx only once its writes are on the replicas a command's append waits for; else 503
``write_not_durable`` with ``Retry-After``. And a registration under a client key is safe to send again.

The shortfall is real, not mocked: the test Redis has no replica, so ``WAIT 1`` times out with 0.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.adapters.api.durable import DurableWrites
from services.infrastructure.durability import Durability, WriteNotDurable
from services.infrastructure.eventstore import Keys
from services.infrastructure.players import Players, hash_secret

from .conftest import cleanup, real_redis
from .test_api import bearer

CLIENT_KEY = "k" * 10 + "_retry-safe-1234"


@pytest.fixture
def real(prefix):
    client = real_redis()
    yield client
    cleanup(client, prefix)


def api_on(client, settings, **overrides):
    return TestClient(create_app(client, settings.model_copy(update=overrides)))


def stored(client, settings, kind: str) -> list:
    return list(client.scan_iter(match=f"{settings.key_prefix}{kind}:*"))


@pytest.mark.integration
def test_writes_without_their_replica_are_refused_with_503_and_change_nothing(real, settings):
    with api_on(real, settings) as api:
        ann = api.post("/players", json={"name": "Ann"}).json()
    with pytest.raises(WriteNotDurable):
        Durability(real, replicas=1, timeout_ms=20, prefix=settings.key_prefix).confirm()
    with api_on(real, settings, append_replicas=1, append_replica_timeout_ms=20) as api:
        writes = [api.post("/players", json={"name": "Bob", "client_key": CLIENT_KEY}),
                  api.post("/players/me/token", headers=bearer(ann["token"])),
                  api.post("/players/me/recovery-code", headers=bearer(ann["token"])),
                  api.put("/players/me/notification-settings", headers=bearer(ann["token"]), json={})]
        for refused in writes:
            assert refused.status_code == 503, refused.text
            assert refused.json()["code"] == "write_not_durable" and refused.headers["Retry-After"].isdigit()
            assert "token" not in refused.json() and "recovery_code" not in refused.json()
        assert api.get("/players/me", headers=bearer(ann["token"])).status_code == 200  # reads are not held
    assert len(stored(real, settings, "player")) == 1 and len(stored(real, settings, "token")) == 1
    assert not stored(real, settings, "registration")
    # Not half-done: the secrets Ann holds still work.
    with api_on(real, settings) as api:
        recovered = api.post("/players/recover", json={"handle": ann["handle"], "recovery_code": ann["recovery_code"]})
        assert recovered.status_code == 200, recovered.text


class LosesItsReplicaMidway(Durability):
    """The replica answers the check before the write, and is gone by the one after it."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.checks = 0

    def confirm(self) -> None:
        self.checks += 1
        if self.checks > 1:
            super().confirm()


@pytest.mark.integration
def test_a_write_whose_replica_is_lost_is_not_acknowledged_and_its_keyed_retry_answers_the_same(real, settings):
    app = create_app(real, settings)
    durability = LosesItsReplicaMidway(real, replicas=1, timeout_ms=20, prefix=settings.key_prefix)
    (ours,) = [m for m in app.user_middleware if m.cls is DurableWrites]
    ours.kwargs["durability"] = durability
    with TestClient(app) as api:
        refused = api.post("/players", json={"name": "Ann", "client_key": CLIENT_KEY})
    assert durability.checks == 2 and refused.status_code == 503, refused.text
    assert refused.json()["code"] == "write_not_durable" and "token" not in refused.json()
    # The registration reached the master; the client retries under its key once replicas are back.
    with api_on(real, settings) as api:
        first = api.post("/players", json={"name": "Ann", "client_key": CLIENT_KEY})
        again = api.post("/players", json={"name": "Ann", "client_key": CLIENT_KEY})
        assert first.status_code == again.status_code == 201, (first.text, again.text)
        assert first.json() == again.json()
        assert api.get("/players/me", headers=bearer(first.json()["token"])).json()["name"] == "Ann"
    assert len(stored(real, settings, "player")) == 1, "the retried registration made a second account"


def test_a_retried_registration_answers_the_same_player_only_to_the_key_holder(fake_client, prefix):
    players = Players(fake_client, Keys(prefix, 4))
    first = players.register("Ann", None, CLIENT_KEY)
    assert players.register("Ann", None, CLIENT_KEY) == first
    other = players.register("Ann", None, CLIENT_KEY + "x")
    assert other.player.player_id != first.player.player_id
    stored = fake_client.get(Keys(prefix, 4).registration(hash_secret(CLIENT_KEY)))
    assert stored and first.token.encode() not in stored and first.recovery_code.encode() not in stored
    with pytest.raises(Exception) as reused:
        players.register("Bob", None, CLIENT_KEY)
    assert getattr(reused.value, "code", None) == "client_key_reused"
    players.rotate_token(first.player.player_id, first.token)
    with pytest.raises(Exception) as used:  # the old token no longer works: never answered again
        players.register("Ann", None, CLIENT_KEY)
    assert getattr(used.value, "code", None) == "client_key_used"


def test_a_half_done_keyed_registration_is_finished_by_its_retry(fake_client, prefix):
    keys = Keys(prefix, 4)
    players = Players(fake_client, keys)
    first = players.register("Ann", "ann_x", CLIENT_KEY)
    fake_client.delete(keys.token(hash_secret(first.token)))  # the first try stopped before its token
    assert players.principal(first.token) is None
    assert players.register("Ann", "ann_x", CLIENT_KEY) == first
    assert players.principal(first.token) == {"kind": "player", "player_id": first.player.player_id}


def test_a_refused_keyed_registration_frees_its_key(fake_client, prefix):
    players = Players(fake_client, Keys(prefix, 4))
    players.register("Bob", "taken_one")
    with pytest.raises(Exception) as taken:
        players.register("Ann", "taken_one", CLIENT_KEY)
    assert getattr(taken.value, "code", None) == "handle_taken"
    assert players.register("Ann", "free_one", CLIENT_KEY).player.handle == "free_one"


def test_one_server_without_replicas_or_waitaof_waits_for_nothing(fake_client):
    durability = Durability(fake_client)
    assert not durability.waits
    durability.confirm()


def test_a_retried_rotation_answers_the_same_token_to_the_holder_of_its_key_only(fake_client, prefix):
    players = Players(fake_client, Keys(prefix, 4))
    ann = players.register("Ann")
    key = "rotation-key-0123456789"
    token = players.rotate_token(ann.player.player_id, ann.token, key)
    assert players.principal(ann.token) is None  # the old token stopped working at once
    assert players.rotated(ann.token, key) == token
    assert players.rotated(ann.token, key + "x") is None and players.rotated(token, key) is None
    players.rotate_token(ann.player.player_id, token)  # rotated again since: the first answer is stale
    assert players.rotated(ann.token, key) is None


def test_rotation_over_http_with_an_idempotency_key(api):
    ann = api.post("/players", json={"name": "Ann"}).json()
    headers = {**bearer(ann["token"]), "Idempotency-Key": "rotation-key-0123456789"}
    first = api.post("/players/me/token", headers=headers)
    again = api.post("/players/me/token", headers=headers)  # its answer lost: sent again with the old token
    assert first.status_code == again.status_code == 201 and first.json() == again.json(), again.text
    assert api.post("/players/me/token", headers=bearer(ann["token"])).json()["code"] == "unauthorized"
