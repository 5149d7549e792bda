"""Projections: idempotent folding, and a rebuild from the log gives identical read models."""

from __future__ import annotations

import orjson
import pytest

from projections.read_models import load_view
from projections.spanning import INBOX_OTHER
from services.adapters.projector import Projector

from .helpers import Kernel


@pytest.fixture
def kernel(client, settings):
    return Kernel(client, settings)


def read_models(client, prefix):
    keys = sorted(k for pattern in (f"{prefix}g:*:view:*", f"{prefix}g:*:meta") for k in client.scan_iter(match=pattern))
    return {k: client.get(k) for k in keys}


def every_model(client, prefix):
    """Every read model, byte for byte: the inline ones (meta, views, legal commands) and those spanning games."""
    models = {k: client.get(k) for k in read_models(client, prefix)}
    models.update({k: client.hgetall(k) for k in client.scan_iter(match=f"{prefix}g:*:legal")})
    for pattern in (f"{prefix}lobby", f"{prefix}finished", f"{prefix}inbox:*", f"{prefix}invites:*"):
        models.update({k: client.zrange(k, 0, -1, withscores=True) for k in client.scan_iter(match=pattern)})
    return models


def test_views_follow_the_log(kernel, client):
    gid = kernel.create(seats=2)
    kernel.add(gid, 0, amount=3)

    public = load_view(client.get(kernel.keys.view(gid, None)))
    seat0 = load_view(client.get(kernel.keys.view(gid, 0)))
    seat1 = load_view(client.get(kernel.keys.view(gid, 1)))
    assert public["version"] == seat0["version"] == 5 and public["board"]["total"] == 3
    assert "my_cards" not in public["board"]
    assert seat0["board"]["my_cards"] and seat1["board"]["my_cards"] == []


def test_folding_again_from_the_start_changes_nothing(kernel, client, settings):
    gid = kernel.create(seats=2)
    kernel.add(gid, 0)
    kernel.add(gid, 1)
    before = read_models(client, settings.key_prefix)
    for shard in range(settings.shards):  # forget the checkpoints: every feed entry is seen twice
        client.delete(kernel.keys.checkpoint("projector", shard))
    replayer = Projector(client, settings, name="j2")
    client.delete(kernel.keys.lease("projector", kernel.keys.shard(gid)))
    client.zrem(kernel.keys.members("projector"), "j1")
    replayer.drain()
    after = {k: v for k, v in read_models(client, settings.key_prefix).items()}
    strip = lambda models: {k: v.replace(b'"updated"', b"") for k, v in models.items()}  # noqa: E731
    assert strip(after).keys() == strip(before).keys()
    for key in before:
        a, b = load_view(before[key]), load_view(after[key])
        a.pop("updated"), b.pop("updated")
        assert a == b


def test_rebuild_reproduces_every_read_model(kernel, client, settings):
    games = [kernel.create(seats=2, seed=f"s{i}") for i in range(3)]
    for gid in games:
        kernel.add(gid, 0, amount=2)
    before = every_model(client, settings.key_prefix)
    figures = Projector(client, settings, name="rebuilder").rebuild()
    after = every_model(client, settings.key_prefix)
    assert figures["games"] == 3 and figures["events"] == sum(kernel.store.head(g)[0] for g in games)
    assert after == before


def _replay_feeds(projector, kernel, settings):
    """Make ``projector`` read every feed entry again (its checkpoints forgotten, in Redis and in memory)."""
    for shard in range(settings.shards):
        kernel.client.delete(kernel.keys.checkpoint("projector", shard))
    projector.forget_checkpoints()
    projector.drain()


def test_a_rebuild_writes_a_carcassonne_games_inline_models_byte_for_byte(client, settings):
    """Live inline models (views with hidden tiles, legal placements) equal what a rebuild folds from the log."""
    import random

    from domain.catalog import load_games

    load_games()  # the service's games (run alone, the test would know the fixture's only)
    kernel = Kernel(client, settings)
    gid = "inlinecarc"
    assert kernel.send(gid, {"type": "taproom.CreateGame", "game": "carcassonne", "options": {},
                             "seats": [{"name": "p0"}, {"name": "p1"}], "seed_commitment": ""},
                       dev_seed="inline-rebuild").accepted
    chooser = random.Random(7)
    for _ in range(40):
        record = kernel.processor.repo.current(gid).record
        seat = chooser.choice(record.to_act())
        command = chooser.choice(record.game.legal_commands(record.state, seat))
        assert kernel.send(gid, command.model_dump(mode="json"), seat=seat).accepted
    assert orjson.loads(client.get(kernel.keys.meta(gid)))["status"] == "active"
    before = every_model(client, settings.key_prefix)
    assert any(key.endswith(b":legal") for key in before)
    Projector(client, settings, name="rebuilder").rebuild()
    assert every_model(client, settings.key_prefix) == before


def test_a_games_own_models_are_written_with_its_events_not_by_the_projector(kernel, client, settings):
    """The meta, views and legal commands are the append's (inline projections): the projector replaying every
    feed entry writes none of them (it reads the meta, at the head of the log), and a rebuild from the log writes
    them again byte for byte."""
    gid = kernel.create(seats=2)
    kernel.add(gid, 0)
    keys = [kernel.keys.view(gid, 1), kernel.keys.view(gid, None), kernel.keys.legal(gid)]
    written = {key: client.get(key) if key != kernel.keys.legal(gid) else client.hgetall(key)
               for key in [*keys, kernel.keys.meta(gid)]}
    assert all(written.values())
    client.delete(*keys)
    kernel.projector.forget()
    _replay_feeds(kernel.projector, kernel, settings)  # every entry again
    assert not any(client.exists(key) for key in keys)
    Projector(client, settings, name="rebuilder").rebuild()
    assert {key: client.get(key) if key != kernel.keys.legal(gid) else client.hgetall(key)
            for key in [*keys, kernel.keys.meta(gid)]} == written


def test_the_answer_to_a_move_and_the_stored_models_come_from_one_append(kernel, client, settings):
    """The legal commands stored for a seat are what the models say: the version of the meta, the seat's turn."""
    gid = kernel.create(seats=2)
    kernel.add(gid, 0)
    from projections.inline import load_legal

    meta = orjson.loads(client.get(kernel.keys.meta(gid)))
    for seat in range(2):
        legal = orjson.loads(load_legal(client.hget(kernel.keys.legal(gid), str(seat))))
        assert legal["version"] == meta["version"] == kernel.store.head(gid)[0] and legal["seat"] == seat
        game_commands = [c for c in legal["commands"] if not c["type"].startswith("taproom.")]
        assert bool(game_commands) == (seat in meta["to_act"])


def test_lobby_and_inboxes_read_as_if_every_entry_were_written_each_time(kernel, client, settings):
    gid = "lobbyinbox"
    outcome = kernel.send(gid, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": 50},
                                "seats": [{"name": "ann", "player_id": "ann"}, {}], "seed_commitment": ""},
                          dev_seed="s")
    assert outcome.accepted
    assert client.zscore(kernel.keys.lobby(), gid) is not None
    assert kernel.send(gid, {"type": "taproom.ClaimSeat", "name": "bob", "player_id": "bob"},
                       seat=1).accepted
    assert client.zscore(kernel.keys.lobby(), gid) is None  # full: out of the lobby
    client.zadd(kernel.keys.lobby(), {gid: 1.0})  # were it listed again (it is not: a game never reopens) ...
    for turn in range(4):
        kernel.add(gid, turn % 2)
        assert client.zscore(kernel.keys.lobby(), gid) == 1.0  # ... the projector removed it once, not each time
        meta = orjson.loads(client.get(kernel.keys.meta(gid)))
        [acting] = meta["to_act"]
        waiting, other = ("ann", "bob") if acting == 0 else ("bob", "ann")
        assert client.zscore(kernel.keys.inbox(waiting), gid) < INBOX_OTHER  # awaiting them: first
        assert client.zscore(kernel.keys.inbox(other), gid) == INBOX_OTHER * 2 - meta["updated"]
    # a rebuild (everything written from the logs alone) reads the same inboxes
    inboxes = {p: client.zscore(kernel.keys.inbox(p), gid) for p in ("ann", "bob")}
    Projector(client, settings, name="rebuilder").rebuild()
    assert {p: client.zscore(kernel.keys.inbox(p), gid) for p in ("ann", "bob")} == inboxes


def test_views_serialised_together_are_byte_for_byte_the_views_one_by_one(kernel):
    from projections import read_models

    gid = kernel.create(seats=3)
    kernel.add(gid, 0, amount=2)
    record = kernel.projector.repo.current(gid).record
    summary = read_models.meta(record, 123.5).to_json()
    seats = [None, 0, 1, 2]
    together = read_models.dump_views(orjson.dumps(summary), seats, record.game.views(record.state, seats))
    assert together == [read_models.dump_view(read_models.view_of(summary, record, s)) for s in seats]
    assert read_models.load_view(together[1]) == read_models.view(record, 0, 123.5)


@pytest.mark.parametrize("legacy", [False, True])
def test_a_rebuild_folds_compacted_logs_to_what_the_incremental_projection_wrote(client, settings, legacy):
    """A rebuild reads the segments' events as they are (no envelope or hash rebuilt): each has every field the
    stored envelope has but the chain's, and the read models come out as the projector wrote them."""
    from services.infrastructure.aggregates import Loaded, fold_docs, fold_raw
    from services.infrastructure.eventstore import GENESIS_HASH
    from services.infrastructure.eventstore import store as store_module

    from .test_archive import _legacy_compact

    kernel = Kernel(client, settings.model_copy(update={"compact_every": 0 if legacy else 4, "snapshot_every": 7}))
    games = [kernel.create(target=60, seed=f"c{i}") for i in range(3)]
    for turn in range(12):
        for gid in games:
            assert kernel.add(gid, turn % 2, 1).accepted
    if legacy:  # format-1 blocks first, lean ones after them
        cuts = [r["to_version"] for r in kernel.store.command_records(games[0])]
        _legacy_compact(kernel.store, games[0], cuts[3])
        assert kernel.store.compact(games[0], cuts[8])
    assert all(client.hlen(kernel.keys.segments(gid)) for gid in games[:1 if legacy else 3])
    store_module.SEGMENTS._items.clear()
    for gid, docs in zip(games, kernel.store.read_docs_many(games)):
        stored = [orjson.loads(raw) for raw in kernel.store.read_raw(gid)]
        assert [d["version"] for d in docs] == list(range(1, len(stored) + 1))
        chain = ("game_id", "prev_hash", "hash")
        for doc, envelope in zip(docs, stored):  # the chain's fields may be missing (a segment's), never different
            assert doc == {k: v for k, v in envelope.items() if k not in chain or k in doc}
        assert docs[-1]["hash"] == stored[-1]["hash"]
        fresh = Loaded(None, 0, GENESIS_HASH)
        a, b = fold_docs(fresh, gid, docs), fold_raw(fresh, gid, kernel.store.read_raw(gid))
        assert (a.version, a.hash, a.ts, a.command_id, a.record.state) == (b.version, b.hash, b.ts, b.command_id,
                                                                           b.record.state)
    before = every_model(client, settings.key_prefix)
    Projector(client, settings, name="rebuilder").rebuild()
    assert every_model(client, settings.key_prefix) == before


def test_a_log_whose_pieces_do_not_join_up_is_read_on_its_own():
    from services.infrastructure.eventstore.store import _whole_log

    entries = [(b"3-1", {b"e": b'{"version": 3}'})]
    assert _whole_log("g", [], [], entries) is None  # versions 1 and 2 are neither in segments nor in the stream
    assert _whole_log("g", [], [], [(b"1-1", {b"e": b'{"version": 1}'})]) == [{"version": 1}]


def _no_log_reads(monkeypatch, store):
    """Make every read of a game's log through ``store`` fail (the feed entries must carry what is needed)."""
    def refuse(*args, **kwargs):
        raise AssertionError("the log was read")

    for name in ("read_raw", "read_raw_after_many", "read_docs_many", "queue_tails"):
        monkeypatch.setattr(store, name, refuse)


def test_the_projector_folds_the_events_its_feed_entries_carry(kernel, client, monkeypatch):
    gid = kernel.create(seats=2)
    kernel.add(gid, 0)  # the projector has the game's record at the head now
    _no_log_reads(monkeypatch, kernel.projector.store)
    assert kernel.add(gid, 1, amount=2).accepted and kernel.add(gid, 0).accepted
    view = load_view(client.get(kernel.keys.view(gid, None)))
    assert view["version"] == kernel.store.head(gid)[0] and view["board"]["total"] == 4
    monkeypatch.undo()
    kernel.projector.repo.clear()  # a record it does not have: read from the log, as before
    assert kernel.add(gid, 1).accepted
    assert load_view(client.get(kernel.keys.view(gid, 1)))["board"]["total"] == 5


def test_feed_entries_without_their_events_are_read_from_the_log(kernel, client, monkeypatch):
    from services.infrastructure.eventstore import appends as appends_module

    gid = kernel.create(seats=2)
    monkeypatch.setattr(appends_module, "FEED_EVENTS_MAX", 0)  # too many bytes: the entries announce them only
    assert kernel.add(gid, 0, amount=2).accepted
    assert b"e" not in client.xrevrange(kernel.keys.feed(kernel.keys.shard(gid)), count=1)[0][1]
    assert load_view(client.get(kernel.keys.view(gid, 0)))["board"]["total"] == 2


def test_events_after_takes_carried_events_only_without_a_gap():
    from services.adapters.feed import events_after

    def doc(version):
        return {"version": version}

    one, two = orjson.dumps([doc(4), doc(5)]), orjson.dumps([doc(6)])
    assert events_after(3, [(6, 6, two), (4, 5, one)]) == [doc(4), doc(5), doc(6)]  # in version order
    assert events_after(5, [(4, 5, one), (6, 6, two)]) == [doc(6)]  # what is folded already is skipped
    assert events_after(6, [(4, 5, one), (6, 6, two)]) == []
    assert events_after(2, [(4, 5, one)]) is None  # version 3 is in no entry: read the log
    assert events_after(3, [(4, 5, None)]) is None  # announced without its events
    assert events_after(3, [(4, 5, one), (7, 7, two)]) is None


def _inboxes_from_the_log(kernel, gid):
    """Each player's inbox score for ``gid`` as a fold of its log says (its waits over every command)."""
    from projections.read_models import meta
    from projections.spanning import entries_of
    from services.adapters.projector.projector import _folded

    loaded, waits = _folded(gid, kernel.store.read_docs_many([gid])[0])
    return {player: score for player, score in entries_of(meta(loaded.record, loaded.ts), waits).inbox.values()}


def test_waiting_since_comes_from_the_log_whatever_the_projector_saw(client, settings):
    """A seat waits since the command that began its wait (a Carcassonne turn is a tile, then a figure or not):
    the live projector, seeing every command or several at once, restarted mid-turn, writes the inbox scores a
    fold of the log gives, and a rebuild writes every model spanning games byte for byte as it did."""
    import random

    from domain.catalog import load_games

    load_games()
    kernel = Kernel(client, settings)
    gid = "waitingsince"
    assert kernel.send(gid, {"type": "taproom.CreateGame", "game": "carcassonne", "options": {},
                             "seats": [{"name": "ann", "player_id": "ann"}, {"name": "bob", "player_id": "bob"}],
                             "seed_commitment": ""}, dev_seed="waiting-since").accepted
    chooser = random.Random(11)
    mid_turn = coalesced = 0
    for step in range(36):
        for _ in range(1 + (step % 3 == 2)):  # every third step: two commands before the projector looks
            record = kernel.processor.repo.current(gid).record
            seat = chooser.choice(record.to_act())
            command = chooser.choice(record.game.legal_commands(record.state, seat))
            kernel.bus.submit(gid, command.model_dump(mode="json"), seat=seat, actor="test")
            kernel.processor.drain()
        coalesced += step % 3 == 2
        if step % 7 == 6:  # a projector that knows nothing of the game (a restart, a lease moved)
            kernel.projector.flush_checkpoints()
            kernel.projector.leases.release_all()
            kernel.projector = Projector(client, settings, name=f"j{step}")
        kernel.projector.drain()
        meta = orjson.loads(client.get(kernel.keys.meta(gid)))
        scores = {p: client.zscore(kernel.keys.inbox(p), gid) for p in ("ann", "bob")}
        assert scores == _inboxes_from_the_log(kernel, gid)
        [acting] = meta["to_act"]
        waiting = ("ann", "bob")[acting]
        mid_turn += scores[waiting] < meta["updated"]  # its turn began a command ago: its wait kept its start
    assert mid_turn and coalesced
    before = every_model(client, settings.key_prefix)
    Projector(client, settings, name="rebuilder").rebuild()
    assert every_model(client, settings.key_prefix) == before
