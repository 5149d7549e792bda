"""The house's parts stay small (issue 33): no function above complexity 15 (radon's cyclomatic complexity, the
measure xenon grades; its grades jump from 10 to 20, so the limit is checked here) and no Python file of the
service above 500 lines."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("domain", "projections", "services")
MAX_COMPLEXITY = 15
MAX_LINES = 500


def _sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_no_function_is_above_complexity_15() -> None:
    over = [f"{path.relative_to(ROOT)}:{block.lineno} {block.fullname} ({block.complexity})"
            for path in _sources() for block in cc_visit(path.read_text())
            if block.complexity > MAX_COMPLEXITY]
    assert not over, "split these functions: " + "; ".join(over)


def test_no_python_file_is_above_500_lines() -> None:
    over = [f"{path.relative_to(ROOT)} ({n})" for path in _sources()
            if (n := len(path.read_text().splitlines())) > MAX_LINES]
    assert not over, "split these files: " + "; ".join(over)
