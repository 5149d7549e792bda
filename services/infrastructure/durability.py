"""Every acknowledged write as durable as a command: the one rule, and the one place that enforces it.

A command is acknowledged only once its append is on ``append_replicas`` replicas (``EventStore``'s ``WAIT``).
Every other write the API acknowledges (a registration, a rotated token, a recovery code, an invitation, a chat
message, notification settings, a push subscription, a vacation) goes through :meth:`Durability.confirm`
before its answer leaves (the API calls it for every successful write request; see
``services.adapters.api.durable``): on each master it writes a probe key and sends ``WAIT replicas timeout`` on
that same connection. ``WAIT`` waits for the master's replication offset as of the probe, which covers every
write that master acknowledged before it, whichever connection made it.

Without replicas to wait for (one Redis server), durability is the server's: ``appendfsync always`` fsyncs a
write before its reply. Redis 7.2 added ``WAITAOF`` to confirm the fsync; where the server has it and its AOF
is on, :meth:`confirm` sends ``WAITAOF 1 0 timeout`` (Redis 7.0 has no ``WAITAOF``: nothing to send).

When the durability is not reached in time :class:`WriteNotDurable` is raised: the API answers 503 with
``Retry-After``, never a 2xx. The write may then be on the master without a replica, so a retry must be
harmless: the writes that go through here are idempotent by value (settings) or by a client key
(registration), or a retry makes a second harmless copy (a chat line, an invitation a client can withdraw).
"""

from __future__ import annotations

from typing import Any

import redis
from redis.crc import key_slot

from services.infrastructure.redisconn import is_cluster, refresh_slots
from services.infrastructure.resilience import UNAVAILABLE, ReplicationShortfall

_REDIRECTS = (redis.exceptions.AskError, redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError,
              redis.exceptions.ReadOnlyError)
"""Replies of a node that no longer serves the probe's slot (``MovedError`` is an ``AskError``)."""


class WriteNotDurable(ReplicationShortfall):
    """A write reached its master but not the durability it must have before it is acknowledged."""


class Durability:
    """Confirms that everything written so far reached ``replicas`` replicas (or the disk, see the module)."""

    def __init__(self, client: redis.Redis, replicas: int = 0, timeout_ms: int = 1000,
                 prefix: str = "tr:", no_replica_policy: str = "refuse") -> None:
        self.redis = client
        self.replicas = replicas
        self.no_replica_policy = no_replica_policy
        """``local_fsync``: a master short of replicas that fsyncs every write (AOF, ``appendfsync always``)
        confirms by itself, as appends do (``Settings.no_replica_policy``)."""
        self._fsyncs: dict[int, bool] = {}
        self.timeout_ms = timeout_ms
        self.prefix = prefix
        self._probes: dict[str, str] = {}
        """Per cluster master (node name), a probe key in a slot it serves."""
        self._waitaof: bool | None = None
        """Whether a single server can confirm its fsync (``WAITAOF``); learnt on first use."""

    @property
    def waits(self) -> bool:
        """Whether :meth:`confirm` has anything to do (False: acknowledged writes are as durable as they get)."""
        if self.replicas > 0:
            return True
        if is_cluster(self.redis):
            return False
        if self._waitaof is None:
            self._waitaof = _can_waitaof(self.redis)
        return self._waitaof

    def confirm(self) -> None:
        """Return once every write acknowledged so far is durable; else raise :class:`WriteNotDurable`."""
        if not self.waits:
            return
        if is_cluster(self.redis):
            try:
                probes = [(node, self._probe(node)) for node in self.redis.get_primaries()]  # type: ignore[attr-defined]
                targets = [(self.redis.get_redis_connection(node), probe)  # type: ignore[attr-defined]
                           for node, probe in probes if probe is not None]
            except UNAVAILABLE:
                refresh_slots(self.redis)  # type: ignore[arg-type]
                raise
        else:
            targets = [(self.redis, f"{self.prefix}durable:probe")]
        for client, probe in targets:
            try:
                self._wait(client, probe)
            except _REDIRECTS as exc:  # the slot map changed (a failover): read it again, refuse this time
                self._probes.clear()
                refresh_slots(self.redis)  # type: ignore[arg-type]
                raise redis.ConnectionError(f"the cluster moved a slot: {exc}") from exc

    def _wait(self, client: Any, probe: str) -> None:
        pipe = client.pipeline(transaction=False)
        pipe.incr(probe)
        if self.replicas > 0:
            pipe.execute_command("WAIT", self.replicas, self.timeout_ms)
        else:
            pipe.execute_command("WAITAOF", 1, 0, self.timeout_ms)
        acked = pipe.execute()[-1]
        reached = int(acked[0] >= 1) if isinstance(acked, list) else int(acked)
        needed = self.replicas if self.replicas > 0 else 1
        if reached < needed and self.replicas > 0 and self.no_replica_policy == "local_fsync" and self._local(client):
            return
        if reached < needed:
            what = f"{acked} of {self.replicas} replicas" if self.replicas > 0 else "the disk (WAITAOF)"
            raise WriteNotDurable(f"{what} confirmed the write within {self.timeout_ms} ms")

    def _local(self, client: Any) -> bool:
        """Whether the master behind ``client`` fsyncs each write before answering (asked once per pool)."""
        key = id(getattr(client, "connection_pool", client))
        if key not in self._fsyncs:
            try:
                config = client.config_get("append*")
                self._fsyncs[key] = config.get("appendonly") == "yes" and config.get("appendfsync") == "always"
            except redis.ResponseError:
                self._fsyncs[key] = False
        return self._fsyncs[key]

    def _probe(self, node: Any) -> str | None:
        """A key of a slot ``node`` serves (a few tries: a master serves about 1/masters of the slots); None
        for a master that serves no slot (it holds no write to wait for)."""
        known = self._probes.get(node.name)
        if known is not None and self.redis.get_node_from_key(known).name == node.name:  # type: ignore[attr-defined]
            return known
        slots = self.redis.nodes_manager.slots_cache  # type: ignore[attr-defined]
        for i in range(1 << 16):
            key = f"{self.prefix}durable:probe:{{p{i}}}"
            owners = slots.get(key_slot(key.encode()))
            if owners and owners[0].name == node.name:
                self._probes[node.name] = key
                return key
        return None


def _can_waitaof(client: Any) -> bool:
    """``WAITAOF`` exists (Redis >= 7.2; Valkey reports 7.2 too) and the AOF is on; False on a server (or
    fakeredis) that cannot say."""
    try:
        version = tuple(int(part) for part in str(client.info("server").get("redis_version", "0")).split(".")[:2])
        return version >= (7, 2) and bool(client.info("persistence").get("aof_enabled"))
    except (redis.ResponseError, ValueError):
        return False
