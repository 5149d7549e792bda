"""One command id, one outcome, forever: a rejected id sent again stays rejected and changes nothing
(at the processor and through HTTP; fakeredis, then the real Redis)."""

from __future__ import annotations

import orjson
import pytest

from domain.core import register
from services.adapters.processor import Processor

from .helpers import Kernel
from .test_api import bearer, new_game, wait_for
from .test_processor import PoisonGame


@pytest.fixture
def kernel(client, settings):
    return Kernel(client, settings)


def added(kernel, gid):
    return sum(1 for e in kernel.store.read(gid) if e.type == "Added")


def test_a_rejected_id_sent_again_on_its_own_turn_stays_rejected(kernel):
    gid = kernel.create(seats=2)
    first = kernel.add(gid, 1, command_id="later-1")  # out of turn
    assert (first.status, first.code) == ("rejected", "not_your_turn")
    assert kernel.add(gid, 0).accepted  # now it is seat 1's turn
    head = kernel.store.head(gid)
    again = kernel.add(gid, 1, command_id="later-1")
    assert again == first  # the same outcome, word for word
    assert kernel.store.head(gid) == head and added(kernel, gid) == 1
    assert kernel.store.rejection(gid, "later-1")["code"] == "not_your_turn"
    assert kernel.add(gid, 1, command_id="later-2").accepted  # a new id is decided on its own


def test_a_rejected_id_repeated_later_in_the_same_batch_stays_rejected(kernel):
    gid = kernel.create(seats=2)
    kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=1, actor="t", command_id="later-1")
    kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t", command_id="turn-0")
    kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=1, actor="t", command_id="later-1")
    kernel.pump()  # one batch: the repeat comes after seat 0's move made it seat 1's turn
    assert kernel.bus.outcome(gid, "later-1").code == "not_your_turn"
    assert kernel.bus.outcome(gid, "turn-0").accepted
    assert added(kernel, gid) == 1 and kernel.store.head(gid)[0] == 5


def test_a_rejected_id_stays_rejected_after_its_outcome_key_expired(kernel, client):
    gid = kernel.create(seats=2)
    assert kernel.add(gid, 1, command_id="later-1").code == "not_your_turn"
    kernel.add(gid, 0)
    client.delete(kernel.keys.outcome(gid, "later-1"))  # as if its TTL ran out
    assert kernel.bus.outcome(gid, "later-1").code == "not_your_turn"
    assert kernel.add(gid, 1, command_id="later-1").code == "not_your_turn"
    assert client.exists(kernel.keys.outcome(gid, "later-1"))  # answered again, for the waiting client
    assert added(kernel, gid) == 1


def test_an_applied_id_is_answered_from_its_record_after_its_outcome_key_expired(kernel, client):
    gid = kernel.create(seats=2)
    first = kernel.add(gid, 0, command_id="m1")
    client.delete(kernel.keys.outcome(gid, "m1"))
    assert kernel.bus.outcome(gid, "m1") == first
    assert kernel.add(gid, 0, command_id="m1") == first and added(kernel, gid) == 1


def test_a_processor_on_a_stale_record_cannot_reject_what_the_log_accepts(kernel):
    """A rejection is checked against the version it was decided on, like an append."""
    gid = kernel.create(seats=2)
    kernel.processor.repo.current(gid)  # cached at version 3: seat 0 to act
    rogue = Processor(kernel.client, kernel.settings, name="rogue")  # another writer moves the log
    assert rogue.process({"game_id": gid, "command_id": "r0", "seat": 0, "actor": "t",
                          "command": {"type": "Add", "amount": 1}}).status == "accepted"
    outcome = kernel.add(gid, 1, command_id="b1")  # rejected on the cached record, refused, decided again
    assert outcome.accepted and outcome.version == 7
    assert kernel.store.rejection(gid, "b1") is None


def test_a_rejection_is_stored_with_its_ack_in_one_step(kernel, client):
    gid = kernel.create(seats=2)
    command_id = kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=1, actor="t")
    stream = kernel.keys.cmd_stream_for(gid)
    kernel.processor.leases.refresh(force=True)
    kernel.processor._ensure_group(kernel.keys.shard(gid))
    entry_id, fields = client.xreadgroup("processors", "p1", {stream: ">"}, count=10)[0][1][0]
    assert kernel.processor.process(orjson.loads(fields[b"m"]), ack=(stream, entry_id)) is None
    assert client.xpending(stream, "processors")["pending"] == 0
    assert kernel.bus.outcome(gid, command_id).code == "not_your_turn"


def test_a_dead_lettered_id_stays_set_aside(kernel, client):
    register(PoisonGame())
    gid = "poisoned-again"
    assert kernel.send(gid, {"type": "taproom.CreateGame", "game": "poison", "options": {}, "seats": [{"name": "a"}],
                             "seed_commitment": ""}).accepted
    first = kernel.send(gid, {"type": "Explode"}, seat=0, command_id="bad")
    assert first.code == "internal_error"
    again = kernel.send(gid, {"type": "Explode"}, seat=0, command_id="bad")  # not decided (nor crashed) again
    assert again == first
    assert len(client.xrange(kernel.keys.dead_letters(kernel.keys.shard(gid)))) == 1


def test_through_http_a_rejected_id_stays_rejected(api):
    game = new_game(api)
    gid = game["game_id"]
    ann, bob = (s["token"] for s in game["seats"])
    wait_for(api, f"/games/{gid}/view", bearer(ann), lambda b: b.get("version", 0) >= 3)
    late = {"type": "Add", "amount": 1, "command_id": "later-1"}
    first = api.post(f"/games/{gid}/commands", headers=bearer(bob), json=late)
    assert first.status_code == 409 and first.json()["code"] == "not_your_turn"
    assert api.post(f"/games/{gid}/commands", headers=bearer(ann),
                    json={"type": "Add", "amount": 1, "command_id": "a1"}).status_code == 200
    again = api.post(f"/games/{gid}/commands", headers=bearer(bob), json=late)  # now on bob's turn
    assert again.status_code == 409 and again.json() == first.json()
    polled = api.get(f"/games/{gid}/commands/later-1", headers=bearer(bob))
    assert polled.status_code == 409 and polled.json()["code"] == "not_your_turn"
    history = api.get(f"/games/{gid}/events", headers=bearer(bob)).json()
    assert history["events"][-1]["version"] == 5
    assert sum(1 for e in history["events"] if e["type"] == "Added") == 1
    fresh = api.post(f"/games/{gid}/commands", headers=bearer(bob), json={**late, "command_id": "later-2"})
    assert fresh.status_code == 200 and fresh.json()["version"] == 7


def test_the_append_script_records_a_rejection_once_and_refuses_to_apply_its_id(client, prefix):
    from services.infrastructure.eventstore import GENESIS_HASH, EventStore, Keys
    from services.infrastructure.eventstore.store import AppendRequest

    from .test_eventstore import _envelopes

    store = EventStore(client, Keys(prefix, 4))
    envs = _envelopes("g1", 0, GENESIS_HASH, 2, "c1")
    store.append("g1", 0, "c1", {"from_version": 0, "to_version": 2}, envs)
    no = {"status": "rejected", "command_id": "c2", "game_id": "g1", "code": "not_your_turn", "message": "wait"}

    def reject(version: int, head: str) -> str:
        return store.append_many([AppendRequest("g1", version, "c2", no, [], orjson.dumps(no), 60, None,
                                                reject=True, prev_hash=head)])[0].status

    assert reject(1, envs[0].hash) == "stale"  # decided on an old version: decide again
    assert reject(2, "f" * 64) == "chain"
    assert store.rejection("g1", "c2") is None
    assert reject(2, envs[-1].hash) == "ok" and store.rejection("g1", "c2") == no
    applied = store.append("g1", 2, "c2", {"from_version": 2, "to_version": 3}, _envelopes("g1", 2, envs[-1].hash, 1, "c2"))
    assert applied.status == "refused" and applied.record == no
    assert store.head("g1")[0] == 2 and store.command_record("g1", "c2") is None


def _over_time(api, client) -> None:
    """Time passes: every key of the service with a time to live lapses (a day, a week: whatever it was)."""
    for key in client.scan_iter(match="*"):
        if client.ttl(key) > 0:
            client.delete(key)


def test_through_http_no_expiry_changes_the_answer_to_an_id(api, clients):
    """A rejected id re-sent with another body once the body record lapsed took the record over (issue 37):
    the answers to both bodies must stay what they were, however long ago the id was first used."""
    client = clients()
    game = new_game(api)
    gid = game["game_id"]
    ann, bob = (s["token"] for s in game["seats"])
    wait_for(api, f"/games/{gid}/view", bearer(ann), lambda b: b.get("version", 0) >= 3)
    late = {"type": "Add", "amount": 1, "command_id": "later-1"}
    first = api.post(f"/games/{gid}/commands", headers=bearer(bob), json=late)
    assert first.json()["code"] == "not_your_turn"
    other = api.post(f"/games/{gid}/commands", headers=bearer(bob), json={**late, "amount": 2})
    assert other.json()["code"] == "command_id_reused"
    _over_time(api, client)
    assert api.post(f"/games/{gid}/commands", headers=bearer(bob), json={**late, "amount": 2}).json() == other.json()
    assert api.post(f"/games/{gid}/commands", headers=bearer(bob), json=late).json() == first.json()


def test_through_http_a_malformed_command_uses_its_id_for_good(api, clients):
    """Decided: a request refused as malformed (not a command of this game: 422 ``invalid_command``) under a
    command id uses the id, like a rejected command; re-sent it gets the same 422, and no other body is
    ever accepted under it (409 ``command_id_reused``), however long after."""
    client = clients()
    game = new_game(api)
    gid = game["game_id"]
    ann = game["seats"][0]["token"]
    wait_for(api, f"/games/{gid}/view", bearer(ann), lambda b: b.get("version", 0) >= 3)
    malformed = {"type": "Add", "amount": "lots", "command_id": "m-1"}
    first = api.post(f"/games/{gid}/commands", headers=bearer(ann), json=malformed)
    assert (first.status_code, first.json()["code"]) == (422, "invalid_command"), first.text
    assert api.post(f"/games/{gid}/commands", headers=bearer(ann), json=malformed).json() == first.json()
    fixed = api.post(f"/games/{gid}/commands", headers=bearer(ann), json={**malformed, "amount": 1})
    assert (fixed.status_code, fixed.json()["code"]) == (409, "command_id_reused"), fixed.text
    polled = api.get(f"/games/{gid}/commands/m-1", headers=bearer(ann))
    assert (polled.status_code, polled.json()["code"]) == (422, "invalid_command")
    _over_time(api, client)
    assert api.post(f"/games/{gid}/commands", headers=bearer(ann), json={**malformed, "amount": 1}).json() == fixed.json()
    assert api.get(f"/games/{gid}/view", headers=bearer(ann)).json()["version"] == 3  # nothing applied
