"""``taproom shards``: where the shards land on a Redis Cluster's masters (issue 35)."""

from __future__ import annotations

import json

import click

from services.infrastructure.settings import get_settings


@click.group()
def shards() -> None:
    """Shards over the masters of a Redis Cluster: the layout to create it with, the spread it has."""


@shards.command()
@click.option("--shards", "count", type=int, default=None, help="shard count (default TAPROOM_SHARDS)")
@click.option("--masters", type=int, default=3, show_default=True)
@click.option("--plain", is_flag=True, help="print only the ranges, 'first-last' separated by spaces (for scripts)")
def layout(count: int | None, masters: int, plain: bool) -> None:
    """The slot ranges to give the masters so each holds as many shards as the others (what
    deploy/k8s/redis-cluster-create.sh takes), beside what equal ranges would give."""
    from services.infrastructure.eventstore.slots import equal_ranges, slot_ranges, spread

    count = count or get_settings().shards
    ranges = slot_ranges(count, masters)
    if plain:
        click.echo(" ".join(f"{a}-{b}" for a, b in ranges))
        return
    click.echo(json.dumps({"shards": count, "masters": masters, "ranges": ranges, "spread": spread(count, ranges),
                           "equal_ranges_spread": spread(count, equal_ranges(masters))}))


@shards.command("spread")
def spread_now() -> None:
    """How many shards each master of the running cluster (REDIS_URL, TAPROOM_REDIS_CLUSTER) holds now."""
    import redis

    from services.infrastructure.eventstore.slots import shard_slot

    settings = get_settings()
    if not settings.redis_url:
        raise click.UsageError("set REDIS_URL to a node of the cluster")
    client = redis.Redis.from_url(settings.redis_url)
    owners: dict[str, list[int]] = {}
    for first, last, master, *_ in client.execute_command("CLUSTER SLOTS"):
        host = master[0].decode() if isinstance(master[0], bytes) else str(master[0])
        node = f"{host}:{master[1]}"
        owners.setdefault(node, [])
        for shard in range(settings.shards):
            if first <= shard_slot(shard) <= last:
                owners[node].append(shard)
    click.echo(json.dumps({"shards": settings.shards, "masters": {n: len(s) for n, s in sorted(owners.items())}}))
