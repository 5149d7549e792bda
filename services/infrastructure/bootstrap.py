"""The composition root: settings and Redis in, every shared service part out, built once.

``bootstrap(settings, client)`` makes the key layout, the event store, the command bus, the player and
token stores, the clock, and on demand the record caches (:meth:`Root.records`) and job queues
(:meth:`Root.queue`); entry points (API app, CLI, workers, processor, projector, reactor) take what they need
from the :class:`Root` and build none of these themselves. Tests hand ``bootstrap`` a
:class:`~services.infrastructure.clock.ShiftedClock` to move time forward. The two Redis connections the service may use
are made by one factory each: :func:`event_store_client` (events, commands, read models: ``REDIS_URL``,
a Redis Cluster with ``TAPROOM_REDIS_CLUSTER``) and :func:`queue_client` (rq jobs and the rate limits:
``TAPROOM_QUEUE_REDIS_URL``, default ``REDIS_URL``; rq does not support Redis Cluster).
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import fakeredis
import redis
from redis import Redis

from services.infrastructure.aggregates import Repository
from services.infrastructure.archive import register_side_key
from services.infrastructure.async_commands import AsyncCommandBus
from services.infrastructure.clock import Clock
from services.infrastructure.coldstore import SCHEME as COLD_SCHEME
from services.infrastructure.coldstore import PostgresStore, is_postgres_url
from services.infrastructure.commands import CommandBus
from services.infrastructure.durability import Durability
from services.infrastructure.eventstore import EventStore, Keys
from services.infrastructure.eventstore.archived import (
    DEFAULT_READER,
    ArchiveReader,
    ColdStore,
    cold_store,
    open_uri,
    register_scheme,
)
from services.infrastructure.players import Players
from services.infrastructure.redisconn import cluster_client, job_store
from services.infrastructure.resilience import command_retry
from services.infrastructure.settings import Settings, job_settings
from services.infrastructure.tokens import Tokens

if TYPE_CHECKING:
    from redis.asyncio import Redis as AsyncRedis
    from rq import Queue

ClientFactory = Callable[[], Redis]

CHAT_CHANNELS = ("seats", "spectators")


def chat_side_name(channel: str) -> str:
    """The archive's name for a chat channel of a game (``EventStore.archived_side(game_id, name)``)."""
    return f"chat:{channel}"


CHAT_REPORTS_SIDE_NAME = "chat:reports"
REMATCH_SIDE_NAME = "rematch"
ANALYSIS_SIDE_NAME = "analysis"


def register_game_side_keys() -> None:
    """The per-game keys kept beside a game's log that travel with its archive (and leave Redis with it):
    its chat channels (``Keys.chat_side_keys``), the reports of its chat (``Keys.chat_reports``), the id of its rematch (``Keys.rematch``) and the coach's analysis
    (``Keys.analysis``)."""
    def chat_key(channel: str) -> Callable[[Keys, str], str]:
        return lambda keys, game_id: keys.chat(game_id, channel)

    for channel in CHAT_CHANNELS:
        register_side_key(chat_side_name(channel), chat_key(channel))
    register_side_key(CHAT_REPORTS_SIDE_NAME, lambda keys, game_id: keys.chat_reports(game_id))
    register_side_key(REMATCH_SIDE_NAME, lambda keys, game_id: keys.rematch(game_id))
    register_side_key(ANALYSIS_SIDE_NAME, lambda keys, game_id: keys.analysis(game_id))


register_game_side_keys()  # every process that builds a part (API, workers, CLI) archives them alike


def client_factory(settings: Settings, server: fakeredis.FakeServer | None = None) -> ClientFactory:
    """New event-store clients on ``REDIS_URL`` (a Redis Cluster client with ``TAPROOM_REDIS_CLUSTER``), or on
    one in-process server when there is none."""
    return store_client_factory(settings, server)


def store_client_factory(settings: Any, server: fakeredis.FakeServer | None = None) -> ClientFactory:
    """New clients on ``REDIS_URL`` (a cluster client when ``redis_cluster``), or on one in-process server
    when there is no URL."""
    if settings.redis_url and getattr(settings, "redis_cluster", False):
        url = settings.redis_url
        state: dict[str, Any] = {}

        def shared() -> redis.Redis:
            # One client per process (thread-safe: a pool per node inside), made when first asked for, so a
            # part may start before the cluster answers, and a forked rq job makes its own.
            if state.get("pid") != os.getpid():
                state.update(pid=os.getpid(), client=cluster_client(url))
            return state["client"]

        return shared
    if settings.redis_url:
        # Each command fails fast when Redis is away (see command_retry); the parts' loops wait it out.
        pool = redis.ConnectionPool.from_url(settings.redis_url, retry=command_retry(), socket_connect_timeout=2.0)
        return lambda: redis.Redis(connection_pool=pool)
    shared_server = server or fakeredis.FakeServer()
    return lambda: fakeredis.FakeRedis(server=shared_server)


def queue_client_factory(settings: Any, store: ClientFactory) -> ClientFactory:
    """Clients for rq (queues, scheduler, job records) and the rate limits: ``TAPROOM_QUEUE_REDIS_URL``,
    else the event store's own server. A cluster event store needs a queue URL of its own."""
    url = getattr(settings, "queue_redis_url", None)
    if url:
        pool = redis.ConnectionPool.from_url(url, retry=command_retry(), socket_connect_timeout=2.0)
        return lambda: redis.Redis(connection_pool=pool)
    if settings.redis_url and getattr(settings, "redis_cluster", False):
        raise ValueError("rq does not support Redis Cluster: set TAPROOM_QUEUE_REDIS_URL to a plain Redis server "
                         "for the job queues")
    return store


def event_store_client(settings: Settings, server: fakeredis.FakeServer | None = None) -> Redis:
    """The client of the event store (streams, logs, read models): one server or a cluster."""
    return client_factory(settings, server)()


def queue_client(settings: Settings, fallback: Redis | None = None) -> Redis:
    """The client rq's queues use: ``TAPROOM_QUEUE_REDIS_URL``, else ``REDIS_URL`` (or ``fallback``, the
    embedded server's client)."""
    if fallback is not None and not settings.redis_url:
        return fallback
    return queue_client_factory(settings, client_factory(settings))()


@dataclass
class Root:
    """The service's shared parts over one Redis client, built once by :func:`bootstrap`."""

    settings: Settings
    redis: Redis
    keys: Keys
    store: EventStore
    bus: CommandBus
    players: Players
    tokens: Tokens
    clock: Clock
    """What every part reads as "now" (deadlines, vacations, invitations, notifications)."""
    queue_redis: Redis | None = field(default=None)
    cold: ColdStore | None = field(default=None)
    """Where finished games are archived (PostgreSQL at ``settings.cold_store_url``, else the directory
    ``settings.archive_dir``; see ``services.infrastructure.archive``)."""
    archive_reader: ArchiveReader = field(default=DEFAULT_READER)
    """Reads archived games back (one cache per process); the event store answers from it."""
    durability: Durability | None = field(default=None)
    """Confirms a write is as durable as a command before it is acknowledged (``infrastructure.durability``)."""

    def queue(self, name: str | None = None) -> Queue:
        """The rq queue jobs go to (``settings.rq_queue`` unless named)."""
        from rq import Queue

        return Queue(name or self.settings.rq_queue, connection=self.queue_redis or self.redis)

    def records(self, cache_size: int | None = None) -> Repository:
        """A record cache of its own over the event store (one per part that decides or folds: each keeps the
        games it works on; default size ``settings.aggregate_cache_size``; 0: a fold kept nowhere)."""
        size = self.settings.aggregate_cache_size if cache_size is None else cache_size
        return Repository(self.store, size)

    def async_bus(self, client: AsyncRedis) -> AsyncCommandBus:
        """The command bus of one event loop, over ``client`` (that loop's asyncio twin of :attr:`redis`),
        falling back on :attr:`store` for what Redis no longer holds."""
        return AsyncCommandBus(client, self.keys, store=self.store)


def keys_for(settings: Settings) -> Keys:
    """The key layout settings describe (prefix, shards)."""
    return Keys(settings.key_prefix, settings.shards)


# -- the root of rq jobs ---------------------------------------------------------------------------------------
# Jobs are given ids only; they run under their worker's settings (``services.infrastructure.settings.job_settings``).
_ROOTS: dict[tuple[int, int, int], tuple[Settings, Redis, Clock, Root]] = {}
_ROOTS_KEPT = 32
_JOB_CLOCK: contextvars.ContextVar[Clock | None] = contextvars.ContextVar("taproom_job_clock", default=None)


@contextmanager
def jobs_keep_time(clock: Clock | None) -> Iterator[None]:
    """Jobs run inside this block (by this thread) read ``clock`` (None: wall time): their worker's, which
    the part that started the worker was given."""
    token = _JOB_CLOCK.set(clock)
    try:
        yield
    finally:
        _JOB_CLOCK.reset(token)


def job_root(client: Redis) -> Root:
    """The composition root inside an rq job over the job's event-store ``client``: built once per worker
    settings, clock and client (a forked job builds its own), from :func:`job_settings`."""
    settings = job_settings()
    clock = _JOB_CLOCK.get() or _WALL
    key = (id(settings), id(client), id(clock))
    kept = _ROOTS.get(key)
    if kept is not None and kept[0] is settings and kept[1] is client and kept[2] is clock:
        return kept[3]
    root = bootstrap(settings, client, clock=clock)
    if len(_ROOTS) >= _ROOTS_KEPT:
        _ROOTS.pop(next(iter(_ROOTS)))
    _ROOTS[key] = (settings, client, clock, root)
    return root


def job_root_of(connection: Redis | None) -> Root:
    """The composition root of the rq job being run: over ``connection`` when given (tests), else over the
    job's event-store client (a cluster's, else rq's own); its worker's settings and clock."""
    if connection is None:
        from rq import get_current_job

        job = get_current_job()
        assert job is not None, "run inside an rq job or pass a connection"
        connection = job_store(job.connection)
        assert connection is not None
    return job_root(connection)


_WALL = Clock()  # stateless: the wall clock of every root not given another

# -- the cold store ---------------------------------------------------------------------------------------------
_COLD: dict[tuple[str, int], tuple[PostgresStore, ArchiveReader]] = {}
"""One PostgreSQL store (its connection pool) and reader per URL and process: a forked rq job makes its own."""


def cold_store_for(settings: Settings) -> ColdStore:
    """The configured cold store: PostgreSQL at ``cold_store_url`` (its schema migrated at its first use when
    ``cold_store_migrate``), else the directory ``archive_dir``."""
    url = settings.cold_store_url
    if not url:
        return cold_store(settings.archive_dir)
    if not is_postgres_url(url):
        raise ValueError(f"TAPROOM_COLD_STORE_URL: no cold store for {url.split(':', 1)[0]!r} URLs (postgresql://...)")
    key = (url, os.getpid())
    kept = _COLD.get(key)
    if kept is None:
        prepare = None
        if settings.cold_store_migrate:  # at the first use, not here: a part starts while PostgreSQL is down
            from services.infrastructure.coldstore.migrate import upgrade

            prepare = partial(upgrade, url)
        pg = PostgresStore(url, prepare=prepare)
        register_scheme(COLD_SCHEME, pg.read_uri)  # a reader built without a root (tools) finds it too
        kept = _COLD[key] = (pg, ArchiveReader(opener=_opener(pg)))
    return kept[0]


def _opener(pg: PostgresStore) -> Callable[[str], bytes]:
    def read(uri: str) -> bytes:
        return pg.read_uri(uri) if pg.owns(uri) else open_uri(uri)

    return read


def close_cold_stores() -> None:
    """Close the connection pools of the PostgreSQL cold stores this process opened (at its end; tests)."""
    while _COLD:
        _, (pg, _reader) = _COLD.popitem()
        pg.close()


def archive_reader_for(cold: ColdStore) -> ArchiveReader:
    """The reader of archived games over ``cold``: the process's shared one for a directory (its URIs name
    files), the store's own for PostgreSQL (its ``pgcold:`` URIs are read through this store's pool)."""
    for pg, reader in _COLD.values():
        if pg is cold:
            return reader
    return DEFAULT_READER


def bootstrap(settings: Settings, client: Redis | None = None, *,
              queue_redis: Redis | None = None, clock: Clock | None = None) -> Root:
    """Build the shared parts once: on ``client`` when given (tests, a process's own connection), else on a
    new :func:`event_store_client`; ``clock``: wall time unless given (tests move a ``ShiftedClock``)."""
    client = client if client is not None else event_store_client(settings)
    keys = keys_for(settings)
    # an append waits for settings.append_replicas replicas (WAIT): only the processor appends events
    cold = cold_store_for(settings)
    reader = archive_reader_for(cold)
    store = EventStore(client, keys, settings.append_replicas, settings.append_replica_timeout_ms,
                       archive=reader)
    return Root(settings=settings, redis=client, keys=keys, store=store, bus=CommandBus(store),
                players=Players(client, keys), tokens=Tokens(client, keys), clock=clock or _WALL,
                queue_redis=queue_redis, cold=cold, archive_reader=reader,
                durability=Durability(client, settings.append_replicas, settings.append_replica_timeout_ms,
                                      settings.key_prefix))
