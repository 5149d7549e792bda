"""The pipeline on a real Redis Cluster under load: a master killed (its replica takes over) and processors
coming and going, while humans and bots play. Every acknowledged command must be in the log afterwards, every
log must verify (hash chain, seed, replay) and no command may be applied twice.

The cluster is the session's (``tests/services/redis_cluster.py``); rq's queues are on the single real server,
as in a cluster deployment. "Acknowledged" is what a client is told: the outcome ``CommandBus.wait`` returns
(the API answers with the same call).
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis

from services.adapters.api.aio import async_twin
from services.adapters.processor import Processor
from services.adapters.runtime import Service
from services.infrastructure import audit
from services.infrastructure.aggregates import Repository
from services.infrastructure.async_commands import AsyncCommandBus
from services.infrastructure.bootstrap import queue_client_factory
from services.infrastructure.commands import CommandBus, CommandMessage
from services.infrastructure.eventstore import EventStore, Keys
from services.infrastructure.resilience import UNAVAILABLE, ReplicationShortfall
from services.infrastructure.settings import Settings

from .conftest import client_factory
from .redis_cluster import RedisClusterServers

pytestmark = pytest.mark.cluster

HUMAN = 0  # the seat the test's drivers play; seat 1 is a random bot (rq workers)
TRANSIENT = (*UNAVAILABLE, redis.exceptions.RedisClusterException, redis.exceptions.ResponseError)
"""What a client may meet while a master is being replaced: it retries under the same command id."""


@dataclass
class Ack:
    game_id: str
    command_id: str
    version: int
    at: float


@dataclass
class Load:
    """Bot games with one human seat each, the human seats played by threads that wait for outcomes."""

    clients: Any
    settings: Settings
    games: int = 8
    target: int = 40
    acks: list[Ack] = field(default_factory=list)
    game_ids: list[str] = field(default_factory=list)
    errors: int = 0

    def __post_init__(self) -> None:
        self.keys = Keys(self.settings.key_prefix, self.settings.shards)
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []
        self.lock = threading.Lock()

    def start(self) -> Load:
        bus = CommandBus(EventStore(self.clients(), self.keys))
        for _ in range(self.games):
            game_id = uuid.uuid4().hex[:12]
            outcome = bus.send(game_id, {"type": "taproom.CreateGame", "game": "counter",
                                         "options": {"target": self.target},
                                         "seats": [{"name": "human"}, {"name": "bot", "bot": "random"}],
                                         "seed_commitment": ""}, seat=-1, actor="test", timeout=20)
            assert outcome is not None and outcome.accepted, outcome
            self.game_ids.append(game_id)
        for i, game_id in enumerate(self.game_ids):
            # half the humans play the way the API does (submit script, BLPOP on a reply list), half through
            # the command bus's outcome key
            target = self.play_like_the_api if i % 2 else self.play
            thread = threading.Thread(target=target, args=(game_id, random.Random(i)), daemon=True)
            thread.start()
            self.threads.append(thread)
        return self

    def play(self, game_id: str, rng: random.Random) -> None:
        client = self.clients()
        repo = Repository(EventStore(client, self.keys), cache_size=1)
        bus = CommandBus(EventStore(client, self.keys))
        while not self.stop.is_set():
            try:
                loaded = repo.current(game_id)
                record = loaded.record
                assert record is not None
                if record.status != "active":
                    return
                if HUMAN not in record.to_act():
                    time.sleep(0.01)
                    continue
                command_id = f"human:{game_id}:{loaded.version}"  # the same id until it lands: idempotent
                bus.submit(game_id, {"type": "Add", "amount": rng.randint(1, 3)}, seat=HUMAN, actor="human",
                           command_id=command_id, expected_version=loaded.version)
                outcome = bus.wait(game_id, command_id, timeout=10)
            except TRANSIENT:
                with self.lock:
                    self.errors += 1
                time.sleep(0.1)
                continue
            if outcome is not None and outcome.accepted:
                with self.lock:
                    self.acks.append(Ack(game_id, command_id, outcome.version, time.monotonic()))

    def play_like_the_api(self, game_id: str, rng: random.Random) -> None:
        asyncio.run(self._play_like_the_api(game_id, rng))

    async def _play_like_the_api(self, game_id: str, rng: random.Random) -> None:
        client = self.clients()
        repo = Repository(EventStore(client, self.keys), cache_size=1)
        aclient = async_twin(client)
        bus = AsyncCommandBus(aclient, self.keys, 3600)
        try:
            while not self.stop.is_set():
                try:
                    loaded = repo.current(game_id)
                    record = loaded.record
                    assert record is not None
                    if record.status != "active":
                        return
                    if HUMAN not in record.to_act():
                        await asyncio.sleep(0.01)
                        continue
                    command_id = f"human:{game_id}:{loaded.version}"
                    body = {"type": "Add", "amount": rng.randint(1, 3)}
                    message = CommandMessage(game_id=game_id, command_id=command_id, command=body, seat=HUMAN,
                                             actor="human", expected_version=loaded.version)
                    settled = await bus.submit_and_wait(message, 10.0, body)
                except TRANSIENT:
                    with self.lock:
                        self.errors += 1
                    await asyncio.sleep(0.1)
                    continue
                if settled is not None and settled.outcome.accepted:
                    with self.lock:
                        self.acks.append(Ack(game_id, command_id, settled.outcome.version, time.monotonic()))
        finally:
            await aclient.aclose()

    def wait_acks(self, count: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.acks) < count:
            assert time.monotonic() < deadline, f"only {len(self.acks)} commands acknowledged"
            time.sleep(0.05)

    def finish(self, timeout: float = 120.0) -> None:
        """Wait for every game to be scored (the bots, the reactor and the scoring job carry on)."""
        store = EventStore(self.clients(), self.keys)
        deadline = time.monotonic() + timeout
        for game_id in self.game_ids:
            while True:
                try:
                    last = store.read(game_id)[-1:]
                    if last and last[0].type == "taproom.SeedRevealed":
                        break
                except TRANSIENT:
                    pass
                assert time.monotonic() < deadline, f"game {game_id} did not finish: {self.diagnose(game_id)}"
                time.sleep(0.1)
        self.stop.set()
        for thread in self.threads:
            thread.join(15)

    def diagnose(self, game_id: str) -> dict[str, Any]:
        """Where a game that does not finish stands (for the failure message)."""
        from rq.job import Job

        client = self.clients()
        loaded = Repository(EventStore(client, self.keys), cache_size=1).current(game_id)
        record = loaded.record
        shard = self.keys.shard(game_id)
        job_id = f"bot-{game_id}-{loaded.version}-1"
        job = Job.fetch(job_id, connection=self.clients.queue()) if Job.exists(
            job_id, connection=self.clients.queue()) else None
        return {"version": loaded.version, "to_act": record.to_act() if record else None,
                "status": record.status if record else None,
                "bot_watch": client.zscore(self.keys.bot_watch(), game_id),
                "job": job.get_status() if job else None,
                "cmd_stream": client.xlen(self.keys.cmd_stream(shard)),
                "pending": client.xpending(self.keys.cmd_stream(shard), "processors"),
                "last_cmd": client.xrevrange(self.keys.cmd_stream(shard), count=1),
                "feed_last": client.xrevrange(self.keys.feed(shard), count=1),
                "ckpt_reactor": client.get(self.keys.checkpoint("reactor", shard)),
                "lease": client.get(self.keys.lease("processor", shard))}

    def check(self) -> dict[str, int]:
        """Every acknowledged command is in the log with the version it was acknowledged at; every log verifies;
        each event belongs to exactly one applied command (nothing applied twice, nothing dropped)."""
        store = EventStore(self.clients(), self.keys)
        assert {a.game_id for a in self.acks} == set(self.game_ids), "a human (of either path) was never answered"
        for ack in self.acks:
            record = store.command_record(ack.game_id, ack.command_id)
            assert record is not None, f"acknowledged command {ack.command_id} is not in the log"
            assert record["to_version"] == ack.version, (ack, record)
        events = 0
        for game_id in self.game_ids:
            envelopes, commands = audit.parse_lines(audit.export_lines(store, game_id))
            report = audit.verify(envelopes, commands)
            assert report.ok and report.replay_ok, (game_id, report.to_dict())
            assert [e.version for e in envelopes] == list(range(1, len(envelopes) + 1))
            by_id = {c["command_id"]: c for c in commands}
            assert len(by_id) == len(commands), "a command id was applied twice"
            spans = sorted((c["from_version"], c["to_version"]) for c in commands)
            assert all(a[1] == b[0] for a, b in zip(spans, spans[1:])), f"commands overlap or leave a gap: {spans}"
            for env in envelopes:
                record = by_id[env.command_id]
                assert record["from_version"] < env.version <= record["to_version"]
            events += len(envelopes)
        return {"acknowledged": len(self.acks), "games": len(self.game_ids), "events": events}


def cluster_settings(prefix: str, **extra: Any) -> Settings:
    from .conftest import relaxed_limits

    fields: dict[str, Any] = {**relaxed_limits(), "append_replicas": 1, **extra}
    return Settings(redis_url=None, key_prefix=prefix, shards=8, allow_client_seed=True, snapshot_every=10,
                    rq_queue=f"q-{prefix.strip(':')}", command_wait_seconds=5.0, lease_ms=1500,
                    append_replica_timeout_ms=2000, watchdog_interval_seconds=0.5, watchdog_stale_seconds=3,
                    **fields)


@pytest.fixture
def on_cluster(redis_cluster: RedisClusterServers, prefix: str) -> Iterator[Any]:
    with client_factory("cluster", prefix, redis_cluster) as clients:
        yield clients


def extra_processor(clients: Any, settings: Settings, name: str) -> tuple[Processor, threading.Event, threading.Thread]:
    processor = Processor(clients(), settings, name=name)
    stop = threading.Event()
    thread = threading.Thread(target=processor.run, args=(stop,), name=f"test-{name}", daemon=True)
    thread.start()
    return processor, stop, thread


@pytest.mark.slow
@pytest.mark.integration
def test_a_master_killed_under_load_loses_no_acknowledged_command(redis_cluster, on_cluster, prefix):
    settings = cluster_settings(prefix)
    keys = Keys(settings.key_prefix, settings.shards)
    service = Service(settings, on_cluster, workers=2, queue_clients=on_cluster.queue).start()
    extras = [extra_processor(on_cluster, settings, f"px{i}") for i in range(2)]  # three processors in all
    victim = None
    load = Load(on_cluster, settings)
    try:
        load.start()
        load.wait_acks(15)
        # The master serving the most shards' command streams dies without a word (kill -9).
        by_node: dict[int, int] = {}
        for shard in range(settings.shards):
            node = redis_cluster.node_of_key(keys.cmd_stream(shard))
            by_node[node.port] = by_node.get(node.port, 0) + 1
        victim = next(n for n in redis_cluster.nodes if n.port == max(by_node, key=by_node.__getitem__))
        replicas = redis_cluster.replicas_of(victim)
        acked_before = len(load.acks)
        killed_at = time.monotonic()
        victim.kill()
        promoted = redis_cluster.wait_promoted(replicas, timeout=30)  # its replica takes over
        promoted_after = time.monotonic() - killed_at
        assert promoted.port in [n.port for n in redis_cluster.masters()]
        # The promoted master has no replica: appends to its shards wait (not acknowledged) while the others
        # carry on, until the dead node comes back (as Kubernetes restarts a pod) and rejoins as its replica.
        time.sleep(1.0)
        victim.start()
        victim.wait_up()
        redis_cluster.wait_replicated(timeout=30)
        rejoined_after = time.monotonic() - killed_at
        victim = None
        load.finish()
        figures = load.check()
        after = [a for a in load.acks if a.at > killed_at]
        assert after, "no command was acknowledged after the failover: the pipeline did not carry on"
        print(f"failover: {figures}, {acked_before} acknowledged before the kill, {len(after)} after; "
              f"replica promoted within {promoted_after:.1f} s, old master back as its replica after "
              f"{rejoined_after:.1f} s; {load.errors} client retries")
    finally:
        load.stop.set()
        for thread in load.threads:
            thread.join(15)
        for _, stop, thread in extras:
            stop.set()
            thread.join(10)
        service.stop()
        if victim is not None:  # back as a replica of its successor, for the tests that follow
            victim.start()
            victim.wait_up()
            redis_cluster.wait_healthy(timeout=30)
            redis_cluster.wait_replicated(timeout=30)


@pytest.mark.slow
@pytest.mark.parametrize("clients", [pytest.param("real", marks=pytest.mark.integration),
                                     pytest.param("cluster", marks=[pytest.mark.integration,
                                                                    pytest.mark.cluster_backend])],
                         indirect=True)
def test_processors_come_and_go_and_shards_move_by_lease(clients, prefix):
    """Three processors share the shards; a fourth starts and one stops during the load: the leases move the
    shards, and every command is applied exactly once."""
    # appends wait for a replica on the cluster; the single server has none
    settings = cluster_settings(prefix, append_replicas=1 if clients.separate else 0)
    service = Service(settings, clients, workers=2, queue_clients=clients.queue).start()
    first = [extra_processor(clients, settings, f"pc{i}") for i in range(2)]
    late: tuple[Processor, threading.Event, threading.Thread] | None = None
    load = Load(clients, settings, games=8, target=40)
    try:
        load.start()
        load.wait_acks(10)
        late = extra_processor(clients, settings, "pc-late")
        load.wait_acks(len(load.acks) + 10)
        leaving, stop, thread = first[0]
        held = set(leaving.leases.owned)
        stop.set()  # a graceful stop: its leases are released and taken up by the others
        thread.join(10)
        load.finish()
        figures = load.check()
        took = set().union(service.processor.leases.owned, first[1][0].leases.owned, late[0].leases.owned)
        assert held <= took, f"shards {held - took} of the stopped processor were not taken over"
        assert len(took) == settings.shards
        assert late[0].leases.owned, "the new processor took no shard"
        print(f"processors came and went: {figures}")
    finally:
        load.stop.set()
        for thread in load.threads:
            thread.join(15)
        for _, stop, thread in first[1:] + ([late] if late else []):
            stop.set()
            thread.join(10)
        service.stop()


@pytest.mark.parametrize("clients", [pytest.param("real", marks=pytest.mark.integration),
                                     pytest.param("cluster", marks=[pytest.mark.integration,
                                                                    pytest.mark.cluster_backend])],
                         indirect=True)
def test_an_append_waits_for_a_replica_before_it_is_acknowledged(clients, settings):
    """``append_replicas``: on the cluster (a replica per master) the append is acknowledged; on a server
    without replicas it is appended but neither answered nor acknowledged, and the processor backs off."""
    from services.infrastructure.eventstore import seal
    from services.infrastructure.eventstore.store import AppendRequest
    from tests.fixture_game import Added

    client = clients()
    keys = Keys(settings.key_prefix, settings.shards)
    store = EventStore(client, keys, replicas=1, replica_timeout_ms=300)
    game_id = "g-" + uuid.uuid4().hex[:8]
    env = seal(game_id, 1, Added(seat=0, amount=1, roll=1), "c1", "test", 0.0, store.head(game_id)[1])
    stream = keys.cmd_stream_for(game_id)
    client.xgroup_create(stream, "processors", id="0", mkstream=True)
    entry = client.xadd(stream, {"m": b"{}"})
    client.xreadgroup("processors", "p", {stream: ">"})
    request = AppendRequest(game_id, 0, "c1", {"command_id": "c1", "from_version": 0, "to_version": 1}, [env],
                            b'{"status": "accepted"}', 60, ("processors", entry))
    waiting = AppendRequest(game_id, 1, "c2", {"command_id": "c2", "from_version": 1, "to_version": 2},
                            [seal(game_id, 2, Added(seat=0, amount=1, roll=1), "c2", "test", 0.0, env.hash)],
                            b'{"status": "accepted"}', 60, reply=keys.reply(game_id, "n2"))
    replicated = bool(clients.separate)  # the cluster has a replica per master; the single server none
    if replicated:
        assert store.append_many([request])[0].status == "ok"
        assert client.get(keys.outcome(game_id, "c1")) is not None
        assert client.xpending(stream, "processors")["pending"] == 0
        assert store.append_many([waiting])[0].status == "ok"  # a request waits: its reply, after the WAIT
        assert client.lrange(keys.reply(game_id, "n2"), 0, -1) == [EventStore.reply_of(waiting)]
    else:
        with pytest.raises(ReplicationShortfall):
            store.append_many([request])
        assert store.head(game_id)[0] == 1  # appended on the master ...
        assert client.get(keys.outcome(game_id, "c1")) is None  # ... but not answered
        assert client.xpending(stream, "processors")["pending"] == 1  # and taken up again later
        with pytest.raises(ReplicationShortfall):
            store.append_many([waiting])
        assert client.llen(keys.reply(game_id, "n2")) == 0  # the waiting request hears nothing yet


def test_a_cluster_event_store_needs_a_queue_redis_of_its_own():
    on_cluster = Settings(redis_url="redis://127.0.0.1:7000/0", redis_cluster=True)
    with pytest.raises(ValueError, match="TAPROOM_QUEUE_REDIS_URL"):
        queue_client_factory(on_cluster, lambda: None)  # type: ignore[arg-type, return-value]
    separate = on_cluster.model_copy(update={"queue_redis_url": "redis://127.0.0.1:6379/2"})
    queue = queue_client_factory(separate, lambda: None)()  # type: ignore[arg-type, return-value]
    assert queue.connection_pool.connection_kwargs["db"] == 2
    plain = Settings(redis_url="redis://127.0.0.1:6379/3")
    store = queue_client_factory(plain, lambda: "store")  # type: ignore[arg-type, return-value]
    assert store() == "store"  # one server: rq shares it
