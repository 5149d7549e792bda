"""``taproom migrate`` and ``taproom results``: the cold store's schema and the results table (issue 35)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import click

from services.infrastructure.settings import Settings, get_settings


def _settings() -> Settings:
    """The process's settings, its logs on stderr (stdout is the commands' JSON)."""
    from services.infrastructure.logs import configure_logging

    settings = get_settings()
    configure_logging(settings.log_json, settings.log_level)
    return settings


def _postgres_url() -> str:
    from services.infrastructure.coldstore import is_postgres_url

    url = _settings().cold_store_url
    if not is_postgres_url(url):
        raise click.UsageError("set TAPROOM_COLD_STORE_URL=postgresql://... (the directory store has no schema "
                               "and no results table)")
    assert url is not None
    return url


@click.command()
@click.option("--check", is_flag=True, help="only say whether the schema is this version's (exit 1 if not)")
def migrate(check: bool) -> None:
    """Move the cold store's schema (PostgreSQL at TAPROOM_COLD_STORE_URL) to this version's, with Alembic:
    safe to run again and from several processes at once. Prints the revision before and after."""
    from services.infrastructure.coldstore.migrate import current, head, upgrade

    url = _postgres_url()
    try:
        before = current(url)
        if check:
            click.echo(json.dumps({"revision": before, "head": head()}))
            raise SystemExit(0 if before == head() else 1)
        after = upgrade(url)
    except Exception as exc:  # psycopg's and SQLAlchemy's errors: PostgreSQL down, refused, wrong database
        if isinstance(exc, SystemExit):
            raise
        raise click.ClickException(f"the cold store could not be migrated: {type(exc).__name__}: {exc}") from None
    click.echo(json.dumps({"before": before, "after": after}))


@click.command()
@click.argument("player")
@click.option("--limit", default=50, show_default=True)
def results(player: str, limit: int) -> None:
    """A player's archived games from the results table, newest first, without Redis: PLAYER is a player id,
    player:<id> or bot:<level>. Prints JSON Lines (game, seat, player, name, title, place, score, rated,
    finished_at)."""
    from services.infrastructure.coldstore import UNAVAILABLE, PostgresStore

    store = PostgresStore(_postgres_url(), min_size=0, max_size=1)
    try:
        rows = store.player_history(player, limit)
    except UNAVAILABLE as exc:
        raise click.ClickException(f"the cold store does not answer: {exc}") from None
    finally:
        store.close()
    for row in rows:
        click.echo(json.dumps(asdict(row)))


def _archived_ids(client: Any, prefix: str) -> list[str]:
    """Every archived game under ``prefix`` (their pointers, ``<prefix>g:{sN}:<game>:arch``)."""
    found = {key.decode().rsplit(":", 2)[-2] for key in client.scan_iter(match=f"{prefix}g:*:arch", count=1000)}
    return sorted(found)


@click.command()
@click.argument("game_ids", nargs=-1)
@click.option("--rehome", is_flag=True, help="move ARCHIVED games (every one without GAME_IDS) from where their "
              "pointers name them (an earlier deployment's directory) into the configured cold store")
def archive(game_ids: tuple[str, ...], rehome: bool) -> None:
    """Archive scored games now (what the worker's delayed job does): after fixing the cold store, or to check
    it end to end. With --rehome, move archived games into the configured cold store (run it where the old
    directory is mounted, e.g. in the worker's pod). Safe to run twice. One JSON line per game; exit 1 if any
    failed."""
    from domain.catalog import load_games
    from services.infrastructure.archive import Archiver
    from services.infrastructure.bootstrap import bootstrap, client_factory

    settings = _settings()
    if not settings.redis_url:
        raise click.UsageError("set REDIS_URL: the games to archive are in the shared Redis")
    load_games()
    root = bootstrap(settings, client_factory(settings)())
    archiver = Archiver.from_root(root)
    if not game_ids and not rehome:
        raise click.UsageError("name the games to archive (every archived game is taken only with --rehome)")
    failed = False
    for game_id in game_ids or _archived_ids(root.redis, settings.key_prefix):
        try:
            result = archiver.rehome(game_id) if rehome else archiver.archive(game_id)
            click.echo(json.dumps({"game_id": game_id, "status": result.status, "uri": result.uri,
                                   "bytes": result.bytes, "reason": result.reason}))
        except Exception as exc:  # the cold store away, an archive that does not verify: the game stays in Redis
            failed = True
            click.echo(json.dumps({"game_id": game_id, "status": "failed", "error": f"{type(exc).__name__}: {exc}"}))
    if failed:
        raise SystemExit(1)
