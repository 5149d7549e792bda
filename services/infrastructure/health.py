"""Health of a part that has no HTTP API of its own (processor, projector, reactor, worker).

Every part's loop goes through :func:`services.infrastructure.resilience.ride_out`, which notes each turn here
(:func:`beat`): when it last ran, and whether Redis answered. ``TAPROOM_HEALTH_PORT`` makes the process
serve two checks on it (stdlib ``http.server`` in a daemon thread, so nothing to install):

* ``GET /livez``: 200 while every loop of the process turned within ``health_stale_seconds`` (a loop stuck
  on a lock or a dead thread fails it: the orchestrator restarts the process). A loop waiting out a Redis
  outage still turns, so an outage does not restart every part.
* ``GET /readyz``: 200 when alive, the last turn of every loop reached Redis, and the event store and the
  queue Redis answer ``PING`` now; 503 otherwise, with the reasons as JSON.
* ``GET /metrics``: the process's Prometheus metrics (the reactor's ``taproom_archive_overdue_games``, outages;
  ``deploy/alerts.yml``).

``taproom health`` asks the same questions of a running part (an exec probe, or compose's healthcheck).
"""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson


@dataclass
class Beat:
    last_turn: float
    ok: bool


_BEATS: dict[str, Beat] = {}
_LOCK = threading.Lock()


def beat(part: str, ok: bool) -> None:
    """Note one turn of ``part``'s loop (``ok``: Redis answered)."""
    with _LOCK:
        _BEATS[part] = Beat(time.monotonic(), ok)


def forget(part: str) -> None:
    with _LOCK:
        _BEATS.pop(part, None)


def report(stale_seconds: float, pings: dict[str, Callable[[], object]],
           only: str = "") -> tuple[bool, bool, dict[str, Any]]:
    """(alive, ready, details) of this process now (``only``: just the loops whose name starts with it)."""
    now = time.monotonic()
    with _LOCK:
        beats = {part: b for part, b in _BEATS.items() if part.startswith(only)}
    loops = {part: {"seconds_since_turn": round(now - b.last_turn, 3), "redis": "ok" if b.ok else "down"}
             for part, b in beats.items()}
    alive = bool(beats) and all(now - b.last_turn <= stale_seconds for b in beats.values())
    reached = {}
    for name, ping in pings.items():
        try:
            ping()
            reached[name] = "ok"
        except Exception as exc:  # any failure to answer means not ready
            reached[name] = f"down: {type(exc).__name__}"
    ready = alive and all(b.ok for b in beats.values()) and all(v == "ok" for v in reached.values())
    return alive, ready, {"alive": alive, "ready": ready, "loops": loops, "redis": reached}


def serve(port: int, stale_seconds: float, pings: dict[str, Callable[[], object]], *,
          host: str, only: str = "") -> http.server.ThreadingHTTPServer:
    """Serve ``/livez`` and ``/readyz`` on ``host:port`` in a daemon thread; returns the server (``.shutdown()``).
    ``host``: the one the API binds (``TAPROOM_HOST``), never every interface unasked."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/metrics":
                self._metrics()
                return
            if self.path not in ("/livez", "/readyz"):
                self.send_error(404)
                return
            alive, ready, details = report(stale_seconds, pings, only)
            good = alive if self.path == "/livez" else ready
            body = orjson.dumps(details)
            self.send_response(200 if good else 503)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _metrics(self) -> None:
            from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

            body = generate_latest(REGISTRY)
            self.send_response(200)
            self.send_header("Content-Type", CONTENT_TYPE_LATEST)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:  # probes every few seconds: no access log
            pass

    server = http.server.ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="taproom-health", daemon=True).start()
    return server
