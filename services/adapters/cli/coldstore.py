"""``taproom migrate`` and ``taproom results``: the cold store's schema and the results table (issue 35)."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from services.infrastructure.settings import get_settings


def _postgres_url() -> str:
    from services.infrastructure.coldstore import is_postgres_url

    url = get_settings().cold_store_url
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


@click.command()
@click.argument("game_ids", nargs=-1, required=True)
def archive(game_ids: tuple[str, ...]) -> None:
    """Archive scored games now (what the worker's delayed job does): after fixing the cold store, or to check
    it end to end. Safe to run twice. Prints one JSON line per game; exit 1 if any failed."""
    from domain.catalog import load_games
    from services.infrastructure.archive import Archiver
    from services.infrastructure.bootstrap import bootstrap, client_factory

    settings = get_settings()
    if not settings.redis_url:
        raise click.UsageError("set REDIS_URL: the games to archive are in the shared Redis")
    load_games()
    archiver = Archiver.from_root(bootstrap(settings, client_factory(settings)()))
    failed = False
    for game_id in game_ids:
        try:
            result = archiver.archive(game_id)
            click.echo(json.dumps({"game_id": game_id, "status": result.status, "uri": result.uri,
                                   "bytes": result.bytes, "reason": result.reason}))
        except Exception as exc:  # the cold store away, an archive that does not verify: the game stays in Redis
            failed = True
            click.echo(json.dumps({"game_id": game_id, "status": "failed", "error": f"{type(exc).__name__}: {exc}"}))
    if failed:
        raise SystemExit(1)
