"""The API's records on the event loop (AsyncRecords): caught up with the log on every use, never folded twice."""

from __future__ import annotations

import asyncio

import pytest

from services.adapters.api.aio import async_twin
from services.infrastructure.aggregates import AsyncRecords, Repository

from .helpers import Kernel


@pytest.fixture
def kernel(client, settings):
    return Kernel(client, settings)


def test_concurrent_reads_fold_each_event_once_and_match_the_log(kernel):
    gid, other = kernel.create(seats=1, target=100), kernel.create(seats=1, target=100)
    expected = Repository(kernel.store)

    async def scenario() -> None:
        aredis = async_twin(kernel.client)
        records = AsyncRecords(kernel.keys, cache_size=1)  # one entry: the two games evict each other
        try:
            for round_ in range(3):
                kernel.add(gid, 0)
                kernel.add(other, 0)
                results = await asyncio.gather(*(records.current(aredis, g) for g in (gid, other, gid, other)))
                for game, (loaded, _) in zip((gid, other, gid, other), results):
                    head = expected.current(game)
                    assert loaded.version == head.version and loaded.hash == head.hash, round_
                    assert loaded.record.state == head.record.state
        finally:
            await aredis.aclose()

    asyncio.run(scenario())


def test_a_reply_advances_the_cached_record_only_from_its_own_version(kernel):
    gid = kernel.create(seats=1, target=100)

    async def scenario() -> None:
        aredis = async_twin(kernel.client)
        records = AsyncRecords(kernel.keys)
        try:
            before, _ = await records.current(aredis, gid)
            outcome = kernel.add(gid, 0)
            events = kernel.store.read(gid, after=outcome.from_version)
            assert records.advance(gid, outcome.from_version + 1, events) is None  # not where it stands
            after = records.advance(gid, before.version, events)
            assert after is not None and after.version == outcome.version == kernel.store.head(gid)[0]
            again, _ = await records.current(aredis, gid)  # nothing left to catch up
            assert again is after
        finally:
            await aredis.aclose()

    asyncio.run(scenario())
