"""``taproom play``: a whole game of bots through the real pipeline, with its result table."""

from __future__ import annotations

import json
import time
from typing import Any

import click

from domain.core import RuleError
from services.adapters.cli.common import command_settings as _settings


@click.command()
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
