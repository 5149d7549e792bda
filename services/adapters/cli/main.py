"""The ``taproom`` command line (click)."""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

import click

from domain.core import RuleError
from services.infrastructure.settings import Settings, get_settings


def _settings() -> Settings:
    from services.infrastructure.logs import configure_logging

    settings = get_settings()
    configure_logging(settings.log_json, settings.log_level)
    return settings


def _need_redis(settings: Settings) -> None:
    if not settings.redis_url:
        raise click.UsageError("this part runs against a shared Redis: set REDIS_URL (or use `taproom serve`)")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Taproom: an event-sourced play-by-turn board game service.

    Without REDIS_URL, `serve` and `play` run every part in one process on an
    in-process Redis. With REDIS_URL, each part can run as its own process.
    """


UVICORN = {"loop": "uvloop", "http": "httptools", "log_level": "warning", "access_log": False}
"""The server's event loop and HTTP parser in C (``uvicorn[standard]``). No access log: at the warning level
nothing of it was written, yet uvicorn formatted each response's client address and quoted path for it (it
checks the logger's handlers, not its level); the request metrics count every request by route and status."""


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn serves the API: :data:`UVICORN`, and forwarded headers read from ``trusted_proxies`` alone
    (uvicorn's own default trusts 127.0.0.1, so any local client could name its address)."""
    proxies = settings.trusted_proxies.strip()
    forwarded = {"proxy_headers": True, "forwarded_allow_ips": proxies} if proxies else {"proxy_headers": False}
    return {**UVICORN, **forwarded}


def _run_api(host: str, port: int, processes: int, app: Any = None) -> None:
    """Serve the API: ``app`` in this process, or ``processes`` API processes (uvicorn's supervisor, each
    building its app from the environment) sharing the port."""
    import os
    import tempfile

    import uvicorn

    if processes > 1 or app is None:
        # The processes' Prometheus metrics go to files in one folder; /metrics of any of them adds them up.
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="taproom-metrics-"))
        uvicorn.run("services.adapters.api.app:app_from_env", factory=True, host=host, port=port, workers=processes,
                    **uvicorn_options(get_settings()))
    else:
        uvicorn.run(app, host=host, port=port, **uvicorn_options(get_settings()))


@cli.command()
@click.option("--host", default=None, help="interface to bind (default 127.0.0.1)")
@click.option("--port", default=None, type=int, help="port (default 8000)")
@click.option("--workers", default=2, show_default=True, help="rq worker threads")
@click.option("--api-workers", default=1, show_default=True,
              help="API processes; more than one needs REDIS_URL (the embedded Redis lives in this process)")
def serve(host: str | None, port: int | None, workers: int, api_workers: int) -> None:
    """The whole service: API, processor, projector, reactor and rq workers in one process (the API in
    ``--api-workers`` processes of its own)."""
    from services.adapters.api.app import create_app
    from services.adapters.runtime import Service, client_factory, queue_client_factory

    settings = _settings()
    if api_workers > 1:
        _need_redis(settings)
    clients = client_factory(settings)
    queues = queue_client_factory(settings, clients)
    service = Service(settings, clients, workers=workers, queue_clients=queues).start()
    mode = settings.redis_url or "embedded (in-process Redis)"
    click.echo(f"taproom: serving on http://{host or settings.host}:{port or settings.port} — redis: {mode}", err=True)
    try:
        _run_api(host or settings.host, port or settings.port, api_workers,
                 create_app(clients(), settings, queues()) if api_workers == 1 else None)
    finally:
        service.stop()


@cli.command()
@click.option("--host", default=None)
@click.option("--port", default=None, type=int)
@click.option("--workers", default=1, show_default=True, help="API processes sharing the port")
def api(host: str | None, port: int | None, workers: int) -> None:
    """The HTTP API alone (against REDIS_URL), in one or more processes."""
    from domain.catalog import load_games
    from services.adapters.api.app import create_app
    from services.adapters.runtime import client_factory, queue_client_factory

    settings = _settings()
    _need_redis(settings)
    load_games()
    clients = client_factory(settings)
    # a cluster client waits for the cluster to answer; several API processes each build their own app
    app = create_app(_store_client(settings), settings, queue_client_factory(settings, clients)()) \
        if workers == 1 else None
    _run_api(host or settings.host, port or settings.port, workers, app)


def _store_client(settings: Settings) -> Any:
    """The event store's client; a cluster client is only made once the cluster answers (it reads the slot
    map when made), so a part may start before its Redis does, like on one server."""
    from services.adapters.runtime import client_factory
    from services.infrastructure.resilience import UNAVAILABLE, Outage

    factory = client_factory(settings)
    outage = Outage("startup")
    while True:
        try:
            client = factory()  # a plain client connects lazily: this returns at once
            outage.recovered()
            return client
        except (*UNAVAILABLE, OSError) as exc:  # type: ignore[misc]  # a tuple of exception classes
            time.sleep(outage.failed(exc))
        except Exception as exc:  # redis-py's RedisClusterException: no node of the cluster answers yet
            if type(exc).__name__ != "RedisClusterException":
                raise
            time.sleep(outage.failed(exc))


def _health_server(settings: Settings, store: Any, queue: Any) -> None:
    """``TAPROOM_HEALTH_PORT``: serve /livez and /readyz for the probes (services/infrastructure/health.py)."""
    if settings.health_port:
        from services.infrastructure import health

        health.serve(settings.health_port, settings.health_stale_seconds,
                     {"event_store": store.ping, "queue": queue.ping}, host=settings.host)


def _run_part(make: Any) -> None:
    from domain.catalog import load_games

    settings = _settings()
    _need_redis(settings)
    load_games()
    client = _store_client(settings)
    part = make(client, settings)
    queue = getattr(getattr(part, "queue", None), "connection", client)
    _health_server(settings, client, queue)
    stop = threading.Event()
    try:
        part.run(stop)  # rides out Redis outages by itself
    except KeyboardInterrupt:
        stop.set()


@cli.command()
def processor() -> None:
    """The command processor alone (takes a fair share of the shards)."""
    from services.adapters.processor import Processor

    _run_part(Processor)


@cli.command()
def projector() -> None:
    """The projector alone."""
    from services.adapters.projector import Projector

    _run_part(Projector)


@cli.command()
def reactor() -> None:
    """The reactor alone (events -> rq jobs, on TAPROOM_QUEUE_REDIS_URL when set)."""
    from services.adapters.reactor import Reactor
    from services.adapters.runtime import queue_client_factory
    from services.infrastructure.bootstrap import bootstrap

    def make(client: Any, settings: Settings) -> Reactor:
        jobs = queue_client_factory(settings, lambda: client)()
        return Reactor(client, settings, root=bootstrap(settings, client, queue_redis=jobs))

    _run_part(make)


@cli.command()
@click.option("--coach", is_flag=True, help="work the coach's queue (post-game analyses, TAPROOM_COACH_QUEUE) "
              "instead of bot turns and scoring: run at least one such worker for analyses to happen")
def worker(coach: bool) -> None:
    """An rq worker for bot turns and scoring (rq's own forking worker) and the scheduler of timed jobs."""
    from domain.catalog import load_games
    from services.adapters.runtime import client_factory, queue_client_factory
    from services.adapters.workers.worker import run_rq_worker
    from services.infrastructure.bootstrap import bootstrap

    settings = _settings()
    _need_redis(settings)
    load_games()
    clients = client_factory(settings)
    queues = queue_client_factory(settings, clients)
    separate = queues is not clients
    _health_server(settings, _store_client(settings) if separate else queues(), queues())
    # rq's Redis for the queues; the jobs reach the event store on REDIS_URL when that is another (a cluster)
    clock = bootstrap(settings, queues()).clock  # wall time: the composition root's
    run_rq_worker(queues(), settings.coach_queue if coach else settings.rq_queue, settings, clock,
                  store=client_factory(settings) if separate else None)


@cli.command()
@click.option("--port", type=int, default=None, help="the part's health port (default TAPROOM_HEALTH_PORT)")
@click.option("--live", is_flag=True, help="ask only whether the part is alive (default: whether it is ready)")
@click.option("--timeout", default=3.0, show_default=True)
def health(port: int | None, live: bool, timeout: float) -> None:
    """Ask a running processor, projector, reactor or worker on this machine whether it is ready (or alive):
    exit 0 if so, 1 if not (an exec probe; the manifests use the HTTP port directly)."""
    import urllib.error
    import urllib.request

    port = port or get_settings().health_port
    if not port:
        raise click.UsageError("no health port: pass --port or set TAPROOM_HEALTH_PORT")
    url = f"http://127.0.0.1:{port}/{'livez' if live else 'readyz'}"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            click.echo(answer.read().decode())
    except urllib.error.HTTPError as err:
        click.echo(err.read().decode(), err=True)
        sys.exit(1)
    except OSError as err:
        click.echo(f"no answer from {url}: {err}", err=True)
        sys.exit(1)


@cli.command("vapid-keys")
def vapid_keys() -> None:
    """Print a fresh VAPID key pair for Web Push as environment lines (keep the private one secret)."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    def b64url(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    click.echo(f"TAPROOM_VAPID_PRIVATE_KEY={b64url(key.private_numbers().private_value.to_bytes(32, 'big'))}")
    click.echo(f"TAPROOM_VAPID_PUBLIC_KEY={b64url(public)}")


@cli.command()
@click.argument("game")
@click.option("--players", "-n", default=2, show_default=True)
@click.option("--bot", "level", default="random", show_default=True, help="bot level for every seat")
@click.option("--seed", default=None, help="a chosen seed (makes the game reproducible)")
@click.option("--option", "-o", "options", multiple=True, help="game option key=value (JSON value)")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.option("--export", "export_to", type=click.Path(dir_okay=False), default=None, help="write the game record here")
@click.option("--timeout", default=600.0, show_default=True)
def play(game: str, players: int, level: str, seed: str | None, options: tuple[str, ...], as_json: bool,
         export_to: str | None, timeout: float) -> None:
    """Play a full game of bots through the real pipeline and print the result table."""
    from domain.core.lifecycle import SeatSpec
    from services.adapters.runtime import Service
    from services.application import games
    from services.application.results import Accepted
    from services.infrastructure.bootstrap import client_factory, queue_client_factory

    settings = _settings().model_copy(update={"allow_client_seed": True})
    clients = client_factory(settings)
    queues = queue_client_factory(settings, clients)
    parsed = _game_options(options)
    with Service(settings, clients, workers=1, queue_clients=queues) as service:
        root = service.root()
        new = games.NewGame(game=game, seats=[SeatSpec(bot=level)] * players, options=parsed, dev_seed=seed)
        try:
            created = games.create_game(root, new, wait=10.0, actor="cli", issue_seat_tokens=False)
        except RuleError as err:
            raise click.ClickException(f"could not create the game: {err.message}") from None
        game_id, result = created.game_id, created.result
        if not isinstance(result, Accepted):
            raise click.ClickException(f"could not create the game: {getattr(result, 'message', 'timed out')}")
        loaded = _until_scored(root.records(), game_id, timeout)
        record = loaded.record
        assert record is not None
        if export_to:
            from services.infrastructure.audit import export_lines

            with open(export_to, "wb") as fh:
                for line in export_lines(root.store, game_id):
                    fh.write(line + b"\n")
    summary = {"game_id": game_id, "game": game, "version": loaded.version,
              "scores": {str(s.seat): s.total for s in record.scores},
              "places": {str(k): v for k, v in record.places.items()},
              "breakdown": {str(s.seat): s.breakdown for s in record.scores}}
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(f"{game} game {game_id}: {loaded.version} events")
    for score in sorted(record.scores, key=lambda s: record.places[s.seat]):
        parts = ", ".join(f"{k} {v:g}" for k, v in score.breakdown.items())
        click.echo(f"  {record.places[score.seat]}. seat {score.seat} ({record.seats[score.seat].name}): "
                   f"{score.total:g}  [{parts}]")


def _game_options(options: tuple[str, ...]) -> dict[str, Any]:
    """``key=value`` pairs, each value read as JSON when it is JSON, else as the text it is."""
    parsed: dict[str, Any] = {}
    for item in options:
        key, _, value = item.partition("=")
        try:
            parsed[key] = json.loads(value)
        except json.JSONDecodeError:
            parsed[key] = value
    return parsed


def _until_scored(repo: Any, game_id: str, timeout: float) -> Any:
    """The game's loaded record once it is scored (polled: the CLI has no stream of its own)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        loaded = repo.current(game_id)
        if loaded.record is not None and loaded.record.status == "scored":
            return loaded
        time.sleep(0.05)
    raise click.ClickException(f"game {game_id} did not finish within {timeout} s")


SERVER_HELP = ("a running Taproom's URL (e.g. http://127.0.0.1:8000, as `taproom serve` runs): read the record "
               "over HTTP (GET /games/{id}/record) instead of from REDIS_URL")
TOKEN_HELP = "a player or seat token: a running game's record is redacted for that seat (public without one)"


def _fetch_record(server: str, game_id: str, token: str | None) -> list[bytes]:
    """The record of ``game_id`` from a running server (redacted for the token's seat until the seed is out)."""
    import httpx

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    url = f"{server.rstrip('/')}/games/{game_id}/record"
    try:
        response = httpx.get(url, headers=headers, timeout=60.0)
    except httpx.HTTPError as exc:
        raise click.ClickException(f"could not reach {server}: {exc}") from None
    if response.status_code != 200:
        try:
            error = response.json()
            reason = f"{error['code']}: {error['message']}"
        except Exception:
            reason = response.text[:200]
        raise click.ClickException(f"GET {url} answered {response.status_code} ({reason})")
    return [line for line in response.content.splitlines() if line.strip()]


def _store_record(game_id: str) -> list[bytes]:
    from services.infrastructure.audit import export_lines
    from services.infrastructure.bootstrap import bootstrap, client_factory

    settings = _settings()
    if not settings.redis_url:
        raise click.UsageError("without REDIS_URL the service keeps its games in its own process: "
                               "pass --server URL (e.g. --server http://127.0.0.1:8000) to read them over HTTP")
    store = bootstrap(settings, client_factory(settings)()).store
    if not store.exists(game_id):
        raise click.ClickException(f"no game {game_id}")
    return list(export_lines(store, game_id))


@cli.command()
@click.argument("game_id")
@click.option("--out", "-o", type=click.Path(dir_okay=False), default="-", help="file (default stdout)")
@click.option("--server", "-s", envvar="TAPROOM_SERVER", default=None, help=SERVER_HELP)
@click.option("--token", envvar="TAPROOM_TOKEN", default=None, help=TOKEN_HELP)
def export(game_id: str, out: str, server: str | None, token: str | None) -> None:
    """Write a game record (JSON Lines: a header, the event envelopes, the commands)."""
    lines = _fetch_record(server, game_id, token) if server else _store_record(game_id)
    stream = sys.stdout.buffer if out == "-" else open(out, "wb")
    for line in lines:
        stream.write(line + b"\n")
    stream.flush()


@cli.command()
@click.argument("target")
@click.option("--server", "-s", envvar="TAPROOM_SERVER", default=None, help=SERVER_HELP)
@click.option("--token", envvar="TAPROOM_TOKEN", default=None, help=TOKEN_HELP)
def verify(target: str, server: str | None, token: str | None) -> None:
    """Check a record file, or a game by id (over --server, or against REDIS_URL): it must start with the
    creation event and its seed commitment, have consecutive versions and an unbroken hash chain, and once
    ended reveal the seed, which must match and reproduce every event. Prints a JSON report; exit 1 if not ok."""
    import os

    from domain.catalog import load_games
    from services.infrastructure.audit import RecordError, read_record, unreadable
    from services.infrastructure.audit import verify as run_verify

    load_games()
    try:
        if os.path.isfile(target):
            with open(target, "rb") as fh:
                record = read_record(fh)
        elif server:
            record = read_record(_fetch_record(server, target, token))
        elif os.sep in target or target.endswith((".jsonl", ".json")):
            raise click.ClickException(f"no such file: {target}")
        else:
            record = read_record(_store_record(target))
        report = run_verify(record)
    except RecordError as exc:
        report = unreadable(str(exc))
    except OSError as exc:  # a directory, a file we may not read
        report = unreadable(f"cannot read {target}: {exc.strerror or exc}")
    click.echo(json.dumps(report.to_dict(), indent=2))
    if not report.ok:
        sys.exit(1)


@cli.command()
@click.option("--limit", "-n", default=50, show_default=True, help="the newest reports, at most this many")
@click.option("--game", "game_id", default=None, help="only this game's reports")
@click.option("--json", "as_json", is_flag=True, help="one JSON object per line")
def reports(limit: int, game_id: str | None, as_json: bool) -> None:
    """Chat messages players reported, newest first: when, the game, the channel, who reported it and why,
    who wrote it and what (archived games' reports are read from their archive)."""
    from services.application.chat import Chat
    from services.application.moderation import Reports
    from services.infrastructure.bootstrap import bootstrap, client_factory

    settings = _settings()
    _need_redis(settings)
    root = bootstrap(settings, client_factory(settings)())
    service = Reports(root.store, Chat(root.store, settings.chat_max_chars, settings.chat_keep))
    found = list(reversed(service.of_game(game_id)))[:limit] if game_id else service.latest(limit)
    if not found:
        click.echo("no reports" if not as_json else "", nl=not as_json)
    for report in found:
        if as_json:
            click.echo(json.dumps(report.to_dict(), sort_keys=True))
            continue
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(report.ts))
        click.echo(f"{when} UTC  game {report.game_id} ({report.channel} chat, message {report.message_id})\n"
                   f"  reported by {report.reporter_name or '?'} ({report.reporter})"
                   f"{': ' + report.reason if report.reason else ''}\n"
                   f"  {report.author_name} ({report.author}) wrote: {report.text}")


@cli.group()
def projections() -> None:
    """Read-side maintenance."""


@projections.command()
def rebuild() -> None:
    """Delete every read model and fold them again from the event log."""
    from domain.catalog import load_games
    from services.adapters.projector import Projector
    from services.infrastructure.bootstrap import client_factory

    settings = _settings()
    _need_redis(settings)
    load_games()
    figures = Projector(client_factory(settings)(), settings).rebuild()
    click.echo(json.dumps(figures))


@cli.group()
def webhooks() -> None:
    """Webhook secrets at rest: keys and their rotation (TAPROOM_WEBHOOK_SECRET_KEYS)."""


@webhooks.command("new-key")
def webhooks_new_key() -> None:
    """Print a new Fernet key: put it first in TAPROOM_WEBHOOK_SECRET_KEYS, then run `reencrypt`."""
    from services.infrastructure.secretbox import new_key

    click.echo(new_key())


@webhooks.command()
def reencrypt() -> None:
    """Encrypt every stored webhook secret under the newest key (and any stored in plain text by older
    versions); then the older keys can be dropped. Prints the counts."""
    from services.application.notifications.notify import Webhooks
    from services.infrastructure.bootstrap import bootstrap, client_factory
    from services.infrastructure.secretbox import secret_box

    settings = _settings()
    _need_redis(settings)
    root = bootstrap(settings, client_factory(settings)())
    hooks = Webhooks(root.redis, root.keys, secret_box(settings))
    click.echo(json.dumps(hooks.reencrypt_all()))


def _add_cold_store_commands() -> None:
    from services.adapters.cli.coldstore import archive, migrate, results
    from services.adapters.cli.shards import shards

    for command in (migrate, results, archive, shards):
        cli.add_command(command)


_add_cold_store_commands()

if __name__ == "__main__":
    cli()
