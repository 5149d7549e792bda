"""A write refused for durability is never half-done (issue 40): when the replica is lost between the write and
its durability check, the answer is a 503 and the write is either taken back (an unkeyed chat message) or
idempotent, so the client's retry answers the outcome of the refused try and makes no second one (a keyed chat
message, an invitation, a recovery code, a report, a block). The lost replica is simulated: the check before
the route passes, the one after it fails (``WriteNotDurable``), as a ``WAIT`` that timed out would."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.adapters.api.durable import DurableWrites
from services.infrastructure.durability import Durability, WriteNotDurable
from tests.services.social.test_social_api import two_player_game
from tests.services.test_api import bearer, wait_for
from tests.services.test_identity import register


class LosesTheReplica(Durability):
    """Writes are durable, except that once ``lose()`` is called the next write request's check after its
    route (the second check from then on) fails."""

    def __init__(self, client) -> None:
        super().__init__(client, replicas=1)
        self.armed: int | None = None
        self.refused = 0

    def lose(self) -> None:
        self.armed = 0

    def confirm(self) -> None:
        if self.armed is None:
            return
        self.armed += 1
        if self.armed == 2:
            self.armed, self.refused = None, self.refused + 1
            raise WriteNotDurable("simulated: 0 of 1 replicas confirmed the write within 1000 ms")


@pytest.fixture
def flaky(service, clients, settings, clock):
    queue = getattr(clients, "queue", clients)
    client = clients()
    app = create_app(client, settings, queue_client=queue(), clock=clock)
    durability = LosesTheReplica(client)
    (ours,) = [m for m in app.user_middleware if m.cls is DurableWrites]
    ours.kwargs["durability"] = durability
    with TestClient(app) as api:
        yield api, durability


def refused(answer) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.json()["code"] == "write_not_durable" and answer.headers["Retry-After"].isdigit()


def chat_texts(api, gid: str) -> list[str]:
    return [m["text"] for m in api.get(f"/games/{gid}/chat").json()["messages"]]


@pytest.mark.cluster  # the message and the record of its answer are written in one slot
def test_a_keyed_chat_message_is_written_once_whatever_the_retries(flaky) -> None:
    api, durability = flaky
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = two_player_game(api, ann, bob)
    headers = {**bearer(ann["token"]), "Idempotency-Key": "chat-key-0123456789abcdef"}
    durability.lose()
    refused(api.post(f"/games/{gid}/chat", headers=headers, json={"text": "hello"}))
    again = api.post(f"/games/{gid}/chat", headers=headers, json={"text": "hello"})
    once_more = api.post(f"/games/{gid}/chat", headers=headers, json={"text": "hello"})
    assert again.status_code == once_more.status_code == 201, again.text
    assert again.json() == once_more.json()
    assert chat_texts(api, gid) == ["hello"]
    other = api.post(f"/games/{gid}/chat", headers=headers, json={"text": "something else"})
    assert (other.status_code, other.json()["code"]) == (409, "idempotency_key_reused")
    # another player's key of the same letters is another request
    bobs = api.post(f"/games/{gid}/chat", headers={**bearer(bob["token"]), "Idempotency-Key": headers["Idempotency-Key"]},
                    json={"text": "hello"})
    assert bobs.status_code == 201 and bobs.json()["id"] != again.json()["id"]


def test_an_unkeyed_chat_message_refused_for_durability_is_taken_back(flaky) -> None:
    api, durability = flaky
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = two_player_game(api, ann, bob)
    durability.lose()
    refused(api.post(f"/games/{gid}/chat", headers=bearer(ann["token"]), json={"text": "lost in the failover"}))
    assert durability.refused == 1
    assert chat_texts(api, gid) == []
    assert api.post(f"/games/{gid}/chat", headers=bearer(ann["token"]), json={"text": "again"}).status_code == 201
    assert chat_texts(api, gid) == ["again"]


def test_a_refused_invitation_retried_reserves_one_seat(flaky) -> None:
    api, durability = flaky
    ann, bob = register(api, "Ann"), register(api, "Bob")
    made = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 3}, "seats": [{"me": True}, {}, {}]}).json()
    gid = made["game_id"]
    durability.lose()
    refused(api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]), json={"handle": bob["handle"]}))
    again = api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]), json={"handle": bob["handle"]})
    assert again.status_code == 201, again.text
    assert again.json()["seat"] == 1 and again.json()["invitee"]["player_id"] == bob["player_id"]
    seats = wait_for(api, f"/games/{gid}", until=lambda b: b["seats"][1].get("invited"))["seats"]
    assert [bool(s.get("invited")) for s in seats] == [False, True, False]
    # naming another seat for the same player is a real second request, which the rules refuse
    second = api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]), json={"handle": bob["handle"], "seat": 2})
    assert second.json()["code"] == "already_invited"


def test_a_refused_recovery_code_retried_under_its_key_answers_the_same_code(flaky) -> None:
    api, durability = flaky
    ann = register(api, "Ann")
    headers = {**bearer(ann["token"]), "Idempotency-Key": "recovery-key-0123456789"}
    durability.lose()
    refused(api.post("/players/me/recovery-code", headers=headers))
    code = api.post("/players/me/recovery-code", headers=headers).json()["recovery_code"]
    assert api.post("/players/me/recovery-code", headers=headers).json()["recovery_code"] == code
    fresh = api.post("/players/me/recovery-code", headers={**headers, "Idempotency-Key": "another-key-0123456789"})
    assert fresh.json()["recovery_code"] != code  # a new key is a new code; the one before stops working
    recovered = api.post("/players/recover", json={"handle": ann["handle"], "recovery_code": fresh.json()["recovery_code"]})
    assert recovered.status_code == 200, recovered.text
    # spent: the old key answers a new code now, never the spent one
    assert api.post("/players/me/recovery-code", headers={**bearer(recovered.json()["token"]),
                                                          "Idempotency-Key": "another-key-0123456789"}
                    ).json()["recovery_code"] != fresh.json()["recovery_code"]


def test_reports_and_blocks_refused_then_retried_are_one(flaky) -> None:
    api, durability = flaky
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = two_player_game(api, ann, bob)
    said = api.post(f"/games/{gid}/chat", headers=bearer(bob["token"]), json={"text": "rude"}).json()
    body = {"message_id": said["id"], "reason": "rude"}
    durability.lose()
    refused(api.post(f"/games/{gid}/chat/reports", headers=bearer(ann["token"]), json=body))
    again = api.post(f"/games/{gid}/chat/reports", headers=bearer(ann["token"]), json=body)
    assert again.status_code == 201 and not again.json()["created"]  # the refused try's report, not a second
    ctx = api.app.state.context
    assert ctx.redis.hlen(ctx.keys.chat_reports(gid)) == 1
    durability.lose()
    refused(api.post("/players/me/blocks", headers=bearer(ann["token"]), json={"player_id": bob["player_id"]}))
    blocks = api.post("/players/me/blocks", headers=bearer(ann["token"]), json={"player_id": bob["player_id"]})
    assert [p["player_id"] for p in blocks.json()["blocked"]] == [bob["player_id"]]


def test_a_refused_vacation_retried_is_the_same_vacation(flaky) -> None:
    api, durability = flaky
    ann = register(api, "Ann")
    durability.lose()
    refused(api.post("/players/me/vacation", headers=bearer(ann["token"]), json={"days": 3}))
    again = api.post("/players/me/vacation", headers=bearer(ann["token"]), json={"days": 3})
    assert again.status_code == 201, again.text
    status = api.get("/players/me/vacation", headers=bearer(ann["token"])).json()
    assert status == again.json()
    # another length while one runs is a new request, refused as before
    other = api.post("/players/me/vacation", headers=bearer(ann["token"]), json={"days": 5})
    assert other.status_code == 422 and other.json()["code"] == "illegal_move", other.text


def test_a_refused_recovery_retried_under_its_key_answers_the_same_credentials(flaky) -> None:
    api, durability = flaky
    ann = register(api, "Ann")
    body = {"handle": ann["handle"], "recovery_code": ann["recovery_code"]}
    key = {"Idempotency-Key": "spend-key-0123456789abc"}
    durability.lose()
    refused(api.post("/players/recover", headers=key, json=body))  # spent, but the answer never reached Ann
    again = api.post("/players/recover", headers=key, json=body)
    assert again.status_code == 200, again.text
    assert api.post("/players/recover", headers=key, json=body).json() == again.json()
    assert api.get("/players/me", headers=bearer(again.json()["token"])).status_code == 200
    assert api.get("/players/me", headers=bearer(ann["token"])).status_code == 401  # the lost token stays revoked
    # without the key, or under another, the spent code is refused as before
    for headers in ({}, {"Idempotency-Key": "another-key-0123456789"}):
        other = api.post("/players/recover", headers=headers, json=body)
        assert (other.status_code, other.json()["code"]) == (401, "invalid_recovery_code"), other.text
    # once the new code is spent in turn, the old key no longer answers credentials that stopped working
    spent_again = api.post("/players/recover", json={"handle": ann["handle"],
                                                    "recovery_code": again.json()["recovery_code"]})
    assert spent_again.status_code == 200
    assert api.post("/players/recover", headers=key, json=body).json()["code"] == "invalid_recovery_code"


def test_a_refused_game_creation_retried_under_its_key_is_one_game(flaky) -> None:
    api, durability = flaky
    ann = register(api, "Ann")
    headers = {**bearer(ann["token"]), "Idempotency-Key": "create-key-0123456789ab"}
    body = {"game": "counter", "options": {"target": 3}, "seats": [{"me": True}, {"name": "Guest"}, {}]}
    durability.lose()
    refused(api.post("/games", headers=headers, json=body))
    again = api.post("/games", headers=headers, json=body)
    assert again.status_code == 201, again.text
    once_more = api.post("/games", headers=headers, json=body)
    assert once_more.json()["game_id"] == again.json()["game_id"]
    lobby = wait_for(api, "/lobby", until=lambda b: any(g["game_id"] == again.json()["game_id"] for g in b["open"]))
    assert [g["game_id"] for g in lobby["open"] if g.get("creator") == ann["player_id"]] == [again.json()["game_id"]]
    token = again.json()["seats"][1]["token"]  # the guest's seat token, issued anew, works
    assert api.get(f"/games/{again.json()['game_id']}/view", headers=bearer(token)).status_code == 200
    # another key (or none) is another game
    other = api.post("/games", headers={**headers, "Idempotency-Key": "create-key-another-01234"}, json=body)
    assert other.status_code == 201 and other.json()["game_id"] != again.json()["game_id"]


def test_a_player_whose_join_was_refused_and_retried_holds_the_one_seat(flaky) -> None:
    api, durability = flaky
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 3}, "seats": [{"me": True}, {}, {}]}).json()["game_id"]
    durability.lose()
    refused(api.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={}))
    again = api.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={})
    assert again.status_code == 200, again.text
    seats = wait_for(api, f"/games/{gid}", until=lambda b: b["seats"][1].get("player_id"))["seats"]
    assert again.json()["seat"] == 1 and [s.get("player_id") for s in seats] == [ann["player_id"], bob["player_id"], None]
    # asking for another seat is a real second request, which the rules refuse (one seat each)
    second = api.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={"seat": 2})
    assert second.json()["code"] == "already_seated", second.text
