"""Identity over HTTP: who am I, handles, token rotation and recovery (fakeredis, then the real Redis)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from domain.core import RuleError
from services.infrastructure.eventstore import Keys
from services.infrastructure.players import Players, check_handle, hash_secret

from .conftest import until_taken
from .test_api import bearer


def register(api, name: str, handle: str | None = None) -> dict:
    body = {"name": name} if handle is None else {"name": name, "handle": handle}
    response = until_taken(lambda: api.post("/players", json=body))
    assert response.status_code == 201, response.text
    return response.json()


def test_players_me_returns_the_typed_profile_of_the_caller(api):
    ann = register(api, "Ann", "ann_k")
    assert set(ann) == {"player_id", "name", "handle", "token", "recovery_code"}
    me = api.get("/players/me", headers=bearer(ann["token"]))
    assert me.status_code == 200, me.text
    body = me.json()
    assert body["player_id"] == ann["player_id"] and body["name"] == "Ann" and body["handle"] == "ann_k"
    assert abs(body["created"] - time.time()) < 600 and set(body) == {"player_id", "name", "handle", "created"}
    schema = api.get("/openapi.json").json()["paths"]["/players/me"]["get"]["responses"]["200"]
    assert "PlayerProfile" in str(schema)
    assert api.get("/players/me").json()["code"] == "unauthorized"
    seat_token = api.post("/games", json={"game": "counter", "options": {"target": 10},
                                          "seats": [{"name": "x"}, {"name": "y"}], "seed": "s"}).json()
    refused = api.get("/players/me", headers=bearer(seat_token["seats"][0]["token"]))
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"


def test_display_names_repeat_but_handles_are_unique_ignoring_case(api):
    first, second = register(api, "Ann"), register(api, "Ann")
    assert first["handle"] and second["handle"] and first["handle"].lower() != second["handle"].lower()
    register(api, "Bob", "Bobby_9")
    taken = api.post("/players", json={"name": "Other Bob", "handle": "bOBBY_9"})
    assert taken.status_code == 409 and taken.json()["code"] == "handle_taken"
    for bad in ("ab", "9lives", "has space", "x" * 21, "émile", "ME", "admin"):
        refused = api.post("/players", json={"name": "X", "handle": bad})
        assert refused.status_code == 422 and refused.json()["code"] == "invalid_handle", (bad, refused.text)
    found = api.get("/players/by-handle/BOBBY_9").json()
    assert found["handle"] == "Bobby_9" and found["name"] == "Bob"
    missing = api.get("/players/by-handle/nobody_here")
    assert missing.status_code == 404 and missing.json()["code"] == "player_not_found"


def test_a_handle_is_claimed_atomically(client, prefix):
    repo = Players(client, Keys(prefix, 4))

    def attempt(i: int) -> str | None:
        try:
            return repo.register(f"racer {i}", "Racer").player.player_id
        except RuleError as exc:
            assert exc.code == "handle_taken"
            return None

    with ThreadPoolExecutor(8) as pool:
        winners = [w for w in pool.map(attempt, range(16)) if w]
    assert len(winners) == 1
    assert repo.by_handle("RACER").player_id == winners[0]


def test_rotating_a_token_returns_a_new_one_and_revokes_the_old_at_once(api):
    ann = register(api, "Ann")
    rotated = api.post("/players/me/token", headers=bearer(ann["token"]))
    assert rotated.status_code == 201, rotated.text
    new = rotated.json()["token"]
    assert new != ann["token"]
    old = api.get("/players/me", headers=bearer(ann["token"]))
    assert old.status_code == 401 and old.json()["code"] == "unauthorized"
    assert api.get("/players/me", headers=bearer(new)).json()["player_id"] == ann["player_id"]
    newer = api.post("/players/me/token", headers=bearer(new)).json()["token"]
    assert api.get("/players/me", headers=bearer(new)).status_code == 401
    assert api.get("/players/me", headers=bearer(newer)).status_code == 200


def test_a_lost_token_is_replaced_with_the_recovery_code_once(api):
    ann = register(api, "Ann", "ann_r")
    wrong = api.post("/players/recover", json={"handle": "ann_r", "recovery_code": "AAAA-BBBB"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "invalid_recovery_code"
    assert api.get("/players/me", headers=bearer(ann["token"])).status_code == 200  # a wrong code changes nothing
    unknown = api.post("/players/recover", json={"handle": "nobody_x", "recovery_code": ann["recovery_code"]})
    assert unknown.status_code == 401 and unknown.json()["code"] == "invalid_recovery_code"

    typed = ann["recovery_code"].lower().replace("-", " ")  # as a person might type it
    recovered = api.post("/players/recover", json={"handle": "ANN_R", "recovery_code": typed})
    assert recovered.status_code == 200, recovered.text
    body = recovered.json()
    assert body["player_id"] == ann["player_id"] and body["token"] != ann["token"]
    assert body["recovery_code"] != ann["recovery_code"]
    assert api.get("/players/me", headers=bearer(ann["token"])).status_code == 401  # the lost token is dead
    assert api.get("/players/me", headers=bearer(body["token"])).json()["handle"] == "ann_r"
    again = api.post("/players/recover", json={"handle": "ann_r", "recovery_code": ann["recovery_code"]})
    assert again.status_code == 401  # a code works once

    replaced = api.post("/players/me/recovery-code", headers=bearer(body["token"])).json()["recovery_code"]
    stale = api.post("/players/recover", json={"handle": "ann_r", "recovery_code": body["recovery_code"]})
    assert stale.status_code == 401
    assert api.post("/players/recover", json={"handle": "ann_r", "recovery_code": replaced}).status_code == 200


def test_secrets_are_stored_only_as_hashes(client, prefix):
    keys = Keys(prefix, 4)
    made = Players(client, keys).register("Ann", "ann_h")
    stored = b" ".join(v for v in client.hgetall(keys.player(made.player.player_id)).values())
    assert made.token.encode() not in stored and made.recovery_code.encode() not in stored
    assert hash_secret(made.token).encode() in stored
    assert client.exists(keys.token(hash_secret(made.token))) and not client.exists(keys.token(made.token))


@pytest.mark.parametrize("name", ["Ann", "Émile Zola", "42", "!!!", "a" * 64])
def test_a_generated_handle_follows_the_rules(fake_client, name):
    made = Players(fake_client, Keys("t:", 4)).register(name)
    assert made.player.handle
    check_handle(made.player.handle)  # the same rules a chosen handle meets
