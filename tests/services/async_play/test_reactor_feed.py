"""The reactor follows the feeds cheaply: events carried by the entries, checkpoints written when it pays."""

from __future__ import annotations

from .conftest import Table


def test_the_reactor_reacts_to_the_events_its_feed_entries_carry(table: Table, monkeypatch) -> None:
    """A game the reactor follows (a player's seat: a "your turn" message each turn) is brought up to date from
    its feed entries alone: no read of the log."""
    gid = table.create([{"name": "ann", "player_id": "ann"}, {"name": "bob", "player_id": "bob"}])
    table.kernel.add(gid, 0)
    table.settle()
    store = table.reactor.store

    def refuse(*args, **kwargs):
        raise AssertionError("the log was read")

    monkeypatch.setattr(store, "read_raw", refuse)
    monkeypatch.setattr(store, "take_tails", lambda after, replies: {g: refuse() for g in after})
    table.kernel.add(gid, 1)
    table.settle()
    assert table.reactor.repo.peek(gid).version == table.kernel.store.head(gid)[0]


def test_a_reactor_batch_that_writes_nothing_keeps_its_checkpoint_a_moment(table: Table) -> None:
    from services.adapters.feed import CHECKPOINT_LAG_SECONDS

    gid = table.create([{"name": "ann"}, {"name": "bob"}])  # nobody to tell, no bot, no clock
    reactor, keys = table.reactor, table.kernel.keys
    shard = keys.shard(gid)
    table.kernel.add(gid, 0)
    reactor.drain()  # caught up: written
    stored = table.client.get(keys.checkpoint("reactor", shard))
    table.kernel.add(gid, 1)
    assert reactor.step() == 1  # handled; the checkpoint only in memory, as a moment ago one was written
    assert table.client.get(keys.checkpoint("reactor", shard)) == stored
    reactor._saved_at -= CHECKPOINT_LAG_SECONDS  # a second later, quiet: the next read that finds nothing writes it
    assert reactor.step() == 0
    last = table.client.xrevrange(keys.feed(shard), count=1)[0][0]
    assert table.client.get(keys.checkpoint("reactor", shard)) == last
