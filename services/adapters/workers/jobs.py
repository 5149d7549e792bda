"""rq jobs: module-level, take ids, idempotent (safe to run twice).

A bot turn submits its command with an id derived from (game, version, seat),
so a re-run job is answered by the original outcome; final scoring submits
one system command per game, likewise idempotent.
"""

from __future__ import annotations

import random
from typing import Any

import redis
import structlog

from domain.core import SYSTEM_SEAT
from domain.core.lifecycle import ScoreGame
from services.application.bots import choose
from services.application.commands import send
from services.application.ratings import Ratings
from services.infrastructure.bootstrap import job_root_of

log = structlog.get_logger("taproom.jobs")

# Compatibility: jobs queued before the worker carried the settings were given ``prefix``, ``shards``,
# ``think_seconds`` and ``archive_dir`` keywords. They are accepted (``**_queued_before``) and ignored — the worker's
# settings are the deployment's. Remove once no such job can be left: one ``archive_after_seconds`` (and the
# longest rq retry) after every deployment runs this version.


def bot_command_id(game_id: str, version: int, seat: int) -> str:
    return f"bot:{game_id}:{version}:{seat}"


def play_bot_turn(game_id: str, seat: int, version: int, *, connection: redis.Redis | None = None,
                  **_queued_before: Any) -> dict[str, Any]:
    """Choose and submit one bot move for ``seat`` if the game is still at ``version`` (the search budget is
    ``Settings.bot_think_seconds``)."""
    root = job_root_of(connection)
    loaded = root.records(cache_size=1).current(game_id)
    record = loaded.record
    if record is None or loaded.version != version or seat not in record.to_act():
        return {"skipped": "stale", "version": loaded.version}
    level = record.seats[seat].bot or "random"
    game = record.game
    # The bot sees exactly what a human in that seat sees: the seat view and its legal commands.
    view = game.view(record.state, seat)
    legal = game.legal_commands(record.state, seat)
    del record, loaded
    rng = random.Random(f"{game_id}|{version}|{seat}")
    command = choose(level, game.id, view, legal, rng, think_seconds=root.settings.bot_think_seconds)
    sent = send(root, game_id, command, seat=seat, actor=f"bot:{level}",
                command_id=bot_command_id(game_id, version, seat), expected_version=version, wait=0)
    log.info("bot moved", game_id=game_id, seat=seat, version=version, command=command.type)
    return {"command_id": sent.command_id}


def score_game(game_id: str, *, connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """Submit the final scoring of an ended game (appends the score sheet and reveals the seed)."""
    root = job_root_of(connection)
    sent = send(root, game_id, ScoreGame(), seat=SYSTEM_SEAT, actor="system", command_id=f"score:{game_id}", wait=0)
    return {"command_id": sent.command_id}


def rate_game(game_id: str, *, connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """End-game scoring, second step: rate the scored game (openskill) and file it in each player's profile.

    Enqueued by the reactor once the score sheet is in the log; idempotent (a game is rated once, a re-run
    writes the stored result again)."""
    root = job_root_of(connection)
    loaded = root.records(cache_size=1).current(game_id)
    record = loaded.record
    if record is None or record.status != "scored":
        return {"skipped": "not scored"}
    result = Ratings(root.redis, root.keys).rate(record, loaded.ts)
    log.info("game rated", game_id=game_id, rated=sorted(result["standings"]))
    return {"rated": sorted(result["standings"])}


def archive_game(game_id: str, *, connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """Archive a scored game to the cold store (``services.infrastructure.archive``); safe to run twice or after a crash."""
    from services.infrastructure.archive import Archiver

    root = job_root_of(connection)
    client, keys = root.redis, root.keys
    result = Archiver.from_root(root).archive(game_id)
    if result.status == "changed":
        raise RuntimeError(f"game {game_id} kept changing while it was archived; trying again later")
    if result.status in ("archived", "already", "missing"):
        client.zrem(keys.archive_watch(), game_id)
    return {"status": result.status, "uri": result.uri, "bytes": result.bytes}


def analyse_game(game_id: str, *, connection: redis.Redis | None = None) -> dict[str, Any]:
    """The coach's analysis of a finished game (on the coach's own queue, ``Settings.coach_queue``): minutes
    of CPU, so it never runs on the queue of bot turns and scoring. Safe to run twice (a done analysis stays)."""
    from services.application.coach import Coach

    root = job_root_of(connection)
    doc = Coach(root).run(game_id)
    return {"status": doc["status"], "cost": doc.get("cost")}
