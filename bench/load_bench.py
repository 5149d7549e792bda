"""Closed-loop HTTP load benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/load_bench.py [--clients 1,4,16,64] [--seconds 10] [--api-workers 2]
                                         [--redis URL] [--api-port PORT] [--bgio DIR] [--legal-first]
                                         [--by-part] [--profile] [--reads] [--bgio-postgres PG_URL]
                                         [--save FILE] [--before FILE]

Each client plays its own Carcassonne game with two human seats over HTTP: it posts one of the legal commands
of the seat to act, and repeats (a new game when one ends). The legal commands come with the answer to the
previous move while the same seat is still to act; otherwise (the turn passed) the client reads ``/legal`` for
the seat now to act: about one GET per turn of two commands. ``--legal-first`` reads ``/legal`` before every
move instead, as the issue's first table did. Every part runs as its own
process (``taproom api --workers N``, processor, projector, reactor, worker) on a Redis with AOF fsynced on
every write, as ``deploy/redis.conf`` has it: without ``--redis`` the benchmark starts its own redis-server on
a free loopback port (``appendonly yes``, ``appendfsync always``) in a temporary directory.

Per client count it prints: accepted commands/s, POST p50/p99 (ms), ``/legal`` p50, API CPU per accepted
command (user + system time of every API process over the measured window), the CPU of all parts per command
(``--by-part``: of each part, of the Redis server and of this load driver itself, so the whole machine's
CPU per command is accounted for),
and the Redis calls per accepted command across all parts (``INFO commandstats``, reset at the start of the
window), with the commands that make them up, and the bytes the window wrote to the AOF per accepted command.

``--reads`` loads the API processes alone: each client reads, in turn, ``/legal`` and the seat view of its own
game and moves nothing, so ``--api-workers 1`` against ``--api-workers 2`` shows what a second API process
adds on this machine (the full closed loop shares the two cores with four other parts, Redis and the driver,
so there a second API process adds little).

``--profile`` (with ``--api-workers 1``) runs the API under cProfile, switched on for each measured window only,
and prints the shares of the API's own time by package and its busiest functions (cProfile's own cost slows
the API: read the shares, not the throughput). It counts CPU time (``time.process_time``), not wall time, so
the shares hold on a busy machine; ``TAPROOM_KEEP_PROFILE=1`` keeps the profile file (its path is printed). ``py-spy dump --pid`` of the API process
shows single stacks without that cost. ``bench/http_redis_calls.py`` splits the Redis calls by part and
purpose.

With ``--bgio DIR`` (a copy of ``shared/bench/boardgameio`` with its ``npm install`` done, outside this repo) the
boardgame.io peer runs in the same session, interleaved: its in-memory server, its load driver at the same
client count and length, and the ratio of the two. Node is needed for that option only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import redis

ROOT = Path(__file__).resolve().parents[1]
WARMUP_SECONDS = 2.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


# -- processes -------------------------------------------------------------------------------------------------
@contextlib.contextmanager
def own_redis(port: int = 0) -> Iterator[str]:
    """A private redis-server with AOF fsynced on every write (deploy/redis.conf), on ``port`` (0: a free
    loopback port). ``bench/kernel_bench.py --aof-always`` runs on the same server, for a same-durability
    comparison of the kernel's latency with the HTTP path's."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not on PATH: install it or pass --redis URL")
    directory = tempfile.mkdtemp(prefix="taproom-load-")
    port = port or free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", directory,
                             "--appendonly", "yes", "--appendfsync", "always", "--save", "",
                             # no automatic AOF rewrite: it would shrink the file mid-window and make the
                             # bytes-written-per-command figure negative (seen at 16 clients)
                             "--auto-aof-rewrite-percentage", "0",
                             "--logfile", os.path.join(directory, "redis.log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(directory, ignore_errors=True)


def taproom_command() -> list[str]:
    script = Path(sys.executable).with_name("taproom")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from services.adapters.cli.main import cli; cli()"]


@dataclass
class Service:
    """Every part of Taproom as its own process against one Redis."""

    redis_url: str
    api_workers: int
    port: int = field(default_factory=free_port)
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    prefix: str = field(default_factory=lambda: f"load{uuid.uuid4().hex[:6]}:")
    profile: bool = False
    profile_path: str = field(default_factory=lambda: os.path.join(tempfile.gettempdir(),
                                                                   f"taproom-api-{uuid.uuid4().hex[:6]}.prof"))

    def env(self, part: str = "") -> dict[str, str]:
        """The environment of a part: its Redis URL names its connections after it (``CLIENT LIST``)."""
        url = self.redis_url
        if part:
            url += ("&" if "?" in url else "?") + f"client_name=taproom-{part}"
        env = dict(os.environ, REDIS_URL=url, TAPROOM_KEY_PREFIX=self.prefix,
                   TAPROOM_LOG_LEVEL="WARNING", TAPROOM_RQ_QUEUE=f"q-{self.prefix.strip(':')}",
                   PYTHONPATH=str(ROOT))
        for name in ("ADDRESS", "REGISTER", "CREATE_GAME", "CREATE_GAME_PER_ADDRESS", "JOIN", "COMMAND",
                     "STREAM_OPEN"):  # one client address plays every table: the abuse limits would throttle it
            env[f"TAPROOM_RATE_LIMIT_{name}"] = "1000000/second"
        return env

    def start(self) -> Service:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
            raise SystemExit(f"something already listens on port {self.port}: it would be measured instead")
        base = taproom_command()
        api = ([sys.executable, "-c", PROFILED, self.profile_path] if self.profile else base) + ["api", "--port", str(self.port)]
        if self.api_workers > 1:
            api += ["--workers", str(self.api_workers)]
        parts = {"api": api, "processor": base + ["processor"], "projector": base + ["projector"],
                 "reactor": base + ["reactor"], "worker": base + ["worker"]}
        for name, argv in parts.items():
            self.procs[name] = subprocess.Popen(argv, env=self.env(name), cwd=ROOT, stdout=subprocess.DEVNULL,
                                                stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_port(self.port)
        except BaseException:
            self.stop()  # no part outlives a failed start
            raise
        return self

    def stop(self) -> None:
        for proc in self.procs.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)

    def cpu_seconds(self, part: str | None = None) -> float:
        """User + system CPU of a part's process tree (every part's when ``part`` is None)."""
        roots = [p.pid for name, p in self.procs.items() if part is None or name == part]
        return sum(_tree_cpu(pid) for pid in roots)


PROFILED = """
import cProfile, os, signal, sys, time
from services.adapters.cli.main import cli
out, sys.argv = sys.argv[1], ["taproom"] + sys.argv[2:]
profile, on = cProfile.Profile(time.process_time), []  # CPU time: the shares hold on a busy machine
def toggle(*_):
    if on:
        profile.disable()
        profile.dump_stats(out + ".part")
        os.replace(out + ".part", out)
        on.clear()
    else:
        profile.enable()
        on.append(1)
signal.signal(signal.SIGUSR1, toggle)
cli()
"""
"""``taproom api`` with cProfile switched on and off (and written out) by SIGUSR1: the measured window only."""

IDLE = ("run_forever", "run_until_complete", "select", "poll", "Runner.run")
"""The event loop waiting (in C, for uvloop): not the API's work, left out of the shares."""


GROUPS = (("services/adapters/api/", "taproom API"), ("services/", "taproom services"), ("domain/", "game engines"),
          ("projections/", "projections"), ("redis/", "redis-py"), ("uvicorn/", "uvicorn"), ("uvloop", "uvloop"),
          ("httptools", "httptools"), ("fastapi/", "fastapi"), ("starlette/", "starlette"), ("pydantic", "pydantic"),
          ("anyio/", "anyio"), ("asyncio/", "asyncio"), ("structlog/", "structlog"), ("prometheus_client/", "prometheus"))


def print_profile(path: str, lines: int = 25) -> None:
    """The API's functions by their own time (cProfile, over the measured window, the loop's idle waits left
    out), and that time by package."""
    import pstats

    for _ in range(100):
        if os.path.exists(path):
            break
        time.sleep(0.1)
    else:
        print(f"# no profile at {path}", flush=True)
        return
    stats = pstats.Stats(path).stats  # type: ignore[attr-defined]
    own: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    ours: Counter[str] = Counter()
    for (filename, line, name), (_cc, _nc, tottime, cumulative, _callers) in stats.items():
        if any(idle in name for idle in IDLE):
            continue
        short = filename.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
        own[f"{name} ({short}:{line})"] += tottime
        if filename.startswith(str(ROOT)) and "site-packages" not in filename:
            ours[f"{name} ({short}:{line})"] += cumulative
        groups[next((label for mark, label in GROUPS if mark in filename), "other")] += tottime
    if os.environ.get("TAPROOM_KEEP_PROFILE"):
        print(f"# profile kept at {path}", flush=True)
    else:
        os.remove(path)
    total = sum(own.values()) or 1.0
    print("# API profile (cProfile over the last measured window; shares of the API's own time):", flush=True)
    for label, t in groups.most_common():
        print(f"    {100 * t / total:5.1f}%  {label}", flush=True)
    print(f"# the {lines} functions with the most time of their own", flush=True)
    for name, t in own.most_common(lines):
        print(f"    {100 * t / total:5.1f}%  {name[:150]}", flush=True)
    print("# Taproom's functions by their time with what they call (a coroutine's: while it runs, not its waits)",
          flush=True)
    for name, t in ours.most_common(lines):
        print(f"    {100 * t / total:5.1f}%  {name[:150]}", flush=True)


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            tree.setdefault(ppid, []).append(int(entry))
    return tree


def _tree_cpu(root: int) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    tree, total, todo = _children(), 0.0, [root]
    while todo:
        pid = todo.pop()
        todo += tree.get(pid, [])
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


# -- a lean HTTP/1.1 client (keep-alive; the load generator must not eat the cores it measures) --------------------
class Http:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        payload = orjson.dumps(body) if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(payload)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        assert self.reader is not None
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length, close = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
        data = await self.reader.readexactly(length) if length else b""
        if close:
            await self.close()
        return status, orjson.loads(data) if data else None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None


@dataclass
class Figures:
    measuring: bool = False
    accepted: int = 0
    queued: int = 0
    refused: int = 0
    games: int = 0
    post_ms: list[float] = field(default_factory=list)
    legal_ms: list[float] = field(default_factory=list)
    gets: int = 0


class Table:
    """One client's Carcassonne game with two human seats."""

    def __init__(self, http: Http, figures: Figures, lean: bool) -> None:
        self.http, self.figures, self.lean = http, figures, lean
        self.game_id = ""
        self.tokens: list[str] = []
        self.seat = 0
        self.offered: list[dict[str, Any]] | None = None  # legal commands carried by the last POST answer

    async def new_game(self) -> None:
        status, body = await self.http.request("POST", "/games", {
            "game": "carcassonne", "seats": [{"name": "ann"}, {"name": "bob"}]})
        if status not in (201, 202):
            raise RuntimeError(f"could not create a game: {status} {body}")
        self.game_id, self.tokens, self.seat, self.offered = body["game_id"], [s["token"] for s in body["seats"]], 0, None
        if status == 202:
            while (await self.http.request("GET", f"/games/{self.game_id}"))[0] != 200:
                await asyncio.sleep(0.01)
        self.figures.games += 1

    async def legal(self, seat: int) -> list[dict[str, Any]]:
        started = time.perf_counter()
        status, body = await self.http.request("GET", f"/games/{self.game_id}/legal", token=self.tokens[seat])
        if self.figures.measuring:
            self.figures.legal_ms.append((time.perf_counter() - started) * 1000)
            self.figures.gets += 1
        if status != 200:
            return []
        return [c for c in body["commands"] if not c["type"].startswith("taproom.")]

    async def choose(self) -> dict[str, Any] | None:
        """A legal command of the seat to act (asks the other seat when this one has none); None: game over."""
        if self.offered:
            commands, self.offered = self.offered, None
            return random.choice(commands)
        for attempt in range(200):
            commands = await self.legal(self.seat)
            if commands:
                return random.choice(commands)
            other = await self.legal(1 - self.seat)
            if other:
                self.seat = 1 - self.seat
                return random.choice(other)
            status, view = await self.http.request("GET", f"/games/{self.game_id}")
            if status == 200 and view["status"] != "active":
                return None
            await asyncio.sleep(0.005 * (attempt + 1))
        return None

    async def move(self) -> None:
        command = await self.choose()
        if command is None:
            await self.new_game()
            return
        command["command_id"] = uuid.uuid4().hex[:16]
        started = time.perf_counter()
        status, body = await self.http.request("POST", f"/games/{self.game_id}/commands", command,
                                               token=self.tokens[self.seat])
        elapsed = (time.perf_counter() - started) * 1000
        if status == 200:
            acts = body.get("to_act")
            if acts is not None and self.seat not in acts and acts:
                self.seat = acts[0]
            if self.lean and body.get("legal") is not None:
                self.offered = [c for c in body["legal"]["commands"] if not c["type"].startswith("taproom.")] or None
        if not self.figures.measuring:
            return
        if status == 200:
            self.figures.accepted += 1
            self.figures.post_ms.append(elapsed)
        elif status == 202:
            self.figures.queued += 1
        else:
            self.figures.refused += 1


async def measured_window(seconds: float, switch: Callable[[bool], None]) -> float:
    """After the warm-up, ``switch(True)``; ``seconds`` later ``switch(False)``; returns the window's length."""
    await asyncio.sleep(WARMUP_SECONDS)
    switch(True)
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    switch(False)
    return time.perf_counter() - started


async def closed_loop(port: int, clients: int, seconds: float, lean: bool) -> Figures:
    figures = Figures()
    stop_at = time.monotonic() + WARMUP_SECONDS + seconds

    async def client() -> None:
        http = Http(port)
        table = Table(http, figures, lean)
        await table.new_game()
        while time.monotonic() < stop_at:
            await table.move()
        await http.close()

    timer = asyncio.ensure_future(measured_window(seconds, lambda on: setattr(figures, "measuring", on)))
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = await timer
    figures.post_ms.sort()
    figures.legal_ms.sort()
    figures.__dict__["seconds"] = elapsed
    return figures


def pct(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


def measure_taproom(service: Service, client: redis.Redis, clients: int, seconds: float, lean: bool) -> dict[str, Any]:
    state: dict[str, Any] = {}

    async def run() -> Figures:
        task = asyncio.ensure_future(closed_loop(service.port, clients, seconds, lean))
        await asyncio.sleep(WARMUP_SECONDS)
        client.config_resetstat()
        state["aof"] = _aof_bytes(client)
        state["parts_cpu"] = {part: service.cpu_seconds(part) for part in service.procs}
        state["redis_cpu"], state["driver_cpu"] = _redis_cpu(client), time.process_time()
        if service.profile:
            os.kill(service.procs["api"].pid, signal.SIGUSR1)  # profile on
        await asyncio.sleep(seconds)
        state["parts_cpu"] = {part: service.cpu_seconds(part) - before for part, before in state["parts_cpu"].items()}
        state["api_cpu"], state["all_cpu"] = state["parts_cpu"]["api"], sum(state["parts_cpu"].values())
        state["stats"] = client.info("commandstats")
        state["aof"] = _aof_bytes(client) - state["aof"]
        state["redis_cpu"], state["driver_cpu"] = (_redis_cpu(client) - state["redis_cpu"],
                                                   time.process_time() - state["driver_cpu"])
        if service.profile:
            os.kill(service.procs["api"].pid, signal.SIGUSR1)  # off, and written
        return await task

    figures = _event_loop_run(run())
    accepted = max(figures.accepted, 1)
    calls = Counter({name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in state["stats"].items()})
    calls.pop("config|resetstat", None)
    calls.pop("config", None)
    calls.pop("info", None)
    return {"side": "taproom", "clients": clients, "seconds": round(figures.__dict__["seconds"], 1),
            "commands_per_s": round(figures.accepted / figures.__dict__["seconds"], 1),
            "post_p50_ms": round(pct(figures.post_ms, 0.5), 2), "post_p99_ms": round(pct(figures.post_ms, 0.99), 2),
            "legal_p50_ms": round(pct(figures.legal_ms, 0.5), 2), "gets_per_command": round(figures.gets / accepted, 2),
            "api_cpu_ms_per_command": round(state["api_cpu"] * 1000 / accepted, 2),
            "all_cpu_ms_per_command": round(state["all_cpu"] * 1000 / accepted, 2),
            "cpu_ms_per_command_by_part": {part: round(cpu * 1000 / accepted, 2) for part, cpu in state["parts_cpu"].items()},
            "redis_cpu_ms_per_command": round(state["redis_cpu"] * 1000 / accepted, 2),
            "driver_cpu_ms_per_command": round(state["driver_cpu"] * 1000 / accepted, 2),
            "redis_calls_per_command": round(sum(calls.values()) / accepted, 1),
            "aof_bytes_per_command": round(state["aof"] / accepted),
            "redis_calls": {k: round(v / accepted, 2) for k, v in calls.most_common() if v / accepted >= 0.05},
            "accepted": figures.accepted, "queued": figures.queued, "refused": figures.refused, "games": figures.games}


async def read_loop(port: int, clients: int, seconds: float) -> dict[str, Any]:
    """``--reads``: each client opens a game and reads, in turn, the first seat's ``/legal`` and seat view,
    moving nothing: the API processes alone are loaded (no command for the processor, projector or reactor),
    so the figure shows what more API processes add on this machine."""
    latencies: list[float] = []
    state = {"measuring": False, "reads": 0}
    stop_at = time.monotonic() + WARMUP_SECONDS + seconds

    async def client() -> None:
        http = Http(port)
        table = Table(http, Figures(), lean=True)
        await table.new_game()
        paths, n = (f"/games/{table.game_id}/legal", f"/games/{table.game_id}/view"), 0
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            status, _ = await http.request("GET", paths[n % 2], token=table.tokens[0])
            n += 1
            if state["measuring"] and status == 200:
                latencies.append((time.perf_counter() - started) * 1000)
                state["reads"] += 1
        await http.close()

    timer = asyncio.ensure_future(measured_window(seconds, lambda on: state.update(measuring=on)))
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = await timer
    latencies.sort()
    return {"reads_per_s": round(state["reads"] / elapsed, 1), "reads": state["reads"],
            "get_p50_ms": round(pct(latencies, 0.5), 2), "get_p99_ms": round(pct(latencies, 0.99), 2)}


def measure_reads(service: Service, clients: int, seconds: float) -> dict[str, Any]:
    """:func:`read_loop` with the API processes' CPU per read over the measured window."""
    state: dict[str, float] = {}

    async def run() -> dict[str, Any]:
        task = asyncio.ensure_future(read_loop(service.port, clients, seconds))
        await asyncio.sleep(WARMUP_SECONDS)
        state["api"] = service.cpu_seconds("api")
        await asyncio.sleep(seconds)
        state["api"] = service.cpu_seconds("api") - state["api"]
        return await task

    figures = _event_loop_run(run())
    figures.update(clients=clients, api_cpu_ms_per_read=round(state["api"] * 1000 / max(figures["reads"], 1), 3))
    return figures


def _redis_cpu(client: redis.Redis) -> float:
    """The Redis server's own CPU seconds so far (user + system, every thread of it)."""
    cpu = client.info("cpu")
    return float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


def _aof_bytes(client: redis.Redis) -> int:
    """The AOF's size (0 without AOF): what the window wrote to it, every write of which waits on an fsync."""
    return int(client.info("persistence").get("aof_current_size", 0))


def _event_loop_run(coro: Any) -> Any:
    try:
        import uvloop

        return uvloop.run(coro)
    except ImportError:
        return asyncio.run(coro)


def start_bgio(directory: Path, storage: str = "memory", pg_url: str = "", tries: int = 3) -> tuple[subprocess.Popen[bytes], int]:
    """The boardgame.io peer's server (``memory`` or ``postgres``, bgio-postgres committing every move on
    ``pg_url``) on a free port; returns the process and its port (its lobby API listens on port + 1). A server
    that does not come up (its second port taken meanwhile, a slow start on a loaded machine) is started again."""
    for attempt in range(tries):
        port = free_port()
        while port + 1 > 65535:
            port = free_port()
        argv = ["node", "server.cjs", str(port)] + (["postgres"] if storage == "postgres" else [])
        env = dict(os.environ, **({"PG_URL": pg_url} if pg_url else {}))
        proc = subprocess.Popen(argv, cwd=directory, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            wait_port(port + 1)
            wait_port(port)
            return proc, port
        except RuntimeError:
            stop_process_group(proc)
            if attempt == tries - 1:
                raise
    raise AssertionError("unreachable")


def stop_process_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def measure_bgio(directory: Path, port: int, clients: int, seconds: float) -> dict[str, Any]:
    out = subprocess.run(["node", "load.cjs", f"http://127.0.0.1:{port}", str(clients), str(int(seconds))],
                         cwd=directory, capture_output=True, text=True, timeout=seconds + 120)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"the boardgame.io driver printed no figures: {out.stderr[-500:]}")
    return json.loads(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", default="1,4,16,64", help="client counts, comma separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run (after 2 s warm-up)")
    parser.add_argument("--api-workers", type=int, default=2, help="API processes (taproom api --workers N)")
    parser.add_argument("--api-port", type=int, default=0, help="the API's port (default: a free one)")
    parser.add_argument("--redis", default=None, help="an existing Redis (default: start one with AOF always)")
    parser.add_argument("--redis-port", type=int, default=0, help="port of the Redis it starts (default: a free one)")
    parser.add_argument("--bgio", default=None, help="folder of the boardgame.io peer, npm-installed (optional)")
    parser.add_argument("--bgio-postgres", default=None, metavar="PG_URL",
                        help="with --bgio: also run the durable peer, boardgame.io on PostgreSQL (bgio-postgres, a "
                             "commit per move) on this database, interleaved with the other two")
    parser.add_argument("--save", default=None, metavar="FILE",
                        help="write every run's figures to FILE as JSON lines (to compare a later run against)")
    parser.add_argument("--before", default=None, metavar="FILE",
                        help="a file --save wrote earlier: print its figures beside this run's, per client count")
    parser.add_argument("--legal-first", dest="lean", action="store_false",
                        help="read /legal before every move (the issue's first closed loop); by default a client "
                             "moves on the legal commands a POST answer carries and reads /legal only when it "
                             "carries none (the turn passed to the other seat, whose token the client also holds)")
    parser.add_argument("--lean", dest="lean", action="store_true", help=argparse.SUPPRESS)  # the default now
    parser.add_argument("--json", action="store_true", help="one JSON line per run instead of the table")
    parser.add_argument("--reads", action="store_true",
                        help="reads only (/legal and the seat view in turn, no moves): the API processes alone "
                             "are loaded, to compare --api-workers counts")
    parser.add_argument("--by-part", action="store_true", help="print the CPU per command of each part")
    parser.add_argument("--profile", action="store_true",
                        help="run the API (one process) under cProfile, timed by its CPU, and print where it goes")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]

    with contextlib.ExitStack() as stack:
        url = args.redis or stack.enter_context(own_redis(args.redis_port))
        client = redis.Redis.from_url(url)
        aof = client.config_get("appendonly").get("appendonly"), client.config_get("appendfsync").get("appendfsync")
        if args.profile and args.api_workers != 1:
            raise SystemExit("--profile profiles one API process: add --api-workers 1")
        service = Service(url, args.api_workers, profile=args.profile,
                          **({"port": args.api_port} if args.api_port else {})).start()
        stack.callback(service.stop)
        stack.callback(_cleanup, client, service.prefix)
        peers: dict[str, int] = {}
        if args.bgio:
            for storage in ("memory", "postgres") if args.bgio_postgres else ("memory",):
                proc, peers[storage] = start_bgio(Path(args.bgio), storage, args.bgio_postgres or "")
                stack.callback(stop_process_group, proc)
        time.sleep(1.0)
        print(f"# Taproom: {args.api_workers} API process(es), Redis appendonly={aof[0]} appendfsync={aof[1]}; "
              f"{args.seconds:.0f} s per run after {WARMUP_SECONDS:.0f} s warm-up; {os.cpu_count()} cores; "
              f"{'lean loop (legal from the answers)' if args.lean else '/legal before every move'}", flush=True)
        rows = []
        if args.reads:
            for count in counts:
                reads = measure_reads(service, count, args.seconds)
                print(json.dumps(reads) if args.json else
                      f"{count:3d} clients, reads only: {reads['reads_per_s']:8.1f} reads/s, GET p50 "
                      f"{reads['get_p50_ms']:6.2f} p99 {reads['get_p99_ms']:6.2f} ms, API CPU "
                      f"{reads['api_cpu_ms_per_read']:.3f} ms/read", flush=True)
            return
        before = _load_before(args.before)
        for count in counts:
            mine = measure_taproom(service, client, count, args.seconds, args.lean)
            theirs = {storage: dict(measure_bgio(Path(args.bgio), port, count, args.seconds), side=f"bgio-{storage}",
                                    clients=count)
                      for storage, port in peers.items()}
            rows.append((mine, theirs))
            if args.save:
                with open(args.save, "a") as out:
                    for line in (mine, *theirs.values()):
                        out.write(json.dumps(line) + "\n")
            if args.json:
                print(json.dumps(mine), flush=True)
                for line in theirs.values():
                    print(json.dumps(line), flush=True)
            else:
                print(_row(mine, theirs), flush=True)
                print("    redis calls per command: " + ", ".join(f"{k} {v}" for k, v in mine["redis_calls"].items()),
                      flush=True)
                if args.by_part:
                    print("    CPU ms per command by part: " + ", ".join(
                        f"{k} {v}" for k, v in mine["cpu_ms_per_command_by_part"].items())
                        + f"; redis-server {mine['redis_cpu_ms_per_command']}, load driver "
                          f"{mine['driver_cpu_ms_per_command']}", flush=True)
            if args.profile:
                print_profile(service.profile_path)
            if before.get(count) and not args.json:
                print(_side_by_side(before[count], mine), flush=True)


def _load_before(path: str | None) -> dict[int, dict[str, Any]]:
    """The Taproom rows of an earlier ``--save`` file, by client count (the last one of each count)."""
    rows: dict[int, dict[str, Any]] = {}
    if path:
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            if row.get("side") == "taproom":
                rows[row["clients"]] = row
    return rows


def _side_by_side(before: dict[str, Any], after: dict[str, Any]) -> str:
    """Before and after, per figure and per part's CPU: the two runs' Taproom rows at one client count."""
    figures = [("commands/s", "commands_per_s"), ("POST p50 ms", "post_p50_ms"), ("POST p99 ms", "post_p99_ms"),
               ("Redis calls/command", "redis_calls_per_command"), ("AOF bytes/command", "aof_bytes_per_command"),
               ("CPU ms/command, every part", "machine_cpu_ms_per_command")]
    lines = [f"    before / after at {after['clients']} clients:"]
    for label, key in figures:
        b, a = _machine(before) if key == "machine_cpu_ms_per_command" else before.get(key), \
            _machine(after) if key == "machine_cpu_ms_per_command" else after.get(key)
        lines.append(f"      {label:32s} {b!s:>9} / {a!s:<9}")
    parts = sorted(set(before["cpu_ms_per_command_by_part"]) | set(after["cpu_ms_per_command_by_part"]))
    for part in parts:
        lines.append(f"      CPU ms/command, {part:16s} {before['cpu_ms_per_command_by_part'].get(part, 0)!s:>9} / "
                     f"{after['cpu_ms_per_command_by_part'].get(part, 0)!s:<9}")
    for label, key in (("redis-server", "redis_cpu_ms_per_command"), ("load driver", "driver_cpu_ms_per_command")):
        lines.append(f"      CPU ms/command, {label:16s} {before.get(key)!s:>9} / {after.get(key)!s:<9}")
    return "\n".join(lines)


def _machine(row: dict[str, Any]) -> float:
    """The CPU per command of every process the command runs through: the parts, Redis and the load driver."""
    return round(row["all_cpu_ms_per_command"] + row["redis_cpu_ms_per_command"] + row["driver_cpu_ms_per_command"], 2)


def _row(mine: dict[str, Any], theirs: dict[str, dict[str, Any]]) -> str:
    text = (f"{mine['clients']:3d} clients: {mine['commands_per_s']:8.1f} commands/s, POST p50 {mine['post_p50_ms']:7.2f} "
            f"p99 {mine['post_p99_ms']:7.2f} ms, /legal p50 {mine['legal_p50_ms']:6.2f} ms "
            f"({mine['gets_per_command']:.2f} per command), API CPU "
            f"{mine['api_cpu_ms_per_command']:5.2f} ms/command (all parts {mine['all_cpu_ms_per_command']:5.2f}), "
            f"{mine['redis_calls_per_command']:5.1f} Redis calls/command, {mine['aof_bytes_per_command']} AOF bytes/command; "
            f"{mine['queued']} queued, "
            f"{mine['refused']} refused")
    text += f"\n    CPU ms per command, whole machine (every part, redis-server, load driver): {_machine(mine)}"
    for storage, peer in theirs.items():
        ratio = mine["commands_per_s"] / peer["moves_per_s"] if peer.get("moves_per_s") else float("nan")
        label = "boardgame.io in memory" if storage == "memory" else "boardgame.io on PostgreSQL"
        text += (f"\n    {label}: {peer.get('moves_per_s') or 0:8.1f} moves/s, p50 {peer.get('p50_ms') or float('nan'):6.2f} "
                 f"p99 {peer.get('p99_ms') or float('nan'):6.2f} ms; ratio Taproom/it {ratio:.2f}")
    return text


def _cleanup(client: redis.Redis, prefix: str) -> None:
    batch = list(client.scan_iter(match=f"{prefix}*", count=5000))
    for i in range(0, len(batch), 1000):
        client.delete(*batch[i:i + 1000])
    with contextlib.suppress(redis.RedisError):
        for key in client.scan_iter(match=f"rq:*q-{prefix.strip(':')}*", count=1000):
            client.delete(key)


if __name__ == "__main__":
    main()
