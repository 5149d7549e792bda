"""A Redis at its ``maxmemory`` with ``noeviction`` (issue 35: the deployments refuse writes rather than drop data)
refuses every write with OOM; the API answers 503 ``unavailable`` with ``Retry-After`` for it (not a 500), and
writes go through again once there is room."""

from __future__ import annotations

import pytest
import redis
from fastapi.testclient import TestClient

from domain.catalog import load_games
from services.adapters.api.app import create_app
from services.infrastructure.bootstrap import client_factory

from .redis_server import RedisServer


@pytest.mark.integration
def test_a_full_redis_answers_503_with_retry_after_and_recovers(tmp_path, settings):
    load_games()
    server = RedisServer(tmp_path / "redis").start()
    try:
        admin = redis.Redis(port=server.port)
        settings = settings.model_copy(update={"redis_url": server.url})
        with TestClient(create_app(client_factory(settings)(), settings)) as api:
            assert api.post("/players", json={"name": "ann"}).status_code == 201
            used = int(admin.info("memory")["used_memory"])
            admin.config_set("maxmemory-policy", "noeviction")
            admin.config_set("maxmemory", used)  # full: every write is refused from now on
            with pytest.raises(redis.exceptions.OutOfMemoryError):
                admin.set("probe", "x" * 1000)
            refused = api.post("/players", json={"name": "bob"})
            assert refused.status_code == 503, refused.text
            assert refused.json()["code"] == "unavailable" and refused.headers["Retry-After"]
            admin.config_set("maxmemory", 0)  # room again (the operator added memory or masters)
            assert api.post("/players", json={"name": "bob"}).status_code == 201
    finally:
        server.stop()
