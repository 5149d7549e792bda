"""The command line: a full bot game through the real pipeline, then its record verified."""

from __future__ import annotations

import json

from click.testing import CliRunner

from services.adapters.cli.main import cli


def test_play_prints_scores_and_the_record_verifies(tmp_path, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    record = tmp_path / "game.jsonl"
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "counter", "--players", "3", "--bot", "random", "--seed", "s",
                                 "-o", "target=15", "--json", "--export", str(record)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert set(summary["scores"]) == {"0", "1", "2"} and sum(summary["scores"].values()) >= 15
    verified = runner.invoke(cli, ["verify", str(record)])
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.output)["replay_ok"] is True


def test_verify_fails_on_a_tampered_record(tmp_path, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    record = tmp_path / "game.jsonl"
    runner = CliRunner()
    assert runner.invoke(cli, ["play", "counter", "--seed", "t", "--export", str(record)]).exit_code == 0
    text = record.read_text().replace('"amount":1', '"amount":2', 1).replace('"amount":3', '"amount":2', 1)
    record.write_text(text)
    assert runner.invoke(cli, ["verify", str(record)]).exit_code == 1


def test_parts_refuse_to_run_without_redis_url(monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    from services.infrastructure.settings import get_settings

    get_settings.cache_clear()
    result = CliRunner().invoke(cli, ["processor"])
    assert result.exit_code != 0 and "REDIS_URL" in result.output
