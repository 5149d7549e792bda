"""`taproom serve` (the README's first command) starts the whole service with no Redis server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_runs_embedded_and_plays_a_bot_game():
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["TAPROOM_ALLOW_CLIENT_SEED"] = "true"
    taproom = os.path.join(os.path.dirname(sys.executable), "taproom")
    proc = subprocess.Popen([taproom, "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).json()["status"] == "ok":
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read().decode()[-2000:]
            time.sleep(0.2)
        host = httpx.post(f"{base}/players", json={"name": "host"}, timeout=10).json()["token"]
        created = httpx.post(f"{base}/games", headers={"Authorization": f"Bearer {host}"},
                             # the quickest of the games for random bots: what is tested here is `serve`
                             # (every game plays through the same embedded pipeline in test_games_service)
                             json={"game": "heaven-and-ale", "seed": "serve",
                                   "seats": [{"bot": "random"}, {"bot": "random"}]}, timeout=10)
        assert created.status_code == 201, created.text
        gid = created.json()["game_id"]
        while time.monotonic() < deadline + 60:
            if httpx.get(f"{base}/games/{gid}", timeout=5).json().get("status") == "scored":
                break
            time.sleep(0.2)
        assert httpx.get(f"{base}/games/{gid}", timeout=5).json()["status"] == "scored"
    finally:
        proc.terminate()
        proc.wait(10)
