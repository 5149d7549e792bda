"""Audit: the record of a finished game verifies; any edit is caught."""

from __future__ import annotations

import orjson
import pytest

from services.adapters.workers import jobs
from services.infrastructure.audit import export_lines, parse_lines, verify
from services.infrastructure.settings import jobs_run_with

from .helpers import Kernel


@pytest.fixture
def finished(fake_client, settings):
    kernel = Kernel(fake_client, settings)
    gid = kernel.create(seats=2, target=8, seed="audit")
    seat = 0
    while kernel.store.head(gid)[0] and kernel.processor.repo.current(gid).record.status == "active":
        assert kernel.add(gid, seat, amount=2).accepted
        seat = 1 - seat
    with jobs_run_with(settings):
        jobs.score_game(gid, connection=fake_client)
    kernel.pump()
    return kernel, gid


def test_a_finished_game_verifies(finished):
    kernel, gid = finished
    report = verify(*parse_lines(export_lines(kernel.store, gid)))
    assert report.ok and report.chain_ok and report.seed_ok and report.replay_ok, report.problems


def test_a_running_game_verifies_its_chain_only(fake_client, settings):
    kernel = Kernel(fake_client, settings)
    gid = kernel.create()
    report = verify(*parse_lines(export_lines(kernel.store, gid)))
    assert report.chain_ok and not report.seed_revealed and report.replay_ok is None


def _edit(lines, version, change, rehash):
    from services.infrastructure.eventstore import Envelope

    out, prev = [], None
    for line in lines:
        item = orjson.loads(line)
        if item.get("kind") == "event":
            if item["version"] == version:
                change(item["payload"])
            if rehash:  # a forger who recomputes the whole chain
                env = Envelope.model_validate({k: v for k, v in item.items() if k != "kind"})
                env = env.model_copy(update={"prev_hash": prev or env.prev_hash})
                env = env.model_copy(update={"hash": env.compute_hash()})
                prev = env.hash
                item = {"kind": "event", **env.model_dump()}
        out.append(orjson.dumps(item))
    return out


def test_an_edited_event_breaks_the_chain(finished):
    kernel, gid = finished
    lines = _edit(list(export_lines(kernel.store, gid)), 4, lambda p: p.update(roll=6 if p["roll"] != 6 else 5), False)
    report = verify(*parse_lines(lines))
    assert not report.ok and not report.chain_ok


def test_a_forged_die_roll_with_a_rebuilt_chain_fails_the_replay(finished):
    kernel, gid = finished
    lines = _edit(list(export_lines(kernel.store, gid)), 4, lambda p: p.update(roll=6 if p["roll"] != 6 else 5), True)
    report = verify(*parse_lines(lines))
    assert report.chain_ok and report.replay_ok is False and not report.ok
