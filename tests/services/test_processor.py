"""The processor: idempotency, ordering, crash recovery, dead letters (fakeredis and real Redis)."""

from __future__ import annotations

import orjson
import pytest

from domain.core import Command, register
from services.adapters.processor import Processor
from tests.fixture_game import CounterGame

from .helpers import Kernel

pytestmark = pytest.mark.cluster  # the real-Redis variants run on the Redis Cluster too (tests/services/conftest.py)


@pytest.fixture
def kernel(client, settings):
    return Kernel(client, settings)


def test_create_then_play_in_order(kernel):
    gid = kernel.create(seats=2)
    assert kernel.add(gid, 0).accepted
    outcome = kernel.add(gid, 1, amount=2)
    assert outcome.accepted and outcome.version == 7
    assert [e.type for e in kernel.store.read(gid)][-2:] == ["Added", "CardDealt"]


def test_same_command_id_delivered_twice_yields_its_events_once(kernel):
    gid = kernel.create()
    first = kernel.add(gid, 0, command_id="dup-1")
    second = kernel.add(gid, 0, command_id="dup-1")  # e.g. a client retry after a timeout
    assert first.accepted and second.accepted and first.version == second.version == 5
    assert kernel.store.head(gid)[0] == 5
    assert sum(1 for e in kernel.store.read(gid) if e.type == "Added") == 1


def test_two_commands_expecting_the_same_version_one_is_stale(kernel):
    gid = kernel.create()
    version = kernel.store.head(gid)[0]
    ids = [kernel.bus.submit(gid, {"type": "Add", "amount": a}, seat=0, actor="t", expected_version=version)
           for a in (1, 2)]
    kernel.pump()
    outcomes = [kernel.bus.outcome(gid, i) for i in ids]
    assert outcomes[0].accepted
    assert not outcomes[1].accepted and outcomes[1].code == "stale_version"
    assert [e.version for e in kernel.store.read(gid)] == list(range(1, 6))  # no fork


def test_commands_without_expected_version_are_applied_in_order(kernel):
    gid = kernel.create(seats=1, target=100)
    ids = [kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t") for _ in range(5)]
    kernel.pump()
    versions = [kernel.bus.outcome(gid, i).version for i in ids]
    assert versions == [5, 7, 9, 11, 13]


def test_rejected_command_changes_nothing(kernel):
    gid = kernel.create()
    before = kernel.store.read(gid)
    wrong_turn = kernel.add(gid, 1)
    illegal = kernel.add(gid, 0, amount=9)
    unknown = kernel.send(gid, {"type": "Nope"}, seat=0)
    assert (wrong_turn.code, illegal.code, unknown.code) == ("not_your_turn", "illegal_move", "invalid_command")
    assert kernel.store.read(gid) == before


def test_unknown_game_is_rejected(kernel):
    outcome = kernel.add("nope", 0)
    assert not outcome.accepted and outcome.code == "game_not_found"


def test_processor_killed_before_the_append_loses_and_duplicates_nothing(kernel, client, settings):
    gid = kernel.create()

    class Killed(BaseException):
        """Not an Exception: stands for the process dying, not a bug in a command."""

    def die(game_id, command_id):
        raise Killed()

    kernel.processor.crash_hook = die
    command_id = kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t")
    with pytest.raises(Killed):
        kernel.processor.step()
    assert kernel.store.head(gid)[0] == 3  # decided, not appended, not acknowledged
    assert kernel.bus.outcome(gid, command_id) is None
    # The dead processor's lease lapses; another takes the shard and reclaims the pending entry.
    client.delete(*[kernel.keys.lease("processor", s) for s in range(settings.shards)])
    client.zrem(kernel.keys.members("processor"), "p1")
    successor = Processor(client, settings, name="p2")
    successor.drain()
    outcome = kernel.bus.outcome(gid, command_id)
    assert outcome is not None and outcome.accepted and outcome.version == 5
    assert kernel.store.head(gid)[0] == 5
    assert client.xpending(kernel.keys.cmd_stream_for(gid), "processors")["pending"] == 0


def test_append_outcome_and_ack_are_one_atomic_step(kernel, client):
    """The append script also stores the outcome and acknowledges the entry: a processor dying
    right after it leaves nothing pending, and a redelivered copy is answered from the record."""
    gid = kernel.create()
    command_id = kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t")
    stream = kernel.keys.cmd_stream_for(gid)
    kernel.processor.leases.refresh(force=True)
    kernel.processor._ensure_group(kernel.keys.shard(gid))
    entries = client.xreadgroup("processors", "p1", {stream: ">"}, count=10)[0][1]
    entry_id, fields = entries[0]
    import orjson

    settled = kernel.processor.process(orjson.loads(fields[b"m"]), ack=(stream, entry_id))
    assert settled is None  # nothing left for the batch to write
    assert kernel.bus.outcome(gid, command_id).version == 5
    assert client.xpending(stream, "processors")["pending"] == 0
    client.xadd(stream, {"m": fields[b"m"]})  # the same message delivered again
    kernel.pump()
    assert kernel.store.head(gid)[0] == 5 and kernel.bus.outcome(gid, command_id).version == 5


class _Explode(Command):
    type: str = "Explode"


class PoisonGame(CounterGame):
    """The counter game with a command that crashes decide (a bug), to test dead letters."""

    id = "poison"
    command_types = CounterGame.command_types + (_Explode,)

    def decide(self, state, command, rng):
        if command.type == "Explode":
            raise ZeroDivisionError("bug")
        return super().decide(state, command, rng)


def test_a_command_that_keeps_crashing_becomes_a_dead_letter_and_does_not_block(kernel, client):
    register(PoisonGame())
    gid = "poisoned"
    assert kernel.send(gid, {"type": "taproom.CreateGame", "game": "poison", "options": {}, "seats": [{"name": "a"}],
                             "seed_commitment": ""}).accepted
    bad = kernel.bus.submit(gid, {"type": "Explode"}, seat=0, actor="t")
    good = kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t")
    kernel.pump()
    assert kernel.bus.outcome(gid, bad).code == "internal_error"
    assert kernel.bus.outcome(gid, good).accepted
    dead = client.xrange(kernel.keys.dead_letters(kernel.keys.shard(gid)))
    assert len(dead) == 1 and b"ZeroDivisionError" in dead[0][1][b"error"]


def test_snapshots_are_written_and_used(kernel):
    gid = kernel.create(seats=1, target=100)
    for _ in range(4):
        kernel.add(gid, 0)
    snap = kernel.store.load_snapshot(gid)
    assert snap is not None and snap[0] % 5 in range(5) and snap[0] >= 5
    fresh = Processor(kernel.client, kernel.settings, name="p3")
    loaded = fresh.repo.current(gid)
    assert loaded.version == kernel.store.head(gid)[0]
    assert loaded.record.state.total == 4


def test_leases_split_shards_between_processors(client, settings):
    a = Processor(client, settings, name="a")
    b = Processor(client, settings, name="b")
    a.leases.refresh(force=True)
    b.leases.refresh(force=True)
    a.leases.refresh(force=True)  # a sees b alive and gives back its extra shards
    b.leases.refresh(force=True)
    assert a.leases.owned.isdisjoint(b.leases.owned)
    assert a.leases.owned | b.leases.owned == set(range(settings.shards))


def test_a_batch_whose_append_is_refused_is_decided_again_in_order(kernel):
    """Group commit: when another writer moved the log under a cached record, the refused
    append and the game's later commands of the batch are decided again, in order."""
    gid = kernel.create(seats=1, target=100)
    kernel.add(gid, 0)  # the processor now caches the record at version 5
    rogue = Kernel(kernel.client, kernel.settings)  # a second writer (an ownership mistake)
    rogue.processor.process({"game_id": gid, "command_id": "rogue", "seat": 0, "actor": "t",
                             "command": {"type": "Add", "amount": 3}})
    ids = [kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t") for _ in range(3)]
    kernel.pump()
    assert [kernel.bus.outcome(gid, i).version for i in ids] == [9, 11, 13]
    from services.infrastructure.eventstore import verify_chain

    envelopes = kernel.store.read(gid)
    assert verify_chain(envelopes) == (True, "ok") and len(envelopes) == 13
    assert kernel.processor.repo.current(gid).record.state.total == 7


def test_the_same_command_twice_in_one_batch_is_applied_once_and_answered_as_accepted(kernel):
    gid = kernel.create()
    for _ in range(2):
        kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t", command_id="same")
    kernel.pump()
    outcome = kernel.bus.outcome(gid, "same")
    assert outcome.accepted and outcome.version == 5
    assert kernel.store.head(gid)[0] == 5


def test_a_snapshot_taken_inside_a_batch_holds_the_state_of_its_own_version(kernel):
    """Records change in place as a batch is decided: the snapshot must be taken at its version."""
    gid = kernel.create(seats=1, target=100)
    ids = [kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t") for _ in range(5)]
    kernel.pump()
    assert all(kernel.bus.outcome(gid, i).accepted for i in ids)
    version, _, record, _ = kernel.store.load_snapshot(gid)
    assert record.version == version and record.state.total == (version - 3) // 2
    fresh = Processor(kernel.client, kernel.settings, name="p4")
    loaded = fresh.repo.current(gid)
    assert loaded.version == 13 and loaded.record.state.total == 5 and loaded.record.version == 13


def test_a_message_of_the_wrong_shape_becomes_a_dead_letter_and_the_shard_goes_on(kernel, client):
    gid = kernel.create()
    stream = kernel.keys.cmd_stream_for(gid)
    client.xadd(stream, {"m": b'["not", "a", "command"]'})
    good = kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t")
    kernel.pump()
    assert kernel.bus.outcome(gid, good).accepted
    assert len(client.xrange(kernel.keys.dead_letters(kernel.keys.shard(gid)))) == 1


def test_the_outcome_is_handed_to_the_waiting_request_on_its_reply_list(kernel):
    """No polling: the processor pushes the outcome (with the events of an accepted command) onto the reply
    list the request waits on; a repeat of the id is answered the same way, a rejection too."""
    from services.infrastructure.commands import new_reply, parse_reply

    gid = kernel.create()
    reply = new_reply()
    kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t", command_id="r-1", reply=reply)
    kernel.pump()
    outcome = kernel.bus.wait(gid, "r-1", timeout=1.0, reply=reply)
    assert outcome.accepted and (outcome.from_version, outcome.version) == (3, 5)
    assert kernel.client.get(kernel.keys.outcome(gid, "r-1")) is None  # handed over, not stored for polling
    assert not kernel.client.exists(kernel.keys.reply(gid, reply))  # popped
    again = new_reply()
    kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t", command_id="r-1", reply=again)
    kernel.bus.submit(gid, {"type": "Add", "amount": 9}, seat=1, actor="t", command_id="r-2", reply="wrong-turn")
    kernel.pump()
    repeated, events = parse_reply(kernel.client.lpop(kernel.keys.reply(gid, again)))
    assert repeated == outcome and events == []  # answered from the record, never decided again
    rejected, events = parse_reply(kernel.client.lpop(kernel.keys.reply(gid, "wrong-turn")))
    assert not rejected.accepted and events == []
    assert kernel.bus.outcome(gid, "r-1") == outcome  # later look-ups read the records


def test_the_reply_of_an_append_carries_its_events(kernel):
    from services.infrastructure.commands import new_reply, parse_reply

    gid = kernel.create()
    reply = new_reply()
    kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t", reply=reply)
    kernel.pump()
    key = kernel.keys.reply(gid, reply)
    assert 0 < kernel.client.ttl(key) <= 60  # gone by itself if nobody pops it
    outcome, events = parse_reply(kernel.client.lpop(key))
    assert [orjson.loads(e)["version"] for e in events] == [4, 5] == list(range(outcome.from_version + 1,
                                                                               outcome.version + 1))


def test_a_reply_built_in_python_is_the_one_the_append_script_pushes(kernel):
    """EventStore.reply_of (for code that settles after the script) gives the bytes append.lua pushes."""
    gid = kernel.create()
    pushed = {}

    def capture(requests):
        for req in requests:
            pushed[req.command_id] = kernel.store.reply_of(req)
        return original(requests)

    original, kernel.store.append_many = kernel.store.append_many, capture
    kernel.processor.store.append_many = capture
    reply = "capture-reply"
    kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="t", command_id="c-1", reply=reply)
    kernel.pump()
    assert kernel.client.lpop(kernel.keys.reply(gid, reply)) == pushed["c-1"]
