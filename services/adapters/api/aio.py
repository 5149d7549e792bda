"""The API's asyncio Redis client: a twin of its sync client, on the same server.

Server-sent event streams wait on Redis from the event loop (``redis.asyncio``)
instead of holding a worker thread each; everything else keeps the sync client.
"""

from __future__ import annotations

import inspect
from functools import lru_cache
from typing import Any

import fakeredis
import fakeredis.aioredis
import hiredis
import redis
import redis.asyncio
import redis.asyncio.connection as aconnection
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.cluster import RedisCluster

# Plain connection settings carried over from the sync pool (plus every ssl_* the async class takes); the rest
# of the sync pool's kwargs are sync-only objects (retry policies, parsers, maintenance handlers).
_CARRIED = frozenset({
    "host", "port", "db", "path", "username", "password", "client_name", "credential_provider",
    "socket_timeout", "socket_connect_timeout", "socket_keepalive", "socket_keepalive_options",
    "retry_on_timeout", "health_check_interval", "encoding", "encoding_errors", "decode_responses", "protocol",
    "lib_name", "lib_version",
})


def async_twin(client: redis.Redis, socket_timeout: float | None = None) -> redis.asyncio.Redis:
    """A ``redis.asyncio`` client on the same server, database and credentials as ``client``; with
    ``socket_timeout``, that one instead of ``client``'s (the twin's pipelines hold a ``BLPOP`` of a command's
    outcome: its own wait comes on top of the bound every call has).

    For fakeredis the twin shares the sync client's in-process ``FakeServer`` (the one
    ``services.adapters.runtime.client_factory`` passes in), so it sees the same data and wakes on its writes.
    """
    if isinstance(client, RedisCluster):  # a cluster: the asyncio cluster client, from the same startup nodes
        nodes = [ClusterNode(n.host, n.port) for n in client.nodes_manager.startup_nodes.values()]
        cluster = AsyncRedisCluster(startup_nodes=nodes, socket_connect_timeout=2.0, socket_timeout=socket_timeout)
        return _with_connection_class(cluster, _closed_aware(aconnection.Connection))  # type: ignore[return-value]
    pool = client.connection_pool
    kwargs = pool.connection_kwargs
    if isinstance(client, (fakeredis.FakeRedis, fakeredis.FakeStrictRedis)):
        # Without an explicit server fakeredis picks one by host and port: pass them on so the twin picks the same.
        return fakeredis.aioredis.FakeRedis(
            server=kwargs.get("server"), host=kwargs.get("host"), port=kwargs.get("port", 6379),
            db=kwargs.get("db", 0), version=kwargs.get("version", (7,)),
            server_type=kwargs.get("server_type", "redis"), lua_modules=kwargs.get("lua_modules"),
            decode_responses=kwargs.get("decode_responses", False))
    connection_class = getattr(aconnection, pool.connection_class.__name__, None)
    if connection_class is None:
        raise TypeError(f"no asyncio counterpart of {pool.connection_class.__name__}")
    accepted = _init_parameters(connection_class)
    if kwargs.get("encoding", "utf-8") == "utf-8" and kwargs.get("encoding_errors", "strict") == "strict":
        connection_class = _packing_in_c(connection_class)
    connection_class = _closed_aware(connection_class)
    carried = {k: v for k, v in kwargs.items() if k in accepted and (k in _CARRIED or k.startswith("ssl_"))}
    if socket_timeout is not None:
        carried["socket_timeout"] = socket_timeout
    return redis.asyncio.Redis(connection_pool=LeanPool(connection_class=connection_class, **carried))


class LeanPool(aconnection.ConnectionPool):
    """redis-py's pool without its per-command checkout costs, which were a thirteenth of the API's CPU on the
    hot routes: a lock around a pop (no await inside it: on one event loop it cannot interleave anyway), four
    awaited no-op observability records and an event dispatch per command, and, above all, a poll of the socket
    under a zero timeout (a cancelled read) to make sure a pooled connection holds no stray bytes. Here a
    connection is taken as redis-py's full check would pass it when it is connected, at no end of file, with
    nothing buffered (in asyncio's reader or hiredis's); anything else goes through that full check
    (``ensure_connection``: reconnect)."""

    async def get_connection(self, *args: Any, **kwargs: Any) -> Any:  # the stubs lag: redis-py takes no args
        pool: Any = self  # redis-py 5+'s pool; the stubs know an older one
        connection = pool.get_available_connection()
        try:
            if not _clean(connection):
                await pool.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection

    async def release(self, connection: Any) -> None:
        pool: Any = self
        pool._in_use_connections.remove(connection)
        if connection.should_reconnect():
            await connection.disconnect()
        pool._available_connections.append(connection)


def _clean(connection: Any) -> bool:
    """Whether a pooled connection is connected with nothing left to read (else: redis-py's own check)."""
    stream = getattr(connection, "_reader", None)
    parser = getattr(getattr(connection, "_parser", None), "_reader", None)  # hiredis's, when it parses
    return (stream is not None and not stream.at_eof() and not getattr(stream, "_buffer", True)
            and parser is not None and not parser.has_data())


@lru_cache(maxsize=8)
def _init_parameters(cls: type) -> frozenset[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is not None:
            names |= {p.name for p in inspect.signature(init).parameters.values()
                      if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    return frozenset(names - {"self"})


class _HiredisPacking:
    """Commands packed by hiredis (C) instead of redis-py's pure-Python packer: on the hot routes, packing the
    pipelines' arguments was an eighth of the API's CPU. Same bytes (UTF-8 strings, ``repr`` of floats); an
    argument hiredis does not take (a memoryview, or a wrong type) goes the Python way, which packs or refuses
    it as before."""

    def pack_command(self, *args: Any) -> list[bytes]:
        command = args
        if isinstance(args[0], str):
            command = (*args[0].encode().split(), *args[1:])
        elif isinstance(args[0], bytes) and b" " in args[0]:
            command = (*args[0].split(), *args[1:])
        try:
            return [hiredis.pack_command(command)]
        except TypeError:
            return super().pack_command(*args)  # type: ignore[misc,no-any-return]


@lru_cache(maxsize=8)
def _packing_in_c(cls: type) -> type:
    return type(cls.__name__, (_HiredisPacking, cls), {"__module__": __name__})


class _ClosedUnderIt:
    """A connection closed under a command raises ``ConnectionError``, as a dropped one does.

    redis-py's asyncio cluster client closes every node's connections when a failover meets it
    (``ClusterDownError``, ``SlotNotCoveredError``: ``RedisCluster.aclose``), also those other requests are
    writing or reading on at that moment; their command then meets a writer or reader of ``None`` and leaks an
    ``AttributeError`` (a ``TypeError`` on Python 3.12+ for a peer-closed one, redis-py #4287) that no retry and
    no 503 handler knows: the API answered 500 in the middle of a failover. redis-py has already dropped the
    connection by then, and the command was not answered: it is an outage like any other (503, Retry-After)."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        writer: Any = getattr(self, "_writer", None)
        transport = writer.transport if writer is not None else None
        if (type(command) is list and transport is not None and not transport.is_closing()
                and not getattr(self, "health_check_interval", 0) and not transport.get_write_buffer_size()):
            # An idle socket takes the command at once: nothing to drain, so no timed drain, which redis-py
            # runs through asyncio.wait_for, a task per command (a twenty-fifth of the API's CPU). A lost
            # connection then shows on the reply's read, as ConnectionError.
            writer.writelines(command)
            return
        try:
            await super().send_packed_command(command, check_health)  # type: ignore[misc]
        except (AttributeError, TypeError) as exc:
            raise redis.ConnectionError(f"the connection was closed under the command ({exc})") from exc

    async def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().read_response(*args, **kwargs)  # type: ignore[misc]
        except (AttributeError, TypeError) as exc:
            raise redis.ConnectionError(f"the connection was closed under the command ({exc})") from exc


@lru_cache(maxsize=8)
def _closed_aware(cls: type) -> type:
    return type(cls.__name__, (_ClosedUnderIt, cls), {"__module__": __name__})


def _with_connection_class(cluster: AsyncRedisCluster, connection_class: type) -> AsyncRedisCluster:
    """``cluster`` making its connections of ``connection_class``: its constructor takes none (it picks
    ``Connection`` or ``SSLConnection``), so it is set where the nodes it knows and those it learns read it."""
    cluster.connection_kwargs["connection_class"] = connection_class
    cluster.nodes_manager.connection_kwargs["connection_class"] = connection_class
    for node in cluster.nodes_manager.startup_nodes.values():
        node.connection_class = connection_class
    return cluster
