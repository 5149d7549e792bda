"""Game records: `taproom verify` refuses what is not a whole, well-formed record (never a traceback), and
`GET /games/{id}/record` with `taproom export/verify --server` work without REDIS_URL."""

from __future__ import annotations

import json

import httpx
import orjson
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.adapters.cli.main import cli
from services.infrastructure.audit import export_lines, read_record, verify

from .helpers import Kernel


def play_counter(kernel: Kernel, score: bool = True, target: int = 8) -> str:
    gid = kernel.create(seats=2, target=target, seed="records")
    seat = 0
    while kernel.processor.repo.current(gid).record.status == "active":
        assert kernel.add(gid, seat, amount=2).accepted
        seat = 1 - seat
    if score:
        assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
    return gid


def run_verify(path) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception  # no traceback
    return result.exit_code, json.loads(result.output)


@pytest.fixture
def finished(fake_client, settings):
    kernel = Kernel(fake_client, settings)
    return kernel, play_counter(kernel)


def test_a_whole_record_verifies(finished, tmp_path):
    kernel, gid = finished
    path = tmp_path / "ok.jsonl"
    path.write_bytes(b"\n".join(export_lines(kernel.store, gid)))
    code, report = run_verify(path)
    assert code == 0 and report["ok"] and report["replay_ok"] and report["seed_ok"] and report["complete"]


@pytest.mark.parametrize("content,reason", [
    (b"", "empty"),
    (b"\n\n", "empty"),
    (b"\x00\xffgarbage{{", "not JSON"),
    (b"[1, 2, 3]\n", "not a JSON object"),
    (b'{"kind": "header", "format": "taproom-record/1"}\n{"kind": "event", "version": 1}\n', "not an event"),
])
def test_verify_refuses_what_is_not_a_record(tmp_path, content, reason):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    code, report = run_verify(path)
    assert code == 1 and report["ok"] is False
    assert any(reason in p for p in report["problems"]), report


def test_verify_refuses_events_api_output_saved_as_json_lines(finished, tmp_path, settings, fake_client):
    kernel, gid = finished
    with TestClient(create_app(fake_client, settings)) as api:
        history = api.get(f"/games/{gid}/events").json()
    as_lines = tmp_path / "events.jsonl"
    as_lines.write_bytes(b"\n".join(orjson.dumps(e) for e in history["events"]))
    whole = tmp_path / "events.json"
    whole.write_bytes(orjson.dumps(history))
    for path in (as_lines, whole):
        code, report = run_verify(path)
        assert code == 1 and not report["ok"] and "not a taproom-record/1 header" in report["problems"][0]


def _rewrite(lines, keep):
    """The record with only the event lines ``keep(item)`` accepts (header counts fixed up)."""
    items = [orjson.loads(line) for line in lines]
    events = [i for i in items if i["kind"] == "event" and keep(i)]
    header = {**items[0], "events": len(events)}
    return [orjson.dumps(header)] + [orjson.dumps(i) for i in items[1:] if i["kind"] != "event" or keep(i)]


def test_a_record_must_start_with_the_creation_event(finished):
    kernel, gid = finished
    report = verify(read_record(_rewrite(list(export_lines(kernel.store, gid)), lambda e: e["version"] != 1)))
    assert not report.ok and "creation event" in report.problems[0]


def test_versions_must_be_consecutive(finished):
    kernel, gid = finished
    report = verify(read_record(_rewrite(list(export_lines(kernel.store, gid)), lambda e: e["version"] != 5)))
    assert not report.ok and not report.chain_ok and "version 6 where 5" in report.problems[0]


def test_an_ended_game_must_reveal_its_seed(fake_client, settings):
    kernel = Kernel(fake_client, settings)
    gid = play_counter(kernel, score=False)  # ended, not yet scored
    report = verify(read_record(export_lines(kernel.store, gid)))
    assert not report.ok and "does not reveal the seed" in report.problems[0]
    items = list(export_lines(kernel.store, gid))
    head = kernel.store.head(gid)[0]
    unfinished = _rewrite(items, lambda e: e["version"] < head)  # cut before GameEnded: a running game
    assert verify(read_record(unfinished)).ok


def test_the_record_over_http_is_redacted_until_the_seed_is_revealed(fake_client, settings):
    kernel = Kernel(fake_client, settings)
    gid = kernel.create(seats=2, target=30, seed="redacted")
    assert kernel.add(gid, 0, amount=2).accepted and kernel.add(gid, 1, amount=3).accepted
    app = create_app(fake_client, settings)
    token0 = app.state.context.issue_token({"kind": "seat", "game_id": gid, "seat": 0})
    with TestClient(app) as api:
        response = api.get(f"/games/{gid}/record", headers={"Authorization": f"Bearer {token0}"})
        assert response.status_code == 200 and response.headers["content-type"].startswith("application/x-ndjson")
        lines = [orjson.loads(line) for line in response.content.splitlines()]
        dealt = [item for item in lines if item.get("type") == "CardDealt"]
        own = [d for d in dealt if d["private_to"] == [0]]
        others = [d for d in dealt if d["private_to"] != [0]]
        assert own and others
        assert all(d["payload"]["card"] != "hidden" for d in own)
        assert all(d["payload"]["card"] == "hidden" and d["redacted"] for d in others)
        assert lines[0]["complete"] is False and not [i for i in lines if i["kind"] == "command"]
        report = verify(read_record(response.content.splitlines()))
        assert report.ok and report.chain_ok and not report.complete and report.redacted_events == len(others)
        public = api.get(f"/games/{gid}/record").content.decode()
        assert public.count('"card":"hidden"') == len(dealt)
        # a forged redacted line still breaks the chain: its link is checked even when its hash cannot be
        forged = [orjson.dumps({**i, "prev_hash": "f" * 64}) if i.get("version") == others[0]["version"]
                  else orjson.dumps(i) for i in lines]
        assert not verify(read_record(forged)).ok
    while kernel.processor.repo.current(gid).record.status == "active":
        seat = kernel.processor.repo.current(gid).record.to_act()[0]
        assert kernel.add(gid, seat, amount=3).accepted
    assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
    with TestClient(app) as api:
        complete = api.get(f"/games/{gid}/record").content
    report = verify(read_record(complete.splitlines()))
    assert report.ok and report.complete and report.replay_ok and b'"card":"hidden"' not in complete


def test_export_and_verify_over_a_server_url(finished, fake_client, settings, tmp_path, monkeypatch):
    kernel, gid = finished
    monkeypatch.delenv("REDIS_URL", raising=False)
    server = "http://taproom.test:8000"
    with TestClient(create_app(fake_client, settings), base_url=server) as api:
        monkeypatch.setattr(httpx, "get", lambda url, headers, timeout: api.get(url, headers=headers))
        out = tmp_path / "game.jsonl"
        exported = CliRunner().invoke(cli, ["export", gid, "--server", server, "-o", str(out)])
        assert exported.exit_code == 0, exported.output
        assert run_verify(out)[0] == 0
        by_id = CliRunner().invoke(cli, ["verify", gid, "--server", server])
        assert by_id.exit_code == 0 and json.loads(by_id.output)["replay_ok"] is True
        missing = CliRunner().invoke(cli, ["export", "nosuchgame", "--server", server])
        assert missing.exit_code == 1 and "game_not_found" in missing.output
    without = CliRunner().invoke(cli, ["export", gid])
    assert without.exit_code == 2 and "--server" in without.output
