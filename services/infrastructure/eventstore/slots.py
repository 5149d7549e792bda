"""How shards land on the masters of a Redis Cluster, and a slot layout that spreads them evenly (issue 35).

Every key of a shard carries the hash tag ``{sN}`` (``keys.py``), so a shard lives in ONE slot,
``CRC16("sN") mod 16384``, and on the master that holds that slot. ``redis-cli --cluster create`` gives each master
an equal range of slots, which says nothing of where the shards' few slots fall: with 16 shards and three
masters they fell 6/4/6, and no shard count spreads evenly over three equal ranges. So the deployments
create the cluster with the ranges :func:`slot_ranges` computes for their shard count (``taproom shards
layout``): still contiguous ranges covering all 16,384 slots, their boundaries placed between the shards' slots
so that each master holds the same number of shards (``deploy/k8s/redis-cluster-create.sh``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from redis.crc import key_slot

SLOTS = 16384


def shard_slot(shard: int) -> int:
    """The cluster slot of shard ``shard`` (its hash tag ``{sN}``)."""
    return int(key_slot(f"{{s{shard}}}".encode()))


def slot_ranges(shards: int, masters: int) -> list[tuple[int, int]]:
    """``masters`` contiguous slot ranges (first, last) covering every slot, each holding the slots of
    ``shards // masters`` shards (one more for the first ``shards % masters``), as nearly as shards sharing one
    slot allow (none do below a few thousand shards)."""
    if masters < 1 or shards < masters:
        raise ValueError(f"{shards} shards cannot spread over {masters} masters")
    by_slot = sorted(Counter(shard_slot(s) for s in range(shards)).items())
    wanted = [shards // masters + (1 if i < shards % masters else 0) for i in range(masters)]
    ranges: list[tuple[int, int]] = []
    first, held, i = 0, 0, 0
    for index, (slot, count) in enumerate(by_slot):
        held += count
        if held >= wanted[i] and len(ranges) < masters - 1 and index + 1 < len(by_slot):
            nxt = by_slot[index + 1][0]
            last = (slot + nxt) // 2  # anywhere between this shard's slot and the next one's
            ranges.append((first, last))
            first, held, i = last + 1, 0, i + 1
    ranges.append((first, SLOTS - 1))
    return ranges


def spread(shards: int, ranges: Sequence[tuple[int, int]]) -> list[int]:
    """How many of the ``shards`` each range (a master's slots) holds."""
    counts = [0] * len(ranges)
    for s in range(shards):
        slot = shard_slot(s)
        for i, (first, last) in enumerate(ranges):
            if first <= slot <= last:
                counts[i] += 1
    return counts


def equal_ranges(masters: int) -> list[tuple[int, int]]:
    """The ranges ``redis-cli --cluster create`` gives ``masters`` masters (for comparison)."""
    per = SLOTS / masters
    out, first, cursor = [], 0, 0.0
    for i in range(masters):
        last = SLOTS - 1 if i == masters - 1 else int(cursor + per - 1 + 0.5)
        cursor += per
        out.append((first, last))
        first = last + 1
    return out
