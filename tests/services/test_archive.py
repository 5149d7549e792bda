"""Archiving finished games (issue 18): the record goes to the cold store, the game leaves Redis, and every
read answers as before, from the archive."""

from __future__ import annotations

import gzip
import uuid
from pathlib import Path

import orjson
import pytest
import redis
from fastapi.testclient import TestClient
from rq import Queue
from rq.registry import ScheduledJobRegistry

from domain.catalog import load_games
from services.adapters.api.app import create_app
from services.adapters.reactor import Reactor
from services.adapters.workers import jobs
from services.infrastructure.archive import Archiver, DirectoryStore
from services.infrastructure.archive import archiver as archiver_module
from services.infrastructure.audit import export_lines, read_record, verify
from services.infrastructure.eventstore import EventStore
from services.infrastructure.settings import jobs_run_with

from .helpers import Kernel
from .test_api_replay import play_whole_game

load_games()


def _archiver(kernel: Kernel, root: Path) -> Archiver:
    return Archiver(kernel.store, DirectoryStore(root))


def _size(client, key: bytes) -> int:
    """Redis's own figure for a key; fakeredis has no MEMORY command, so there the serialized size."""
    try:
        return client.memory_usage(key, samples=0) or 0
    except redis.ResponseError:
        return len(client.dump(key) or b"")


def _game_keys(kernel: Kernel, gid: str) -> dict[str, int]:
    pattern = f"{kernel.keys.prefix}g:{kernel.keys.tag(gid)}:{gid}:*"
    return {k.decode().split(f":{gid}:", 1)[1]: _size(kernel.client, k) for k in kernel.client.scan_iter(match=pattern)}


def _reads(api: TestClient, gid: str, headers: dict, head: int) -> dict:
    """Everything a client reads of a finished game (the clock and the time of the last update aside)."""
    def body(path: str, **params) -> object:
        response = api.get(path, headers=headers, params=params)
        assert response.status_code == 200, (path, response.text)
        if response.headers["content-type"].startswith("application/json"):
            found = response.json()
            if isinstance(found, dict):
                found.pop("clock", None)
                found.pop("updated", None)
            return found
        return response.text

    reads = {"public": body(f"/games/{gid}"), "history": body(f"/games/{gid}/events"),
             "record": body(f"/games/{gid}/record"), "verify": body(f"/games/{gid}/verify"),
             "page": body(f"/games/{gid}/events", after=head // 2, limit=7)}
    for version in (0, 1, head // 3, head // 2, head):
        reads[f"at{version}"] = body(f"/games/{gid}/at/{version}")
    if headers:
        reads["seat"] = body(f"/games/{gid}/view")
        reads["legal"] = body(f"/games/{gid}/legal")
    with api.stream("GET", f"/games/{gid}/stream", headers=headers, params={"after": head - 3, "timeout": 5}) as sse:
        lines = [line for line in sse.iter_lines() if line.startswith(("id:", "event:", "data:"))]
    # the live stream's view frame (read from the stored models) is a live game's: an archived one's stream has
    # none (its page asks /view once at the end), the events and the rest read as before
    views = [i for i, line in enumerate(lines) if line == "event: view"]
    reads["stream"] = [line for i, line in enumerate(lines) if i not in views and i - 1 not in views]
    return reads


def test_an_archived_game_reads_as_before_and_leaves_a_small_summary(client, settings, tmp_path):
    kernel = Kernel(client, settings)
    gid, _ = play_whole_game(kernel, "carcassonne", {}, 2, seed="archive-reads")
    head = kernel.store.head(gid)[0]
    rejected = kernel.send(gid, {"type": "Pass"}, seat=0, command_id="late")  # the game is over: rejected
    assert not rejected.accepted
    applied = kernel.store.command_records(gid)[5]
    exported = list(export_lines(kernel.store, gid))
    app = create_app(client, settings, getattr(client, "taproom_queue", None))
    tokens = [app.state.context.issue_token({"kind": "seat", "game_id": gid, "seat": s}) for s in range(2)]
    callers = [{}, *({"Authorization": f"Bearer {t}"} for t in tokens)]
    with TestClient(app) as api:
        before = [_reads(api, gid, headers, head) for headers in callers]
    before_keys = _game_keys(kernel, gid)

    result = _archiver(kernel, tmp_path).archive(gid)
    assert result.status == "archived" and result.bytes > 0

    left = _game_keys(kernel, gid)
    assert set(left) == {"meta", "arch"}, left
    assert sum(left.values()) < 10_000 < sum(before_keys.values())
    # the archive is the record `taproom export` gives, and it verifies on its own
    archived = gzip.decompress(Path(result.uri.removeprefix("file://")).read_bytes()).splitlines()
    assert archived == exported
    assert verify(read_record(archived)).ok
    assert list(export_lines(kernel.store, gid)) == exported

    app = create_app(client, settings, getattr(client, "taproom_queue", None))  # a fresh process: nothing of the game in its memory
    with TestClient(app) as api:
        after = [_reads(api, gid, headers, head) for headers in callers]
    for was, now in zip(before, after):
        assert was.keys() == now.keys()
        for name in was:
            assert now[name] == was[name], name
    assert after[0]["verify"]["ok"] and after[0]["verify"]["replay_ok"]

    # one id, one outcome, also once archived; a new command is refused and nothing comes back to Redis
    assert kernel.send(gid, applied["command"], seat=applied["seat"], command_id=applied["command_id"]) == \
        kernel.bus.outcome(gid, applied["command_id"])
    assert kernel.bus.outcome(gid, applied["command_id"]).version == applied["to_version"]
    again = kernel.send(gid, {"type": "Pass"}, seat=0, command_id="late")
    assert (again.status, again.code, again.message) == (rejected.status, rejected.code, rejected.message)
    fresh = kernel.send(gid, {"type": "Pass"}, seat=1)
    assert not fresh.accepted
    # (the web page's verdict, recomputed from the archive, is cached again for a while, as for any game)
    assert {k for k in _game_keys(kernel, gid) if not k.startswith("out:")} <= {"meta", "arch", "verdict"}
    assert _archiver(kernel, tmp_path).archive(gid).status == "already"
    # the projector folding the game again (a rebuild) writes its summary, not its views
    kernel.projector.rebuild()
    assert {k for k in _game_keys(kernel, gid) if not k.startswith("out:")} <= {"meta", "arch", "verdict"}
    assert orjson.loads(client.get(kernel.keys.meta(gid)))["status"] == "scored"


def test_only_a_scored_game_is_archived(fake_client, settings, tmp_path):
    kernel = Kernel(fake_client, settings)
    gid = kernel.create(target=10)
    kernel.add(gid, 0, 3)
    before = _game_keys(kernel, gid)
    assert _archiver(kernel, tmp_path).archive(gid).status == "not_finished"
    assert _game_keys(kernel, gid).keys() == before.keys()
    assert _archiver(kernel, tmp_path).archive("nosuchgame").status == "missing"


def _scored_counter(kernel: Kernel) -> str:
    gid = kernel.create(target=4)
    seat = 0
    while kernel.processor.repo.current(gid).record.status == "active":
        assert kernel.add(gid, seat, 2).accepted
        seat = 1 - seat
    assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
    return gid


class FlakyStore(DirectoryStore):
    """A directory whose reads fail once, or which lets something happen to the game while it is written."""

    def __init__(self, root: Path, fail_reads: int = 0, meanwhile=None) -> None:
        super().__init__(root)
        self.fail_reads, self.meanwhile = fail_reads, meanwhile

    def put(self, name: str, data: bytes) -> str:
        uri = super().put(name, data)
        if self.meanwhile is not None:
            self.meanwhile()
            self.meanwhile = None
        return uri

    def get(self, name: str) -> bytes:
        if self.fail_reads:
            self.fail_reads -= 1
            raise OSError("the cold store went away")
        return super().get(name)


def test_a_failure_before_the_swap_leaves_the_game_whole_and_a_rerun_archives_it(fake_client, settings, tmp_path):
    kernel = Kernel(fake_client, settings)
    gid = _scored_counter(kernel)
    before = _game_keys(kernel, gid)
    with pytest.raises(OSError):
        Archiver(EventStore(fake_client, kernel.keys), FlakyStore(tmp_path, fail_reads=1)).archive(gid)
    assert _game_keys(kernel, gid).keys() == before.keys()  # written, not verified: nothing removed
    assert Archiver(EventStore(fake_client, kernel.keys), FlakyStore(tmp_path)).archive(gid).status == "archived"
    assert verify(kernel.store.read(gid), kernel.store.command_records(gid)).ok


def test_a_rejection_recorded_while_archiving_is_not_lost(fake_client, settings, tmp_path):
    kernel = Kernel(fake_client, settings)
    gid = _scored_counter(kernel)
    late = kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="test", command_id="while")
    store = FlakyStore(tmp_path, meanwhile=kernel.pump)  # the rejection lands between write and swap
    assert Archiver(EventStore(fake_client, kernel.keys), store).archive(gid).status == "archived"
    assert kernel.store.rejection(gid, late) is not None
    assert kernel.bus.outcome(gid, late).status == "rejected"


def test_a_chat_message_posted_while_archiving_is_not_lost(fake_client, settings, tmp_path):
    from domain.core import RuleError
    from services.application.chat import Chat, Speaker

    kernel = Kernel(fake_client, settings)
    gid = _scored_counter(kernel)
    chat, ann = Chat(EventStore(fake_client, kernel.keys)), Speaker(f"seat:{gid}:0", "Ann", seats=(0,))
    chat.post(gid, "seats", ann, "gg")
    store = FlakyStore(tmp_path, meanwhile=lambda: chat.post(gid, "seats", ann, "rematch?"))  # between read and swap
    assert Archiver(EventStore(fake_client, kernel.keys), store).archive(gid).status == "archived"
    assert not fake_client.exists(kernel.keys.chat(gid, "seats"))
    assert [m["text"] for m in chat.read(gid, "seats")] == ["gg", "rematch?"]
    with pytest.raises(RuleError) as refused:
        chat.post(gid, "seats", ann, "hello?")
    assert refused.value.code == "game_archived"


def test_side_keys_travel_with_the_archive(fake_client, settings, tmp_path, monkeypatch):
    monkeypatch.setattr(archiver_module, "_SIDE_KEYS", {})
    archiver_module.register_side_key("chat", lambda keys, game_id: keys._g(game_id, "chat"))
    kernel = Kernel(fake_client, settings)
    gid = _scored_counter(kernel)
    chat = kernel.keys._g(gid, "chat")
    fake_client.rpush(chat, "gg", "well played")
    assert _archiver(kernel, tmp_path).archive(gid).status == "archived"
    assert not fake_client.exists(chat)
    assert kernel.store.archived_side(gid, "chat") == {"type": "list", "value": ["gg", "well played"]}


def _overdue_gauge() -> float:
    """The reactor's gauge as its health port's /metrics serves it."""
    import httpx

    from services.infrastructure import health

    from .redis_server import free_port

    port = free_port()
    server = health.serve(port, 60.0, {}, host="127.0.0.1", only="none-")
    try:
        text = httpx.get(f"http://127.0.0.1:{port}/metrics").text
    finally:
        server.shutdown()
    return float(next(line.split()[1] for line in text.splitlines()
                      if line.startswith("taproom_archive_overdue_games ")))


def test_the_reactor_schedules_the_archive_after_the_delay(fake_client, settings, tmp_path, clock):
    settings = settings.model_copy(update={"archive_after_seconds": 120.0, "archive_dir": str(tmp_path)})
    kernel = Kernel(fake_client, settings)
    gid = _scored_counter(kernel)
    queue = Queue(settings.rq_queue, connection=fake_client)
    reactor = Reactor(fake_client, settings, queue=queue, name="r1")
    reactor.drain()
    scheduled = ScheduledJobRegistry(queue=queue).get_job_ids()
    archive_jobs = [j for j in scheduled if j.startswith("archive-")]
    assert len(archive_jobs) == 1 and gid in archive_jobs[0]
    job = queue.fetch_job(archive_jobs[0])
    assert job.func is jobs.archive_game
    watch = kernel.keys.archive_watch()
    assert fake_client.zscore(watch, gid) is not None
    # the job vanishes: once overdue, the sweep enqueues it again, to run at once
    job.delete()
    assert reactor.sweep_archives(clock.now() + 60, stale=30) == []  # not due yet
    assert _overdue_gauge() == 0
    assert reactor.sweep_archives(clock.now() + 200, stale=30) == [archive_jobs[0]]
    assert _overdue_gauge() == 1  # what deploy/alerts.yml's TaproomArchiveFailing watches
    job = queue.fetch_job(archive_jobs[0])
    assert job.get_status() == "queued"
    assert job.kwargs == {}  # the job is given the game only: the worker's settings say where and how
    # a job queued by an older version still carries its settings as keywords: accepted and ignored
    queued_before = {"prefix": "elsewhere:", "shards": 1, "archive_dir": "/nonexistent/taproom"}
    with jobs_run_with(settings):
        assert jobs.archive_game(*job.args, **queued_before, connection=fake_client)["status"] == "archived"
    assert fake_client.zscore(watch, gid) is None
    reactor.sweep_archives(clock.now() + 200, stale=30)
    assert _overdue_gauge() == 0
    assert reactor.schedule_archive(reactor.repo.current(gid).record) == []
    assert not [spec for spec in reactor.jobs_for(gid) if spec.job_id.startswith("archive-")]
    never = Reactor(fake_client, settings.model_copy(update={"archive_after_seconds": -1}), queue=queue, name="r2")
    other = _scored_counter(kernel)
    assert never.schedule_archive(never.repo.current(other).record) == []


def test_feeds_and_command_streams_are_trimmed_behind_their_readers(client, settings):
    settings = settings.model_copy(update={"feed_rewind_seconds": 0})
    kernel = Kernel(client, settings)
    reactor = Reactor(client, settings, name="r1")
    games = [kernel.create(target=100, game_id=f"trim{i}-{uuid.uuid4().hex[:4]}") for i in range(6)]
    for gid in games:
        kernel.add(gid, 0, 1)
    shards = {kernel.keys.shard(g) for g in games}
    feed_total = sum(client.xlen(kernel.keys.feed(s)) for s in shards)
    assert feed_total >= 12
    assert kernel.projector.trim() == 0  # the reactor has not read the feeds yet: nothing goes
    reactor.drain()
    # with a margin (feed_rewind_seconds), what a follower rereads after an outage stays
    assert sum(kernel.store.trim_feed(s, ("projector", "reactor"), margin_ms=60_000) for s in shards) == 0
    kernel.projector.trim()
    for shard in shards:
        feed = kernel.keys.feed(shard)
        low = min(client.get(kernel.keys.checkpoint(role, shard)) for role in ("projector", "reactor"))
        assert [entry_id for entry_id, _ in client.xrange(feed)] == [low]  # only the entry at the checkpoint
    # command streams: settled entries go, an entry read but not settled stays
    assert kernel.processor.trim() > 0
    for shard in shards:
        assert client.xlen(kernel.keys.cmd_stream(shard)) <= 1
    gid = games[0]
    kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=1, actor="test", command_id="unsettled")
    stream = kernel.keys.cmd_stream_for(gid)
    client.xreadgroup("processors", "elsewhere", {stream: ">"}, count=10)  # delivered, never acknowledged
    kernel.processor.trim()
    assert any(orjson.loads(f[b"m"])["command_id"] == "unsettled" for _, f in client.xrange(stream))


@pytest.mark.parametrize("compact_every", [4, 40])
def test_the_settled_log_moves_into_compressed_segments_and_reads_whole(client, settings, compact_every):
    from services.infrastructure.eventstore import store as store_module

    settings = settings.model_copy(update={"compact_every": compact_every, "snapshot_every": 7})
    kernel = Kernel(client, settings)
    gid = kernel.create(target=60)
    outcomes = [kernel.add(gid, seat % 2, 1, command_id=f"c{seat}") for seat in range(30)]
    assert all(o.accepted for o in outcomes)
    head = kernel.store.head(gid)[0]
    assert client.xlen(kernel.keys.events(gid)) < compact_every * 2
    segments = client.hlen(kernel.keys.segments(gid))
    assert segments == 1 if compact_every > 30 else segments >= 4
    store_module.SEGMENTS._items.clear()  # read back from Redis, not from what the compaction left in the cache
    whole = kernel.store.read(gid)
    assert [e.version for e in whole] == list(range(1, head + 1))
    assert verify(whole, kernel.store.command_records(gid)).chain_ok
    assert len(kernel.store.command_records(gid)) == 31  # the creation and every move
    for after in range(0, head, 3):
        for until in (None, after + 1, after + 5, head):
            for count in (None, 1, 4):
                got = [e.version for e in kernel.store.read(gid, after=after, until=until, count=count)]
                want = list(range(after + 1, min(until or head, head) + 1))[:count]
                assert got == want, (after, until, count)
    # an old command id, its record now in a segment, keeps its one outcome and changes nothing
    again = kernel.add(gid, 0, 1, command_id="c0")
    assert again.accepted and (again.from_version, again.version) == (outcomes[0].from_version, outcomes[0].version)
    assert kernel.store.head(gid)[0] == head
    record = kernel.store.command_record(gid, outcomes[0].command_id)
    assert record["command"]["amount"] == 1 and record["to_version"] == outcomes[0].version
    # a fresh reader (no cache, no snapshot) folds the same record
    from services.infrastructure.aggregates import Repository
    from services.infrastructure.eventstore import EventStore

    client.delete(kernel.keys.snapshot(gid))
    fresh = Repository(EventStore(client, kernel.keys)).current(gid)
    assert fresh.version == head and fresh.record.state == kernel.processor.repo.current(gid).record.state
    # the API's event-loop records (one XRANGE after a snapshot) see the gap and read the segments
    client.delete(kernel.keys.view(gid, None))
    with TestClient(create_app(client, settings, getattr(client, "taproom_queue", None))) as api:
        body = api.get(f"/games/{gid}").json()
        assert body["version"] == head and body["board"]["total"] == fresh.record.state.total
        assert [e["version"] for e in api.get(f"/games/{gid}/events", params={"after": 2}).json()["events"]] == \
            list(range(3, head + 1))


def test_a_batch_compacts_each_game_once_up_to_its_last_due_command_and_saves_its_snapshots(client, settings):
    """The processor compacts after a batch, not after each command: a game that crossed several multiples of
    ``compact_every`` in one batch gets one segment up to its last such command, and the snapshots due are
    saved in the same round trip; the log reads, verifies and folds as before."""
    from services.infrastructure.eventstore import store as store_module

    settings = settings.model_copy(update={"compact_every": 4, "snapshot_every": 7})
    kernel = Kernel(client, settings)
    games = [kernel.create(seats=1, target=1000, game_id=f"batch{i}-{uuid.uuid4().hex[:6]}") for i in range(3)]
    heads = {gid: kernel.store.head(gid)[0] for gid in games}
    ids = {gid: [kernel.bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="test", command_id=f"b{n}")
                 for n in range(6)] for gid in games}
    calls = []
    compact_many = kernel.store.compact_many
    kernel.processor.store.compact_many = lambda upto, snapshots=(): calls.append((dict(upto), len(snapshots))) \
        or compact_many(upto, snapshots)  # type: ignore[method-assign]
    assert kernel.processor.step() == 18  # the eighteen commands, one batch
    assert len(calls) == 1 and set(calls[0][0]) == set(games) and calls[0][1] >= len(games)
    for gid in games:
        outcomes = [kernel.bus.outcome(gid, cid) for cid in ids[gid]]
        assert all(o is not None and o.accepted for o in outcomes)
        last_due = max(o.from_version for o in outcomes if o.version // 4 > o.from_version // 4)
        assert calls[0][0][gid] == last_due
        assert [int(f.split(b"-")[1]) for f in client.hkeys(kernel.keys.segments(gid))].count(last_due) == 1
        assert int(client.hget(kernel.keys.snapshot(gid), "version")) > heads[gid]
    store_module.SEGMENTS._items.clear()
    for gid in games:
        whole = kernel.store.read(gid)
        assert [e.version for e in whole] == list(range(1, kernel.store.head(gid)[0] + 1))
        assert verify(whole, kernel.store.command_records(gid)).chain_ok
        assert len(kernel.store.command_records(gid)) == 7
        again = kernel.add(gid, 0, 1, command_id="b0")  # settled, its record now in a segment: the same outcome
        assert again.accepted and kernel.store.head(gid)[0] == whole[-1].version


def test_the_settled_ids_index_matches_whole_entries_only():
    from services.infrastructure.eventstore.store import find_settled, settled_digest, settled_entry

    index = settled_entry("a", 3, 5) + settled_entry("b", 5, 9)
    assert find_settled(index, "a") == (3, 5) and find_settled(index, "b") == (5, 9)
    assert find_settled(index, "c") is None and find_settled(None, "a") is None
    shifted = b"x" * 7 + settled_digest("a") + b"0" * 13  # a digest not at an entry's start is no match
    assert find_settled(shifted, "a") is None


def test_every_key_the_archive_compact_and_trim_scripts_touch_shares_one_slot():
    from redis.crc import key_slot

    from services.infrastructure.eventstore import Keys

    keys, gid = Keys("tr:", 16), "abc123"
    shard = keys.shard(gid)
    archive_keys = [keys.archived(gid), keys.head(gid), keys.commands(gid), keys.rejections(gid), keys.events(gid),
                    keys.segments(gid), keys.settled(gid), keys.snapshot(gid), keys.seed(gid), keys.view(gid, None),
                    keys.view(gid, 3), keys.clock(gid), keys.guest_seats(gid), keys.verdict(gid),
                    keys.outcome(gid, "x"), keys.command_body(gid, "x"), keys._g(gid, "chat")]
    feed_keys = [keys.feed(shard), keys.checkpoint("projector", shard), keys.checkpoint("reactor", shard),
                 keys.cmd_stream(shard)]
    assert len({key_slot(k.encode()) for k in archive_keys + feed_keys}) == 1


def _legacy_compact(store, game_id: str, upto: int) -> None:
    """What the store wrote before segment format 2: the stored envelopes and command records of a stretch,
    zlib-compressed whole (format 1), through the same compaction script."""
    import zlib

    k = store.keys
    entries = store.redis.xrange(k.events(game_id), "-", f"{upto}-1")
    first = int(entries[0][0].split(b"-")[0])
    raws = [fields[b"e"] for _, fields in entries]
    ids = list(dict.fromkeys(orjson.loads(raw)["command_id"] for raw in raws))
    records = store.redis.hmget(k.commands(game_id), ids)
    from services.infrastructure.eventstore.store import settled_entry

    parsed = [orjson.loads(r) for r in records]
    blob = zlib.compress(b"\n".join(raws) + b"\n\n" + b"\n".join(records), 6)
    index = b"".join(settled_entry(r["command_id"], r["from_version"], r["to_version"]) for r in parsed)
    assert store._compact(keys=[k.events(game_id), k.commands(game_id), k.segments(game_id), k.settled(game_id)],
                          args=[first, upto, f"{first}-{upto}", blob, index, "", *ids]) == 1


def test_a_log_compacted_by_the_previous_format_reads_verifies_and_archives_the_same(client, settings, tmp_path):
    """Games stored before segment format 2 (format-1 segments, whole envelopes in the stream) still load,
    verify, export and archive byte for byte; the lean blocks compacted after them chain onto them."""
    from services.infrastructure.eventstore import store as store_module

    kernel = Kernel(client, settings.model_copy(update={"compact_every": 0}))
    gid, _ = play_whole_game(kernel, "tiefenthal", {}, 2, seed="legacy-segments")
    exported = list(export_lines(kernel.store, gid))
    stored = kernel.store.read_raw(gid)  # the envelopes, as the stream holds them
    records = kernel.store.command_records(gid)
    head = kernel.store.head(gid)[0]
    bounds = [r["to_version"] for r in records]
    cuts = [max(b for b in bounds if b <= target) for target in (30, 75, 160, 170, 300)]
    _legacy_compact(kernel.store, gid, cuts[0])
    _legacy_compact(kernel.store, gid, cuts[1])
    for upto in cuts[2:]:
        assert kernel.store.compact(gid, upto)
    assert client.hlen(kernel.keys.segments(gid)) == 5
    blobs = client.hgetall(kernel.keys.segments(gid))
    assert sorted(blob[:1] for blob in blobs.values()) == [b"\x03"] * 3 + [b"x"] * 2
    store_module.SEGMENTS._items.clear()
    assert list(export_lines(kernel.store, gid)) == exported  # every envelope and record as it was stored
    assert kernel.store.command_records(gid) == records
    assert kernel.store.read_raw(gid, after=cuts[1] - 2, until=cuts[2] + 2) == stored[cuts[1] - 2:cuts[2] + 2]
    assert kernel.store.read_raw(gid) == stored
    store_module.SEGMENTS._items.clear()
    assert [e.version for e in kernel.store.read(gid, after=cuts[3] - 1)] == list(range(cuts[3], head + 1))
    assert verify(read_record(exported)).ok
    result = _archiver(kernel, tmp_path).archive(gid)
    assert result.status == "archived"
    archived = gzip.decompress(Path(result.uri.removeprefix("file://")).read_bytes()).splitlines()
    assert archived == exported


def test_an_altered_lean_segment_fails_the_chain_check(client, settings):
    """A format-2 block keeps no per-event hash but its last one: an event altered inside it shows as that
    last event failing the hash check."""
    import zlib

    from services.infrastructure.eventstore import store as store_module
    from services.infrastructure.eventstore.segments import WINDOW

    kernel = Kernel(client, settings.model_copy(update={"compact_every": 4}))
    gid = kernel.create(target=60)
    for seat in range(20):
        assert kernel.add(gid, seat % 2, 1).accepted
    store_module.SEGMENTS._items.clear()
    assert verify(kernel.store.read(gid), kernel.store.command_records(gid)).chain_ok
    spans = kernel.store._segment_fields(gid)
    first, last, field = spans[1]
    previous = kernel.store._blocks(gid, spans, 0, 0)[0]
    blob = client.hget(kernel.keys.segments(gid), field)
    assert blob[:1] == b"\x03"
    raw = zlib.decompressobj(-15, zdict=previous.raw[-WINDOW:]).decompress(blob[33:])
    lines = raw.split(b"\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(b'{"type":"Added"'))  # an event, not a record
    lines[at] = lines[at].replace(b'"amount":1', b'"amount":3')
    packer = zlib.compressobj(6, zlib.DEFLATED, -15, zdict=previous.raw[-WINDOW:])
    altered = blob[:33] + packer.compress(b"\n".join(lines)) + packer.flush()
    client.hset(kernel.keys.segments(gid), field, altered)
    store_module.SEGMENTS._items.clear()
    envelopes = kernel.store.read(gid)
    assert [e.version for e in envelopes] == list(range(1, kernel.store.head(gid)[0] + 1))
    report = verify(envelopes, kernel.store.command_records(gid))
    assert not report.chain_ok and f"event {last} was altered" in " ".join(report.problems)


def test_an_open_game_that_expires_is_archived_and_leaves_redis(fake_client, settings, tmp_path):
    """Bounded memory also for games that never start: an expired open game reveals its seed (nothing was
    dealt from it) and is archived after the same delay as a scored one; its record still verifies."""
    from domain.core.lifecycle import ExpireGame

    settings = settings.model_copy(update={"archive_after_seconds": 120.0, "archive_dir": str(tmp_path)})
    kernel = Kernel(fake_client, settings)
    gid = uuid.uuid4().hex[:10]
    assert kernel.send(gid, {"type": "taproom.CreateGame", "game": "carcassonne", "options": {},
                             "seats": [{"name": "p0"}, {}], "seed_commitment": ""}, dev_seed="expiring").accepted
    assert kernel.send(gid, ExpireGame().model_dump(mode="json")).accepted
    assert kernel.store.read(gid)[-1].type == "taproom.SeedRevealed"
    queue = Queue(settings.rq_queue, connection=fake_client)
    reactor = Reactor(fake_client, settings, queue=queue, name="r1")
    reactor.drain()
    archive_jobs = [j for j in ScheduledJobRegistry(queue=queue).get_job_ids() if j.startswith("archive-")]
    assert len(archive_jobs) == 1 and gid in archive_jobs[0]
    exported = list(export_lines(kernel.store, gid))
    assert verify(read_record(exported)).ok
    with jobs_run_with(settings):
        assert jobs.archive_game(gid, connection=fake_client)["status"] == "archived"
    assert set(_game_keys(kernel, gid)) <= {"meta", "arch"}
    assert list(export_lines(kernel.store, gid)) == exported
    assert orjson.loads(fake_client.get(kernel.keys.meta(gid)))["status"] == "expired"


def test_command_records_read_while_a_compaction_moves_them_are_each_listed_once(client, settings):
    """``command_records`` reads the commands hash, then the segments: a compaction between the two moves
    records from one into the other, so both reads hold them. Each must be listed once, or verify replays a
    command twice and reports the seed unrevealed (the game page's fairness panel once said so at the end)."""
    kernel = Kernel(client, settings.model_copy(update={"compact_every": 0}))
    gid, _ = play_whole_game(kernel, "counter", {"target": 12}, 2, seed="compaction-race")
    store = kernel.store
    expected = store.command_records(gid)
    upto = max(r["to_version"] for r in expected if r["to_version"] <= store.head(gid)[0] - 2)
    original = store._segment_fields

    def compaction_between_the_reads(game_id: str):
        assert store.compact(game_id, upto)  # after the hash was read, before the segments are
        return original(game_id)

    store._segment_fields = compaction_between_the_reads  # type: ignore[method-assign]
    try:
        records = store.command_records(gid)
    finally:
        store._segment_fields = original  # type: ignore[method-assign]
    assert [(r["from_version"], r["command_id"]) for r in records] == \
        [(r["from_version"], r["command_id"]) for r in expected]
    report = verify(store.read(gid), records)
    assert report.ok and report.seed_ok, report.problems


def test_tails_of_many_games_read_the_stream_alone_and_the_rest_carefully(client, settings):
    """``read_raw_after_many`` reads only each game's stream; a tail that does not begin right after the asked
    version (at the head, compacted past it, no such game) is read whole by ``read_raw``: the same answers."""
    settings = settings.model_copy(update={"compact_every": 4})
    kernel = Kernel(client, settings)
    gid = kernel.create(target=1000)
    for n in range(8):
        assert kernel.add(gid, n % 2, 1).accepted
    head = kernel.store.head(gid)[0]
    first_in_stream = int(client.xrange(kernel.keys.events(gid), count=1)[0][0].split(b"-")[0])
    assert first_in_stream > 2  # compacted
    for version in (0, 2, first_in_stream - 1, head - 1, head):
        assert kernel.store.read_raw_after_many({gid: version, "no-such-game": 0}) == \
            {gid: kernel.store.read_raw(gid, after=version), "no-such-game": []}
    assert kernel.store.read_raw_after_many({}) == {}
