"""Shard leases: each shard is worked by one process of a role at a time.

Every process heartbeats into a members set; each takes a fair share of the
shards (ceil(shards / live members)) with ``SET NX PX`` and renews what it
holds. A dead process's leases lapse and another takes its shards over.
"""

from __future__ import annotations

import math
import time
from typing import Any

import redis

from services.infrastructure.eventstore import Keys
from services.infrastructure.eventstore.store import run_scripts
from services.infrastructure.redisconn import is_cluster
from services.infrastructure.resilience import UNAVAILABLE

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class ShardLeases:
    def __init__(self, client: redis.Redis, keys: Keys, role: str, owner: str, lease_ms: int = 10_000,
                 only: list[int] | None = None) -> None:
        self.redis = client
        self.keys = keys
        self.role = role
        self.owner = owner
        self.lease_ms = lease_ms
        self.candidates = list(only) if only is not None else list(range(keys.shards))
        self.owned: set[int] = set()
        self._next_refresh = 0.0
        self._alive = 1  # the live members last counted
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    def refresh(self, force: bool = False) -> set[int]:
        """Renew, rebalance and acquire (at most every quarter lease); returns the shards newly acquired."""
        if not force and time.monotonic() < self._next_refresh:
            return set()
        self._next_refresh = time.monotonic() + self.lease_ms / 4000
        now = int(time.time() * 1000)
        members = self.keys.members(self.role)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(members, {self.owner: now})
        pipe.zremrangebyscore(members, 0, now - self.lease_ms)
        pipe.zcard(members)
        try:
            alive = max(1, pipe.execute()[-1])
            self._alive = alive
        except UNAVAILABLE:
            if not is_cluster(self.redis):
                raise
            alive = self._alive  # the members' master is away: the shards on the others are still worked
        target = math.ceil(len(self.candidates) / alive)
        for shard, renewed in zip(sorted(self.owned), self._renew_all(sorted(self.owned))):
            if not renewed:
                self.owned.discard(shard)
        while len(self.owned) > target:
            shard = max(self.owned)
            self._release(keys=[self.keys.lease(self.role, shard)], args=[self.owner])
            self.owned.discard(shard)
        acquired: set[int] = set()
        for shard in self.candidates:
            if len(self.owned) >= target:
                break
            if shard not in self.owned and self._take(shard):
                self.owned.add(shard)
                acquired.add(shard)
        return acquired

    def _take(self, shard: int) -> bool:
        """``SET NX PX`` of the shard's lease; on a cluster a shard whose master is away is simply not taken."""
        try:
            return bool(self.redis.set(self.keys.lease(self.role, shard), self.owner, nx=True, px=self.lease_ms))
        except UNAVAILABLE:
            if not is_cluster(self.redis):
                raise
            return False

    def _renew_all(self, shards: list[int]) -> list[Any]:
        """Renew the leases of ``shards`` (whether each is still ours): one round trip for all of them on one
        server (a lease held by a process renews every quarter lease, with each of its shards); one call each on
        a cluster, whose pipelines refuse EVALSHA (the leases' keys are in different slots anyway)."""
        if not shards:
            return []
        keys = [self.keys.lease(self.role, shard) for shard in shards]
        if is_cluster(self.redis):
            return [self._renew_one(key) for key in keys]
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            pipe.evalsha(self._renew.sha, 1, key, self.owner, self.lease_ms)  # type: ignore[attr-defined]
        return run_scripts(pipe, [self._renew])

    def _renew_one(self, key: str) -> Any:
        """One lease on a cluster; one whose master is away is given up (its shard cannot be worked now, and
        another process may take it once its master is back or replaced)."""
        try:
            return self._renew(keys=[key], args=[self.owner, self.lease_ms])
        except UNAVAILABLE:
            return 0

    def release_all(self) -> None:
        for shard in self.owned:
            self._release(keys=[self.keys.lease(self.role, shard)], args=[self.owner])
        self.owned.clear()
        self.redis.zrem(self.keys.members(self.role), self.owner)
