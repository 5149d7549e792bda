"""Event store contract: the same tests on fakeredis and on the real server."""

from __future__ import annotations

import orjson
import pytest
from redis.crc import key_slot

from domain.core.lifecycle import GameStarted
from services.infrastructure.eventstore import GENESIS_HASH, EventStore, Keys, seal, verify_chain
from tests.fixture_game import Added

pytestmark = pytest.mark.cluster  # the real-Redis variants run on the Redis Cluster too (tests/services/conftest.py)


def _envelopes(game_id: str, start: int, prev: str, n: int, command_id: str = "c"):
    out = []
    for i in range(n):
        env = seal(game_id, start + i + 1, Added(seat=0, amount=1, roll=i + 1), command_id, "test", 1.0, prev)
        out.append(env)
        prev = env.hash
    return out


@pytest.fixture
def store(client, prefix):
    return EventStore(client, Keys(prefix, 4))


def test_append_then_read_from_any_version(store):
    envs = _envelopes("g1", 0, GENESIS_HASH, 3)
    result = store.append("g1", 0, "c1", {"from_version": 0, "to_version": 3}, envs)
    assert result.status == "ok" and result.version == 3
    assert [e.version for e in store.read("g1")] == [1, 2, 3]
    assert [e.version for e in store.read("g1", after=1)] == [2, 3]
    assert [e.version for e in store.read("g1", after=0, until=2)] == [1, 2]
    assert store.head("g1") == (3, envs[-1].hash)
    assert store.game_ids() == ["g1"]


def test_same_command_id_appends_once_and_answers_with_the_original(store):
    envs = _envelopes("g1", 0, GENESIS_HASH, 2)
    record = {"command_id": "c1", "from_version": 0, "to_version": 2}
    assert store.append("g1", 0, "c1", record, envs).status == "ok"
    again = store.append("g1", 2, "c1", record, _envelopes("g1", 2, envs[-1].hash, 2))
    assert again.status == "dup" and again.record == record
    assert len(store.read("g1")) == 2


def test_stale_expected_version_is_refused_and_changes_nothing(store):
    envs = _envelopes("g1", 0, GENESIS_HASH, 2)
    store.append("g1", 0, "c1", {}, envs)
    stale = store.append("g1", 0, "c2", {}, _envelopes("g1", 0, GENESIS_HASH, 1, "c2"))
    assert stale.status == "stale" and stale.version == 2
    assert len(store.read("g1")) == 2 and store.command_record("g1", "c2") is None


def test_wrong_previous_hash_is_refused(store):
    envs = _envelopes("g1", 0, GENESIS_HASH, 1)
    store.append("g1", 0, "c1", {}, envs)
    forged = _envelopes("g1", 1, "f" * 64, 1, "c2")
    assert store.append("g1", 1, "c2", {}, forged).status == "chain"
    assert len(store.read("g1")) == 1


def test_each_append_adds_one_feed_entry_in_the_games_shard(store, client):
    envs = _envelopes("g1", 0, GENESIS_HASH, 2)
    store.append("g1", 0, "c1", {}, envs)
    feed = client.xrange(store.keys.feed(store.keys.shard("g1")))
    assert len(feed) == 1
    fields = feed[0][1]
    carried = fields.pop(b"e")  # the events ride along, byte for byte as in the log
    assert fields == {b"g": b"g1", b"f": b"1", b"t": b"2", b"k": b"0"}  # no kernel event
    assert orjson.loads(carried) == [orjson.loads(env.to_json()) for env in envs]
    assert [orjson.loads(raw) for raw in store.read_raw("g1")] == orjson.loads(carried)


def test_a_feed_entry_leaves_out_events_past_the_limit(store, client, monkeypatch):
    from services.infrastructure.eventstore import appends as appends_module

    monkeypatch.setattr(appends_module, "FEED_EVENTS_MAX", 10)
    store.append("g1", 0, "c1", {}, _envelopes("g1", 0, GENESIS_HASH, 2))
    (_, fields), = client.xrange(store.keys.feed(store.keys.shard("g1")))
    assert b"e" not in fields and fields[b"t"] == b"2"  # announced only: the followers read the log


def test_hash_chain_verifies_and_an_edited_event_is_detected(store, client):
    envs = _envelopes("g1", 0, GENESIS_HASH, 3)
    store.append("g1", 0, "c1", {}, envs)
    assert verify_chain(store.read("g1")) == (True, "ok")
    # tamper with event 2 in place, as an attacker with database access would
    key = store.keys.events("g1")
    entries = client.xrange(key)
    client.delete(key)
    for entry_id, fields in entries:
        body = orjson.loads(fields[b"e"])
        if body["version"] == 2:
            body["payload"]["amount"] = 3
        client.xadd(key, {"e": orjson.dumps(body)}, id=entry_id)
    ok, reason = verify_chain(store.read("g1"))
    assert not ok and "event 2 was altered" in reason


def _record():
    from domain.core.lifecycle import ClaimSeat, CreateGame, SeatSpec, execute
    from domain.core.registry import register
    from tests.fixture_game import COUNTER, Add

    register(COUNTER)
    dice = _Dice()
    _, record = execute(None, "g1", CreateGame(seat=-1, game="counter", seats=[SeatSpec(name="a"), SeatSpec()],
                                               seed_commitment="c", pace="1d"), dice)
    _, record = execute(record, "g1", ClaimSeat(seat=1, name="b"), dice)
    _, record = execute(record, "g1", Add(seat=0, amount=2), dice)
    return record


class _Dice:
    def rng(self, version):
        import random
        return random.Random(version)

    def reveal(self):
        return b"seed"


def test_snapshot_round_trip_and_bad_snapshot_ignored(store, client):
    record = _record()
    store.save_snapshot("g1", record.version, "h", record, ts=12.5)
    assert store.load_snapshot("g1") == (record.version, "h", record, 12.5)
    client.hset(store.keys.snapshot("g1"), "state", b"not a record")
    assert store.load_snapshot("g1") is None


def test_an_old_pickled_snapshot_is_never_loaded(store, client):
    """Format 1 snapshots were pickles: unpickling runs code, and Redis is not a trusted source of code. Such a
    snapshot is ignored (the log is replayed), and even under the current format number it is not unpickled."""
    import pickle

    class Boom:
        def __reduce__(self):
            return (exec, ("raise SystemExit('a snapshot ran code')",))

    evil = pickle.dumps(Boom())
    client.hset(store.keys.snapshot("g1"), mapping={"version": 3, "hash": "h", "format": 1, "ts": 0, "state": evil})
    assert store.load_snapshot("g1") is None
    client.hset(store.keys.snapshot("g1"), "format", 2)
    assert store.load_snapshot("g1") is None


def test_every_key_of_a_game_shares_the_shard_hash_tag():
    keys = Keys("tr:", 16)
    tag = keys.tag("abc")
    shard = keys.shard("abc")
    for key in (keys.events("abc"), keys.head("abc"), keys.commands("abc"), keys.snapshot("abc"), keys.seed("abc"),
                keys.feed(shard), keys.cmd_stream(shard), keys.games(shard)):
        assert key[key.index("{"):key.index("}") + 1] == tag
    assert key_slot(keys.clock("abc").encode()) == key_slot(keys.events("abc").encode())


def test_a_players_keys_share_one_slot_so_transactions_and_scripts_over_them_work_on_a_cluster():
    keys = Keys("tr:", 16)
    for player in ("alice", "p-0a1b", "odd{id}"):
        player_keys = [keys.vacations(player), keys.vacation_used(player), keys.webhook(player), keys.notes(player),
                       keys.notified(player, "turn:g1:0:3")]
        assert len(set(player_keys)) == len(player_keys)
        assert {key_slot(k.encode()) for k in player_keys} == {key_slot(player_keys[0].encode())}
    assert key_slot(keys.vacations("alice").encode()) != key_slot(keys.vacations("bob").encode())


def test_private_event_fields_are_redacted_until_the_end():
    from tests.fixture_game import CardDealt

    env = seal("g", 1, CardDealt(seat=0, card=42), "c", "t", 1.0, GENESIS_HASH)
    assert env.redacted(0, game_over=False)["payload"]["card"] == 42
    assert env.redacted(1, game_over=False)["payload"]["card"] == "hidden"
    assert env.redacted(None, game_over=False)["payload"]["card"] == "hidden"
    assert env.redacted(None, game_over=True)["payload"]["card"] == 42
    public = seal("g", 1, GameStarted(), "c", "t", 1.0, GENESIS_HASH)
    assert public.redacted(None, game_over=False)["payload"] == {"type": "taproom.GameStarted"}


def test_a_sealed_envelope_hashes_and_serializes_as_its_model_says():
    """seal serializes the plain values once; the hash and the JSON are what the model's own methods give."""
    from services.infrastructure.eventstore.envelope import Envelope

    env = seal("g1", 7, Added(seat=1, amount=3, roll=9), "c1", "seat:1", 1234.5, "ab" * 32)
    assert env.hash == env.compute_hash()
    assert env.to_json() == orjson.dumps(env.model_dump())
    assert Envelope.from_json(env.to_json()) == env


def _three_commands(store, game_id):
    prev, version = GENESIS_HASH, 0
    for n in range(3):
        envs = _envelopes(game_id, version, prev, 2, f"c{n}")
        record = {"command_id": f"c{n}", "from_version": version, "to_version": version + 2}
        assert store.append(game_id, version, f"c{n}", record, envs).status == "ok"
        prev, version = envs[-1].hash, version + 2


def test_a_compaction_moves_what_the_store_appended_without_reading_it_back(client, prefix, monkeypatch):
    mine, other = EventStore(client, Keys(prefix, 4)), EventStore(client, Keys(prefix + "x:", 4))
    for store in (mine, other):
        _three_commands(store, "g1")
    other._recent.clear()  # as a process that did not append them: the stretch is read back
    assert other.compact("g1", 4)
    read_back = client.hgetall(other.keys.segments("g1"))

    pipeline = client.pipeline
    monkeypatch.setattr(mine.redis, "pipeline", lambda *a, **k: _NoStretchReads(pipeline(*a, **k)))
    assert mine.compact("g1", 4)
    monkeypatch.undo()
    assert client.hgetall(mine.keys.segments("g1")) == read_back  # the same segment, byte for byte
    assert [e.version for e in mine.read("g1")] == [1, 2, 3, 4, 5, 6]
    assert mine.command_record("g1", "c1")["to_version"] == 4
    assert [r.decode() for r in mine._recent["g1"].records] == ["c2"] and mine._recent["g1"].first == 5


class _NoStretchReads:
    """A pipeline that refuses the reads a compaction makes of a stretch it does not hold."""

    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        if name in ("xrange", "hgetall"):
            raise AssertionError(f"the stretch was read back ({name})")
        return getattr(self.inner, name)

    def __len__(self):
        return len(self.inner)


def test_a_refused_compaction_forgets_what_the_store_holds(store, client):
    _three_commands(store, "g1")
    client.xtrim(store.keys.events("g1"), minid="2-0", approximate=False)  # the stream no longer starts where the store thinks
    assert not store.compact("g1", 4)
    assert "g1" not in store._recent  # read back next time
