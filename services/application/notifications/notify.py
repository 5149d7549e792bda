"""Notifications: "your turn", "deadline in N hours", "game over" and "invited" messages, by webhook,
e-mail (:mod:`.mail`) and Web Push (:mod:`.webpush`).

Which kinds go out and when is the player's one choice for every channel (:mod:`.prefs`): a kind they
switched off reaches no channel, and a message in their quiet hours is scheduled for the hour they end. A
"your turn" e-mail or push waits while the player has the game open, and goes out after a grace period once
they left it if the turn is still theirs (:mod:`.away`); the webhook and the in-app list are not held.

A player registers one webhook URL and receives a secret once; every delivery
is a JSON POST signed with HMAC-SHA256 over the exact body with that secret
(header ``X-Taproom-Signature: sha256=<hex>``), with the message kind in
``X-Taproom-Event`` and a stable id in ``X-Taproom-Delivery`` (a retried
delivery carries the same id and body, so receivers can drop repeats).
Deliveries are rq jobs retried with exponential backoff (rq ``Retry``). Each
message is also kept in the player's recent list, webhook or not.

Sending is safe to repeat after a crash at any point: the delivery job is
enqueued first, under an id derived from the dedupe key (a repeat finds it
and does not enqueue it again), and only then are the "sent" marker and the
recent-list entry written together by one script (both keys carry the
player's hash tag). A crash in between leaves no marker, so the repeat
completes the message instead of dropping it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from typing import Any

import orjson
import redis
import structlog
from rq import Queue, Retry
from rq.job import Job

from services.application.notifications.away import HELD_KINDS, held_until, hold, presence_of
from services.application.notifications.mail import Mailer
from services.application.notifications.prefs import Preferences
from services.application.notifications.webpush import Pusher
from services.infrastructure.batching import BatchWrites, ReadAhead
from services.infrastructure.bootstrap import job_root_of
from services.infrastructure.clock import Clock
from services.infrastructure.eventstore import Keys
from services.infrastructure.secretbox import InvalidToken, SecretBox, secret_box
from services.infrastructure.settings import AsyncSettings, get_settings
from services.infrastructure.urls import check_url

log = structlog.get_logger("taproom.notify")

SIGNATURE_HEADER = "X-Taproom-Signature"

DEDUPE_TTL = 60 * 86400

# KEYS: the "sent" marker, the player's recent list; ARGV: body, how many to keep, marker TTL.
# The marker and the list entry are written together, or not at all when the message was recorded before.
RECORD_ONCE = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[3]) then
  return 0
end
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[2]) - 1)
return 1
"""


class WebhookFailed(Exception):
    """A delivery attempt failed; rq retries the job with backoff."""


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify_signature(secret: str, body: bytes, header: str) -> bool:
    """What a receiver does: recompute the signature and compare in constant time."""
    return hmac.compare_digest(sign(secret, body), header or "")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook answer of 3xx is a failure: following it would let a receiver point us anywhere."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


class Webhooks:
    """Each player's webhook: its URL and signing secret, the secret encrypted at rest (``sealed``).

    Older versions stored the secret in plain text (field ``secret``): such a hook still works, is encrypted
    the first time it is read, and ``reencrypt_all`` (``taproom webhooks reencrypt``) encrypts them all.
    """

    def __init__(self, client: redis.Redis, keys: Keys, box: SecretBox | None = None) -> None:
        self.redis = client
        self.keys = keys
        self._box = box
        self.read_ahead: ReadAhead | None = None  # URLs the reactor read for its batch (``Keys.webhook`` -> url)

    @property
    def box(self) -> SecretBox:
        if self._box is None:  # looked up on first use: reading a URL needs no key
            self._box = secret_box(get_settings())
        return self._box

    def register(self, player_id: str, url: str, allow_private: bool = False, allow_loopback: bool = False) -> str:
        """Store the URL with a fresh secret; returns the secret (shown once)."""
        check_url(url, allow_private, allow_loopback)
        secret = secrets.token_urlsafe(32)
        key = self.keys.webhook(player_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key, mapping={"url": url, "sealed": self.box.seal(secret), "created": time.time()})
        pipe.hdel(key, "secret")
        pipe.execute()
        return secret

    def url(self, player_id: str) -> str | None:
        key = self.keys.webhook(player_id)
        if self.read_ahead is not None and key in self.read_ahead:
            raw = self.read_ahead.get(key)
        else:
            raw = self.redis.hget(key, "url")
        return raw.decode() if raw else None

    def get(self, player_id: str) -> tuple[str, str] | None:
        """(url, secret), or None without a webhook. Raises ``InvalidToken`` when no configured key opens it."""
        raw: dict[bytes, bytes] = self.redis.hgetall(self.keys.webhook(player_id))  # type: ignore[assignment]
        if not raw:
            return None
        if b"sealed" in raw:
            return raw[b"url"].decode(), self.box.open(raw[b"sealed"].decode())
        secret = raw[b"secret"].decode()
        self._seal_plain(self.keys.webhook(player_id), secret)
        return raw[b"url"].decode(), secret

    def remove(self, player_id: str) -> bool:
        return bool(self.redis.delete(self.keys.webhook(player_id)))

    def reencrypt_all(self) -> dict[str, int]:
        """Put every stored secret under the newest key; encrypt those stored in plain text. Safe to repeat."""
        counts = {"resealed": 0, "encrypted": 0, "unreadable": 0}
        for key in self.redis.scan_iter(match=self.keys.webhook("*"), count=500):
            sealed, plain = self.redis.hmget(key, "sealed", "secret")
            if sealed is not None:
                try:
                    self.redis.hset(key, "sealed", self.box.reseal(sealed.decode()))
                    counts["resealed"] += 1
                except InvalidToken:  # its key is gone: the player must register the webhook again
                    counts["unreadable"] += 1
            elif plain is not None:
                self._seal_plain(key, plain.decode())
                counts["encrypted"] += 1
        return counts

    def _seal_plain(self, key: str | bytes, secret: str) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key, "sealed", self.box.seal(secret))
        pipe.hdel(key, "secret")
        pipe.execute()


class Notifier:
    """Sends each message at most once (by a dedupe key) to a player's list and webhook."""

    def __init__(self, client: redis.Redis, keys: Keys, queue: Queue, settings: AsyncSettings, clock: Clock) -> None:
        self.redis = client
        self.keys = keys
        self.queue = queue
        self.settings = settings
        self.clock = clock
        self.webhooks = Webhooks(client, keys)
        self._record_once = client.register_script(RECORD_ONCE)
        self.prefs = Preferences(client, keys)
        self.mailer = Mailer(client, keys, queue, settings, clock)
        self.pusher = Pusher(client, keys, queue, settings, clock)
        self.presence = presence_of(client, keys, clock, settings)
        self.writes: BatchWrites | None = None
        """The reactor's batch: "sent" markers go with its writes (after every delivery job is enqueued)."""
        self._marked: set[str] = set()  # markers written with the batch's writes

    def batch(self, read_ahead: ReadAhead | None, writes: BatchWrites | None) -> None:
        """Read preferences and webhooks from ``read_ahead`` and mark messages sent with ``writes`` (None, None:
        the batch is over)."""
        self.prefs.read_ahead = self.webhooks.read_ahead = read_ahead
        self.writes = writes
        self._marked.clear()

    def read_ahead_keys(self, player_id: str) -> list[tuple[str, str]]:
        """(key, how to read it: "get" or "hget url") of what :meth:`send` reads of a player."""
        return [(self.keys.notify_prefs(player_id), "get"), (self.keys.webhook(player_id), "hget url")]

    def queue_reads(self, pipe: Any, players: list[str]) -> list[str]:
        """Queue on ``pipe`` what :meth:`send` reads of ``players`` (see :meth:`read_ahead_keys`); returns the
        keys, one per reply, for :meth:`take_reads`."""
        keys = []
        for player in players:
            for key, how in self.read_ahead_keys(player):
                if how == "get":
                    pipe.get(key)
                else:
                    pipe.hget(key, how.split()[1])
                keys.append(key)
        return keys

    @staticmethod
    def take_reads(read_ahead: ReadAhead, keys: list[str], replies: list[Any]) -> None:
        for key, raw in zip(keys, replies):
            read_ahead.put(key, raw)

    def sent(self, player_id: str, dedupe: str) -> bool:
        """True when the message with this ``dedupe`` key was sent to ``player_id`` before."""
        key = self.keys.notified(player_id, dedupe)
        return key in self._marked or bool(self.redis.exists(key))

    def hook_job_id(self, delivery: str) -> str:
        return f"hook-{re.sub(r'[^A-Za-z0-9_-]', '_', self.keys.prefix.rstrip(':'))}-{delivery}"

    def send(self, player_id: str, kind: str, data: dict[str, Any], dedupe: str, unsent: bool = False) -> bool:
        """Queue one message; False when this ``dedupe`` key was sent before (``unsent``: the caller just
        checked it was not)."""
        if not unsent and self.sent(player_id, dedupe):
            return False
        delivery = hashlib.sha256(dedupe.encode()).hexdigest()[:20]
        body = orjson.dumps({"delivery": delivery, "kind": kind, "player_id": player_id, "ts": self.clock.now(), **data})
        prefs = self.prefs.get(player_id)
        if prefs.wants(kind):
            when = prefs.deliver_at(self.clock.now())
            if self.webhooks.url(player_id) is not None:  # the secret is only opened by the delivery job
                self._enqueue_delivery(player_id, kind, body, delivery, when)
            held = self._held_until(player_id, kind, data)
            if held is not None:  # the player has the game open (or just left it): e-mail and push wait
                hold(self.queue, self.keys, player_id, kind, body, delivery, held)
            else:
                self.mailer.dispatch(player_id, kind, body, delivery, prefs, when)
                self.pusher.dispatch(player_id, kind, body, delivery, when)
        if not self._mark_sent(player_id, dedupe, body):
            return False  # a concurrent send of the same message recorded it first
        log.info("notification", player_id=player_id, kind=kind, delivery=delivery)
        return True

    def _held_until(self, player_id: str, kind: str, data: dict[str, Any]) -> float | None:
        """When a "your turn" e-mail and push may go out, if not at once (see :mod:`.away`)."""
        game_id = data.get("game_id")
        if kind not in HELD_KINDS or not game_id or not (self.mailer.enabled or self.pusher.enabled):
            return None
        return held_until(self.presence, player_id, game_id, self.settings.presence_grace_seconds)

    def _enqueue_delivery(self, player_id: str, kind: str, body: bytes, delivery: str,
                          when: float | None = None) -> None:
        """Enqueue the webhook job unless a send interrupted before its marker already did (same job id)."""
        job_id = self.hook_job_id(delivery)
        if Job.exists(job_id, connection=self.queue.connection):
            return
        intervals = self.settings.webhook_retry_intervals
        options: dict[str, Any] = dict(job_id=job_id, result_ttl=3600, failure_ttl=7 * 86400,
                                       retry=Retry(max=len(intervals), interval=intervals) if intervals else None)
        args = (deliver_webhook, player_id, body.decode(), delivery, kind)
        if when is not None and when > self.clock.now():  # quiet hours: deliver when they end
            self.queue.enqueue_at(datetime.fromtimestamp(when, tz=UTC), *args, **options)
        else:
            self.queue.enqueue(*args, **options)

    def _mark_sent(self, player_id: str, dedupe: str, body: bytes) -> bool:
        """Write the marker and the recent-list entry in one step; False if the marker was there."""
        keys = [self.keys.notified(player_id, dedupe), self.keys.notes(player_id)]
        args = [body, self.settings.notifications_kept, DEDUPE_TTL]
        if self.writes is not None:  # with the batch's writes; a repeat finds the marker (or ours, until then)
            self._marked.add(keys[0])
            reply = self.writes.script(self._record_once, keys, args)
            return reply is None or bool(reply)
        return bool(self._record_once(keys=keys, args=args))

    def recent(self, player_id: str, limit: int = 50) -> list[dict[str, Any]]:
        return [orjson.loads(m) for m in self.redis.lrange(self.keys.notes(player_id), 0, limit - 1)]


def deliver_webhook(player_id: str, body: str, delivery: str, kind: str, *,
                    connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """rq job: POST one signed message; raises (so rq retries with backoff) unless the receiver says 2xx.

    Its timeout and the addresses it may reach are the worker's ``webhook_*`` settings."""
    # Compatibility: jobs queued before the worker carried the settings were given ``prefix``, ``shards``,
    # ``timeout_seconds``, ``allow_private`` and ``allow_loopback``; accepted and ignored (the worker's settings
    # are the deployment's). Remove once none can be left: the last of ``webhook_retry_intervals`` after every
    # deployment runs this version.
    root = job_root_of(connection)
    settings = root.settings
    timeout_seconds = settings.webhook_timeout_seconds
    allow_private, allow_loopback = settings.webhook_allow_private, settings.webhook_allow_loopback
    try:
        hook = Webhooks(root.redis, root.keys).get(player_id)
    except InvalidToken:  # retrying cannot help: no configured key opens this secret
        log.error("webhook secret unreadable: its key was dropped before `taproom webhooks reencrypt`",
                  player_id=player_id, delivery=delivery)
        return {"skipped": "secret unreadable"}
    if hook is None:
        return {"skipped": "no webhook"}
    url, secret = hook
    check_url(url, allow_private, allow_loopback)  # again: the name may resolve elsewhere by now
    data = body.encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "taproom-webhook/1",
        "X-Taproom-Event": kind, "X-Taproom-Delivery": delivery, SIGNATURE_HEADER: sign(secret, data)})
    try:
        with _OPENER.open(request, timeout=timeout_seconds) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (urllib.error.URLError, OSError) as exc:
        raise WebhookFailed(f"webhook {delivery} to {url}: {exc}") from None
    if not 200 <= status < 300:
        raise WebhookFailed(f"webhook {delivery} to {url}: HTTP {status}")
    return {"delivered": delivery, "status": status}
