"""The floor of a durable Python HTTP service on this machine: prints figures, asserts nothing.

    .venv/bin/python bench/http_floor.py [--clients 1,16] [--seconds 10] [--api-workers 2] [--bgio DIR]
                                         [--bgio-postgres PG_URL] [--redis-port PORT]

What is the most a service written in Python, on this stack, can accept when every accepted command is made
durable before it is answered? This runs the emptiest such service there is, with the same closed loop as
``bench/load_bench.py`` drives Taproom with (a POST per command and, as the lean loop does, a GET for every
other command), so the two figures can be set side by side:

- the server is uvicorn with uvloop and httptools (what ``taproom api`` runs on), ``--api-workers``
  processes, serving a bare ASGI function: no framework, no routing, no validation, no game;
- a POST does one ``XADD`` to a Redis stream (capped, so memory stays flat) on ``redis.asyncio`` with
  hiredis, on a redis-server with ``appendfsync always`` (as the load benchmark's), and answers when Redis
  has answered, so the write is on disk; a GET does one ``GET`` of a small key and answers it.

Nothing decides, folds, projects or schedules anything. Taproom's own path does all of that in four more
processes on the same two cores, so this figure is an upper bound on what its HTTP path can reach here,
not a target. With ``--bgio DIR`` (see ``bench/load_bench.py``) the in-memory boardgame.io peer runs in the
same session, interleaved, and the ratio floor/boardgame.io is printed: a ratio below what an issue asks of
Taproom means no durable Python service on this machine can meet it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_bench import (
    WARMUP_SECONDS,
    Http,
    free_port,
    measure_bgio,
    measured_window,
    own_redis,
    pct,
    start_bgio,
    stop_process_group,
    wait_port,
)

STREAM = b"floor:cmds"

# -- the server: a bare ASGI function --------------------------------------------------------------------------
_client: Any = None


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """One durable XADD per POST, one GET per GET; a small JSON answer either way."""
    global _client
    if scope["type"] != "http":
        return
    if _client is None:
        import redis.asyncio

        _client = redis.asyncio.Redis.from_url(os.environ["FLOOR_REDIS_URL"])
    if scope["method"] == "POST":
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        entry = await _client.xadd(STREAM, {b"c": body}, maxlen=10_000, approximate=True)
        answer = orjson.dumps({"status": "accepted", "entry": entry.decode()})
    else:
        answer = orjson.dumps({"version": int(await _client.get(b"floor:version") or 0)})
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(answer)).encode())]})
    await send({"type": "http.response.body", "body": answer})


# -- the closed loop -------------------------------------------------------------------------------------------
async def closed_loop(port: int, clients: int, seconds: float) -> dict[str, Any]:
    posts: list[float] = []
    state = {"measuring": False, "accepted": 0}
    stop_at = time.monotonic() + WARMUP_SECONDS + seconds

    async def client() -> None:
        http, n = Http(port), 0
        while time.monotonic() < stop_at:
            if n % 2:  # the lean loop reads /legal about every other command
                await http.request("GET", "/games/g/legal", token="t")
            started = time.perf_counter()
            status, _ = await http.request("POST", "/games/g/commands", {"command_id": str(n), "type": "Move"},
                                           token="t")
            if state["measuring"] and status == 200:
                posts.append((time.perf_counter() - started) * 1000)
                state["accepted"] += 1
            n += 1
        await http.close()

    timer = asyncio.ensure_future(measured_window(seconds, lambda on: state.update(measuring=on)))
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = await timer
    posts.sort()
    return {"commands_per_s": round(state["accepted"] / elapsed, 1), "post_p50_ms": round(pct(posts, 0.5), 2),
            "post_p99_ms": round(pct(posts, 0.99), 2)}


def serve(redis_url: str, workers: int, port: int) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "uvicorn", "http_floor:app", "--app-dir", str(Path(__file__).parent),
            "--host", "127.0.0.1", "--port", str(port), "--loop", "uvloop", "--http", "httptools",
            "--no-access-log", "--log-level", "warning", "--workers", str(workers)]
    proc = subprocess.Popen(argv, env=dict(os.environ, FLOOR_REDIS_URL=redis_url), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wait_port(port)
    return proc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", default="1,16", help="client counts, comma separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run (after 2 s warm-up)")
    parser.add_argument("--api-workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument("--bgio", type=Path, default=None, help="a copy of shared/bench/boardgameio, npm-installed")
    parser.add_argument("--bgio-postgres", default=None, metavar="PG_URL",
                        help="with --bgio: also the durable peer, boardgame.io on PostgreSQL (a commit per move)")
    parser.add_argument("--redis-port", type=int, default=0, help="port of the Redis it starts (default: a free one)")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    print(f"# floor: bare ASGI on uvicorn (uvloop, httptools), {args.api_workers} process(es), one XADD per POST "
          f"on Redis appendfsync=always, 0.5 GET per command; {args.seconds:g} s per run; {os.cpu_count()} cores")
    peers: dict[str, tuple[subprocess.Popen[bytes], int]] = {}
    if args.bgio is not None:
        for storage in ("memory", "postgres") if args.bgio_postgres else ("memory",):
            peers[storage] = start_bgio(args.bgio, storage, args.bgio_postgres or "")
    try:
        with own_redis(args.redis_port) as redis_url:
            port = free_port()
            server = serve(redis_url, args.api_workers, port)
            try:
                for clients in counts:
                    mine = asyncio.run(closed_loop(port, clients, args.seconds))
                    line = (f"{clients:3d} clients: {mine['commands_per_s']:8.1f} commands/s, POST p50 "
                            f"{mine['post_p50_ms']:6.2f} p99 {mine['post_p99_ms']:6.2f} ms")
                    for storage, (_, peer_port) in peers.items():
                        theirs = measure_bgio(args.bgio, peer_port, clients, args.seconds)
                        ratio = mine["commands_per_s"] / max(theirs["moves_per_s"], 1e-9)
                        label = "in memory" if storage == "memory" else "on PostgreSQL"
                        line += (f"; boardgame.io {label} {theirs['moves_per_s']:8.1f} moves/s (p99 "
                                 f"{theirs['p99_ms']:.1f} ms), ratio floor/it {ratio:.2f}")
                    print(line, flush=True)
            finally:
                server.terminate()
                server.wait(10)
    finally:
        for proc, _ in peers.values():
            stop_process_group(proc)


if __name__ == "__main__":
    main()
