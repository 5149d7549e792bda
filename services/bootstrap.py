"""The composition root: settings and Redis in, every shared service part out, built once.

``bootstrap(settings, client)`` makes the key layout, the event store, the command bus, the player and
token stores; entry points (API app, CLI, workers, processor, projector, reactor) take what they need
from the :class:`Root` instead of building their own. The two Redis connections the service may use
are made by one factory each: :func:`event_store_client` (events, commands, read models) and
:func:`queue_client` (rq jobs); today both point at ``REDIS_URL``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import fakeredis
from redis import ConnectionPool, Redis

from .commands import CommandBus
from .eventstore import EventStore, Keys
from .players import Players
from .resilience import command_retry
from .settings import Settings
from .tokens import Tokens

if TYPE_CHECKING:
    from rq import Queue

ClientFactory = Callable[[], Redis]


def client_factory(settings: Settings, server: fakeredis.FakeServer | None = None) -> ClientFactory:
    """New clients on ``REDIS_URL``, or on one in-process server when there is none."""
    if settings.redis_url:
        # Each command fails fast when Redis is away (see command_retry); the parts' loops wait it out.
        pool = ConnectionPool.from_url(settings.redis_url, retry=command_retry(), socket_connect_timeout=2.0)
        return lambda: Redis(connection_pool=pool)
    shared = server or fakeredis.FakeServer()
    return lambda: fakeredis.FakeRedis(server=shared)


def event_store_client(settings: Settings, server: fakeredis.FakeServer | None = None) -> Redis:
    """The client of the event store (streams, logs, read models): the one place to make it a cluster client."""
    return client_factory(settings, server)()


def queue_client(settings: Settings, fallback: Redis | None = None) -> Redis:
    """The client rq's queues use: ``REDIS_URL`` today (or ``fallback``, the embedded server's client);
    the one place to point jobs at a Redis of their own."""
    if fallback is not None and not settings.redis_url:
        return fallback
    return client_factory(settings)()


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
    queue_redis: Redis | None = field(default=None)

    def queue(self, name: str | None = None) -> Queue:
        """The rq queue jobs go to (``settings.rq_queue`` unless named)."""
        from rq import Queue

        return Queue(name or self.settings.rq_queue, connection=self.queue_redis or self.redis)


def keys_for(settings: Settings) -> Keys:
    """The key layout settings describe (prefix, shards)."""
    return Keys(settings.key_prefix, settings.shards)


def job_root(client: Redis, prefix: str, shards: int, given: dict[str, Any] | None = None) -> Root:
    """The root inside an rq job: the key layout and the settings it was given (never secrets), the rest
    (secrets included) from this worker's environment."""
    return bootstrap(Settings(**{**(given or {}), "key_prefix": prefix, "shards": shards}), client)


def bootstrap(settings: Settings, client: Redis | None = None, *,
              queue_redis: Redis | None = None) -> Root:
    """Build the shared parts once: on ``client`` when given (tests, a process's own connection), else on a
    new :func:`event_store_client`."""
    client = client if client is not None else event_store_client(settings)
    keys = keys_for(settings)
    return Root(settings=settings, redis=client, keys=keys, store=EventStore(client, keys),
                bus=CommandBus(client, keys), players=Players(client, keys), tokens=Tokens(client, keys),
                queue_redis=queue_redis)
