"""Failure isolation per shard (issue 35, defect 2) on a real Redis Cluster: one master killed (``kill -9``) and
NOT replaced for about 30 s. Its replica takes over, without a replica of its own, so under the default
``no_replica_policy`` (``refuse``) the commands of its shards cannot be made durable: those shards stop alone,
their games get 503 with ``Retry-After`` (never an acknowledgement), while the games on the other masters keep
being acknowledged. Once the node is back (as a replica of its successor) the stalled games carry on; nothing
acknowledged is lost, and every log verifies.

Players play over the API (the hot path), two processors share the shards (so both hold shards on the dead
master: the issue's worst case). The cluster is the test's own (the session's stays whole for the others).
Figures printed: commands acknowledged on the healthy masters during the outage, time to the first of them.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.adapters.runtime import Service
from services.infrastructure import audit
from services.infrastructure.eventstore import EventStore, Keys

from .conftest import client_factory
from .redis_cluster import RedisClusterServers
from .test_api import bearer, new_game
from .test_cluster import cluster_settings, extra_processor

OUTAGE_SECONDS = 30.0
"""How long the killed master stays away (not replaced): the issue's check."""
BOUND = 120.0
"""Bounds a wait for a condition (a hang), times nothing."""


@dataclass
class Answer:
    game_id: str
    command_id: str
    status: int
    sent: float
    answered: float
    seat: int = 0
    version: int = 0
    retry_after: str | None = None
    text: str = ""


@dataclass
class Players:
    """One thread per game, playing both seats of a counter game over the API; every answer is noted."""

    api: TestClient
    games: dict[str, list[str]]  # game id -> seat tokens
    answers: list[Answer] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.play, args=(gid,), daemon=True) for gid in self.games]

    def start(self) -> Players:
        for thread in self.threads:
            thread.start()
        return self

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(60)

    def acks(self, game_ids: set[str] | None = None, sent_after: float = 0.0) -> list[Answer]:
        with self.lock:
            return [a for a in self.answers if a.status == 200 and a.sent >= sent_after
                    and (game_ids is None or a.game_id in game_ids)]

    def play(self, gid: str) -> None:
        tokens = self.games[gid]
        view = self.api.get(f"/games/{gid}/view", headers=bearer(tokens[0])).json()
        version, to_act = view["version"], view["to_act"]
        n = 0
        while not self.stop.is_set():
            command_id = f"{gid}-{version}-{n}"  # the same id until it has its outcome
            sent = time.monotonic()
            response = self.api.post(f"/games/{gid}/commands", headers=bearer(tokens[to_act[0]]),
                                     json={"command_id": command_id, "type": "Add", "amount": 1})
            answer = Answer(gid, command_id, response.status_code, sent, time.monotonic(), seat=to_act[0],
                            retry_after=response.headers.get("Retry-After"),
                            text="" if response.status_code == 200 else response.text[:200])
            if response.status_code == 200:
                body = response.json()
                answer.version = body["version"]
                version, to_act, n = body["version"], body["to_act"], 0
            elif response.status_code in (202, 503):
                time.sleep(0.1)  # queued or refused for now: the same id again
            else:
                assert response.status_code == 409, response.text  # decided on a stale view: look again
                view = self.api.get(f"/games/{gid}/view", headers=bearer(tokens[0])).json()
                version, to_act, n = view["version"], view["to_act"], n + 1
            with self.lock:
                self.answers.append(answer)


@pytest.fixture
def own_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisClusterServers]:
    servers = RedisClusterServers(tmp_path_factory.mktemp("isolation-cluster"))
    try:
        servers.start()
        yield servers
    finally:
        servers.stop()


def wait_until(check: Any, what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.integration
@pytest.mark.cluster
@pytest.mark.timeout(900)
def test_a_master_down_and_not_replaced_stalls_only_its_own_games(own_cluster, prefix):
    cluster = own_cluster
    # an append's WAIT well within a lease (1.5 s here, 10 s by default against a 1 s WAIT)
    settings = cluster_settings(prefix).model_copy(update={"command_wait_seconds": 3.0,
                                                           "append_replica_timeout_ms": 500})
    assert settings.no_replica_policy == "refuse"
    keys = Keys(settings.key_prefix, settings.shards)
    with client_factory("cluster", prefix, cluster) as clients:
        service = Service(settings, clients, workers=1, queue_clients=clients.queue).start()
        extra = extra_processor(clients, settings, "second")  # two processors share the shards
        victim = None
        players = None
        try:
            with TestClient(create_app(clients(), settings, queue_client=clients.queue())) as api, \
                    contextlib.ExitStack() as cleanup:
                cleanup.callback(lambda: players.finish() if players is not None else None)  # before the app stops
                games: dict[str, list[str]] = {}
                by_master: dict[int, set[str]] = {}
                slots = clients()
                while len(games) < 24 and (len(by_master) < 3 or min(len(g) for g in by_master.values()) < 2):
                    created = new_game(api, target=100_000)
                    gid = created["game_id"]
                    games[gid] = [s["token"] for s in created["seats"]]
                    by_master.setdefault(int(slots.get_node_from_key(keys.cmd_stream_for(gid)).port), set()).add(gid)
                assert len(by_master) == 3, "the games do not cover every master"
                players = Players(api, games).start()
                wait_until(lambda: {a.game_id for a in players.acks()} == set(games), "every game to be played")

                victim = next(n for n in cluster.nodes if n.port == max(by_master, key=lambda p: len(by_master[p])))
                stalled = by_master[victim.port]
                healthy = set(games) - stalled
                replicas = cluster.replicas_of(victim)
                killed_at = time.monotonic()
                victim.kill()
                promoted = cluster.wait_promoted(replicas, timeout=BOUND)
                promoted_at = time.monotonic()
                # Down and not replaced: the promoted master has no replica for the rest of the outage.
                time.sleep(max(0.0, killed_at + OUTAGE_SECONDS - time.monotonic()))
                back_at = time.monotonic()

                during = [a for a in players.acks(healthy, sent_after=killed_at) if a.answered < back_at]
                with players.lock:
                    seen = [(a.status, a.text, round(a.sent - killed_at, 1)) for a in players.answers
                            if a.game_id in healthy and a.sent > promoted_at + 5][-6:]
                assert during, f"no command on a healthy master was acknowledged while one master was down: {seen}"
                first = min(a.answered for a in during) - killed_at
                late = {a.game_id for a in during if a.sent >= promoted_at + 5.0}
                assert late == healthy, f"healthy games not acknowledged after the failover: {healthy - late}"
                # Not durable under the setting: never acknowledged while the master lacks its replica.
                sneaked = [a for a in players.acks(stalled, sent_after=killed_at + 0.5) if a.answered < back_at]
                assert not sneaked, f"acknowledged without a replica: {sneaked[:3]}"
                with players.lock:
                    refused = [a for a in players.answers if a.game_id in stalled and a.status == 503
                               and promoted_at < a.sent < back_at]
                    healthy_refused = [a for a in players.answers if a.game_id in healthy and a.status == 503
                                       and a.sent > promoted_at + 5.0 and a.answered < back_at]
                assert refused and all(a.retry_after for a in refused), "the stalled games got no 503 Retry-After"
                assert not healthy_refused, f"healthy games refused after the failover: {healthy_refused[:3]}"

                victim.start()  # back, as the promoted master's replica
                victim.wait_up()
                cluster.wait_replicated(timeout=BOUND)
                restored_at = time.monotonic()
                victim = None
                wait_until(lambda: {a.game_id for a in players.acks(stalled, sent_after=restored_at)} == stalled,
                           "the stalled games to carry on once their master has a replica again")
                resumed = min(a.answered for a in players.acks(stalled, sent_after=restored_at)) - restored_at
                players.finish()

                store = EventStore(clients(), keys)
                acks = players.acks()
                for ack in acks:
                    record = store.command_record(ack.game_id, f"{ack.game_id}:{ack.seat}:{ack.command_id}")
                    assert record is not None, f"acknowledged command {ack.command_id} is not in the log"
                    assert record["to_version"] == ack.version, (ack, record)
                for gid in games:
                    envelopes, commands = audit.parse_lines(audit.export_lines(store, gid))
                    report = audit.verify(envelopes, commands)
                    assert report.ok and report.chain_ok, (gid, report.to_dict())  # unfinished: no seed to replay
                print(f"\nshard isolation: {len(games)} games ({len(stalled)} on the killed master, {len(healthy)} "
                      f"on the others); replica promoted after {promoted_at - killed_at:.1f} s; master kept away "
                      f"{back_at - killed_at:.1f} s; {len(during)} commands acknowledged on the healthy masters "
                      f"during the outage (first {first:.2f} s after the kill); {len(refused)} answers 503 with "
                      f"Retry-After to the stalled games, none acknowledged; stalled games resumed {resumed:.2f} s "
                      f"after the replica was back; {len(acks)} acknowledged commands checked in the logs")
                del promoted
        finally:
            if players is not None:
                players.finish()
            extra[1].set()
            extra[2].join(10)
            service.stop()
            if victim is not None:
                victim.start()
