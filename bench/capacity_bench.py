"""Capacity figures for deploy/CAPACITY.md: measured here, then scaled up. Prints figures, asserts nothing.

    .venv/bin/python bench/capacity_bench.py [--commands 10000] [--games-per-type 3] [--concurrent 1000000]

Starts its own Redis pair on free loopback ports (a primary and one replica, AOF everysec as in
deploy/k8s; nothing shared is touched) and measures:

* commands/s through one processor process (submit -> appended -> outcome), without and with the
  append waiting for the replica (``TAPROOM_APPEND_REPLICAS=1``), and the Redis commands one game command
  costs (INFO commandstats), the API's outcome polling included;
* per game type, bot games played to the end straight through the processor: events and commands per
  game, Redis memory of one game while active (half-way) and once finished (every key of the game,
  MEMORY USAGE), and the share of the shard feed;
* archived-game memory, when the archive (issue 18's other half) is there: its figures script
  (``bench/memory_figures.py``) run against the same Redis, printed after the plan.

Then it sizes a deployment for ``--concurrent`` games at ``--moves-per-hour`` commands per active game.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import orjson
import redis

from domain.core import register
from services.infrastructure.settings import Settings

NODE_MEMORY_GIB = 25.0
"""Usable dataset per Redis master (a 32 GiB node with headroom for replication buffers and forks)."""
HEADROOM = 0.5
"""Run processors and Redis masters at half their measured capacity (peaks, failover, rebalancing)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisPair:
    """A primary and one replica of it, private to this run."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server is not on PATH")
        self.binary = binary
        self.dir = Path(tempfile.mkdtemp(prefix="taproom-capacity-"))
        self.ports = [free_port(), free_port()]
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self) -> RedisPair:
        for i, port in enumerate(self.ports):
            args = [self.binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(self.dir / str(i)),
                    "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--logfile",
                    str(self.dir / f"{i}.log")]
            if i == 1:
                args += ["--replicaof", "127.0.0.1", str(self.ports[0])]
            (self.dir / str(i)).mkdir()
            self.procs.append(subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        primary = self.client()
        deadline = time.monotonic() + 20
        while True:
            try:
                if primary.info("replication").get("connected_slaves", 0) >= 1:
                    return self
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis pair did not start")
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
            proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


def settings_for(prefix: str, replicas: int) -> Settings:
    return Settings(redis_url=None, key_prefix=prefix, shards=16, snapshot_every=100, allow_client_seed=True,
                    lease_ms=10_000, log_level="WARNING", append_replicas=replicas)


def _register() -> None:
    from domain.catalog import load_games
    from tests.fixture_game import COUNTER

    register(COUNTER)
    load_games()


def _processor(url: str, prefix: str, replicas: int, stop: Any) -> None:  # child process
    from services.adapters.processor import Processor
    from services.infrastructure.logs import configure_logging

    configure_logging(True, "WARNING")
    _register()
    part = Processor(redis.Redis.from_url(url), settings_for(prefix, replicas), name="capacity-processor")
    flag = threading.Event()
    def relay() -> None:
        stop.wait()
        flag.set()

    threading.Thread(target=relay, daemon=True).start()
    part.run(flag, block_ms=20)


def commandstats(client: redis.Redis) -> int:
    return sum(int(v["calls"]) for k, v in client.info("commandstats").items() if k.startswith("cmdstat_"))


def processor_rate(pair: RedisPair, replicas: int, n_commands: int, n_games: int = 200) -> dict[str, float]:
    """Commands/s through one processor process (pipelined submissions, until every outcome is there), and
    the Redis commands each cost (the processor's, plus the submitter's XADD and outcome reads)."""
    from services.infrastructure.commands import CommandBus
    from services.infrastructure.eventstore import EventStore, Keys

    prefix = f"cap{uuid.uuid4().hex[:6]}:"
    client = pair.client()
    keys = Keys(prefix, 16)
    bus = CommandBus(EventStore(client, keys))
    ctx = mp.get_context("fork")
    stop = ctx.Event()
    proc = ctx.Process(target=_processor, args=(pair.url, prefix, replicas, stop))
    proc.start()
    try:
        games = [f"g{i:04d}" for i in range(n_games)]
        pairs = [(g, bus.submit(g, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": 10**9},
                                    "seats": [{"name": "solo"}], "seed_commitment": ""}, seat=-1, actor="bench",
                                dev_seed=g)) for g in games]
        wait_outcomes(client, keys, pairs)
        submit(client, keys, games, 1000)  # warm up
        best, ops = 0.0, 0
        for _ in range(2):  # the better of two runs: this machine is shared
            before = commandstats(client)
            started = time.perf_counter()
            submit(client, keys, games, n_commands)
            best = max(best, n_commands / (time.perf_counter() - started))
            ops = commandstats(client) - before
        return {"commands_per_second": best, "redis_ops_per_command": ops / n_commands,
                "redis_ops_per_api_command": api_path_ops(pair, keys, games)}
    finally:
        stop.set()
        proc.join(10)
        if proc.is_alive():
            proc.terminate()
        delete_prefix(client, prefix)


def api_path_ops(pair: RedisPair, keys: Any, games: list[str], n: int = 200) -> float:
    """Redis commands one move costs when it comes through the API's path, one request at a time: the
    submit script and the BLPOP on the request's reply list (services/infrastructure/async_commands.py), the processor's
    work and its polling in between (a lightly loaded service: the worst case per move)."""
    import asyncio

    import redis.asyncio

    from services.infrastructure.async_commands import AsyncCommandBus
    from services.infrastructure.commands import CommandMessage

    async def run() -> int:
        client = redis.asyncio.Redis.from_url(pair.url)
        bus = AsyncCommandBus(client, keys, 3600)
        for i in range(n):
            message = CommandMessage(game_id=games[i % len(games)], command_id=uuid.uuid4().hex, seat=0,
                                     actor="bench", command={"type": "Add", "amount": 1})
            settled = await bus.submit_and_wait(message, 10.0, {"type": "Add", "amount": 1})
            assert settled is not None and settled.outcome.status == "accepted"
        await client.aclose()  # type: ignore[attr-defined]  # redis>=5.0.1; the stubs lag
        return n

    client = pair.client()
    before = commandstats(client)
    done = asyncio.run(run())
    # everything Redis ran meanwhile: the processor's work for these moves and its polling between them too
    return (commandstats(client) - before) / done


def rq_ops_per_job(pair: RedisPair, n: int = 500) -> float:
    """Redis commands rq spends on one job (enqueue, dequeue, run, result) on the queue Redis: every bot move,
    scoring, deadline and notification is one. A job that does nothing, so only rq's own work counts."""
    from rq import Queue

    from services.adapters.workers.worker import ThreadWorker

    client = pair.client()
    queue = Queue(f"cap{uuid.uuid4().hex[:6]}", connection=client)
    before = commandstats(client)
    for i in range(n):
        queue.enqueue("services.infrastructure.health.forget", f"none-{i}", result_ttl=600)
    ThreadWorker([queue], connection=client).work(burst=True, logging_level="WARNING")
    ops = (commandstats(client) - before) / n
    queue.delete(delete_jobs=True)
    return ops


def submit(client: redis.Redis, keys: Any, games: list[str], n: int) -> None:
    pairs = []
    pipe = client.pipeline(transaction=False)
    for i in range(n):
        gid, cid = games[i % len(games)], uuid.uuid4().hex
        pipe.xadd(keys.cmd_stream_for(gid), {"m": orjson.dumps({"game_id": gid, "command_id": cid, "seat": 0,
                                                                 "actor": "bench",
                                                                 "command": {"type": "Add", "amount": 1}})})
        pairs.append((gid, cid))
        if i % 500 == 499:
            pipe.execute()
    pipe.execute()
    wait_outcomes(client, keys, pairs)


def wait_outcomes(client: redis.Redis, keys: Any, pairs: list[tuple[str, str]], timeout: float = 600.0) -> None:
    deadline = time.monotonic() + timeout
    pending = list(pairs)
    while pending:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{len(pending)} commands without outcome")
        head, rest = pending[:1000], pending[1000:]
        found = client.mget([keys.outcome(g, c) for g, c in head])
        pending = [p for p, f in zip(head, found) if f is None] + rest
        if pending:
            time.sleep(0.005)


def game_figures(pair: RedisPair, game_id: str, n_games: int, seed: int) -> dict[str, float]:
    """Play ``n_games`` 2-player games of ``game_id`` with random moves straight through a processor and a
    projector; memory of one game's keys half-way (active) and at the end (finished, scored)."""
    from services.adapters.processor import Processor
    from services.adapters.projector import Projector
    from services.adapters.workers.jobs import score_game
    from services.infrastructure.aggregates import Repository
    from services.infrastructure.commands import CommandBus
    from services.infrastructure.eventstore import EventStore, Keys
    from services.infrastructure.settings import jobs_run_with

    client = pair.client()
    prefix = f"mem{uuid.uuid4().hex[:6]}:"
    settings = settings_for(prefix, 0)
    keys = Keys(prefix, settings.shards)
    store = EventStore(client, keys)
    bus = CommandBus(store)
    processor, projector = Processor(client, settings, name="mem-p"), Projector(client, settings, name="mem-j")
    rng = random.Random(seed)
    events, commands, active, finished, feed = [], [], [], [], []
    peaks = []
    try:
        for n in range(n_games):
            gid = f"{game_id[:4]}{n:03d}{uuid.uuid4().hex[:4]}"
            feed_before = client.memory_usage(keys.feed(keys.shard(gid)), samples=0) or 0
            bus.submit(gid, {"type": "taproom.CreateGame", "game": game_id, "options": {},
                             "seats": [{"name": "a"}, {"name": "b"}], "seed_commitment": ""}, seat=-1, actor="bench",
                       dev_seed=f"{seed}-{n}")
            processor.drain()
            repo = Repository(store)
            moves: list[int] = []
            samples: list[int] = []
            while True:
                record = repo.current(gid).record
                if record is None or record.status != "active":
                    break
                seat = rng.choice(record.to_act())
                command = rng.choice(record.game.legal_commands(record.state, seat))
                bus.submit(gid, command.model_dump(mode="json"), seat=seat, actor="bench")
                processor.drain()
                moves.append(1)
                if len(moves) % 10 == 0:  # over the game's life: the mean is what a population of games holds
                    projector.drain()
                    samples.append(game_memory(client, keys, gid))
            with jobs_run_with(settings):
                score_game(gid, connection=client)
            processor.drain()
            projector.drain()
            events.append(store.head(gid)[0])
            commands.append(len(store.command_records(gid)))
            active.append(sum(samples) / max(1, len(samples)))
            peaks.append(max(samples, default=0))
            finished.append(game_memory(client, keys, gid))
            feed.append((client.memory_usage(keys.feed(keys.shard(gid)), samples=0) or 0) - feed_before)
    finally:
        delete_prefix(client, prefix)
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    return {"events": mean(events), "commands": mean(commands), "active_bytes": mean(active),
            "peak_bytes": max(peaks),
            "finished_bytes": mean(finished), "feed_bytes": mean(feed)}


def game_memory(client: redis.Redis, keys: Any, gid: str) -> int:
    game_keys = list(client.scan_iter(match=f"{keys.prefix}g:{keys.tag(gid)}:{gid}:*", count=1000))
    return sum(client.memory_usage(k, samples=0) or 0 for k in game_keys)


def delete_prefix(client: redis.Redis, prefix: str) -> None:
    batch = list(client.scan_iter(match=f"{prefix}*", count=5000))
    for i in range(0, len(batch), 1000):
        client.delete(*batch[i:i + 1000])


def archived_figures(url: str, games: int) -> str | None:
    """The archive's own figures (active, finished and archived game memory, archive bytes and times), when
    its script is in the tree (issue 18's bounded-memory half): run against this run's Redis, printed as is."""
    script = Path(__file__).with_name("memory_figures.py")
    if not script.exists():
        return None
    out = subprocess.run([sys.executable, str(script), "--redis", url, "--games", str(games)],
                         capture_output=True, text=True, timeout=1800)
    return out.stdout.strip() or out.stderr.strip()[-2000:]


def plan(rate: dict[str, float], durable: dict[str, float], per_type: dict[str, dict[str, float]],
         raw_ops: float, args: argparse.Namespace,
         moves_per_hour: float, job_ops: float) -> list[str]:
    concurrent = args.concurrent
    commands_per_second = concurrent * moves_per_hour / 3600
    per_processor = durable["commands_per_second"] * HEADROOM
    processors = math.ceil(commands_per_second / per_processor)
    shards = 2 ** math.ceil(math.log2(max(64, processors * 4)))
    active = max(f["active_bytes"] for f in per_type.values())
    worst_finished = max(f["finished_bytes"] + f["feed_bytes"] for f in per_type.values())
    data_gib = concurrent * active / 2**30
    ops = commands_per_second * max(durable["redis_ops_per_command"], durable["redis_ops_per_api_command"])
    masters_memory = math.ceil(data_gib / NODE_MEMORY_GIB)
    masters_ops = math.ceil(ops / (raw_ops * HEADROOM))
    masters = max(3, masters_memory, masters_ops)
    lines = [
        f"load: {concurrent:,} concurrent games x {moves_per_hour:g} commands/hour = "
        f"{commands_per_second:,.0f} commands/s",
        f"processors: {processors} (at {per_processor:,.0f} commands/s each: half the measured "
        f"{durable['commands_per_second']:,.0f}/s with WAIT)",
        f"shards: {shards} (a power of two, at least 4 per processor so leases spread evenly)",
        f"Redis memory: {data_gib:,.1f} GiB of active games (largest active game {active / 1024:.1f} KiB)",
        f"Redis ops: {ops:,.0f}/s ({durable['redis_ops_per_api_command']:.1f} per move through the API, "
        f"{durable['redis_ops_per_command']:.1f} when the processor takes them in batches)",
        f"Redis masters: {masters} (memory needs {masters_memory} at {NODE_MEMORY_GIB:.0f} GiB each, ops need "
        f"{masters_ops} at half of {raw_ops:,.0f} ops/s) + {masters} replicas",
        f"finished games kept in Redis: {worst_finished / 1024:.1f} KiB each until archived",
        f"the one queue Redis (rq): {commands_per_second * args.bot_share * job_ops:,.0f} ops/s for bot moves "
        f"alone ({args.bot_share:.0%} of moves, {job_ops:.0f} ops per job): "
        f"{commands_per_second * args.bot_share * job_ops / (raw_ops * HEADROOM):.1f}x the half of one server",
    ]
    return lines


def raw_rate(client: redis.Redis, n: int = 50_000) -> float:
    """Simple pipelined commands/s of this Redis (one client): the scale of one master's ops budget."""
    key = f"raw{uuid.uuid4().hex[:6]}"
    pipe = client.pipeline(transaction=False)
    started = time.perf_counter()
    for i in range(n):
        pipe.hset(key, str(i % 100), b"x" * 100)
        if i % 1000 == 999:
            pipe.execute()
    pipe.execute()
    rate = n / (time.perf_counter() - started)
    client.delete(key)
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commands", type=int, default=10_000)
    parser.add_argument("--games-per-type", type=int, default=3)
    parser.add_argument("--concurrent", type=int, default=1_000_000)
    parser.add_argument("--moves-per-hour", default="6,60",
                        help="commands per active game per hour at the peak hour, one plan each (6: a move every "
                             "10 minutes, play-by-turn; 60: a move a minute, everyone at the table)")
    parser.add_argument("--bot-share", type=float, default=0.5,
                        help="share of moves made by bots (each is an rq job)")
    args = parser.parse_args()
    _register()
    from domain.core import all_games
    from services.infrastructure.logs import configure_logging

    configure_logging(True, "WARNING")
    pair = RedisPair().start()
    try:
        client = pair.client()
        raw = raw_rate(client)
        print(f"this Redis (one client, pipelined HSET):          {raw:10,.0f} ops/s")
        plain = processor_rate(pair, 0, args.commands)
        durable = processor_rate(pair, 1, args.commands)
        for label, fig in (("one processor, no WAIT", plain), ("one processor, WAIT 1 replica", durable)):
            print(f"{label + ':':50s}{fig['commands_per_second']:10,.0f} commands/s, "
                  f"{fig['redis_ops_per_command']:.1f} Redis ops each pipelined, "
                  f"{fig['redis_ops_per_api_command']:.1f} one at a time through the API's path")
        job_ops = rq_ops_per_job(pair)
        print(f"{'rq, one job on the queue Redis:':50s}{job_ops:10.1f} Redis ops")
        per_type = {}
        for game in sorted(g.id for g in all_games() if g.id != "counter"):
            fig = game_figures(pair, game, args.games_per_type, seed=18)
            per_type[game] = fig
            print(f"{game + ' (2 players):':50s}{fig['events']:6.0f} events, {fig['commands']:5.0f} commands; "
                  f"Redis {fig['active_bytes'] / 1024:6.1f} KiB active (mean over its life, peak "
                  f"{fig['peak_bytes'] / 1024:.1f}), {fig['finished_bytes'] / 1024:6.1f} KiB "
                  f"finished + {fig['feed_bytes'] / 1024:5.1f} KiB of shard feed")
        for rate in (float(r) for r in args.moves_per_hour.split(",")):
            print()
            for line in plan(plain, durable, per_type, raw, args, rate, job_ops):
                print(line)
        archived = archived_figures(pair.url, args.games_per_type)
        if archived:
            print("\nthe archive's figures (bench/memory_figures.py on this Redis):\n" + archived)
    finally:
        pair.stop()


if __name__ == "__main__":
    main()
