"""The xdist set-up of tests/conftest.py: each worker its own Redis database, heavy tests grouped."""

from __future__ import annotations

import pytest

from tests.conftest import worker_redis_url, xdist_group_of


def test_each_worker_moves_the_database_number_by_its_index():
    base = "redis://127.0.0.1:6379/13"
    assert worker_redis_url(base, None) == base  # plain pytest: serial, the base database
    assert worker_redis_url(base, "gw0") == base
    assert worker_redis_url(base, "gw1") == "redis://127.0.0.1:6379/14"
    assert worker_redis_url("redis://:pw@127.0.0.1:6380/8?protocol=3", "gw1") == "redis://:pw@127.0.0.1:6380/9?protocol=3"
    assert worker_redis_url("redis://127.0.0.1:6379", "gw1") == "redis://127.0.0.1:6379/1"


@pytest.mark.parametrize("marks,fixtures,group", [
    (["chaos"], [], "chaos"), (["browser", "slow"], [], "browser"), (["cluster_backend"], [], "cluster"),
    ([], ["redis_cluster", "prefix"], "cluster"), (["slow", "integration"], ["client"], None),
])
def test_heavy_tests_get_their_group(marks, fixtures, group):
    class Item:
        fixturenames = fixtures

        def get_closest_marker(self, name):
            return name if name in marks else None

    assert xdist_group_of(Item()) == group  # type: ignore[arg-type]
