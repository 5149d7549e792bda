"""The collector's tuning for the long-running parts (checked in a child process: it changes the process)."""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import gc
from services.infrastructure.gctuning import OLDER, YOUNG, tune_for_throughput
before = gc.get_freeze_count()
assert tune_for_throughput() is True
assert gc.get_threshold() == (YOUNG, OLDER, OLDER)
assert gc.get_freeze_count() > before  # what was alive at start is out of the collector's sight
gc.set_threshold(700, 10, 10)
assert tune_for_throughput() is False and gc.get_threshold() == (700, 10, 10)  # once per process
print("ok")
"""


def test_a_part_raises_the_collector_thresholds_and_freezes_what_is_alive_once_per_process():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
