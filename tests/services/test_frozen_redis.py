"""Bounded waits (issue 35, defect 6): a frozen Redis (``SIGSTOP``: it accepts connections and never answers) gets
503 with ``Retry-After`` within a few seconds on every request path, never a hung request; once it thaws
(``SIGCONT``) the same requests succeed again.

A private redis-server (``tests/services/redis_server.py``), the API on a real uvicorn, the HTTP client with a
generous timeout: a request that has not answered within ``HANG_SECONDS`` fails the test as hung (a bound on a
hang, not a performance claim: the figures are printed).
"""

from __future__ import annotations

import os
import signal
import time

import httpx
import pytest

from services.adapters.api.app import create_app
from services.infrastructure.bootstrap import client_factory

from .redis_server import RedisServer
from .test_api import bearer, new_game, served
from .test_outages import Parts

HANG_SECONDS = 20.0


@pytest.mark.integration
def test_a_frozen_redis_answers_503_with_retry_after_never_a_hung_request(tmp_path, settings):
    server = RedisServer(tmp_path / "redis").start()
    assert server.proc is not None
    frozen = False
    try:
        settings = settings.model_copy(update={"redis_url": server.url, "command_wait_seconds": 2.0,
                                               "redis_socket_timeout_seconds": 1.0})
        clients = client_factory(settings)
        with Parts(clients, settings), served(create_app(clients(), settings)) as (url, _), \
                httpx.Client(base_url=url, timeout=HANG_SECONDS) as http:
            game = new_game(http)
            gid, ann = game["game_id"], bearer(game["seats"][0]["token"])
            assert http.get(f"/games/{gid}/legal", headers=ann).status_code == 200

            os.kill(server.proc.pid, signal.SIGSTOP)
            frozen = True
            figures = []
            for method, path, body in (("POST", f"/games/{gid}/commands", {"command_id": "f1", "type": "Add",
                                                                           "amount": 1}),
                                       ("GET", f"/games/{gid}/view", None), ("GET", f"/games/{gid}/legal", None),
                                       ("GET", f"/games/{gid}", None), ("POST", "/players", {"name": "Cy"}),
                                       ("GET", "/health", None)):
                started = time.monotonic()
                try:
                    answer = http.request(method, path, headers=ann, json=body)
                except httpx.TimeoutException:
                    pytest.fail(f"{method} {path} hung on a frozen Redis (no answer within {HANG_SECONDS} s)")
                figures.append(f"{method} {path.replace(gid, '<game>')} {time.monotonic() - started:.2f} s")
                assert answer.status_code == 503, (method, path, answer.status_code, answer.text)
                assert answer.headers.get("Retry-After"), (method, path, answer.headers)
            print("frozen Redis, time to 503: " + "; ".join(figures))

            os.kill(server.proc.pid, signal.SIGCONT)
            frozen = False
            # The command refused while frozen may have been queued before the freeze bit: sent again under its
            # id it gets its one outcome; the game carries on.
            deadline = time.monotonic() + HANG_SECONDS
            while (again := http.post(f"/games/{gid}/commands", headers=ann,
                                      json={"command_id": "f1", "type": "Add", "amount": 1})).status_code != 200:
                assert again.status_code in (202, 503) and time.monotonic() < deadline, again.text
                time.sleep(0.1)
            assert again.json()["status"] == "accepted"
            assert http.get(f"/games/{gid}/view", headers=ann).status_code == 200
    finally:
        if frozen:
            os.kill(server.proc.pid, signal.SIGCONT)
        server.stop()
