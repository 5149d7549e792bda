"""The health port of the parts without an HTTP API: /livez follows their loops, /readyz also Redis."""

from __future__ import annotations

import threading
import time

import fakeredis
import httpx
import pytest
import redis
from click.testing import CliRunner

from services.adapters.cli.main import cli
from services.infrastructure import health
from services.infrastructure.resilience import ride_out

from .redis_server import free_port


@pytest.fixture
def served():
    servers = []

    def start(pings):  # type: ignore[no-untyped-def]
        port = free_port()
        # only this test's loops: other tests of the session may leave threads of their own behind
        servers.append(health.serve(port, stale_seconds=0.5, pings=pings, host="127.0.0.1", only="test-"))
        return f"http://127.0.0.1:{port}"

    yield start
    for server in servers:
        server.shutdown()


def test_a_turning_loop_on_a_reachable_redis_is_alive_and_ready(served):
    url = served({"event_store": fakeredis.FakeRedis().ping})
    stop = threading.Event()
    loop = threading.Thread(target=ride_out, args=("test-loop", lambda: time.sleep(0.01), stop), daemon=True)
    loop.start()
    try:
        time.sleep(0.05)
        ready = httpx.get(f"{url}/readyz")
        loops = ready.json()["loops"]
        assert ready.status_code == 200 and [v["redis"] for k, v in loops.items() if k.startswith("test-loop")] == ["ok"]
        assert httpx.get(f"{url}/livez").status_code == 200
        result = CliRunner().invoke(cli, ["health", "--port", url.rsplit(":", 1)[1]])
        assert result.exit_code == 0 and '"ready":true' in result.output
    finally:
        stop.set()
        loop.join(2)
    # A loop that ended is forgotten; one that stops turning (stuck) makes the process not alive.
    health.beat("test-stuck", ok=True)
    time.sleep(0.6)
    assert httpx.get(f"{url}/livez").status_code == 503
    health.forget("test-stuck")
    assert CliRunner().invoke(cli, ["health", "--live", "--port", url.rsplit(":", 1)[1]]).exit_code == 1


def test_a_loop_riding_out_an_outage_is_alive_but_not_ready(served):
    def down() -> None:
        raise redis.ConnectionError("gone")

    url = served({"event_store": down})
    stop = threading.Event()
    loop = threading.Thread(target=ride_out, args=("test-outage", down, stop), daemon=True)
    loop.start()
    try:
        time.sleep(0.1)
        assert httpx.get(f"{url}/livez").status_code == 200  # an outage restarts nothing
        answer = httpx.get(f"{url}/readyz")
        assert answer.status_code == 503
        assert answer.json()["redis"]["event_store"].startswith("down")
        assert [v["redis"] for k, v in answer.json()["loops"].items() if k.startswith("test-outage")] == ["down"]
    finally:
        stop.set()
        loop.join(3)


def test_no_health_port_is_a_usage_error(monkeypatch):
    monkeypatch.delenv("TAPROOM_HEALTH_PORT", raising=False)
    from services.infrastructure.settings import get_settings

    get_settings.cache_clear()
    result = CliRunner().invoke(cli, ["health"])
    assert result.exit_code == 2 and "TAPROOM_HEALTH_PORT" in result.output


def test_the_health_server_binds_the_host_the_api_binds(monkeypatch):
    """Not every interface (it used to bind 0.0.0.0 while the API bound 127.0.0.1): ``TAPROOM_HOST`` for both."""
    from services.adapters.cli import main
    from services.infrastructure.settings import Settings

    bound: list[str] = []
    monkeypatch.setattr(health, "serve", lambda *args, host, **kwargs: bound.append(host))
    main._health_server(Settings(health_port=9, host="127.0.0.2"), fakeredis.FakeRedis(), fakeredis.FakeRedis())
    assert bound == ["127.0.0.2"]
