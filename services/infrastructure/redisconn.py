"""Redis connections: the event store's (one server or a Redis Cluster) and the job queues' (always one server).

``REDIS_URL`` names the event store: a plain server, or with ``TAPROOM_REDIS_CLUSTER=1`` any node of a Redis
Cluster (the client learns the others). rq does not support Redis Cluster (its multi-key commands fail with
CROSSSLOT), so the job queues, their scheduler and the API's rate-limit counters use
``TAPROOM_QUEUE_REDIS_URL`` (default: ``REDIS_URL``, which must then be a plain server).

On a cluster every multi-key command must keep its keys in one hash slot: the helpers here split what may span
slots (``mget``, reading several shard streams) into one command per slot, and :func:`by_node` lets the event
store send its append scripts to each master over that node's own connection (redis-py's cluster pipeline
refuses EVALSHA), followed by ``WAIT`` on the same connection when appends must reach a replica first.
The clients themselves are made in one place, the composition root (``services/infrastructure/bootstrap.py``).
"""

from __future__ import annotations

import contextvars
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis
from redis.cluster import RedisCluster

ClientFactory = Callable[[], redis.Redis]


def is_cluster(client: Any) -> bool:
    return isinstance(client, RedisCluster)


def read_timeout(settings: Any, blocking: float = 0.0) -> float:
    """The socket timeout of a client whose calls may block up to ``blocking`` seconds on purpose (a ``BLPOP``):
    that, plus the longest a Redis ``WAIT`` for replicas may take, plus ``redis_socket_timeout_seconds``. Every
    Redis call is then bounded: a frozen server is an outage (``TimeoutError``) after this long."""
    waits = max(getattr(settings, "append_replica_timeout_ms", 0), 0) / 1000
    return float(getattr(settings, "redis_socket_timeout_seconds", 2.0)) + waits + max(blocking, 0.0)


def connect_timeout(settings: Any) -> float:
    return float(getattr(settings, "redis_connect_timeout_seconds", 2.0))


def cluster_client(url: str, socket_timeout: float = 5.0, socket_connect_timeout: float = 2.0) -> RedisCluster:
    """A cluster client from one node's URL. Commands that meet a node going away are retried by redis-py
    after re-reading the slot map, so a failover looks like a short outage."""
    return RedisCluster.from_url(url, socket_connect_timeout=socket_connect_timeout, socket_timeout=socket_timeout,
                                 cluster_error_retry_attempts=3)


# -- the store client of rq jobs ------------------------------------------------------------------------------
# A job gets its queue's connection from rq; the event store may be elsewhere (a cluster). The worker says
# which: a thread worker sets it for its thread, ``taproom worker`` for its process (made anew after a fork).
_JOB_STORE: contextvars.ContextVar[redis.Redis | None] = contextvars.ContextVar("taproom_job_store", default=None)
_PROCESS_STORE: dict[str, Any] = {}


def set_job_store(client: redis.Redis | None) -> None:
    """The event store client of the jobs this thread runs (None: the job's own queue connection)."""
    _JOB_STORE.set(client)


def set_process_job_store(factory: ClientFactory | None) -> None:
    """For a forking worker: jobs of this process and its children build their store client from ``factory``
    (once per process: a forked child must not share its parent's sockets)."""
    _PROCESS_STORE.clear()
    if factory is not None:
        _PROCESS_STORE["factory"] = factory


def job_store(fallback: redis.Redis | None) -> redis.Redis | None:
    client = _JOB_STORE.get()
    if client is not None:
        return client
    factory = _PROCESS_STORE.get("factory")
    if factory is not None:
        if _PROCESS_STORE.get("pid") != os.getpid():
            _PROCESS_STORE.update(pid=os.getpid(), client=factory())
        return _PROCESS_STORE["client"]
    return fallback


# -- commands that may span slots -----------------------------------------------------------------------------
def mget(client: Any, keys: list[str]) -> list[Any]:
    """``MGET`` of keys in any slots (one command per slot on a cluster, answers in the keys' order)."""
    if not keys:
        return []
    if is_cluster(client):
        return client.mget_nonatomic(keys)
    return client.mget(keys)


def read_streams(client: Any, streams: dict[str, str], *, count: int, block_ms: int,
                 group: str | None = None, consumer: str | None = None) -> list[Any]:
    """``XREAD``/``XREADGROUP`` over several streams. On one server: one blocking command. On a cluster each
    shard's stream has its own slot, so one non-blocking command per stream goes out in one pipeline (split
    per node by redis-py) and, when all are empty, the caller's wait is a short sleep instead of a block."""
    if not is_cluster(client):
        if group is not None:
            return client.xreadgroup(group, consumer, streams, count=count, block=block_ms or None) or []
        return client.xread(streams, count=count, block=block_ms or None) or []
    pipe = client.pipeline(transaction=False)
    for stream, cursor in streams.items():
        if group is not None:
            pipe.xreadgroup(group, consumer, {stream: cursor}, count=count)
        else:
            pipe.xread({stream: cursor}, count=count)
    replies = [batch for reply in pipe.execute() for batch in _stream_batches(reply)]
    if not replies and block_ms:
        time.sleep(min(block_ms, 5) / 1000)
    return replies


def _stream_batches(reply: Any) -> Iterable[Any]:
    if not reply:
        return []
    if isinstance(reply, dict):  # RESP3 shape
        return [[k, v[0] if v and isinstance(v[0], list) else v] for k, v in reply.items()]
    return reply


def by_node(client: RedisCluster, keys: list[str]) -> dict[str, tuple[redis.Redis, list[int]]]:
    """Group positions of ``keys`` by the master serving each key's slot: node name -> (that node's own
    client, positions). Commands sent on one node client's pipeline share one connection, in order."""
    groups: dict[str, tuple[redis.Redis, list[int]]] = {}
    for i, key in enumerate(keys):
        node = client.get_node_from_key(key)
        assert node is not None, f"no node serves the slot of {key!r}"
        if node.name not in groups:
            groups[node.name] = (client.get_redis_connection(node), [])
        groups[node.name][1].append(i)
    return groups


def refresh_slots(client: RedisCluster) -> None:
    """Read the slot map again (after a node went away or a slot moved); quiet when the cluster is not ready."""
    try:
        client.nodes_manager.initialize()
    except redis.RedisError:
        pass
