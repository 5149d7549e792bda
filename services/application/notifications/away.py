"""No "your turn" e-mail or push while the player has the game open; one after a grace period once they leave.

When a "your turn" message is sent (:meth:`.notify.Notifier.send`) and the player has the game's page open
(its live stream connected, see :mod:`services.application.presence`) or closed it less than
``presence_grace_seconds`` ago, its e-mail and push are held: the webhook and the in-app list get the message
at once as ever. A job (:func:`deliver_when_away`) looks again when the grace would end: if the turn has moved
on (the seat's wait is another, or none), nothing is sent; if the page is open again, it looks again when the
page would lapse plus the grace; else the e-mail and the push go out, once (their job ids are the message's).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson
import redis
from rq import Queue, get_current_job
from rq.job import Job

from services.application.clocks.turns import TurnClocks
from services.application.clocks.vacation import Vacations
from services.application.notifications.mail import Mailer, job_safe
from services.application.notifications.prefs import Preferences
from services.application.notifications.webpush import Pusher
from services.application.presence import Presence
from services.infrastructure.bootstrap import job_root_of
from services.infrastructure.clock import Clock
from services.infrastructure.eventstore import Keys
from services.infrastructure.settings import AsyncSettings

HELD_KINDS = ("your_turn",)
"""The kinds held while the player watches the game: only "your turn" (a deadline warning or a vote about
their seat still goes out)."""


def presence_of(client: redis.Redis, keys: Keys, clock: Clock, settings: AsyncSettings) -> Presence:
    return Presence(client, keys, clock, settings.presence_ttl_seconds, settings.online_seconds)


def held_until(presence: Presence, player_id: str, game_id: str, grace: float) -> float | None:
    """When the e-mail and push of a "your turn" may go out: None at once (the player has not had the game
    open within the grace), else the end of the grace after the page closed (or will lapse)."""
    away = presence.away_since(player_id, game_id)
    due = (presence.lapses_at(player_id, game_id) if away is None else away) + grace
    return due if due > presence.clock.now() else None


def hold(queue: Queue, keys: Keys, player_id: str, kind: str, body: bytes, delivery: str, due: float) -> bool:
    """Schedule the look at ``due`` (once per message and time)."""
    tag = job_safe(keys.prefix.rstrip(":")) or "tr"
    job_id = f"away-{tag}-{delivery}-{int(due)}"
    if Job.exists(job_id, connection=queue.connection):
        return False
    queue.enqueue_at(datetime.fromtimestamp(due, tz=UTC), deliver_when_away, player_id, kind, body.decode(),
                     delivery, job_id=job_id, result_ttl=3600, failure_ttl=86400)
    return True


def deliver_when_away(player_id: str, kind: str, body: str, delivery: str, *,
                      connection: redis.Redis | None = None, **_later: Any) -> dict[str, Any]:
    """rq job: send the held e-mail and push of a "your turn" if it still is the player's turn and they have
    been away from the game for the grace period; else look again later, or drop it."""
    root = job_root_of(connection)
    settings, clock, keys = root.settings, root.clock, root.keys
    data = orjson.loads(body)
    game_id, seat, version = data.get("game_id", ""), data.get("seat"), data.get("version")
    clocks = TurnClocks(root.redis, keys, Vacations(root.redis, keys, settings.vacation_days_per_year, clock), clock)
    wait = clocks.wait(game_id, seat) if isinstance(seat, int) else None
    if wait is None or wait.version != version:
        return {"skipped": "the turn moved on"}
    job = get_current_job()
    queue = Queue(job.origin if job is not None else settings.rq_queue,
                  connection=job.connection if job is not None else root.queue_redis or root.redis)
    due = held_until(presence_of(root.redis, keys, clock, settings), player_id, game_id,
                     settings.presence_grace_seconds)
    if due is not None:
        hold(queue, keys, player_id, kind, body.encode(), delivery, due)
        return {"held_until": due}
    prefs = Preferences(root.redis, keys).get(player_id)
    if not prefs.wants(kind):
        return {"skipped": "not wanted"}
    when = prefs.deliver_at(clock.now())
    mailed = Mailer(root.redis, keys, queue, settings, clock).dispatch(player_id, kind, body.encode(), delivery,
                                                                      prefs, when)
    pushed = Pusher(root.redis, keys, queue, settings, clock).dispatch(player_id, kind, body.encode(), delivery, when)
    return {"mailed": mailed, "pushed": pushed}
