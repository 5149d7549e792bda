"""rq jobs of asynchronous play: module-level, take ids, idempotent.

Each decision goes back through the command stream as a system command whose
id is derived from (game, version, seat), so a job that runs twice (a retry,
a watchdog re-run, a deadline released twice) changes the game once.
"""

from __future__ import annotations

import random
from typing import Any

import redis
import structlog
from rq import Queue, get_current_job

from domain.core import SYSTEM_SEAT, Command
from domain.core.lifecycle import ExpireGame, GameRecord, PlayFor, TimeOut

from ..aggregates import Loaded, Repository
from ..bots import get_bot
from ..commands import CommandBus
from ..eventstore import EventStore, Keys
from . import clock
from .config import AsyncSettings
from .deadlines import AsyncPlay
from .keys import AsyncKeys

log = structlog.get_logger("taproom.async_jobs")


def _env(connection: redis.Redis | None, prefix: str, shards: int,
         async_settings: dict[str, Any] | None) -> tuple[redis.Redis, AsyncKeys, AsyncPlay]:
    job = get_current_job()
    if connection is None:
        assert job is not None, "run inside an rq job or pass a connection"
        connection = job.connection
    keys = AsyncKeys(prefix, shards)
    queue = Queue(job.origin if job is not None else "taproom", connection=connection)
    settings = AsyncSettings.model_validate(async_settings or {})
    return connection, keys, AsyncPlay(connection, keys, queue, settings)


def _load(client: redis.Redis, keys: Keys, game_id: str) -> Loaded:
    return Repository(EventStore(client, keys), cache_size=1).current(game_id)


def choose_move(record: GameRecord, seat: int, level: str, key: str) -> Command:
    """The autopilot's move, chosen like a bot's: from the seat's view and legal commands only."""
    game = record.game
    view = game.view(record.state, seat)
    legal = game.legal_commands(record.state, seat)
    try:
        bot = get_bot(level)
    except KeyError:
        bot = get_bot("random")
    return bot(game.id, view, legal, random.Random(key))


def timeout_command_id(game_id: str, version: int, seat: int) -> str:
    return f"timeout:{game_id}:{version}:{seat}"


def turn_deadline(game_id: str, seat: int, wait_version: int, *, prefix: str, shards: int,
                  async_settings: dict[str, Any] | None = None,
                  connection: redis.Redis | None = None) -> dict[str, Any]:
    """The deadline of ``seat``'s wait that began at ``wait_version``: time the seat out if it is due."""
    client, keys, play = _env(connection, prefix, shards, async_settings)
    loaded = _load(client, keys, game_id)
    record = loaded.record
    if record is None or record.status != "active" or record.pace is None or not record.pace.timed:
        return {"skipped": "not active"}
    wait = play.clocks.wait(game_id, seat)
    if wait is None or wait.version != wait_version or seat not in record.to_act():
        return {"skipped": "the seat moved", "version": loaded.version}
    due = play.clocks.deadline(record, seat, wait)
    if clock.now() < due - 1:  # a vacation pushed it back: run again then
        play.schedule_deadline(record, seat, wait, due)
        return {"rescheduled": due}
    move = None
    if record.pace.on_timeout == "autopilot":
        level = record.pace.autopilot_level
        move = choose_move(record, seat, level, f"{game_id}|{loaded.version}|{seat}").model_dump(
            mode="json", exclude={"seat"})
    command = TimeOut(for_seat=seat, at_version=loaded.version, move=move)
    command_id = CommandBus(client, keys).submit(
        game_id, command.model_dump(mode="json"), seat=SYSTEM_SEAT, actor="system:deadline",
        command_id=timeout_command_id(game_id, loaded.version, seat), expected_version=loaded.version)
    log.info("turn timed out", game_id=game_id, seat=seat, version=loaded.version)
    return {"command_id": command_id}


def deadline_warning(game_id: str, seat: int, wait_version: int, hours: int, *, prefix: str, shards: int,
                     async_settings: dict[str, Any] | None = None,
                     connection: redis.Redis | None = None) -> dict[str, Any]:
    """Tell the seat's player their deadline is ``hours`` away (if they still wait and it still is)."""
    client, keys, play = _env(connection, prefix, shards, async_settings)
    record = _load(client, keys, game_id).record
    if record is None or record.status != "active" or record.pace is None:
        return {"skipped": "not active"}
    wait = play.clocks.wait(game_id, seat)
    player = record.seats[seat].player_id
    if wait is None or wait.version != wait_version or not player:
        return {"skipped": "the seat moved"}
    due = play.clocks.deadline(record, seat, wait)
    if due - clock.now() > hours * 3600 + 60:
        return {"skipped": "pushed back"}  # the deadline job schedules the warnings of the new deadline
    sent = play.notifier.send(player, "deadline_soon", {"game_id": game_id, "seat": seat, "deadline": due,
                                                        "hours": hours},
                              dedupe=f"warn:{game_id}:{seat}:{wait_version}:{hours}:{int(due)}")
    return {"sent": sent}


def autopilot_turn(game_id: str, seat: int, version: int, *, prefix: str, shards: int,
                   connection: redis.Redis | None = None) -> dict[str, Any]:
    """Play ``seat``'s turn at ``version`` by the table's away policy (the seat timed out before)."""
    client, keys, _ = _env(connection, prefix, shards, None)
    loaded = _load(client, keys, game_id)
    record = loaded.record
    if record is None or loaded.version != version or seat not in record.to_act():
        return {"skipped": "stale", "version": loaded.version}
    policy = record.seats[seat].autopilot
    if policy is None:
        return {"skipped": "reclaimed"}
    move = None
    if policy == "autopilot":
        level = record.pace.autopilot_level if record.pace else "random"
        move = choose_move(record, seat, level, f"{game_id}|{version}|{seat}").model_dump(mode="json", exclude={"seat"})
    command = PlayFor(for_seat=seat, at_version=version, move=move)
    command_id = CommandBus(client, keys).submit(
        game_id, command.model_dump(mode="json"), seat=SYSTEM_SEAT, actor=f"system:{policy}",
        command_id=f"autopilot:{game_id}:{version}:{seat}", expected_version=version)
    return {"command_id": command_id}


def expire_open_game(game_id: str, *, prefix: str, shards: int, async_settings: dict[str, Any] | None = None,
                     connection: redis.Redis | None = None) -> dict[str, Any]:
    """Close an open game nobody filled in time (refused by the kernel if it has started since)."""
    client, keys, _ = _env(connection, prefix, shards, async_settings)
    command_id = CommandBus(client, keys).submit(
        game_id, ExpireGame().model_dump(mode="json"), seat=SYSTEM_SEAT, actor="system:expiry",
        command_id=f"expire:{game_id}")
    return {"command_id": command_id}
