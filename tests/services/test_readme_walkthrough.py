"""The README's walkthrough runs as written: its shell block, with bash and curl, against the whole service
on a real HTTP port (embedded Redis), then `taproom export --server` and `taproom verify`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from domain.catalog import load_games

from .test_api import served

load_games()
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture(params=["fake"])
def clients(request, prefix):  # the walkthrough is about HTTP; the pipeline on the real server runs elsewhere
    import fakeredis

    server = fakeredis.FakeServer()
    yield lambda: fakeredis.FakeRedis(server=server)


def walkthrough() -> str:
    text = README.read_text()
    section = text[text.index("## Walkthrough"):]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_the_readme_walkthrough_runs(service, clients, settings, tmp_path):
    from services.adapters.api.app import create_app

    for tool in ("bash", "curl", "python3", "sed", "grep"):
        assert shutil.which(tool), f"the walkthrough needs {tool}"
    # the block calls .venv/bin/taproom from the checkout: give it this interpreter's taproom
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "taproom").symlink_to(Path(sys.executable).parent / "taproom")
    with served(create_app(clients(), settings)) as (url, _):
        env = {**os.environ, "TAPROOM": url}
        env.pop("REDIS_URL", None)
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", walkthrough()], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    out = done.stdout
    assert re.search(r"^[A-Z][A-Za-z0-9_]*$", out, re.M), out  # the drawn tile's id
    assert "\naccepted\n" in out, out
    assert re.search(r"\d+ event: game_event", out) and re.search(r"1 event: end", out), out
    report = json.loads(out[out.index("{"):])
    assert report["ok"] is True and report["chain_ok"] is True and report["events"] >= 5, report
    assert (tmp_path / "game.jsonl").read_text().startswith('{"kind":"header"')
