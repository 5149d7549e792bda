"""deploy/k8s/redis-cluster-create.sh run for real on six private redis-servers: three masters holding 64 of the
192 shards each, a replica each, and a master killed is replaced by its replica with the same shards."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from tests.services.redis_server import need_redis_server

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "k8s" / "redis-cluster-create.sh"


def _cluster_port(taken: list[int]) -> int:
    """A free port whose cluster bus port (+10000) is free too (an ephemeral port's would pass 65535)."""
    import random
    import socket

    while True:
        port = random.randint(20000, 30000)
        if port in taken or port + 10000 in taken:
            continue
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 10000))
            return port
        except OSError:
            continue


def _taproom() -> str:
    return os.path.join(os.path.dirname(sys.executable), "taproom")


@pytest.mark.integration
@pytest.mark.slow
def test_the_create_script_spreads_192_shards_64_a_master_and_a_failover_keeps_them(tmp_path):
    binary = need_redis_server()
    if subprocess.run(["which", "redis-cli"], capture_output=True).returncode:
        pytest.fail("redis-cli is needed beside redis-server") if os.environ.get("CI") else pytest.skip("no redis-cli")
    ports: list[int] = []
    for _ in range(6):
        ports.append(_cluster_port(ports))
    procs = []
    try:
        for port in ports:
            directory = tmp_path / str(port)
            directory.mkdir()
            procs.append(subprocess.Popen(
                [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory), "--save", "",
                 "--cluster-enabled", "yes", "--cluster-node-timeout", "1000", "--maxmemory", "64mb",
                 "--maxmemory-policy", "noeviction"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for port in ports:
            deadline = time.monotonic() + 10
            while True:
                try:
                    redis.Redis(port=port).ping()
                    break
                except redis.ConnectionError:
                    assert time.monotonic() < deadline
                    time.sleep(0.05)
        env = dict(os.environ, REDIS_URL=f"redis://127.0.0.1:{ports[0]}/0", TAPROOM_SHARDS="192")
        ranges = subprocess.run([_taproom(), "shards", "layout", "--masters", "3", "--plain"], env=env,
                                capture_output=True, text=True, check=True).stdout.strip()
        nodes = " ".join(f"127.0.0.1:{p}" for p in ports)
        created = subprocess.run(["sh", str(SCRIPT), nodes, ranges], capture_output=True, text=True, timeout=120)
        assert created.returncode == 0, created.stdout + created.stderr

        def spread() -> dict[str, int]:
            answer = subprocess.run([_taproom(), "shards", "spread"], env=env, capture_output=True, text=True,
                                    check=True)
            return json.loads(answer.stdout)["masters"]

        assert sorted(spread().values()) == [64, 64, 64]
        assert sorted(spread()) == sorted(f"127.0.0.1:{p}" for p in ports[:3])
        again = subprocess.run(["sh", str(SCRIPT), nodes, ranges], capture_output=True, text=True, timeout=60)
        assert "already created" in again.stdout  # a second run (the Job restarted) changes nothing
        # the script ended once every replica finished its first sync: only then can one be promoted
        assert redis.Redis(port=ports[4]).info("replication")["master_link_status"] == "up"
        procs[1].send_signal(signal.SIGKILL)  # a master lost: its replica (the fifth node) takes its slots
        procs[1].wait(10)
        deadline = time.monotonic() + 120  # bounds a hang; the failover itself takes seconds
        while f"127.0.0.1:{ports[4]}" not in spread():
            assert time.monotonic() < deadline, spread()
            time.sleep(0.2)
        assert sorted(spread().values()) == [64, 64, 64]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
