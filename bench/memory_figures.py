"""Redis memory per game, every key a game causes, with games played over HTTP; and what archiving a finished
game costs: prints figures, asserts nothing.

    .venv/bin/python bench/memory_figures.py [--games 3] [--titles carcassonne] [--redis-server redis-server]

A private redis-server is started for the run (a free loopback port, a temporary directory; stopped at the
end): no other Redis is touched. For each title, ``--games`` 2-player games are played over the HTTP API (the
app in-process, called through its ASGI interface as a client would: ``POST /games``, then per move
``GET /games/{id}/legal`` with the seat's token and ``POST /games/{id}/commands`` with a ``command_id``),
seeded random legal moves of the game (never ``taproom.*`` kernel commands such as resigning), with the
processor in a thread answering the requests and the projector and reactor run after each command. Each game
has its own key prefix, so every key under the prefix was caused by that one game: its log, views and meta,
its command-id claims (``claims``), outcome keys and reply lists, its seats' tokens, its lobby and inbox
entries, its share of the shard's feed and command stream. Figures, the median over the games:

* Redis memory of an active game at its maximum (the largest figure after any command: the goal's figure, at
  most 60 KB per active 2-player game), mid-game (at half its final version) and at its end (scored); KB =
  1000 bytes, KiB = 1024. The figure is every key of the game (``game``: log, views, claims, tokens, ...) plus
  its outcome keys and reply lists while they live (``answers``: minutes at most); the shard's streams and
  checkpoints (``shard``: trimmed behind their readers, so what is in flight, whatever the number of games) and
  the API's rate-limit counters (``rates``: a minute) are shown beside it;
* Redis memory once archived (the summary left behind), archive bytes (compressed JSON Lines in the cold
  store), the time to archive one game and the time to restore it (read the record back from the archive
  and fold it to a current record, as the first read of an archived game does);
* the largest keys of one game at its maximum, mid-game, at its end and archived, to see what holds the memory.

Memory is ``MEMORY USAGE key SAMPLES 0`` summed over the keys (what Redis reports for each key, overhead
included). Jobs the reactor enqueues live in rq's own keys (short-lived, outside the game's prefix) and are not
counted.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import redis

from services.infrastructure.settings import Settings


def _settings(url: str, prefix: str, archive_dir: str) -> Settings:
    limits: dict[str, Any] = {name: "1000000/second" for name in Settings.model_fields if name.startswith("rate_limit_")}
    limits.update({name: 1_000_000 for name in Settings.model_fields
                   if name.startswith("max_") and (name.endswith("_per_player") or "_streams_" in name)})
    return Settings(redis_url=url, key_prefix=prefix, shards=16, allow_client_seed=True, lease_ms=10_000,
                    log_level="WARNING", rq_queue=f"q-{prefix.strip(':')}", archive_dir=archive_dir,
                    command_wait_seconds=30.0, **limits)


class PrivateRedis:
    """A redis-server of the bench's own (no AOF: memory does not depend on it), stopped at the end."""

    def __init__(self, binary: str, directory: str) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.proc = subprocess.Popen([binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", directory,
                                      "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        client = redis.Redis.from_url(self.url)
        for _ in range(200):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("the private redis-server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def memory_of(client: redis.Redis, prefix: str) -> tuple[int, dict[str, int]]:
    """Bytes of every key under ``prefix`` (one game's), and per key (the part of its name after the prefix)."""
    sizes: dict[str, int] = {}
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        name = key.decode()[len(prefix):]
        sizes[name] = client.memory_usage(key, samples=0) or 0
    return sum(sizes.values()), sizes


SHARD_PARTS = ("cmd:", "feed:", "ckpt:", "lease:", "members:", "games:", "dead:", "stalled:")
"""Keys of a shard or of the deployment, not of a game: their size does not grow with the games (the
streams are trimmed behind their readers); shown on their own."""
RATE_PARTS = ("rl:", "rate:", "ratelimit:")


def split(sizes: dict[str, int]) -> dict[str, int]:
    """Bytes per kind: ``game`` (every key of the game that stays while it is played: log, views, claims,
    tokens, lobby and inbox entries), ``answers`` (outcome keys and reply lists: minutes at most), ``all`` (the
    two: the goal's figure), ``shard`` and ``rates``."""
    kinds = {"game": 0, "answers": 0, "shard": 0, "rates": 0}
    for name, size in sizes.items():
        if name.startswith(SHARD_PARTS):
            kinds["shard"] += size
        elif name.startswith(RATE_PARTS):
            kinds["rates"] += size
        elif ":out:" in name or ":body:" in name or ":reply:" in name:
            kinds["answers"] += size
        else:
            kinds["game"] += size
    kinds["all"] = kinds["game"] + kinds["answers"]
    return kinds


def _short(name: str, game_id: str) -> str:
    return name.replace(f":{game_id}:", ":<game>:").replace(game_id, "<game>")


def _created(api: Any, title: str, seed: int) -> tuple[str, list[str]]:
    response = api.post("/games", json={"game": title, "options": {}, "seats": [{"name": "p0"}, {"name": "p1"}],
                                        "seed": f"memory-{seed}"})
    assert response.status_code in (201, 202), response.text
    body = response.json()
    return body["game_id"], [seat["token"] for seat in body["seats"]]


def play_one(url: str, title: str, seed: int, archive_dir: str) -> dict[str, Any]:
    """One 2-player game of ``title`` over HTTP with random legal moves; memory figures along the way."""
    from fastapi.testclient import TestClient

    from services.adapters.api.app import create_app
    from services.adapters.processor import Processor
    from services.adapters.projector import Projector
    from services.adapters.reactor import Reactor
    from services.adapters.workers.jobs import score_game
    from services.infrastructure.aggregates import Repository
    from services.infrastructure.archive import Archiver
    from services.infrastructure.bootstrap import bootstrap, client_factory
    from services.infrastructure.eventstore import EventStore, Keys
    from services.infrastructure.eventstore.archived import ArchiveReader
    from services.infrastructure.settings import jobs_run_with

    prefix = f"mem{uuid.uuid4().hex[:8]}:"
    settings = _settings(url, prefix, archive_dir)
    clients = client_factory(settings)
    client = clients()
    keys = Keys(settings.key_prefix, settings.shards)
    store = EventStore(client, keys)
    processor = Processor(clients(), settings, name="mem-processor")
    projector = Projector(client, settings, name="mem-projector")
    reactor = Reactor(client, settings, name="mem-reactor")
    stop = threading.Event()
    thread = threading.Thread(target=processor.run, args=(stop,), daemon=True)
    thread.start()

    def pump() -> None:
        projector.drain()
        reactor.drain()
        projector.trim()

    try:
        with TestClient(create_app(clients(), settings)) as api:
            game_id, tokens = _created(api, title, seed)
            rng = random.Random(seed)
            samples: list[tuple[int, int, dict[str, int]]] = []
            n = 0
            while True:
                pump()
                meta = api.get(f"/games/{game_id}").json()
                if meta.get("status") != "active":
                    if meta.get("status") in ("ended", "scored"):
                        break
                    time.sleep(0.01)  # created, not projected yet
                    continue
                seat = rng.choice(meta["to_act"])
                legal = api.get(f"/games/{game_id}/legal", headers={"Authorization": f"Bearer {tokens[seat]}"})
                commands = [c for c in legal.json()["commands"] if not c["type"].startswith("taproom.")]
                if not commands:
                    time.sleep(0.01)
                    continue
                n += 1
                answer = api.post(f"/games/{game_id}/commands", headers={"Authorization": f"Bearer {tokens[seat]}"},
                                  json={"command_id": f"c{n}", **rng.choice(commands)})
                assert answer.status_code == 200, answer.text
                pump()
                total, sizes = memory_of(client, prefix)
                samples.append((answer.json()["version"], total, sizes))
            with jobs_run_with(settings):
                score_game(game_id, connection=client)
            pump()
            final = store.head(game_id)[0]
            mid = min(samples, key=lambda s: abs(s[0] - final / 2))
            end_total, end_sizes = memory_of(client, prefix)
            peak = max([*samples, (final, end_total, end_sizes)], key=lambda s: split(s[2])["all"])
            figures: dict[str, Any] = {"events": final, "commands": n, "mid": split(mid[2]), "mid_sizes": mid[2],
                                       "end": split(end_sizes), "end_sizes": end_sizes, "game_id": game_id,
                                       "max": split(peak[2]), "max_sizes": peak[2], "max_at": peak[0]}
        stop.set()
        thread.join(10)
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
        stop.set()
        keys_left = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for i in range(0, len(keys_left), 500):
            client.delete(*keys_left[i:i + 500])
        for key in client.scan_iter(match=f"rq:*q-{prefix.strip(':')}*", count=1000):
            client.delete(key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redis-server", default=shutil.which("redis-server") or "redis-server")
    parser.add_argument("--games", type=int, default=3, help="games per title (the median is printed)")
    parser.add_argument("--titles", default="carcassonne,heaven-and-ale,tiefenthal")
    parser.add_argument("--keys", type=int, default=8, help="largest keys shown per title")
    args = parser.parse_args()

    from domain.catalog import load_games
    from services.infrastructure.logs import configure_logging

    configure_logging(True, "WARNING")
    load_games()
    with tempfile.TemporaryDirectory(prefix="taproom-archive-") as archive_dir, \
            tempfile.TemporaryDirectory(prefix="taproom-memory-redis-") as redis_dir:
        server = PrivateRedis(args.redis_server, redis_dir)
        try:
            version = redis.Redis.from_url(server.url).info("server")["redis_version"]
            print(f"Redis {version} (a private redis-server); {args.games} games per title, 2 players, seeded random "
                  "legal moves over HTTP")
            for title in args.titles.split(","):
                report(title, [play_one(server.url, title, seed, archive_dir) for seed in range(1, args.games + 1)],
                       args.keys)
        finally:
            server.stop()


def report(title: str, runs: list[dict[str, Any]], shown: int) -> None:
    def med(name: str, kind: str | None = None) -> float:
        return statistics.median(r[name][kind] if kind else r[name] for r in runs)

    print(f"\n{title}: {med('events'):.0f} events, {med('commands'):.0f} HTTP commands per game (median)")
    for label, name in (("active game, its maximum", "max"), ("active game mid-game", "mid"),
                        ("active game at its end", "end"), ("archived game", "archived")):
        print(f"  Redis memory, {label + ':':25s} {med(name, 'all') / 1000:6.1f} KB (game keys "
              f"{med(name, 'game') / 1000:.1f} + outcome keys and reply lists {med(name, 'answers') / 1000:.1f}; "
              f"beside it: shard streams {med(name, 'shard') / 1000:.1f}, rate counters {med(name, 'rates') / 1000:.1f})")
    worst = max(runs, key=lambda r: r["max"]["all"])
    print(f"  the maximum over the games:           {worst['max']['all'] / 1000:6.1f} KB (goal: at most 60 KB per "
          f"active 2-player game; reached at version {worst['max_at']} of {worst['events']})")
    print(f"  archive bytes (gzip JSON Lines):      {med('archive_bytes') / 1024:7.1f} KiB")
    print(f"  archive time (write, verify, swap):   {med('archive_seconds') * 1000:7.1f} ms")
    print(f"  restore time (read + fold):           {med('restore_seconds') * 1000:7.1f} ms")
    first = runs[0]
    for label, sizes in (("at its maximum", first["max_sizes"]), ("mid-game", first["mid_sizes"]),
                         ("at the end", first["end_sizes"]), ("archived", first["archived_sizes"])):
        top = sorted(sizes.items(), key=lambda kv: -kv[1])[:shown]
        listed = ", ".join(f"{_short(k, first['game_id'])} {v / 1000:.1f}" for k, v in top)
        print(f"  largest keys {label} (KB): {listed}")


if __name__ == "__main__":
    main()
