"""A private Redis Cluster for tests: three masters and three replicas on free loopback ports, started from the
``redis-server`` binary (``--cluster-enabled yes``) in a temporary directory and joined with
``redis-cli --cluster create ... --cluster-replicas 1``. Started once per test session (about 3 s), torn down at
the end; the failover test kills one of its masters and waits for the replica's promotion.

Locally a missing ``redis-server``/``redis-cli`` skips the cluster tests; with ``CI`` set they fail instead.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import redis
from redis.cluster import RedisCluster

NODE_TIMEOUT_MS = 1000
"""``cluster-node-timeout``: how long a silent master is given before its replica takes over (failover takes
about twice this)."""


def cluster_port(taken: frozenset[int] = frozenset()) -> int:
    """A free loopback port whose cluster bus port (port + 10000) is free as well; from
    ``TAPROOM_TEST_CLUSTER_PORTS`` (``low-high``, e.g. ``7400-7499``) when set, so sessions sharing a machine can
    keep their clusters apart."""
    import random
    import socket

    low, high = (int(p) for p in os.environ.get("TAPROOM_TEST_CLUSTER_PORTS", "20000-45000").split("-"))
    for _ in range(200):
        port = random.randint(low, high)
        if port in taken:
            continue
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 10000))
            return port
        except OSError:
            continue
    raise RuntimeError("no free port pair for a cluster node")


def need_cluster_binaries() -> tuple[str, str]:
    server, cli = shutil.which("redis-server"), shutil.which("redis-cli")
    if server is None or cli is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs redis-server and redis-cli on PATH for the Redis Cluster tests")
        pytest.skip("no redis-server/redis-cli on PATH: the Redis Cluster tests need them")
    return server, cli


class ClusterNode:
    def __init__(self, binary: str, directory: Path, port: int) -> None:
        self.binary, self.dir, self.port = binary, directory, port
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
             "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--appendonly", "no", "--save", "",
             "--protected-mode", "yes", "--logfile", str(self.dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_connect_timeout=1, socket_timeout=2)

    def wait_up(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        with self.client() as client:
            while True:
                try:
                    client.ping()
                    return
                except redis.RedisError:
                    if time.monotonic() > deadline or (self.proc is not None and self.proc.poll() is not None):
                        raise RuntimeError(f"cluster node on port {self.port} did not start") from None
                    time.sleep(0.05)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """``kill -9``: the node vanishes without a word, as a crashed machine would."""
        if self.alive:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.alive:
            assert self.proc is not None
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class RedisClusterServers:
    """Six ``redis-server`` processes joined into one cluster (3 masters, 1 replica each)."""

    def __init__(self, directory: Path, masters: int = 3) -> None:
        self.server, self.cli = need_cluster_binaries()
        self.dir = directory
        ports: list[int] = []
        for _ in range(masters * 2):
            ports.append(cluster_port(frozenset(ports)))
        self.nodes = [ClusterNode(self.server, directory / f"node{i}", port) for i, port in enumerate(ports)]

    @property
    def url(self) -> str:
        """A startup node (the client learns the others from it)."""
        return f"redis://127.0.0.1:{self.nodes[0].port}/0"

    @property
    def startup_nodes(self) -> list[tuple[str, int]]:
        return [("127.0.0.1", n.port) for n in self.nodes]

    def start(self, timeout: float = 30.0) -> RedisClusterServers:
        for node in self.nodes:
            node.start()
        for node in self.nodes:
            node.wait_up()
        addresses = [f"127.0.0.1:{n.port}" for n in self.nodes]
        subprocess.run([self.cli, "--cluster", "create", *addresses, "--cluster-replicas", "1", "--cluster-yes"],
                       check=True, capture_output=True, timeout=timeout)
        self.wait_healthy(timeout)
        self.wait_replicated(timeout)
        return self

    def wait_healthy(self, timeout: float = 30.0) -> None:
        """Until every live node says the cluster is ok and all 16384 slots are served."""
        deadline = time.monotonic() + timeout
        while True:
            if all(self._ok(node) for node in self.nodes if node.alive):
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not become healthy")
            time.sleep(0.1)

    def wait_replicated(self, timeout: float = 30.0) -> None:
        """Until every master has a replica in sync (``WAIT`` on appends needs one)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if all(self._replicated(node) for node in self.masters()):
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("a master of the Redis Cluster has no replica in sync")
            time.sleep(0.1)

    @staticmethod
    def _replicated(node: ClusterNode) -> bool:
        with node.client() as client:
            info = client.info("replication")
        return any(isinstance(v, dict) and v.get("state") == "online" for k, v in info.items()
                   if k.startswith("slave"))

    @staticmethod
    def _ok(node: ClusterNode) -> bool:
        try:
            with node.client() as client:
                info = client.cluster("INFO")
        except redis.RedisError:
            return False
        return str(info.get("cluster_state")) == "ok" and int(info.get("cluster_slots_ok", 0)) == 16384

    def replicas_of(self, master: ClusterNode) -> list[ClusterNode]:
        found = []
        for node in self.nodes:
            if node.alive and node is not master:
                with node.client() as client:
                    info = client.info("replication")
                if info.get("role") == "slave" and int(info.get("master_port", 0)) == master.port:
                    found.append(node)
        return found

    def wait_promoted(self, replicas: list[ClusterNode], timeout: float = 30.0) -> ClusterNode:
        """Until one of ``replicas`` (of a master that died) has taken over as master and the cluster is ok."""
        deadline = time.monotonic() + timeout
        while True:
            for node in replicas:
                try:
                    with node.client() as client:
                        if client.info("replication").get("role") == "master":
                            self.wait_healthy(max(1.0, deadline - time.monotonic()))
                            return node
                except redis.RedisError:
                    pass
            if time.monotonic() > deadline:
                raise RuntimeError("no replica took over the dead master")
            time.sleep(0.05)

    def masters(self) -> list[ClusterNode]:
        """The live nodes that serve slots as masters now."""
        found = []
        for node in self.nodes:
            if not node.alive:
                continue
            with node.client() as client:
                if client.info("replication").get("role") == "master":
                    found.append(node)
        return found

    def node_of_key(self, key: str) -> ClusterNode:
        with self.client() as client:
            primary = client.get_node_from_key(key)
        return next(n for n in self.nodes if n.port == int(primary.port))

    def client(self) -> RedisCluster:
        return RedisCluster(startup_nodes=[redis.cluster.ClusterNode(h, p) for h, p in self.startup_nodes])

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def cleanup_cluster(client: RedisCluster, prefix: str) -> None:
    """Delete every key under ``prefix`` on every master (SCAN runs per node)."""
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    for key in keys:
        client.delete(key)
