"""A small seeded arena sample through bench/arena.py: greedy beats random, search plays whole games."""

from __future__ import annotations

import importlib.util
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from domain.catalog import load_games

load_games()  # the arena's main() registers the games; its functions called here need them too (run alone)

_spec = importlib.util.spec_from_file_location("arena", Path(__file__).resolve().parents[3] / "bench" / "arena.py")
assert _spec is not None and _spec.loader is not None
arena = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("arena", arena)  # its dataclasses look their module up there
_spec.loader.exec_module(arena)


def test_wilson_interval() -> None:
    low, high = arena.wilson(9, 10)
    assert 0.59 < low < 0.6 and 0.98 < high < 0.99
    assert arena.wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("game_id", ["carcassonne", "heaven-and-ale", "tiefenthal"])
def test_greedy_beats_random_in_most_seeded_games(game_id: str) -> None:
    times: dict[str, list[float]] = defaultdict(list)
    wins = 0.0
    games = 4
    greedy_points = 0.0
    for g in range(games):
        levels = ("greedy", "random") if g % 2 == 0 else ("random", "greedy")
        scores: list[float] = []
        result = arena.play(game_id, levels, f"test-arena:{g}", 0.0, None, times, scores=scores)
        wins += result[levels.index("greedy")]
        greedy_points += scores[levels.index("greedy")]
    assert wins >= 3, wins
    # Winning is not enough (a bot scoring 0 beats one scoring nothing either): greedy must score.
    assert greedy_points / games > 10, greedy_points
    assert len(times["greedy"]) > 10 and len(times["random"]) > 10


def test_search_plays_a_whole_game_with_a_tiny_budget() -> None:
    times: dict[str, list[float]] = defaultdict(list)
    result = arena.play("heaven-and-ale", ("search", "random"), "test-arena:search", 1.0, 6, times)
    assert sorted(result) in ([0.0, 1.0], [0.5, 0.5])
    assert times["search"]


def test_the_strength_history_gets_one_row_per_pairing(tmp_path: Path) -> None:
    import csv

    result = arena.run_pairing("tiefenthal", "greedy", "random", 2, "test-history", 0.0, None, {}, 1)
    path = tmp_path / "history.csv"
    arena.append_history(path, result.row("abc1234", 1.0, None, ""))
    arena.append_history(path, result.row("abc1234", 1.0, None, ""))
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 2 and tuple(rows[0]) == arena.HISTORY_FIELDS
    row = rows[0]
    assert (row["game"], row["pairing"], row["games"], row["commit"]) == ("tiefenthal", "greedy:random", "2",
                                                                          "abc1234")
    low, high = arena.wilson(result.score, 2)
    assert float(row["ci95_low"]) == pytest.approx(low, abs=1e-4) and float(row["ci95_high"]) == pytest.approx(high, abs=1e-4)
    assert float(row["win_rate"]) == result.score / 2
    assert float(row["mean_score_a"]) == pytest.approx(sum(result.points["greedy"]) / 2, abs=0.01)
    assert int(row["a_p95_ms"]) >= int(row["a_p50_ms"]) >= 0
    assert "greedy vs random" in result.line()



@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_past_its_stop_time_starts_no_game_and_says_so(jobs: int, tmp_path: Path) -> None:
    """``--stop-after``: past the stop time no game starts; the pairing reports the games played of those planned
    and writes no history row for an empty run (a run cut at a deadline keeps the prefix it played)."""
    import time

    result = arena.run_pairing("tiefenthal", "greedy", "random", 4, "test-stop", 0.0, None, {}, jobs,
                               stop_at=time.time() - 1)
    assert (result.games, result.planned) == (0, 4)
    assert result.partial() == "partial: 0 of 4 planned games (stopped at --stop-after)"
    assert "no game played" in result.line()


def test_a_whole_run_is_not_partial() -> None:
    result = arena.run_pairing("tiefenthal", "greedy", "random", 1, "test-stop", 0.0, None, {}, 1, stop_at=None)
    assert (result.games, result.planned, result.partial()) == (1, 1, "")
    assert "partial" not in result.row("abc1234", 1.0, None, "")["settings"]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", arena.GAMES)
def test_search_meets_the_strength_targets(game_id: str, request: pytest.FixtureRequest) -> None:
    """Issue 20's targets, 2 players, seats alternating, the standard set's game counts: search beats greedy in
    at least 65% of games with the lower end of the 95% interval at 55% or more, and random in at least 95%.
    Uncapped: each game's simulation budget alone, so the outcome does not depend on the machine's load (its
    CPU time per move, ``--calibrate``, keeps the think time out of reach on a quiet machine)."""
    if not request.config.getoption("--arena-full"):
        pytest.skip("whole arena runs: pass --arena-full")
    counts = {(a, b): n for a, b, n in arena.STANDARD}
    against_greedy = arena.run_pairing(game_id, "search", "greedy", counts["search", "greedy"], "targets", None,
                                       None, {}, 2)
    low, _ = arena.wilson(against_greedy.score, against_greedy.games)
    assert against_greedy.score / against_greedy.games >= 0.65 and low >= 0.55, against_greedy.line()
    against_random = arena.run_pairing(game_id, "search", "random", counts["search", "random"], "targets", None,
                                       None, {}, 2)
    assert against_random.score / against_random.games >= 0.95, against_random.line()


def test_the_committed_history_has_search_against_greedy_for_every_game() -> None:
    """The file kept in the repository: every game has a search-greedy row with an interval."""
    import csv

    rows = list(csv.DictReader(arena.HISTORY.open()))
    for game_id in arena.GAMES:
        mine = [r for r in rows if r["game"] == game_id and r["pairing"] == "search:greedy"]
        assert mine, game_id
        assert all(0.0 <= float(r["ci95_low"]) <= float(r["win_rate"]) <= float(r["ci95_high"]) <= 1.0 for r in mine)


def test_an_old_history_file_gets_the_new_columns(tmp_path: Path) -> None:
    import csv

    path = tmp_path / "history.csv"
    old = [f for f in arena.HISTORY_FIELDS if f not in ("a_cpu_p50_ms", "a_cpu_p95_ms", "capped_moves")]
    path.write_text(",".join(old) + "\n" + ",".join("x" for _ in old) + "\n")
    result = arena.run_pairing("tiefenthal", "greedy", "random", 2, "test-history", None, None, {}, 1)
    arena.append_history(path, result.row("abc1234", None, None, ""))
    rows = list(csv.DictReader(path.open()))
    assert tuple(rows[0]) == arena.HISTORY_FIELDS and len(rows) == 2
    assert rows[0]["game"] == "x" and rows[0]["capped_moves"] == ""
    assert rows[1]["budget_s"] == "" and int(rows[1]["a_cpu_p95_ms"]) >= 0


def test_calibration_reports_cpu_per_search_move() -> None:
    """``--calibrate``'s figures from a tiny uncapped run: CPU per search move and the simulations spent."""
    result = arena.run_pairing("carcassonne", "search", "random", 1, "test-calibrate", None, 4, {}, 1)
    assert result.cpu["search"] and result.searches and result.capped() == 0.0
    assert all(n <= 4 for n, _ in result.searches)
    line = arena.calibration_line(result, 4)
    assert "cpu p50=" in line and "simulations for p95" in line
