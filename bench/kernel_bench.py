"""Kernel benchmark against a real Redis: prints figures, asserts nothing.

    .venv/bin/python bench/kernel_bench.py [--redis-url redis://127.0.0.1:6379/N | --port 18410] [--aof-always]
                                           [--commands 20000]

Without ``--redis-url`` (or ``BENCH_REDIS_URL``) it starts a private redis-server of its own (no persistence)
on ``--port`` in a temporary directory and stops it at the end, so it never writes into a shared database.
With ``--aof-always`` that server is the one ``bench/load_bench.py`` starts (``own_redis``: AOF fsynced on
every write, as deployed), so the kernel's latency compares with the HTTP path's at the same durability.

Figures:
* raw XADD rate of this Redis (one client, sequential and pipelined) for scale;
* commands/s end to end (submitted -> appended -> seat view updated) through
  one processor process, with one projector process;
* p50/p99 latency from submit to outcome at a fixed offered load (500/s);
* events/s of a full projection rebuild (and per second of its CPU);
* CPU µs per command of the processor, the projector and Redis over the throughput run: what the kernel
  needs of a core per command however loaded the machine is (the machine is shared: wall-clock rates
  drop with its load, CPU per command hardly does);
* Redis memory taken by one finished game (every key of the game).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import shutil
import statistics
import sys
import threading
import time
import uuid
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event as MpEvent
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))

import orjson
import redis

from domain.core import register
from services.infrastructure.settings import Settings

GAME_TARGET = 10**9  # the fixture game never ends during the run


def _settings(prefix: str) -> Settings:
    return Settings(redis_url=None, key_prefix=prefix, shards=16, snapshot_every=200, allow_client_seed=True,
                    lease_ms=10_000, log_level="WARNING")


def _register() -> None:
    from domain.catalog import load_games
    from tests.fixture_game import COUNTER

    register(COUNTER)
    load_games()


def _run_part(kind: str, url: str, prefix: str, stop: MpEvent) -> None:  # child process
    from services.infrastructure.logs import configure_logging

    configure_logging(True, "WARNING")
    _register()
    client = redis.Redis.from_url(url)
    settings = _settings(prefix)
    part: Any
    if kind == "processor":
        from services.adapters.processor import Processor

        part = Processor(client, settings, name="bench-processor")
    else:
        from services.adapters.projector import Projector

        part = Projector(client, settings, name="bench-projector")
    flag = threading.Event()

    def relay() -> None:
        stop.wait()
        flag.set()

    threading.Thread(target=relay, daemon=True).start()
    part.run(flag, block_ms=20)


def _pid(process: BaseProcess) -> int:
    assert process.pid is not None, "started first"
    return process.pid


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def redis_cpu(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def raw_xadd(client: redis.Redis, prefix: str, n: int = 20_000) -> tuple[float, float]:
    key = f"{prefix}raw"
    started = time.perf_counter()
    for _ in range(n // 4):
        client.xadd(key, {"e": b"x" * 200})
    sequential = (n // 4) / (time.perf_counter() - started)
    started = time.perf_counter()
    pipe = client.pipeline(transaction=False)
    for i in range(n):
        pipe.xadd(key, {"e": b"x" * 200})
        if i % 500 == 499:
            pipe.execute()
    pipe.execute()
    pipelined = n / (time.perf_counter() - started)
    client.delete(key)
    return sequential, pipelined


def create_games(bus, n_games: int) -> list[str]:
    ids = []
    for i in range(n_games):
        gid = f"bench{i:04d}"
        bus.submit(gid, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": GAME_TARGET},
                         "seats": [{"name": "solo"}], "seed_commitment": ""}, seat=-1, actor="bench", dev_seed=gid)
        ids.append(gid)
    return ids


def wait_outcomes(client, keys, pairs, timeout=300.0) -> None:
    deadline = time.monotonic() + timeout
    pending = list(pairs)
    while pending and time.monotonic() < deadline:
        found = client.mget([keys.outcome(g, c) for g, c in pending[:1000]])
        pending = [p for p, f in zip(pending[:1000], found) if f is None] + pending[1000:]
        if pending:
            time.sleep(0.005)
    if pending:
        raise RuntimeError(f"{len(pending)} commands without outcome")


def throughput(client, keys, bus, games: list[str], n_commands: int) -> float:
    """Submit n commands (pipelined) and time until every outcome and every seat view is there."""
    per_game = n_commands // len(games)
    started = time.perf_counter()
    pairs = []
    pipe = client.pipeline(transaction=False)
    for _round in range(per_game):
        for gid in games:
            cid = uuid.uuid4().hex
            pipe.xadd(keys.cmd_stream_for(gid), {"m": orjson.dumps({"game_id": gid, "command_id": cid, "seat": 0,
                                                                     "actor": "bench", "command": {"type": "Add", "amount": 1}})})
            pairs.append((gid, cid))
        pipe.execute()
    wait_outcomes(client, keys, pairs)
    final = {gid: int(client.hget(keys.head(gid), "version")) for gid in games}
    from projections.read_models import load_view

    while True:  # the seat views have caught up with the last command
        views = client.mget([keys.view(g, 0) for g in games])
        if all(v and load_view(v)["version"] >= final[g] for g, v in zip(games, views)):
            break
        time.sleep(0.005)
    return len(pairs) / (time.perf_counter() - started)


def latency(client, keys, bus, games: list[str], rate: int = 500, seconds: float = 6.0) -> tuple[float, float, float]:
    """Offer ``rate`` commands/s evenly; measure submit -> outcome visible."""
    submitted: dict[str, tuple[str, float]] = {}
    done: dict[str, float] = {}
    stop = threading.Event()

    def poll() -> None:
        poller = redis.Redis(connection_pool=client.connection_pool)
        while not stop.is_set() or len(done) < len(submitted):
            open_ = [(c, g) for c, (g, _) in list(submitted.items()) if c not in done]
            if open_:
                found = poller.mget([keys.outcome(g, c) for c, g in open_])
                now = time.perf_counter()
                for (c, _), f in zip(open_, found):
                    if f is not None:
                        done[c] = now
            time.sleep(0.0005)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    interval = 1.0 / rate
    start = time.perf_counter()
    i = 0
    while time.perf_counter() - start < seconds:
        due = start + i * interval
        now = time.perf_counter()
        if now < due:
            time.sleep(due - now)
        gid = games[i % len(games)]
        cid = uuid.uuid4().hex
        submitted[cid] = (gid, time.perf_counter())
        bus.submit(gid, {"type": "Add", "amount": 1}, seat=0, actor="bench", command_id=cid)
        i += 1
    stop.set()
    poller.join(30)
    lat = sorted((done[c] - t) * 1000 for c, (_, t) in submitted.items() if c in done)
    offered = i / (time.perf_counter() - start)
    return statistics.median(lat), lat[int(len(lat) * 0.99) - 1], offered


def finished_game_memory(client, settings) -> tuple[str, int, int]:
    """Play one full game of the largest registered game straight through the processor; sum its keys' memory."""
    import random

    from domain.core import all_games
    from services.adapters.processor import Processor
    from services.adapters.projector import Projector
    from services.infrastructure.aggregates import Repository
    from services.infrastructure.commands import CommandBus
    from services.infrastructure.eventstore import EventStore, Keys

    candidates = [g for g in all_games() if g.id != "counter"] or [g for g in all_games()]
    game = candidates[0]
    keys = Keys(settings.key_prefix, settings.shards)
    store = EventStore(client, keys)
    bus = CommandBus(store)
    processor = Processor(client, settings, name="mem-processor")
    projector = Projector(client, settings, name="mem-projector")
    gid = "memgame"
    players = max(2, game.min_players)
    options = {"target": 60} if game.id == "counter" else {}
    bus.submit(gid, {"type": "taproom.CreateGame", "game": game.id, "options": options,
                     "seats": [{"name": f"p{i}"} for i in range(players)], "seed_commitment": ""}, seat=-1,
               actor="bench", dev_seed="memory")
    processor.drain()
    repo, rng = Repository(store), random.Random(1)
    while True:
        record = repo.current(gid).record
        assert record is not None
        if record.status != "active":
            break
        seat = rng.choice(record.to_act())
        command = rng.choice(record.game.legal_commands(record.state, seat))
        bus.submit(gid, command.model_dump(mode="json"), seat=seat, actor="bench")
        processor.drain()
    from services.adapters.workers.jobs import score_game
    from services.infrastructure.settings import jobs_run_with

    with jobs_run_with(settings):
        score_game(gid, connection=client)
    processor.drain()
    projector.drain()
    game_keys = [k for k in client.scan_iter(match=f"{keys.prefix}g:{keys.tag(gid)}:{gid}:*")]
    total = sum(client.memory_usage(k, samples=0) or 0 for k in game_keys)
    return game.id, store.head(gid)[0], total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--redis-url", "--redis", dest="redis", default=os.environ.get("BENCH_REDIS_URL"),
                        help="an existing server and database (default: a private redis-server)")
    parser.add_argument("--port", type=int, default=18410, help="port of the private redis-server")
    parser.add_argument("--aof-always", action="store_true",
                        help="the private redis-server with AOF fsynced on every write (load_bench's own_redis)")
    parser.add_argument("--commands", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    if args.aof_always:
        if args.redis is not None:
            raise SystemExit("--aof-always starts its own server: leave out --redis-url (and BENCH_REDIS_URL)")
        from load_bench import own_redis

        with own_redis(args.port) as url:
            args.redis = url
            print("# private redis-server with appendonly yes, appendfsync always (as load_bench's)", flush=True)
            bench(args)
        return
    server = None
    if args.redis is None:
        from redis_calls import start_server

        server, args.redis, directory = start_server(args.port)
    try:
        bench(args)
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
            shutil.rmtree(directory, ignore_errors=True)


def bench(args: argparse.Namespace) -> None:
    _register()
    from services.infrastructure.logs import configure_logging

    configure_logging(True, "WARNING")
    prefix = f"bench{uuid.uuid4().hex[:6]}:"
    client = redis.Redis.from_url(args.redis)
    client.ping()
    settings = _settings(prefix)
    from services.infrastructure.commands import CommandBus
    from services.infrastructure.eventstore import EventStore, Keys

    keys = Keys(prefix, settings.shards)
    bus = CommandBus(EventStore(client, keys))
    try:
        seq, piped = raw_xadd(client, prefix)
        print(f"raw XADD (one client):             {seq:10.0f} /s sequential, {piped:10.0f} /s pipelined")
        ctx = mp.get_context("fork")
        stop = ctx.Event()
        parts = [ctx.Process(target=_run_part, args=(kind, args.redis, prefix, stop)) for kind in ("processor", "projector")]
        for p in parts:
            p.start()
        games = create_games(bus, args.games)
        wait_outcomes(client, keys, [])
        time.sleep(1.0)
        throughput(client, keys, bus, games, 2_000)  # warm caches
        before = [cpu_of(_pid(p)) for p in parts] + [redis_cpu(client)]
        cps = throughput(client, keys, bus, games, args.commands)
        used = [b - a for a, b in zip(before, [cpu_of(_pid(p)) for p in parts] + [redis_cpu(client)])]
        print(f"end to end (submit->append->view): {cps:10.0f} commands/s  (one processor, one projector; "
              f"{cps / piped:.3f} of pipelined XADD)")
        per = [u * 1e6 / args.commands for u in used]
        print(f"CPU per command:                   processor {per[0]:6.1f} us, projector {per[1]:6.1f} us, "
              f"Redis {per[2]:6.1f} us ({1e6 / max(per):.0f} commands/s if the busiest of them had a core)")
        p50, p99, offered = latency(client, keys, bus, games)
        print(f"latency at {offered:.0f} commands/s offered:   p50 {p50:6.2f} ms, p99 {p99:6.2f} ms")
        stop.set()
        for p in parts:
            p.join(10)
            if p.is_alive():
                p.terminate()
        from services.adapters.projector import Projector

        cpu = time.process_time()
        figures = Projector(client, settings, name="rebuild").rebuild()
        cpu = time.process_time() - cpu
        print(f"projection rebuild:                {figures['events_per_second']:10.0f} events/s "
              f"({figures['events']} events, {figures['games']} games, {figures['seconds']:.2f} s; "
              f"{figures['events'] / cpu:.0f} events per CPU second)")
        game_id, events, memory = finished_game_memory(client, settings)
        print(f"one finished {game_id} game:        {memory / 1024:10.1f} KiB of Redis memory ({events} events)")
    finally:
        batch = list(client.scan_iter(match=f"{prefix}*", count=5000))
        for i in range(0, len(batch), 1000):
            client.delete(*batch[i:i + 1000])


if __name__ == "__main__":
    main()
