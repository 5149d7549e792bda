"""The composition root builds the shared parts once; every part receives them, the clock included."""

from __future__ import annotations

import time

import fakeredis
from rq import Queue

from services.adapters.processor import Processor
from services.adapters.runtime import Service
from services.adapters.workers.worker import ThreadWorker
from services.infrastructure.bootstrap import bootstrap, job_root_of
from services.infrastructure.clock import ShiftedClock

DAY = 86400.0


def now_in_a_job() -> float:
    """An rq job: the time its composition root reads."""
    return job_root_of(None).clock.now()


def test_the_roots_event_store_waits_for_the_replicas_the_settings_ask(fake_client, settings) -> None:
    settings = settings.model_copy(update={"append_replicas": 2, "append_replica_timeout_ms": 250})
    root = bootstrap(settings, fake_client)
    assert (root.store.replicas, root.store.replica_timeout_ms) == (2, 250)
    processor = Processor(fake_client, settings, root=root)
    assert processor.store is root.store and processor.repo.store is root.store


def test_every_part_of_a_service_reads_the_clock_it_was_given(settings) -> None:
    server = fakeredis.FakeServer()
    clock = ShiftedClock()
    service = Service(settings, lambda: fakeredis.FakeRedis(server=server), workers=0, clock=clock)
    assert service.clock is clock
    for part in (service.processor, service.projector, service.reactor):
        assert part.root.clock is clock
    assert service.reactor.async_play.clocks.clock is clock and service.reactor.async_play.notifier.clock is clock
    clock.advance(2 * DAY)
    assert service.reactor.clock.now() - time.time() > 2 * DAY - 60


def test_a_job_reads_the_clock_of_the_worker_that_runs_it(settings) -> None:
    client = fakeredis.FakeRedis()
    queue = Queue("clocked", connection=client)
    clock = ShiftedClock()
    clock.advance(3 * DAY)
    job = queue.enqueue(now_in_a_job)
    ThreadWorker([queue], connection=client, settings=settings, clock=clock).work(burst=True)
    assert job.return_value() is not None and job.return_value() - time.time() > 3 * DAY - 60
    unclocked = queue.enqueue(now_in_a_job)
    ThreadWorker([queue], connection=client, settings=settings).work(burst=True)
    assert abs(unclocked.return_value() - time.time()) < 60  # no clock given: wall time
