"""Redis calls per accepted command over HTTP, by part and, for the API, by purpose: prints figures.

    .venv/bin/python bench/http_redis_calls.py [--clients 4] [--seconds 8] [--redis URL] [--api-port PORT] [--lean]

Runs the load benchmark's service (every part its own process, see ``bench/load_bench.py``) and closed loop,
and watches Redis with MONITOR over the measured window. Each part connects under its own client name
(``?client_name=`` on its Redis URL, as the load benchmark starts them), so every call is put down to the part that made it; calls a Lua script
makes are put down to the script's caller (MONITOR shows them right after it, marked ``lua``). The API's
calls are split further by what they are for: the rate limits, the token, the game's record, the command's
submission and wait, the views. ``INFO commandstats`` over the same window gives the total, as a check.

``bench/redis_calls.py`` counts the processor's, projector's and reactor's calls and round trips in one
process without HTTP; this one runs the whole service as the load benchmark does, API included.

Load-independent: the count per accepted command does not depend on how busy the machine is (MONITOR slows
Redis down, which changes no count).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_bench import WARMUP_SECONDS, Service, closed_loop, own_redis

PARTS = ("api", "processor", "projector", "reactor", "worker")
_ARG = re.compile(rb'"((?:[^"\\]|\\.)*)"')
_LINE = re.compile(rb"^[0-9.]+ \[\d+ ([^\]]*)\] (.*)$")


def piece(command: bytes, args: list[bytes], prefix: bytes) -> str:
    """What an API call is for."""
    key = args[0] if args else b""
    name = command.lower()
    if name in (b"evalsha", b"eval"):
        key = args[2] if len(args) > 2 else b""
        return "rate limits" if b":rl:" in key else "submit + wait"
    if name == b"blpop":
        return "submit + wait"
    if key.startswith(prefix + b"token:"):
        return "token"
    if name in (b"xrange", b"hgetall", b"exists") and b"view" not in key and b"clock" not in key:
        return "record"
    return f"other ({name.decode()})"


def watch(url: str, prefix: bytes, stop: threading.Event, calls: dict[str, Counter[str]]) -> None:
    """MONITOR until ``stop``: each call counted for its part (by client name) and, for the API, by piece."""
    client = redis.Redis.from_url(url)
    names: dict[bytes, str] = {}

    def refresh() -> None:
        for info in client.client_list():
            names[info["addr"].encode()] = info.get("name", "") or "other"

    refresh()
    caller: tuple[str, str] = ("other", "")
    with client.monitor() as monitor:
        conn = monitor.connection  # type: ignore[attr-defined]  # redis-py sets it; the stubs lag
        last_refresh = time.monotonic()
        while not stop.is_set():
            line = conn.read_response()
            if not isinstance(line, bytes):
                continue
            m = _LINE.match(line)
            if m is None:
                continue
            who, rest = m.groups()
            args = _ARG.findall(rest)
            if not args:
                continue
            command = args[0].lower()
            if who == b"lua":  # a script's own calls: its caller's
                part, what = caller
                calls[part][f"{what} (in the script: {command.decode()})" if part == "taproom-api" else command.decode()] += 1
                continue
            if who not in names and time.monotonic() - last_refresh > 0.2:
                refresh()
                last_refresh = time.monotonic()
            part = names.get(who, "other")
            what = piece(command, args[1:], prefix) if part == "taproom-api" else command.decode()
            caller = (part, what)
            calls[part][what if part == "taproom-api" else command.decode()] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--api-workers", type=int, default=1)
    parser.add_argument("--redis", default=None, help="an existing Redis (default: start one with AOF always)")
    parser.add_argument("--api-port", type=int, default=0)
    parser.add_argument("--redis-port", type=int, default=0, help="port of the Redis it starts (default: a free one)")
    parser.add_argument("--lean", action="store_true", help="skip /legal when the POST answer carries it")
    args = parser.parse_args()

    with contextlib.ExitStack() as stack:
        url = args.redis or stack.enter_context(own_redis(args.redis_port))
        client = redis.Redis.from_url(url)
        kwargs = {"port": args.api_port} if args.api_port else {}
        service = Service(url, args.api_workers, **kwargs).start()
        stack.callback(service.stop)
        from load_bench import _cleanup

        stack.callback(_cleanup, client, service.prefix)
        time.sleep(1.0)
        calls: dict[str, Counter[str]] = defaultdict(Counter)
        stop = threading.Event()
        state: dict[str, Any] = {}

        async def run() -> Any:
            task = asyncio.ensure_future(closed_loop(service.port, args.clients, args.seconds, args.lean))
            await asyncio.sleep(WARMUP_SECONDS)
            client.config_resetstat()
            watcher = threading.Thread(target=watch, args=(url, service.prefix.encode(), stop, calls), daemon=True)
            watcher.start()
            await asyncio.sleep(args.seconds)
            stop.set()
            state["stats"] = client.info("commandstats")
            client.ping()  # wakes the monitor so it sees the stop
            watcher.join(5)
            return await task

        figures = asyncio.run(run())
    accepted = max(figures.accepted, 1)
    total = sum(int(v["calls"]) for k, v in state["stats"].items()
                if k not in ("cmdstat_config|resetstat", "cmdstat_info", "cmdstat_monitor", "cmdstat_client|list",
                             "cmdstat_ping"))
    print(f"# {args.clients} clients, {figures.accepted} accepted commands in {args.seconds:.0f} s "
          f"({figures.gets / accepted:.2f} GET /legal per command{', lean' if args.lean else ''})")
    print(f"Redis calls per accepted command: {total / accepted:.1f} (INFO commandstats, every part)")
    for part in sorted(calls, key=lambda p: -sum(calls[p].values())):
        counted = calls[part]
        print(f"  {part.removeprefix('taproom-'):10s} {sum(counted.values()) / accepted:6.2f}")
        groups: Counter[str] = Counter()
        for what, n in counted.items():
            groups[what.split(" (in the script")[0]] += n
        for what, n in groups.most_common():
            if n / accepted >= 0.05:
                inner = {k.split(": ")[1].rstrip(")"): v for k, v in counted.items()
                         if k.startswith(what + " (in the script")}
                detail = (" (script: " + ", ".join(f"{k} {v / accepted:.2f}" for k, v in
                                                   sorted(inner.items(), key=lambda kv: -kv[1])) + ")") if inner else ""
                print(f"      {what:28s} {n / accepted:6.2f}{detail}")


if __name__ == "__main__":
    main()
