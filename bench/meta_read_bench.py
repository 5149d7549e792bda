"""What reading a game's stored meta costs per read: orjson to a dict (as the API read it before) against the
typed model (``projections.read_models.load_meta``), for a two-seat and a four-seat meta, with the fields a hot
route reads (status, version, to_act, the seats' holders).

    .venv/bin/python bench/meta_read_bench.py
"""

from __future__ import annotations

import timeit
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


def main() -> None:
    for seats in (2, 4):
        raw = sample(seats)
        assert as_dict(raw) == as_model(raw)
        for name, read in (("orjson dict", as_dict), ("load_meta model", as_model)):
            runs = 20_000
            best = min(timeit.repeat(lambda: read(raw), number=runs, repeat=7)) / runs
            print(f"{seats} seats, {len(raw)} bytes, {name:16}: {best * 1e6:6.2f} µs per read")


if __name__ == "__main__":
    main()
