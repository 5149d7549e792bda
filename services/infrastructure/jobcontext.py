"""Where an rq job of asynchronous play runs: its connection, key layout and settings.

Jobs are given ids only; their settings (secrets included) are those of the worker that runs them
(:func:`services.infrastructure.settings.job_settings`), which the deployment makes the API's.
"""

from __future__ import annotations

from typing import NamedTuple

import redis
from rq import get_current_job

from services.infrastructure.eventstore import Keys
from services.infrastructure.redisconn import job_store
from services.infrastructure.settings import Settings, job_settings


class JobContext(NamedTuple):
    redis: redis.Redis
    keys: Keys
    settings: Settings


def job_context(connection: redis.Redis | None) -> JobContext:
    """The job's event-store client (``connection`` when given, as tests do; else a cluster's, else rq's own),
    and its worker's settings and key layout."""
    if connection is None:
        job = get_current_job()
        assert job is not None, "run inside an rq job or pass a connection"
        connection = job_store(job.connection)
        assert connection is not None
    settings = job_settings()
    return JobContext(connection, Keys(settings.key_prefix, settings.shards), settings)
