"""Web Push: the page's push subscriptions per player, and a job per (message, subscription) that sends
the encrypted payload (RFC 8291, ``aes128gcm``) signed with the VAPID key from the settings (pywebpush).

The payload is what the service worker shows: ``{kind, title, body, url, game_id}`` (``url`` the game's
public page), nothing private. A push service answering 404 or 410 has dropped the subscription, so it is
removed; other failures raise and rq retries with backoff.
"""

from __future__ import annotations

import base64
import hashlib
import re
from datetime import UTC, datetime
from typing import Any

import orjson
import redis
import structlog
from pydantic import BaseModel, ConfigDict, Field, field_validator
from rq import Queue, Retry
from rq.job import Job

from domain.core import RuleError
from services.application.notifications.mail import describe, game_link
from services.infrastructure.bootstrap import job_root_of
from services.infrastructure.clock import Clock
from services.infrastructure.eventstore import Keys
from services.infrastructure.settings import AsyncSettings
from services.infrastructure.urls import check_url

log = structlog.get_logger("taproom.webpush")


class PushFailed(Exception):
    """The push service did not take the message; rq retries."""


def _b64(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")
    # The patterns say in the schema what the validators check: 65 bytes starting 0x04, 16 bytes
    p256dh: str = Field(pattern=r"^B[A-P][A-Za-z0-9_-]{85}=?$",
                        description="the browser's P-256 public key (an uncompressed point), base64url")
    auth: str = Field(pattern=r"^[A-Za-z0-9_-]{22}(==)?$", description="the 16-byte auth secret, base64url")

    @field_validator("p256dh")
    @classmethod
    def _point(cls, value: str) -> str:
        raw = _b64(value)
        if len(raw) != 65 or raw[0] != 4:
            raise ValueError("p256dh must be an uncompressed P-256 point (65 bytes, base64url)")
        return value

    @field_validator("auth")
    @classmethod
    def _auth(cls, value: str) -> str:
        if len(_b64(value)) != 16:
            raise ValueError("auth must be 16 bytes, base64url")
        return value


class Subscription(BaseModel):
    """As the browser's ``PushSubscription.toJSON()`` gives it."""
    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(min_length=8, max_length=2000)
    keys: SubscriptionKeys

    @property
    def id(self) -> str:
        return hashlib.sha256(self.endpoint.encode()).hexdigest()[:16]


def payload(settings: AsyncSettings, kind: str, data: dict[str, Any], locale: str | None = None) -> dict[str, Any]:
    title, body = describe(kind, data, locale)
    game_id = data.get("game_id", "")
    return {"kind": kind, "title": title, "body": body, "game_id": game_id,
            "url": game_link(settings, game_id) if game_id else settings.public_url.rstrip("/") + "/"}


class PushSubscriptions:
    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys

    def add(self, player_id: str, subscription: Subscription, cap: int) -> str:
        """Store (or replace: the same browser again) a subscription; at most ``cap`` per player."""
        key = self.keys.push_subscriptions(player_id)
        # Add first, then count: of two racing adds at the cap neither slips past it.
        added = self.redis.hset(key, subscription.id, subscription.model_dump_json())
        if added and self.redis.hlen(key) > cap:
            self.redis.hdel(key, subscription.id)
            raise RuleError(f"you have {cap} push subscriptions (one per browser): remove one in the settings of "
                            "a browser you no longer use first", code="too_many_push_subscriptions")
        return subscription.id

    def all(self, player_id: str) -> dict[str, Subscription]:
        raw: dict[bytes, bytes] = self.redis.hgetall(self.keys.push_subscriptions(player_id))  # type: ignore[assignment]
        return {k.decode(): Subscription.model_validate_json(v) for k, v in raw.items()}

    def get(self, player_id: str, sub_id: str) -> Subscription | None:
        raw = self.redis.hget(self.keys.push_subscriptions(player_id), sub_id)
        return Subscription.model_validate_json(raw) if raw else None

    def remove(self, player_id: str, sub_id: str) -> bool:
        return bool(self.redis.hdel(self.keys.push_subscriptions(player_id), sub_id))


class Pusher:
    def __init__(self, client: redis.Redis, keys: Keys, queue: Queue, settings: AsyncSettings, clock: Clock) -> None:
        self.redis = client
        self.keys = keys
        self.queue = queue
        self.settings = settings
        self.clock = clock
        self.subscriptions = PushSubscriptions(client, keys)

    @property
    def enabled(self) -> bool:
        # the public key alone: the private one is read where the push is signed (the job's environment)
        return bool(self.settings.vapid_public_key)

    def dispatch(self, player_id: str, kind: str, body: bytes, delivery: str, when: float | None) -> int:
        """One job per subscription (a dead one must not hold back the others); returns how many queued."""
        if not self.enabled:
            return 0
        tag = re.sub(r"[^A-Za-z0-9_-]", "_", self.keys.prefix.rstrip(":")) or "tr"
        intervals = self.settings.push_retry_intervals
        queued = 0
        for sub_id in self.subscriptions.all(player_id):
            job_id = f"push-{tag}-{delivery}-{sub_id}"
            if Job.exists(job_id, connection=self.queue.connection):
                continue
            options: dict[str, Any] = dict(job_id=job_id, result_ttl=3600, failure_ttl=86400,
                                           retry=Retry(max=len(intervals), interval=intervals) if intervals else None)
            args = (player_id, sub_id, kind, body.decode())
            if when is not None and when > self.clock.now():
                self.queue.enqueue_at(datetime.fromtimestamp(when, tz=UTC), deliver_push, *args, **options)
            else:
                self.queue.enqueue(deliver_push, *args, **options)
            queued += 1
        return queued


def deliver_push(player_id: str, sub_id: str, kind: str, body: str, *,
                 connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """rq job: send one message to one subscription."""
    from pywebpush import WebPushException, webpush

    # Compatibility: jobs queued before the worker carried the settings were given ``prefix``, ``shards`` and
    # ``async_settings``; accepted and ignored (the worker's settings are the deployment's). Remove once none
    # can be left: the last of ``push_retry_intervals`` after every deployment runs this version.
    root = job_root_of(connection)
    connection, keys, settings = root.redis, root.keys, root.settings
    subscriptions = PushSubscriptions(connection, keys)
    subscription = subscriptions.get(player_id, sub_id)
    if subscription is None:
        return {"skipped": "unsubscribed"}
    from services.application.notifications.prefs import Preferences

    prefs = Preferences(connection, keys).get(player_id)
    if not prefs.wants(kind):
        return {"skipped": "not wanted"}

    # again at each send, as for webhooks: the endpoint's name may resolve somewhere private by now
    check_url(subscription.endpoint, settings.webhook_allow_private, settings.webhook_allow_loopback, what="push endpoint")
    data = orjson.dumps(payload(settings, kind, orjson.loads(body), prefs.language))
    try:
        response = webpush(subscription.model_dump(), data=data,
                           vapid_private_key=settings.vapid_private_key.get_secret_value(),
                           vapid_claims={"sub": settings.vapid_subject}, ttl=settings.push_ttl_seconds,
                           content_encoding="aes128gcm", timeout=10)
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in (404, 410):
            subscriptions.remove(player_id, sub_id)
            return {"removed": sub_id, "status": status}
        raise PushFailed(f"push {sub_id}: {exc}") from None
    return {"pushed": sub_id, "status": getattr(response, "status_code", None)}
