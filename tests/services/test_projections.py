"""Projections: idempotent folding, and a rebuild from the log gives identical read models."""

from __future__ import annotations

import pytest

from projections.read_models import load_view
from services.projector import Projector

from .helpers import Kernel


@pytest.fixture
def kernel(client, settings):
    return Kernel(client, settings)


def read_models(client, prefix):
    keys = sorted(k for pattern in (f"{prefix}g:*:view:*", f"{prefix}g:*:meta") for k in client.scan_iter(match=pattern))
    return {k: client.get(k) for k in keys}


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
    before = read_models(client, settings.key_prefix)
    figures = Projector(client, settings, name="rebuilder").rebuild()
    after = read_models(client, settings.key_prefix)
    assert figures["games"] == 3 and figures["events"] == sum(kernel.store.head(g)[0] for g in games)
    assert after == before
