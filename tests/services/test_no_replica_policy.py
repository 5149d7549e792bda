"""``no_replica_policy`` (issue 35): what a master without the replicas ``append_replicas`` asks for does with a
command. On a private redis-server (no replica; AOF fsynced on every write, as deployed):

- ``refuse`` (the default): the command is appended but never acknowledged (no outcome, the stream entry stays
  pending for a retry), and an outcome read from the game's records is refused too (503), not answered;
- ``local_fsync``: the command (and any other write the API acknowledges) is acknowledged on the master's own
  fsync'd AOF, and counted
  (``taproom_appends_without_replica_total``, the alert); a master that does not fsync every write before
  answering it (``appendfsync everysec``) refuses as above: never an acknowledgement the setting calls not
  durable.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis

from services.infrastructure.async_commands import AsyncCommandBus, ShardStalled
from services.infrastructure.durability import Durability, WriteNotDurable
from services.infrastructure.eventstore import EventStore, Keys, seal
from services.infrastructure.eventstore.appends import APPENDS_WITHOUT_REPLICA
from services.infrastructure.eventstore.store import AppendRequest
from services.infrastructure.resilience import ReplicationShortfall
from services.infrastructure.settings import Settings
from tests.fixture_game import Added

from .redis_server import RedisServer


def _request(keys: Keys, store: EventStore, client: redis.Redis, game_id: str) -> tuple[AppendRequest, str, bytes]:
    stream = keys.cmd_stream_for(game_id)
    try:
        client.xgroup_create(stream, "processors", id="0", mkstream=True)
    except redis.ResponseError:  # a game before this one on the same shard made it
        pass
    entry = client.xadd(stream, {"m": b"{}"})
    client.xreadgroup("processors", "p", {stream: ">"})
    env = seal(game_id, 1, Added(seat=0, amount=1, roll=1), "c1", "test", 0.0, store.head(game_id)[1])
    return (AppendRequest(game_id, 0, "c1", {"command_id": "c1", "from_version": 0, "to_version": 1}, [env],
                          b'{"status": "accepted"}', 60, ("processors", entry)), stream, entry)


def _pending(client: redis.Redis, stream: str) -> list[bytes]:
    return [p["message_id"] for p in client.xpending_range(stream, "processors", "-", "+", 100)]


@pytest.mark.integration
def test_a_master_without_replicas_refuses_or_fsyncs_as_the_setting_says(tmp_path):
    assert Settings().no_replica_policy == "refuse"  # the documented default
    server = RedisServer(tmp_path / "redis").start()
    try:
        client = redis.Redis.from_url(server.url)
        keys = Keys("nr:", 4)

        refusing = EventStore(client, keys, replicas=1, replica_timeout_ms=100)
        game_id = "g-" + uuid.uuid4().hex[:8]
        request, stream, entry = _request(keys, refusing, client, game_id)
        with pytest.raises(ReplicationShortfall):
            refusing.append_many([request])
        assert refusing.head(game_id)[0] == 1  # on the master, but ...
        assert client.get(keys.outcome(game_id, "c1")) is None  # ... not acknowledged
        assert entry in _pending(client, stream)
        bus = AsyncCommandBus(redis.asyncio.Redis.from_url(server.url), keys, store=refusing)
        with pytest.raises(ShardStalled):  # the record is there, but no answer is given from it
            asyncio.run(bus.outcome(game_id, "c1"))

        fsyncing = EventStore(client, keys, replicas=1, replica_timeout_ms=100, no_replica_policy="local_fsync")
        game_id = "g-" + uuid.uuid4().hex[:8]
        request, stream, entry = _request(keys, fsyncing, client, game_id)
        before = APPENDS_WITHOUT_REPLICA._value.get()
        assert fsyncing.append_many([request])[0].status == "ok"
        assert client.get(keys.outcome(game_id, "c1")) is not None  # acknowledged on the fsync'd AOF
        assert entry not in _pending(client, stream)
        assert APPENDS_WITHOUT_REPLICA._value.get() == before + 1  # and counted: the alert

        # The other writes the API acknowledges follow the same setting (services/infrastructure/durability.py).
        with pytest.raises(WriteNotDurable):
            Durability(client, replicas=1, timeout_ms=100, prefix="nr:").confirm()
        Durability(client, replicas=1, timeout_ms=100, prefix="nr:", no_replica_policy="local_fsync").confirm()

        client.config_set("appendfsync", "everysec")  # the master no longer fsyncs each write
        with pytest.raises(WriteNotDurable):
            Durability(client, replicas=1, timeout_ms=100, prefix="nr:", no_replica_policy="local_fsync").confirm()
        lax = EventStore(client, keys, replicas=1, replica_timeout_ms=100, no_replica_policy="local_fsync")
        game_id = "g-" + uuid.uuid4().hex[:8]
        request, stream, entry = _request(keys, lax, client, game_id)
        with pytest.raises(ReplicationShortfall):
            lax.append_many([request])
        assert client.get(keys.outcome(game_id, "c1")) is None
    finally:
        server.stop()
