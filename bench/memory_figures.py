"""Redis memory per game, and what archiving a finished game costs: prints figures, asserts nothing.

    .venv/bin/python bench/memory_figures.py [--redis redis://127.0.0.1:6379/14] [--games 3] [--titles carcassonne]

For each title, ``--games`` 2-player games are played with seeded random legal moves straight through the
real processor, projector and reactor (each in its own key prefix, so every key under the prefix belongs to
that one game: its own keys, its share of the shard's feed and command stream, its lobby and inbox
entries). Figures, the median over the games:

* Redis memory of an active game at its maximum (the largest figure after any command, the goal's
  figure), mid-game (at half its final version) and at its end (scored); KB = 1000 bytes, KiB = 1024;
* Redis memory once archived (the summary left behind), archive bytes (compressed JSON Lines in the cold
  store), the time to archive one game and the time to restore it (read the record back from the archive
  and fold it to a current record, as the first read of an archived game does);
* the largest keys of one game mid-game and at its end, to see what holds the memory.

Memory is ``MEMORY USAGE key SAMPLES 0`` summed over the keys (what Redis reports for each key, overhead
included), in three parts: the game's own keys with its lobby and inbox entries (the figure the goals are
about: at most 60 KB per active 2-player game, 10 KB per archived one), its outcome keys (they expire
``outcome_ttl_seconds`` after each command, 5 minutes) and the shard's streams and checkpoints (trimmed
behind their readers, so they hold what is in flight, not what was played). Jobs the reactor enqueues
live in rq's own keys (short-lived, outside the game's prefix) and are not counted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import redis

from services.infrastructure.settings import Settings


def _settings(prefix: str, archive_dir: str) -> Settings:
    return Settings(redis_url=None, key_prefix=prefix, shards=16, allow_client_seed=True, lease_ms=10_000,
                    log_level="WARNING", rq_queue=f"q-{prefix.strip(':')}", archive_dir=archive_dir)


def memory_of(client: redis.Redis, prefix: str) -> tuple[int, dict[str, int]]:
    """Bytes of every key under ``prefix`` (one game's), and per key (the part of its name after the prefix)."""
    sizes: dict[str, int] = {}
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        name = key.decode()[len(prefix):]
        sizes[name] = client.memory_usage(key, samples=0) or 0
    return sum(sizes.values()), sizes


SHARD_PARTS = ("cmd:", "feed:", "ckpt:", "lease:", "members:", "games:", "dead:")
"""Keys of a shard or of the deployment, not of a game: their size does not grow with the games (the
streams are trimmed behind their readers); shown on their own."""


def split(sizes: dict[str, int]) -> dict[str, int]:
    """Bytes per kind: ``game`` (the game's own keys and its lobby/inbox entries, what stays while it is
    played), ``outcomes`` (outcome keys: they expire minutes after each command) and ``shard``."""
    kinds = {"game": 0, "outcomes": 0, "shard": 0}
    for name, size in sizes.items():
        if name.startswith(SHARD_PARTS):
            kinds["shard"] += size
        elif ":out:" in name or ":body:" in name:
            kinds["outcomes"] += size
        else:
            kinds["game"] += size
    return kinds


def _short(name: str, game_id: str) -> str:
    return name.replace(f":{game_id}:", ":<game>:").replace(game_id, "<game>")


def play_one(client: redis.Redis, title: str, seed: int, archive_dir: str) -> dict[str, Any]:
    """One 2-player game of ``title`` with random legal moves; memory figures along the way."""
    from services.adapters.processor import Processor
    from services.adapters.projector import Projector
    from services.adapters.reactor import Reactor
    from services.adapters.workers.jobs import score_game
    from services.infrastructure.aggregates import Repository
    from services.infrastructure.archive import Archiver
    from services.infrastructure.bootstrap import bootstrap
    from services.infrastructure.commands import CommandBus
    from services.infrastructure.eventstore import EventStore, Keys
    from services.infrastructure.eventstore.archived import ArchiveReader
    from services.infrastructure.settings import jobs_run_with

    prefix = f"mem{uuid.uuid4().hex[:8]}:"
    settings = _settings(prefix, archive_dir)
    keys = Keys(settings.key_prefix, settings.shards)
    store = EventStore(client, keys)
    bus = CommandBus(store)
    processor = Processor(client, settings, name="mem-processor")
    projector = Projector(client, settings, name="mem-projector")
    reactor = Reactor(client, settings, name="mem-reactor")
    game_id = uuid.uuid4().hex[:12]

    def pump() -> None:
        processor.drain()
        projector.drain()
        reactor.drain()

    try:
        bus.submit(game_id, {"type": "taproom.CreateGame", "game": title, "options": {},
                             "seats": [{"name": "p0"}, {"name": "p1"}], "seed_commitment": ""}, seat=-1,
                   actor="bench", dev_seed=f"memory-{seed}")
        pump()
        repo, rng = Repository(store, cache_size=4), random.Random(seed)
        samples: list[tuple[int, int, dict[str, int]]] = []
        while True:
            loaded = repo.current(game_id)
            record = loaded.record
            assert record is not None
            if record.status != "active":
                break
            seat = rng.choice(record.to_act())
            command = rng.choice(record.game.legal_commands(record.state, seat))
            bus.submit(game_id, command.model_dump(mode="json"), seat=seat, actor="bench")
            pump()
            processor.trim()  # what the parts do every few seconds: the streams keep what is still to read
            projector.trim()
            total, sizes = memory_of(client, prefix)
            samples.append((loaded.version, total, sizes))
        with jobs_run_with(settings):
            score_game(game_id, connection=client)
        pump()
        processor.trim()
        projector.trim()
        final = store.head(game_id)[0]
        mid = min(samples, key=lambda s: abs(s[0] - final / 2))
        end_total, end_sizes = memory_of(client, prefix)
        peak = max([*samples, (final, end_total, end_sizes)], key=lambda s: split(s[2])["game"])
        figures: dict[str, Any] = {"events": final, "mid": split(mid[2]), "mid_sizes": mid[2],
                                   "end": split(end_sizes), "end_sizes": end_sizes, "game_id": game_id,
                                   "max": split(peak[2]), "max_sizes": peak[2], "max_at": peak[0]}
        archiver = Archiver.from_root(bootstrap(settings, client))
        started = time.perf_counter()
        done = archiver.archive(game_id, force=True)
        figures["archive_seconds"] = time.perf_counter() - started
        assert done.status == "archived", done
        figures["archive_bytes"] = done.bytes
        _, figures["archived_sizes"] = memory_of(client, prefix)
        figures["archived"] = split(figures["archived_sizes"])
        started = time.perf_counter()
        cold = EventStore(client, keys, archive=ArchiveReader())  # a reader of its own: no warm cache
        restored = Repository(cold, cache_size=1).current(game_id)
        figures["restore_seconds"] = time.perf_counter() - started
        assert restored.record is not None and restored.record.status == "scored"
        return figures
    finally:
        keys_left = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for i in range(0, len(keys_left), 500):
            client.delete(*keys_left[i:i + 500])
        for key in client.scan_iter(match=f"rq:*q-{prefix.strip(':')}*", count=1000):
            client.delete(key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redis", default=os.environ.get("REDIS_BENCH_URL", "redis://127.0.0.1:6379/14"))
    parser.add_argument("--games", type=int, default=3, help="games per title (the median is printed)")
    parser.add_argument("--titles", default="carcassonne,heaven-and-ale,tiefenthal")
    parser.add_argument("--keys", type=int, default=8, help="largest keys shown per title")
    args = parser.parse_args()

    from domain.catalog import load_games
    from services.infrastructure.logs import configure_logging

    configure_logging(True, "WARNING")
    load_games()
    client = redis.Redis.from_url(args.redis)
    client.ping()
    print(f"Redis {client.info('server')['redis_version']} at {args.redis}; {args.games} games per title, "
          "2 players, seeded random legal moves")
    with tempfile.TemporaryDirectory(prefix="taproom-archive-") as archive_dir:
        for title in args.titles.split(","):
            runs = [play_one(client, title, seed, archive_dir) for seed in range(1, args.games + 1)]

            def med(name: str, kind: str | None = None, runs: list[dict[str, Any]] = runs) -> float:
                return statistics.median(r[name][kind] if kind else r[name] for r in runs)

            print(f"\n{title}: {med('events'):.0f} events per game (median)")
            for label, name in (("active game, its maximum", "max"), ("active game mid-game", "mid"),
                                ("active game at its end", "end"), ("archived game", "archived")):
                print(f"  Redis memory, {label + ':':25s} {med(name, 'game') / 1000:6.1f} KB = "
                      f"{med(name, 'game') / 1024:5.1f} KiB   (+ outcome keys "
                      f"{med(name, 'outcomes') / 1024:.1f} KiB for minutes; shard streams and checkpoints "
                      f"{med(name, 'shard') / 1024:.1f} KiB)")
            print(f"  the maximum over the games:           {max(r['max']['game'] for r in runs) / 1000:6.1f} KB "
                  f"(goal: at most 60 KB per active 2-player game; reached at version "
                  f"{max(runs, key=lambda r: r['max']['game'])['max_at']} of "
                  f"{max(runs, key=lambda r: r['max']['game'])['events']})")
            print(f"  archive bytes (gzip JSON Lines):      {med('archive_bytes') / 1024:7.1f} KiB")
            print(f"  archive time (write, verify, swap):   {med('archive_seconds') * 1000:7.1f} ms")
            print(f"  restore time (read + fold):           {med('restore_seconds') * 1000:7.1f} ms")
            first = runs[0]
            for label, sizes in (("at its maximum", first["max_sizes"]), ("mid-game", first["mid_sizes"]),
                                 ("at the end", first["end_sizes"]),
                                 ("archived", first["archived_sizes"])):
                top = sorted(sizes.items(), key=lambda kv: -kv[1])[:args.keys]
                shown = ", ".join(f"{_short(k, first['game_id'])} {v / 1024:.1f}" for k, v in top)
                print(f"  largest keys {label} (KiB): {shown}")


if __name__ == "__main__":
    main()
