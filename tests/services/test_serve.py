"""`taproom serve` (the README's first command) starts the whole service with no Redis server."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

from tests.services.helpers import game_moves


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


@pytest.mark.integration
@pytest.mark.slow
def test_serve_with_two_api_processes_on_a_shared_redis(prefix):
    """`taproom serve --api-workers 2` (uvicorn with uvloop and httptools, two API processes on one port) plays
    moves whichever process answers: each catches its cached records up with the log, and a move's answer
    carries the seats to act and, while the mover is still to act, its legal commands."""
    from .conftest import REAL_URL, cleanup, real_redis

    client = real_redis()
    port = free_port()
    env = dict(os.environ, REDIS_URL=REAL_URL, TAPROOM_KEY_PREFIX=prefix, TAPROOM_RQ_QUEUE=f"q-{prefix.strip(':')}",
               TAPROOM_LOG_LEVEL="WARNING")
    taproom = os.path.join(os.path.dirname(sys.executable), "taproom")
    proc = subprocess.Popen([taproom, "serve", "--port", str(port), "--workers", "1", "--api-workers", "2"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).json()["status"] == "ok":
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read().decode()[-2000:]
            time.sleep(0.2)
        created = httpx.post(f"{base}/games", json={"game": "carcassonne", "seats": [{"name": "a"}, {"name": "b"}]},
                             timeout=10).json()
        gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
        for move in range(6):
            seat = next(s for s in (0, 1) if game_moves(httpx.get(f"{base}/games/{gid}/legal", timeout=10,
                                                                  headers={"Authorization": f"Bearer {tokens[s]}"}).json()))
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = httpx.get(f"{base}/games/{gid}/legal", headers=auth, timeout=10).json()
            command = {**game_moves(legal)[0], "command_id": f"m{move}"}
            answer = httpx.post(f"{base}/games/{gid}/commands", json=command, headers=auth, timeout=10)
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert body["version"] > legal["version"] and body["to_act"]
            if seat in body["to_act"]:  # placed a tile: the figure (or a pass) follows, offered in the answer
                assert body["legal"]["seat"] == seat and body["legal"]["commands"]
            else:
                assert "legal" not in body
        assert "taproom_http_requests_total" in httpx.get(f"{base}/metrics", timeout=10).text
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(15)
        cleanup(client, prefix)
