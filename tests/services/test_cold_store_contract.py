"""The cold store's contract (``services.infrastructure.eventstore.archived.ColdStore``), held against every store:
the directory (the embedded default) and the real PostgreSQL (a deployment's)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from services.infrastructure.coldstore import PostgresStore
from services.infrastructure.coldstore.migrate import current, head, upgrade
from services.infrastructure.eventstore.archived import DirectoryStore, open_uri

ALL_BYTES = bytes(range(256)) * 17


@pytest.fixture(params=["directory", pytest.param("postgres", marks=pytest.mark.integration)])
def opened(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], object]]:
    """Opens a new store object on one place each call (a directory, or a PostgreSQL database): a fresh
    one is what another process, on another machine, has."""
    made: list[PostgresStore] = []

    def open_one() -> object:
        if request.param == "directory":
            return DirectoryStore(tmp_path / "cold")
        made.append(PostgresStore(request.getfixturevalue("postgres_url")))
        return made[-1]

    yield open_one
    for store in made:
        store.close()


def read_uri(store, uri: str) -> bytes:
    """What another process does with the URI an archive pointer names: its own store object reads it."""
    return store.read_uri(uri) if isinstance(store, PostgresStore) else open_uri(uri)


def test_objects_read_back_byte_for_byte_from_another_store_object(opened):
    writer = opened()
    uris = writer.put_many({"tr/s1/g1.jsonl.gz": ALL_BYTES, "tr/s1/g1.side.json.gz": b"{}"})
    assert set(uris) == {"tr/s1/g1.jsonl.gz", "tr/s1/g1.side.json.gz"}
    assert uris["tr/s1/g1.jsonl.gz"] == writer.uri("tr/s1/g1.jsonl.gz")
    reader = opened()  # another process, another machine: nothing in memory, nothing local
    assert reader.get("tr/s1/g1.jsonl.gz") == ALL_BYTES
    assert read_uri(reader, uris["tr/s1/g1.jsonl.gz"]) == ALL_BYTES
    assert read_uri(reader, uris["tr/s1/g1.side.json.gz"]) == b"{}"
    assert reader.exists("tr/s1/g1.jsonl.gz") and not reader.exists("tr/s1/g2.jsonl.gz")


def test_a_name_stored_again_is_replaced_whole(opened):
    store = opened()
    store.put("tr/s0/g.jsonl.gz", ALL_BYTES)
    assert store.put("tr/s0/g.jsonl.gz", b"short") == store.uri("tr/s0/g.jsonl.gz")
    assert opened().get("tr/s0/g.jsonl.gz") == b"short"


def test_a_missing_object_and_a_deleted_one_are_not_found(opened):
    store = opened()
    with pytest.raises(FileNotFoundError):
        store.get("tr/s0/none.jsonl.gz")
    store.put("tr/s0/gone.jsonl.gz", b"x")
    store.delete("tr/s0/gone.jsonl.gz")
    store.delete("tr/s0/gone.jsonl.gz")  # nothing there: nothing happens
    assert not store.exists("tr/s0/gone.jsonl.gz")
    with pytest.raises(FileNotFoundError):
        opened().get("tr/s0/gone.jsonl.gz")


@pytest.mark.parametrize("name", ["/etc/passwd", "tr/../../x", "", "../x"])
def test_a_name_that_is_not_relative_is_refused(opened, name):
    store = opened()
    with pytest.raises(ValueError):
        store.put(name, b"x")
    with pytest.raises(ValueError):
        store.get(name)


# -- PostgreSQL's own: one transaction, migrations -------------------------------------------------------------
class FailsInTheMiddle(PostgresStore):
    """The objects are written, then the transaction fails before its end (the result rows)."""

    def _write_results(self, cur, results) -> None:
        raise psycopg.OperationalError("the connection broke in the middle of the archive's transaction")


@pytest.mark.integration
def test_a_failure_in_the_middle_of_put_many_stores_nothing(postgres_url, request):
    from services.infrastructure.coldstore import GameResult

    row = GameResult("g", 0, "player:ann", "Ann", "counter", 1, 10.0, True, 1_700_000_000.0)
    failing = FailsInTheMiddle(postgres_url)
    request.addfinalizer(failing.close)
    with pytest.raises(psycopg.OperationalError):
        failing.put_many({"tr/s0/g.jsonl.gz": b"record", "tr/s0/g.side.json.gz": b"side"}, [row])
    store = PostgresStore(postgres_url)
    request.addfinalizer(store.close)
    assert not store.exists("tr/s0/g.jsonl.gz") and not store.exists("tr/s0/g.side.json.gz")
    assert store.results_of("g") == []
    store.put_many({"tr/s0/g.jsonl.gz": b"record"}, [row])
    assert store.results_of("g") == [row]


@pytest.mark.integration
def test_migrations_reach_the_head_and_run_again_harmlessly(postgres_url):
    assert current(postgres_url) == head() == "0001"
    assert upgrade(postgres_url) == "0001"  # a second run (another part starting) changes nothing


@pytest.mark.integration
def test_postgresql_down_is_an_outage_the_parts_ride_out():
    from services.infrastructure.resilience import UNAVAILABLE

    store = PostgresStore("postgresql://postgres@127.0.0.1:1/taproom", timeout=1.0, connect_timeout=1)
    with pytest.raises(UNAVAILABLE):
        store.get("tr/s0/g.jsonl.gz")
    store.close()


@pytest.mark.integration
def test_a_part_with_cold_store_migrate_moves_the_schema_at_first_use_and_migrate_checks_it(settings):
    import json
    import os
    import subprocess
    import sys

    from services.infrastructure.bootstrap import bootstrap, close_cold_stores

    from .postgres import database

    with database(migrated=False) as url:
        taproom = os.path.join(os.path.dirname(sys.executable), "taproom")
        env = dict(os.environ, TAPROOM_COLD_STORE_URL=url)
        check = subprocess.run([taproom, "migrate", "--check"], env=env, capture_output=True, text=True)
        assert check.returncode == 1 and json.loads(check.stdout) == {"revision": None, "head": "0001"}
        assert current(url) is None
        try:
            root = bootstrap(settings.model_copy(update={"cold_store_url": url, "cold_store_migrate": True}))
            assert current(url) is None  # started without touching PostgreSQL (it may be down)
            assert root.cold.put_many({"tr/s0/g.jsonl.gz": b"x"}) == {"tr/s0/g.jsonl.gz": "pgcold:tr/s0/g.jsonl.gz"}
            assert current(url) == "0001"  # migrated at the first use
        finally:
            close_cold_stores()
        check = subprocess.run([taproom, "migrate", "--check"], env=env, capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr


def test_a_cold_store_url_of_another_kind_is_refused_with_a_clear_error(settings):
    from services.infrastructure.bootstrap import cold_store_for

    with pytest.raises(ValueError, match="no cold store for 's3' URLs"):
        cold_store_for(settings.model_copy(update={"cold_store_url": "s3://bucket/archive"}))


@pytest.mark.integration
def test_a_migration_that_fails_while_postgresql_is_down_is_tried_again_at_the_next_use():
    from services.infrastructure.resilience import UNAVAILABLE

    calls: list[int] = []

    def prepare() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise psycopg.OperationalError("PostgreSQL is starting up")

    store = PostgresStore("postgresql://postgres@127.0.0.1:1/none", prepare=prepare, timeout=0.5, connect_timeout=1)
    with pytest.raises(UNAVAILABLE):
        store.get("tr/s0/g.jsonl.gz")
    with pytest.raises(UNAVAILABLE):  # prepared this time; the pool still finds nobody on port 1
        store.get("tr/s0/g.jsonl.gz")
    assert len(calls) == 2
    store.close()
