"""deploy/alerts.yml: every alert the runbook promises exists, parses as Prometheus rules, and points at a section
of deploy/RUNBOOK.md that says what it means and what to do (and how it was tried)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
ALERTS = ("TaproomRedisMasterLost", "TaproomProcessorStalled", "TaproomArchiveFailing", "TaproomRedisMemoryHigh",
          "TaproomPostgresDown", "TaproomShardsStalled", "TaproomAppendsWithoutReplica")


def _anchors(markdown: str) -> dict[str, str]:
    """GitHub's anchors of the level-2 sections, with each section's text."""
    sections = re.split(r"^## ", markdown, flags=re.M)[1:]
    return {re.sub(r"[^a-z0-9 -]", "", s.splitlines()[0].lower()).replace(" ", "-"): s for s in sections}


def test_every_alert_has_a_runbook_section_that_was_tried():
    rules = yaml.safe_load((ROOT / "deploy" / "alerts.yml").read_text())["groups"][0]["rules"]
    assert [r["alert"] for r in rules] == list(ALERTS)
    sections = _anchors((ROOT / "deploy" / "RUNBOOK.md").read_text())
    for rule in rules:
        assert rule["expr"] and rule["for"] and rule["labels"]["severity"] in ("page", "ticket")
        path, anchor = rule["annotations"]["runbook"].split("#")
        assert path == "deploy/RUNBOOK.md" and anchor in sections, rule["alert"]
        text = sections[anchor]
        for part in ("**Means.**", "**Do.**", "**Tried.**"):
            assert part in text, (rule["alert"], part)


def test_the_archive_alert_reads_the_metric_the_reactor_exports():
    from services.adapters.reactor import reactor

    rules = yaml.safe_load((ROOT / "deploy" / "alerts.yml").read_text())["groups"][0]["rules"]
    archive = next(r for r in rules if r["alert"] == "TaproomArchiveFailing")
    assert reactor.ARCHIVE_OVERDUE._name in archive["expr"]


def test_the_shard_alerts_read_the_metrics_the_processor_exports():
    from services.adapters.processor.stalls import STALLED
    from services.infrastructure.eventstore.appends import APPENDS_WITHOUT_REPLICA

    rules = {r["alert"]: r for r in yaml.safe_load((ROOT / "deploy" / "alerts.yml").read_text())["groups"][0]["rules"]}
    assert STALLED._name in rules["TaproomShardsStalled"]["expr"]
    assert APPENDS_WITHOUT_REPLICA._name in rules["TaproomAppendsWithoutReplica"]["expr"]
