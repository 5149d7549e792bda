"""What reading a game's stored meta costs per read: orjson to a dict (as the API read it before) against the
typed model (``projections.read_models.load_meta``), for a two-seat and a four-seat meta, with the fields a hot
route reads (status, version, to_act, the seats' holders).

    .venv/bin/python bench/meta_read_bench.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import orjson

from projections.read_models import GameMeta, load_meta


def sample(seats: int) -> bytes:
    pace = {"per_move_seconds": 86400, "timeout": "autopilot", "takeover_after": 3, "takeover_vote": "end"}
    infos: list[dict[str, Any]] = [{"seat": i, "name": f"player {i}", "bot": None, "player_id": f"p{i:08x}", "open": False, "away": None,
              "invited": None, "timeouts": 0, "timed_out_turn": False, "votes": []} for i in range(seats)]
    meta = GameMeta(game_id="0123456789abcdef", game="carcassonne", options={"expansions": ["inns"], "farms": True},
                    version=137, status="active", seats=infos, to_act=[1], seed_commitment="ab" * 32,
                    updated=1780000000.123, pace=pace, creator="p00000000", hot_seat=False, scores_pending=False)
    return orjson.dumps(meta.to_json())


def as_dict(raw: bytes) -> Any:
    meta = orjson.loads(raw)
    return meta["status"], meta["version"], meta["to_act"], [s.get("player_id") for s in meta["seats"]]


def as_model(raw: bytes) -> Any:
    meta = load_meta(raw)
    return meta.status, meta.version, meta.to_act, [s.player_id for s in meta.seats]


def per_read(read: Callable[[bytes], Any], raw: bytes, runs: int = 20_000) -> float:
    """CPU seconds per read (process time: what the other processes on the machine do costs nothing here)."""
    started = time.process_time()
    for _ in range(runs):
        read(raw)
    return (time.process_time() - started) / runs


def main() -> None:
    """Dict and model interleaved, five rounds each: the best round of each, in µs of CPU per read."""
    for seats in (2, 4):
        raw = sample(seats)
        assert as_dict(raw) == as_model(raw)
        best = {"orjson dict": float("inf"), "load_meta model": float("inf")}
        for _ in range(5):
            best["orjson dict"] = min(best["orjson dict"], per_read(as_dict, raw))
            best["load_meta model"] = min(best["load_meta model"], per_read(as_model, raw))
        for name, seconds in best.items():
            print(f"{seats} seats, {len(raw)} bytes, {name:16}: {seconds * 1e6:6.2f} µs per read")


if __name__ == "__main__":
    main()
