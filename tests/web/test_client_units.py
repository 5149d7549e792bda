"""The web client's unit tests (its pure parts: errors in words, ratings, titles) run by node's own test runner,
so ``make test`` covers them. Without node they are skipped locally and fail when ``CI`` is set."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "services" / "web"


def test_the_client_unit_tests_pass_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("CI runs the web client's unit tests: node is missing (apt-get install nodejs)")
        pytest.skip("no node here: the web client's unit tests need it (apt-get install nodejs)")
    tests = sorted(str(p.relative_to(CLIENT)) for p in (CLIENT / "tests").glob("*.test.js"))
    assert tests, "the client has no unit tests"
    run = subprocess.run([node, "--test", *tests], cwd=CLIENT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout, run.stdout[-2000:]
