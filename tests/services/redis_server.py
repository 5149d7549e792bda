"""A private redis-server for tests that kill Redis (never the shared one): a free loopback port, its own
directory, AOF fsynced on every write (what an acknowledged command needs to survive ``kill -9``)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def need_redis_server() -> str:
    """The redis-server binary, or skip (locally) / fail (in CI, where these tests must run)."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs the redis-server binary on PATH for the outage and chaos tests")
        pytest.skip("no redis-server on PATH")
    return binary


class RedisServer:
    def __init__(self, directory: Path, port: int | None = None) -> None:
        self.binary = need_redis_server()
        self.dir = directory
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 15.0) -> RedisServer:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
             "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--protected-mode", "yes",
             "--logfile", str(self.dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()  # answers LOADING (an error) until the AOF is replayed
                return self
            except redis.RedisError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError(f"redis-server on port {self.port} did not start") from None
                time.sleep(0.05)
            finally:
                client.close()

    def kill(self) -> None:
        """``kill -9``: no shutdown, no final fsync."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
