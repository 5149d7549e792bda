"""Redis calls and round trips per accepted command, by part (processor, projector, reactor): prints figures.

    .venv/bin/python bench/redis_calls.py [--redis-url URL] [--port 18401] [--games 16] [--rounds 20]

A load-independent figure: how many commands each part sends to Redis, in how many round trips, for one
accepted command. The workload is ``--games`` two-seat games of the fixture counter game, both seats human
players (every move changes who acts: a view per seat, two inboxes, a "your turn" message), played in rounds:
each round submits one command per game (``--games`` 16 is sixteen clients each moving in their own game),
then the processor, the projector and the reactor each work until they are caught up, one after the other,
so every call is charged to the part that made it.

* calls: from the server's ``INFO commandstats``, the delta over each part's phase (the INFO itself is
  left out). Commands a Lua script runs count here too (``EVALSHA`` counts once for the call itself).
* client commands and round trips: counted in each part's own connection (commands packed; one round trip
  per ``send`` of one command or one pipeline).
* CPU µs per command of each part's phase (process CPU time, load-independent; the three parts run in
  this process one after another).

Each phase ends with the part's read that finds nothing more (one per round and part): with ``--games 1``
that read is a whole round trip per command, as it is for a part waiting on its next command.

By default a private redis-server (no persistence) is started on ``--port`` in a temporary directory and
stopped at the end; with ``--redis-url`` an existing server is used (its figures include whatever else
that server runs at the time, so use a database nobody else uses).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import orjson
import redis

COUNTS: dict[str, Counter[str]] = {}


class _CountingPacker:
    def __init__(self, inner: Any, counts: Counter[str]) -> None:
        self.inner = inner
        self.counts = counts

    def pack(self, *args: Any) -> Any:
        self.counts["commands"] += 1
        self.counts["client_" + (args[0].decode() if isinstance(args[0], bytes) else str(args[0])).lower()] += 1
        return self.inner.pack(*args)


class CountingConnection(redis.Connection):
    """A connection that counts the commands it packs and its round trips (one per send)."""

    def __init__(self, *args: Any, part: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counts = COUNTS.setdefault(part, Counter())
        self._command_packer: Any = _CountingPacker(self._command_packer, self.counts)

    def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        self.counts["round_trips"] += 1
        super().send_packed_command(command, check_health)


def counted_client(url: str, part: str) -> redis.Redis:
    pool = redis.ConnectionPool.from_url(url, connection_class=CountingConnection, part=part)
    return redis.Redis(connection_pool=pool)


def commandstats(client: redis.Redis) -> dict[str, int]:
    return {name: int(stats["calls"]) for name, stats in client.info("commandstats").items()}


def start_server(port: int) -> tuple[subprocess.Popen[bytes], str, str]:
    directory = tempfile.mkdtemp(prefix="taproom-bench-redis-")
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", directory,
                             "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    probe = redis.Redis.from_url(url)
    deadline = time.monotonic() + 15
    while True:
        try:
            probe.ping()
            return proc, url, directory
        except redis.RedisError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"redis-server on port {port} did not start") from None
            time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL"),
                        help="an existing server and database (default: a private redis-server)")
    parser.add_argument("--port", type=int, default=18401, help="port of the private redis-server")
    parser.add_argument("--games", type=int, default=16, help="games moved per round (clients)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--details", action="store_true", help="also list each part's commands by name")
    parser.add_argument("--profile", choices=["processor", "projector", "reactor"], default=None,
                        help="print where that part's CPU goes (cProfile, top functions)")
    args = parser.parse_args()

    server = None
    url = args.redis_url
    if url is None:
        server, url, directory = start_server(args.port)
    try:
        run(url, args.games, args.rounds, args.details, args.profile)
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
            shutil.rmtree(directory, ignore_errors=True)


def run(url: str, n_games: int, rounds: int, details: bool = False, profile: str | None = None) -> None:
    from rq import Queue

    from domain.catalog import load_games
    from domain.core import register
    from services.adapters.processor import Processor
    from services.adapters.projector import Projector
    from services.adapters.reactor import Reactor
    from services.infrastructure.commands import CommandBus
    from services.infrastructure.eventstore import EventStore, Keys
    from services.infrastructure.logs import configure_logging
    from services.infrastructure.settings import Settings
    from tests.fixture_game import COUNTER

    register(COUNTER)
    load_games()
    configure_logging(True, "WARNING")
    prefix = f"calls{uuid.uuid4().hex[:6]}:"
    settings = Settings(redis_url=None, key_prefix=prefix, shards=16, snapshot_every=200, allow_client_seed=True,
                        lease_ms=60_000, log_level="WARNING")
    admin = redis.Redis.from_url(url)
    keys = Keys(prefix, settings.shards)
    bus = CommandBus(EventStore(admin, keys))
    processor = Processor(counted_client(url, "processor"), settings, name="calls-processor")
    projector = Projector(counted_client(url, "projector"), settings, name="calls-projector")
    reactor_client = counted_client(url, "reactor")
    reactor = Reactor(reactor_client, settings, queue=Queue(f"{prefix}jobs", connection=reactor_client),
                      name="calls-reactor")
    parts: list[tuple[str, Any]] = [("processor", processor), ("projector", projector), ("reactor", reactor)]
    try:
        games = [f"calls{i:03d}" for i in range(n_games)]
        for gid in games:
            bus.submit(gid, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": 10**9},
                             "seats": [{"name": "a", "player_id": f"pa-{gid}"}, {"name": "b", "player_id": f"pb-{gid}"}],
                             "seed_commitment": ""}, seat=-1, actor="bench", dev_seed=gid)
        for _, part in parts:  # leases taken, groups made, games created and projected: not counted
            part.drain()
        totals: dict[str, Counter[str]] = {name: Counter() for name, _ in parts}
        accepted = 0
        profiles: list[cProfile.Profile] = []
        for turn in range(rounds + 1):
            pairs = []
            pipe = admin.pipeline(transaction=False)
            for gid in games:
                cid = uuid.uuid4().hex
                message = {"game_id": gid, "command_id": cid, "seat": turn % 2, "actor": "bench",
                           "command": {"type": "Add", "amount": 1}}
                pipe.xadd(keys.cmd_stream_for(gid), {"m": orjson.dumps(message)})
                pairs.append((gid, cid))
            pipe.execute()
            for name, part in parts:
                COUNTS.setdefault(name, Counter()).clear()
                stats = commandstats(admin)
                profiler = cProfile.Profile(time.process_time) if name == profile and turn else None
                cpu = time.process_time()
                if profiler is not None:
                    profiler.runcall(part.drain)
                    profiler.create_stats()
                    profiles.append(profiler)
                else:
                    part.drain()
                cpu = time.process_time() - cpu
                after = commandstats(admin)
                if turn == 0:  # the first round warms caches (records loaded once per process)
                    continue
                calls = sum(after.values()) - sum(stats.values()) - 1  # the INFO in between
                totals[name].update({"calls": calls, "cpu_ns": int(cpu * 1e9), **COUNTS[name]})
                for command, n in after.items():
                    delta = n - stats.get(command, 0) - (command == "cmdstat_info")
                    if delta:
                        totals[name][command] += delta
            if turn:
                outcomes = admin.mget([keys.outcome(g, c) for g, c in pairs])
                accepted += sum(1 for raw in outcomes if raw and orjson.loads(raw).get("status") == "accepted")
        report(totals, accepted, n_games, rounds, details)
        if profiles:
            merged = pstats.Stats(profiles[0])
            for more in profiles[1:]:
                merged.add(more)
            merged.sort_stats("cumulative").print_stats(30)
            merged.sort_stats("tottime").print_stats(30)
    finally:
        for _, part in parts:
            part.leases.release_all()
        batch = list(admin.scan_iter(match=f"{prefix}*", count=5000))
        for i in range(0, len(batch), 1000):
            admin.delete(*batch[i:i + 1000])


def report(totals: dict[str, Counter[str]], accepted: int, n_games: int, rounds: int, details: bool) -> None:
    print(f"{accepted} accepted commands ({rounds} rounds of one command in each of {n_games} games)")
    if not accepted:
        return
    print(f"{'part':10} {'calls/cmd':>10} {'client cmds/cmd':>16} {'round trips/cmd':>16} {'CPU us/cmd':>11}")
    whole: Counter[str] = Counter()
    for name, t in totals.items():
        whole.update({k: v for k, v in t.items() if k in ("calls", "commands", "round_trips", "cpu_ns")})
        print(f"{name:10} {t['calls'] / accepted:10.2f} {t['commands'] / accepted:16.2f} "
              f"{t['round_trips'] / accepted:16.2f} {t['cpu_ns'] / 1e3 / accepted:11.1f}")
    print(f"{'all three':10} {whole['calls'] / accepted:10.2f} {whole['commands'] / accepted:16.2f} "
          f"{whole['round_trips'] / accepted:16.2f} {whole['cpu_ns'] / 1e3 / accepted:11.1f}")
    for name, t in totals.items():
        top = sorted(((n, c.removeprefix("cmdstat_")) for c, n in t.items() if c.startswith("cmdstat_")),
                     reverse=True)
        print(f"  {name}: " + ", ".join(f"{cmd} {n / accepted:.2f}" for n, cmd in top[:12]))
        if details:
            sent = sorted(((n, c.removeprefix("client_")) for c, n in t.items() if c.startswith("client_")),
                          reverse=True)
            print(f"    {name} sends: " + ", ".join(f"{cmd} {n / accepted:.2f}" for n, cmd in sent))


if __name__ == "__main__":
    main()
