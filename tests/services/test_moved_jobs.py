"""A job queued before the services re-layout names its function by its old module path (rq stores the
path and resolves it when the job runs, days later for a deadline); a worker still runs it.

relayout: keep old paths (this file names them on purpose).
"""

from __future__ import annotations

import importlib

import fakeredis
from rq import Queue
from rq.job import JobStatus
from rq.utils import import_attribute

from services.adapters.workers.moved_jobs import OLD_JOB_MODULES, alias_old_job_modules
from services.adapters.workers.worker import ThreadWorker
from services.infrastructure import health

# one job function of each old module: what rq may have stored before the move
OLD_JOB_PATHS = {
    "services.workers.jobs": "play_bot_turn",
    "services.async_play.jobs": "turn_deadline",
    "services.async_play.mail": "deliver_email",
    "services.async_play.notify": "deliver_webhook",
    "services.async_play.webpush": "deliver_push",
    "services.health": "forget",
}


def test_a_job_queued_under_an_old_module_path_runs_after_the_move() -> None:
    client = fakeredis.FakeRedis()
    queue = Queue("moved", connection=client)
    health.beat("moved-part", True)
    job = queue.enqueue("services.health.forget", "moved-part")
    ThreadWorker([queue], connection=client).work(burst=True)
    assert job.get_status(refresh=True) == JobStatus.FINISHED
    assert "moved-part" not in health.report(60.0, {})[2]["loops"]


def test_every_old_job_path_resolves_to_the_function_at_its_new_place() -> None:
    assert set(OLD_JOB_PATHS) == set(OLD_JOB_MODULES)
    alias_old_job_modules()
    for old, name in OLD_JOB_PATHS.items():
        new_module = importlib.import_module(OLD_JOB_MODULES[old])
        assert import_attribute(f"{old}.{name}") is getattr(new_module, name)
