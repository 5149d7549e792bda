"""Archiving into the PostgreSQL cold store (issue 35): the record, its side object and the game's result rows in
one transaction, read back and verified before Redis lets the game go; the archived game read by another
process that has nothing of it but Redis and the database (defect 1: as deployed, the worker's files were
out of every other process's reach)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import orjson
import pytest

from domain.catalog import load_games
from services.infrastructure.archive import Archiver
from services.infrastructure.bootstrap import bootstrap, close_cold_stores
from services.infrastructure.coldstore import PostgresStore
from services.infrastructure.settings import Settings

from .helpers import Kernel
from .redis_server import free_port
from .test_api_replay import play_whole_game
from .test_archive import _game_keys
from .test_cold_store_contract import FailsInTheMiddle

load_games()
pytestmark = pytest.mark.integration


@pytest.fixture
def pg_settings(settings: Settings, postgres_url: str) -> Iterator[Settings]:
    yield settings.model_copy(update={"cold_store_url": postgres_url, "archive_dir": "/nonexistent/taproom-archive"})
    close_cold_stores()


def scored_counter(kernel: Kernel) -> str:
    """A finished game of the test's counter: Ann (a registered player) against a bot."""
    import uuid

    gid = uuid.uuid4().hex[:10]
    created = kernel.send(gid, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": 4},
                                "seats": [{"name": "Ann", "player_id": "ann1"}, {"name": "Bot", "bot": "random"}],
                                "seed_commitment": ""}, dev_seed="pg")
    assert created.accepted, created
    seat = 0
    while kernel.processor.repo.current(gid).record.status == "active":
        assert kernel.add(gid, seat, 2).accepted
        seat = 1 - seat
    assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
    return gid


def test_the_game_its_side_object_and_its_results_are_archived_and_read_back(client, pg_settings, postgres_url):
    kernel = Kernel(client, pg_settings)
    gid = scored_counter(kernel)
    events_before = [e.model_dump() for e in kernel.store.read(gid)]
    root = bootstrap(pg_settings, client)
    assert isinstance(root.cold, PostgresStore)
    result = Archiver.from_root(root).archive(gid)  # what the worker's archive job runs
    assert result.status == "archived", result
    pointer = orjson.loads(client.get(kernel.keys.archived(gid)))
    assert pointer["uri"].startswith("pgcold:") and pointer["side_uri"].startswith("pgcold:")
    assert "postgres" not in pointer["uri"]  # no credentials in Redis
    assert set(_game_keys(kernel, gid)) == {"meta", "arch"}
    # a fresh composition root (another process: an empty cache, no directory) reads the same events
    close_cold_stores()
    again = bootstrap(pg_settings, client)
    assert [e.model_dump() for e in again.store.read(gid)] == events_before
    # the results table, without Redis
    store = PostgresStore(postgres_url)
    try:
        rows = store.results_of(gid)
        assert [(r.seat, r.player, r.name, r.title, r.rated) for r in rows] == \
            [(0, "player:ann1", "Ann", "counter", True), (1, "bot:random", "Bot", "counter", True)]
        record = kernel.processor.repo.current(gid).record
        assert {r.seat: r.place for r in rows} == {int(k): v for k, v in record.places.items()}
        assert {r.seat: r.score for r in rows} == {s.seat: s.total for s in record.scores}
        assert store.player_history("ann1") == [rows[0]]
        scored_at = next(e.ts for e in kernel.store.read(gid) if e.type == "taproom.GameScored")
        assert rows[0].finished_at == pytest.approx(scored_at, abs=1e-6)  # timestamptz keeps microseconds
    finally:
        store.close()


def test_a_failure_in_the_middle_of_the_archive_leaves_the_game_in_redis(client, pg_settings, postgres_url):
    kernel = Kernel(client, pg_settings)
    gid = scored_counter(kernel)
    before = _game_keys(kernel, gid)
    failing = FailsInTheMiddle(postgres_url)
    try:
        with pytest.raises(Exception, match="in the middle"):
            Archiver(kernel.store, failing).archive(gid)
    finally:
        failing.close()
    assert _game_keys(kernel, gid).keys() == before.keys()  # nothing released
    store = PostgresStore(postgres_url)
    try:
        assert store.results_of(gid) == [] and not any(store.exists(n) for n in _names(kernel, gid))
        assert Archiver(kernel.store, store).archive(gid).status == "archived"  # the job's next run
        assert len(store.results_of(gid)) == 2
    finally:
        store.close()


def _names(kernel: Kernel, gid: str) -> list[str]:
    from services.infrastructure.archive.archiver import object_name

    return [object_name(kernel.keys, gid, ".jsonl.gz"), object_name(kernel.keys, gid, ".side.json.gz")]


class ReadsBackAltered(PostgresStore):
    """Stores what it is given, reads back something else (a corrupting proxy, a broken disk)."""

    def get(self, name: str) -> bytes:
        data = super().get(name)
        return data[:-1] + bytes([data[-1] ^ 1])


def test_an_archive_that_does_not_read_back_the_same_is_never_released(client, pg_settings, postgres_url):
    kernel = Kernel(client, pg_settings)
    gid = scored_counter(kernel)
    before = _game_keys(kernel, gid)
    store = ReadsBackAltered(postgres_url)
    try:
        with pytest.raises(Exception):  # noqa: B017  # gzip's CRC, or the verification: either way no release
            Archiver(kernel.store, store).archive(gid)
    finally:
        store.close()
    assert _game_keys(kernel, gid).keys() == before.keys()
    assert not client.exists(kernel.keys.archived(gid))


@pytest.mark.slow
def test_another_process_reads_the_archived_game_over_http_and_verify_server_passes(prefix, pg_settings, tmp_path,
                                                                                    request):
    """The worker archives; an API process with no archive directory of its own (another machine) answers every
    read of the game from PostgreSQL, and ``taproom verify --server`` checks it."""
    from .conftest import REAL_URL, cleanup, real_redis

    client = real_redis()
    request.addfinalizer(lambda: cleanup(client, prefix))
    kernel = Kernel(client, pg_settings)
    gid, _ = play_whole_game(kernel, "heaven-and-ale", {}, 2, seed="cross-process")
    head = kernel.store.head(gid)[0]
    assert Archiver.from_root(bootstrap(pg_settings, client)).archive(gid).status == "archived"
    assert not client.exists(kernel.keys.events(gid))
    port = free_port()
    env = dict(os.environ, REDIS_URL=REAL_URL, TAPROOM_KEY_PREFIX=prefix, TAPROOM_SHARDS=str(pg_settings.shards),
               TAPROOM_RQ_QUEUE=pg_settings.rq_queue, TAPROOM_COLD_STORE_URL=pg_settings.cold_store_url or "",
               TAPROOM_ARCHIVE_DIR="/nonexistent/taproom-archive", HOME="/nonexistent", XDG_DATA_HOME="/nonexistent")
    taproom = os.path.join(os.path.dirname(sys.executable), "taproom")
    errors = tmp_path / "api.err"
    with errors.open("wb") as sink:
        proc = subprocess.Popen([taproom, "api", "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=sink)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # a loaded machine takes a while to start a Python process
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, errors.read_text()[-2000:]
            time.sleep(0.2)
        public = httpx.get(f"{base}/games/{gid}", timeout=10)
        assert public.status_code == 200 and public.json()["status"] == "scored", public.text
        for path in (f"/games/{gid}/record", f"/games/{gid}/events", f"/games/{gid}/at/{head // 2}",
                     f"/games/{gid}/at/{head}", f"/games/{gid}/verify"):
            answer = httpx.get(base + path, timeout=10)
            assert answer.status_code == 200, (path, answer.text)
        assert len(httpx.get(f"{base}/games/{gid}/events", params={"limit": 5000}, timeout=10).json()["events"]) == head
        verified = subprocess.run([taproom, "verify", "--server", base, gid], env=env, capture_output=True, timeout=120)
        assert verified.returncode == 0, verified.stdout.decode() + verified.stderr.decode()
        assert orjson.loads(verified.stdout)["ok"]
        exported = subprocess.run([taproom, "export", gid], env=env, capture_output=True, timeout=120)  # from the store
        assert exported.returncode == 0, exported.stderr.decode()[-2000:]
        assert len(exported.stdout.splitlines()) > head
    finally:
        proc.terminate()
        proc.wait(10)


def test_games_archived_to_a_directory_move_into_postgresql_and_read_the_same(client, settings, pg_settings,
                                                                             postgres_url, tmp_path):
    """An earlier deployment's archives (files on the worker's disk) move into the shared store: the pointer
    names PostgreSQL afterwards, every read answers the same, the results table has the game."""
    from services.infrastructure.archive import DirectoryStore
    from services.infrastructure.eventstore import EventStore
    from services.infrastructure.eventstore.archived import ArchiveReader

    kernel = Kernel(client, settings)
    gid = scored_counter(kernel)
    events = [e.model_dump() for e in kernel.store.read(gid)]
    assert Archiver(kernel.store, DirectoryStore(tmp_path / "old")).archive(gid).status == "archived"
    assert orjson.loads(client.get(kernel.keys.archived(gid)))["uri"].startswith("file://")
    root = bootstrap(pg_settings, client)
    moved = Archiver.from_root(root).rehome(gid)
    assert moved.status == "archived" and moved.uri.startswith("pgcold:")
    assert orjson.loads(client.get(kernel.keys.archived(gid)))["uri"] == moved.uri
    assert Archiver.from_root(root).rehome(gid).status == "already"
    for path in (tmp_path / "old").rglob("*.gz"):
        path.unlink()  # the old directory gone (the worker's pod replaced): the game reads from PostgreSQL
    fresh = EventStore(client, kernel.keys, archive=root.archive_reader)
    assert [e.model_dump() for e in fresh.read(gid)] == events
    assert [e.model_dump() for e in EventStore(client, kernel.keys, archive=ArchiveReader(
        opener=root.cold.read_uri)).read(gid)] == events  # type: ignore[union-attr]
    assert len(root.cold.results_of(gid)) == 2  # type: ignore[union-attr]


def test_taproom_archive_rehome_moves_every_archived_game_and_taproom_results_reads_them(
        prefix, settings, postgres_url, tmp_path, monkeypatch, request):
    from click.testing import CliRunner

    from services.adapters.cli.main import cli
    from services.infrastructure.archive import DirectoryStore
    from services.infrastructure.settings import get_settings

    from .conftest import REAL_URL, cleanup, real_redis

    client = real_redis()
    request.addfinalizer(lambda: cleanup(client, prefix))
    kernel = Kernel(client, settings)
    games = [scored_counter(kernel) for _ in range(2)]
    for gid in games:
        assert Archiver(kernel.store, DirectoryStore(tmp_path / "old")).archive(gid).status == "archived"
    for name, value in (("REDIS_URL", REAL_URL), ("TAPROOM_KEY_PREFIX", prefix), ("TAPROOM_SHARDS", str(settings.shards)),
                        ("TAPROOM_COLD_STORE_URL", postgres_url)):
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    request.addfinalizer(get_settings.cache_clear)
    request.addfinalizer(close_cold_stores)
    moved = CliRunner().invoke(cli, ["archive", "--rehome"])
    assert moved.exit_code == 0, moved.output
    lines = [orjson.loads(line) for line in moved.stdout.splitlines()]  # (the logs go to stderr)
    assert sorted(line["game_id"] for line in lines) == sorted(games)
    assert {line["status"] for line in lines} == {"archived"}
    again = CliRunner().invoke(cli, ["archive", "--rehome", games[0]])
    assert orjson.loads(again.stdout)["status"] == "already"
    history = CliRunner().invoke(cli, ["results", "ann1"])
    assert history.exit_code == 0, history.output
    assert sorted(orjson.loads(line)["game"] for line in history.stdout.splitlines()) == sorted(games)
