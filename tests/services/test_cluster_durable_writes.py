"""Every acknowledged write survives a master killed on a real Redis Cluster: registrations (under client keys),
token rotations, invitations and chat messages sent in a burst while a master dies and its replica takes over.

Acknowledged (2xx) ones must all be there afterwards; refused ones (503) must not be half-done: a player's
token is the last one acknowledged to them (a refused rotation left the old one working), and a refused keyed
registration, sent again once the cluster is whole, answers one complete player (never a second account).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.adapters.runtime import Service
from services.infrastructure.eventstore import Keys

from .conftest import client_factory
from .test_api import bearer
from .test_cluster import cluster_settings
from .test_identity import register
from .test_invitations import open_game, seat_of

pytestmark = pytest.mark.cluster

CHAT_LINES = 300
"""Per game, at most: all of them fit in one page of its chat (and under ``chat_keep``)."""


class Burst:
    """Client threads writing until told to stop, noting what was acknowledged and what was refused."""

    def __init__(self, api: TestClient) -> None:
        self.api = api
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.registered: dict[str, dict] = {}  # client key -> the credentials acknowledged
        self.refused_keys: set[str] = set()
        self.tokens: dict[str, str] = {}  # player id -> the token last acknowledged to its holder
        self.chat: dict[str, list[str]] = {}  # game id -> acknowledged lines
        self.unsaid: list[tuple[str, dict, str, str]] = []  # (game, author, line, its key): refused, to send again
        self.invited: list[tuple[str, int, str]] = []  # (game id, seat, invitee handle) acknowledged
        self.refusals = 0
        self.pending: dict[str, str] = {}  # player id -> the idempotency key of a rotation not yet acknowledged
        self.threads: list[threading.Thread] = []

    def start(self, workers: dict[str, Any]) -> None:
        for name, work in workers.items():
            thread = threading.Thread(target=self._loop, args=(work,), name=name, daemon=True)
            thread.start()
            self.threads.append(thread)

    def _loop(self, work: Any) -> None:
        while not self.stop.is_set():
            response = work()
            if response is not None and response.status_code >= 500:
                assert response.status_code == 503 and response.headers.get("Retry-After"), response.text
                with self.lock:
                    self.refusals += 1

    def wait_registered(self, count: int) -> None:
        """Until ``count`` registrations were acknowledged; fails at once when a client thread died."""
        deadline = time.monotonic() + 120  # bounds a hang; times nothing
        while len(self.registered) < count:
            assert all(t.is_alive() for t in self.threads), "a client thread died (see its traceback)"
            assert time.monotonic() < deadline, f"only {len(self.registered)} registrations acknowledged"
            time.sleep(0.02)

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(60)

    def register(self) -> Any:
        key = uuid.uuid4().hex + "-burst"
        response = self.api.post("/players", json={"name": "Burst", "client_key": key})
        with self.lock:
            if response.status_code == 201:
                self.registered[key] = response.json()
                self.tokens[response.json()["player_id"]] = response.json()["token"]
            else:
                self.refused_keys.add(key)
        return response

    def rotate(self, player_id: str) -> Any:
        """A rotation under an idempotency key, sent again under the same key after a refusal."""
        key = self.pending.setdefault(player_id, uuid.uuid4().hex)
        response = self.api.post("/players/me/token", headers={**bearer(self.tokens[player_id]),
                                                                "Idempotency-Key": key})
        if response.status_code == 201:
            with self.lock:
                self.tokens[player_id] = response.json()["token"]
                del self.pending[player_id]
        return response

    def say(self, gid: str, who: dict, n: list[int], key: str | None = None, text: str = "") -> Any:
        """A chat line under an Idempotency-Key (a refused one is noted, to be sent again under its key)."""
        if key is None:
            if n[0] >= CHAT_LINES:
                time.sleep(0.01)
                return None
            n[0] += 1
            text, key = f"line {n[0]}", uuid.uuid4().hex
        response = self.api.post(f"/games/{gid}/chat", headers={**bearer(who["token"]), "Idempotency-Key": key},
                                 json={"text": text})
        assert response.status_code in (201, 503), response.text
        with self.lock:
            if response.status_code == 201:
                self.chat.setdefault(gid, []).append(text)
            else:
                self.unsaid.append((gid, who, text, key))
        return response

    def invite(self, ann: dict, open_seats: list[tuple[str, int, str]]) -> Any:
        if not open_seats:
            time.sleep(0.01)  # nothing left to invite to; the other threads carry on
            return None
        gid, seat, handle = open_seats[0]
        response = self.api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]),
                                 json={"handle": handle, "seat": seat})
        # a refused (503) invitation that stood anyway is answered as itself when sent again, never refused
        assert response.status_code in (201, 503), response.text
        if response.status_code == 201:
            open_seats.pop(0)
            with self.lock:
                self.invited.append((gid, seat, handle))
        return response


@pytest.fixture
def on_cluster(redis_cluster: Any, prefix: str) -> Iterator[Any]:
    with client_factory("cluster", prefix, redis_cluster) as clients:
        yield clients


@pytest.mark.slow
@pytest.mark.integration
def test_a_master_killed_during_a_burst_of_writes_loses_no_acknowledged_one(redis_cluster, on_cluster, prefix):
    settings = cluster_settings(prefix).model_copy(update={"append_replica_timeout_ms": 500})
    keys = Keys(settings.key_prefix, settings.shards)
    service = Service(settings, on_cluster, workers=1, queue_clients=on_cluster.queue).start()
    victim = None
    try:
        with TestClient(create_app(on_cluster(), settings, queue_client=on_cluster.queue())) as api:
            ann = register(api, "Ann")
            rotating = [register(api, f"Rot{i}") for i in range(4)]
            guests = [register(api, f"Guest{i}") for i in range(12)]
            games = [open_game(api, ann, seats=4) for _ in range(4)]
            seats = [(gid, seat, guests[3 * g + seat - 1]["handle"]) for g, gid in enumerate(games)
                     for seat in (1, 2, 3)]
            burst = Burst(api)
            for player in rotating:
                burst.tokens[player["player_id"]] = player["token"]
            counters = [[0] for _ in games]
            workers: dict[str, Any] = {"register": burst.register,
                                       "invite": lambda: burst.invite(ann, seats)}
            for i, player in enumerate(rotating):
                workers[f"rotate{i}"] = lambda p=player["player_id"]: burst.rotate(p)
            for i, gid in enumerate(games):
                workers[f"chat{i}"] = lambda g=gid, c=counters[i]: burst.say(g, ann, c)
            burst.start(workers)
            burst.wait_registered(5)  # writing before the kill
            victim = max(redis_cluster.masters(), key=lambda n: sum(
                redis_cluster.node_of_key(keys.player(p["player_id"])).port == n.port for p in rotating + guests))
            replicas = redis_cluster.replicas_of(victim)
            before = len(burst.registered)
            victim.kill()
            redis_cluster.wait_promoted(replicas, timeout=30)
            victim.start()  # back, as a replica of its successor (as a restarted pod)
            victim.wait_up()
            redis_cluster.wait_replicated(timeout=30)
            victim = None
            after = len(burst.registered)
            burst.wait_registered(after + 5)  # writing after the cluster is whole again
            burst.finish()

            # A refused rotation sent again (same old token, same key) completes: the client gets its token.
            for player_id in list(burst.pending):
                assert burst.rotate(player_id).status_code == 201, player_id
            # Every acknowledged registration and rotation: the token last acknowledged works.
            for player_id, token in burst.tokens.items():
                me = api.get("/players/me", headers=bearer(token))
                assert me.status_code == 200 and me.json()["player_id"] == player_id, (player_id, me.text)
            # A refused keyed registration sent again answers one complete player.
            for key in burst.refused_keys:
                again = api.post("/players", json={"name": "Burst", "client_key": key})
                assert again.status_code == 201, again.text
                assert api.get("/players/me", headers=bearer(again.json()["token"])).status_code == 200
            players = len(list(on_cluster().scan_iter(match=f"{settings.key_prefix}player:*", target_nodes="primaries")))
            assert players == 1 + len(rotating) + len(guests) + len(burst.registered) + len(burst.refused_keys)
            # A refused chat line sent again under its key is said once.
            refused_lines = list(burst.unsaid)
            for gid, who, text, key in refused_lines:
                assert burst.say(gid, who, [0], key, text).status_code == 201
            # Every acknowledged chat line and invitation is there, each line once.
            for gid, lines in burst.chat.items():
                said = [m["text"] for m in api.get(f"/games/{gid}/chat", headers=bearer(ann["token"]),
                                                   params={"limit": 500}).json()["messages"]]
                assert set(lines) <= set(said), sorted(set(lines) - set(said))
                assert sorted(said) == sorted(set(said)), "a retried line was said twice"
            for gid, seat, handle in burst.invited:
                invited = seat_of(api, gid, seat, lambda s: s["invited"] is not None)["invited"]
                assert invited and invited["handle"] == handle, (gid, seat, invited)
            print(f"burst: {len(burst.registered)} registrations acknowledged ({before} before the kill), "
                  f"{len(burst.refused_keys)} refused and completed by their retry, "
                  f"{sum(1 for _ in burst.tokens)} players' tokens checked, "
                  f"{sum(len(v) for v in burst.chat.values())} chat lines ({len(refused_lines)} refused and sent "
                  f"again), {len(burst.invited)} invitations, "
                  f"{burst.refusals} refusals (503) in all")
    finally:
        service.stop()
        if victim is not None:
            victim.start()
            victim.wait_up()
            redis_cluster.wait_healthy(timeout=30)
            redis_cluster.wait_replicated(timeout=30)
