"""The projector's CPU per command for games whose seats players hold (the inbox is written, each seat's
waiting-since folded): prints figures, asserts nothing.

    .venv/bin/python bench/projector_inbox_bench.py [--games 40] [--rounds 30]

A private redis-server (AOF, as ``load_bench.py`` starts it) on a free port. ``--games`` Carcassonne games with two players' seats; each
round every game takes one command (``single``: the projector reads after each round) or two (``coalesced``: the
projector sees two commands of a game at once, as a busy one does), or one and two in turn (``mixed``: a fold
of two commands from a record the projector has not kept up to date reads the log). The projector's CPU (process time of its
``drain`` calls only) per command is printed per mode. It measures the projector of the checkout it is run from
(``cd ../base && ../read-side/.venv/bin/python ../read-side/bench/projector_inbox_bench.py`` for an A side).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.getcwd())  # the checkout measured (run from it; an A/B runs this script from both)
sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))

import redis
from load_bench import own_redis

from domain.catalog import load_games
from services.infrastructure.settings import Settings
from tests.services.helpers import Kernel


def run(url: str, games: int, rounds: int, pattern: tuple[int, ...]) -> float:
    """The projector's CPU seconds per command, each round's commands per game taken from ``pattern`` in turn."""
    client = redis.Redis.from_url(url)
    client.flushdb()
    settings = Settings(redis_url=None, key_prefix="pib:", shards=4, allow_client_seed=True, snapshot_every=50)
    kernel = Kernel(client, settings)
    chooser = random.Random(5)
    ids = [f"g{i}" for i in range(games)]
    for gid in ids:
        kernel.send(gid, {"type": "taproom.CreateGame", "game": "carcassonne", "options": {},
                          "seats": [{"name": "ann", "player_id": f"ann{gid}"}, {"name": "bob", "player_id": f"bob{gid}"}],
                          "seed_commitment": ""}, dev_seed=gid)
    cpu = 0.0
    commands = 0
    for round_ in range(rounds):
        for gid in ids:
            for _ in range(pattern[round_ % len(pattern)]):
                record = kernel.processor.repo.current(gid).record
                if record is None or record.status != "active":
                    continue
                seat = chooser.choice(record.to_act())
                command = chooser.choice(record.game.legal_commands(record.state, seat))
                kernel.bus.submit(gid, command.model_dump(mode="json"), seat=seat, actor="bench")
                kernel.processor.drain()
                commands += 1
        started = time.process_time()
        kernel.projector.drain()
        cpu += time.process_time() - started
    return cpu / max(commands, 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    load_games()
    with own_redis() as url:
        modes = (("single", (1,)), ("coalesced", (2,)), ("mixed", (1, 2)))
        for mode, pattern in modes + modes:
            seconds = run(url, args.games, args.rounds, pattern)
            print(f"{mode:10s}: projector {seconds * 1e6:7.1f} µs CPU per command")


if __name__ == "__main__":
    main()
