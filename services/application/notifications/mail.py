"""E-mail notifications: a verified address per player, messages sent by rq jobs through SMTP (stdlib
``smtplib``), retried with backoff (rq ``Retry``), with a one-click unsubscribe (RFC 8058).

Tokens in links are random, stored only as their SHA-256 (``mail_token``), single purpose (``verify`` or
``unsubscribe``) and expiring. A message carries what the in-app list shows and a link to the game's
public page: never a seat's hidden information or a credential.

Each job reads the address, the player's preferences and the rate limit when it runs, so a change made
after a message was queued (a new address, an unsubscribe) applies to it.
"""

from __future__ import annotations

import email.policy
import hashlib
import re
import secrets
import smtplib
import ssl
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import orjson
import redis
import structlog
from rq import Queue, Retry
from rq.job import Job

from domain.core import InvalidCommand
from services.application.notifications.compose import (
    compose,
    digest_content,
    game_link,
    page,
    settings_link,
    who_moved,
)
from services.application.notifications.prefs import EMAIL_KINDS, NotificationPrefs, Preferences
from services.infrastructure.bootstrap import job_root_of
from services.infrastructure.clock import Clock
from services.infrastructure.eventstore import Keys
from services.infrastructure.settings import AsyncSettings

log = structlog.get_logger("taproom.email")

MAX_ADDRESS = 254


def job_safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


def at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_address(address: str) -> str:
    """A plausible single address (no display name, no header injection); the link proves it works."""
    address = address.strip()
    local, _, domain = address.rpartition("@")
    if (not local or "." not in domain or len(address) > MAX_ADDRESS
            or any(c.isspace() or c in '<>,;:"\\' or ord(c) < 32 for c in address)):
        raise InvalidCommand(f"not an e-mail address: {address!r}")
    return address


def _link(settings: AsyncSettings, path: str) -> str:
    return f"{settings.public_url.rstrip('/')}{path}"


class Addresses:
    """A player's address: ``pending`` until its verification link is followed, then ``address``."""

    def __init__(self, client: redis.Redis, keys: Keys, settings: AsyncSettings) -> None:
        self.redis = client
        self.keys = keys
        self.settings = settings

    def status(self, player_id: str) -> dict[str, Any]:
        raw: dict[bytes, bytes] = self.redis.hgetall(self.keys.email(player_id))  # type: ignore[assignment]
        return {"address": raw[b"address"].decode() if b"address" in raw else None,
                "pending": raw[b"pending"].decode() if b"pending" in raw else None}

    def verified(self, player_id: str) -> str | None:
        raw = self.redis.hget(self.keys.email(player_id), "address")
        return raw.decode() if raw else None

    def request(self, player_id: str, address: str) -> str:
        """Store ``address`` as pending; returns the verification token (for the link only)."""
        address = check_address(address)
        token = secrets.token_urlsafe(32)
        self.redis.set(self.keys.mail_token(hash_token(token)),
                       orjson.dumps({"purpose": "verify", "player_id": player_id, "address": address}),
                       ex=self.settings.mail_verify_ttl_seconds)
        self.redis.hset(self.keys.email(player_id), "pending", address)
        return token

    def verify(self, token: str) -> tuple[str, str] | None:
        """Follow a verification link: (player, address), or None when the link is unknown, used or stale."""
        key = self.keys.mail_token(hash_token(token))
        raw = self.redis.getdel(key)  # single use
        if raw is None:
            return None
        data = orjson.loads(raw)
        if data.get("purpose") != "verify":
            return None
        player_id, address = data["player_id"], data["address"]
        if self.redis.hget(self.keys.email(player_id), "pending") != address.encode():
            return None  # a newer address was asked for since
        with self.redis.pipeline() as pipe:
            pipe.hset(self.keys.email(player_id), "address", address)
            pipe.hdel(self.keys.email(player_id), "pending")
            pipe.execute()
        return player_id, address

    def remove(self, player_id: str) -> bool:
        """Forget the address and what waited for its digest."""
        return bool(self.redis.delete(self.keys.email(player_id), self.keys.digest(player_id)))

    def unsubscribe_token(self, player_id: str, kind: str | None) -> str:
        token = secrets.token_urlsafe(32)
        self.redis.set(self.keys.mail_token(hash_token(token)),
                       orjson.dumps({"purpose": "unsubscribe", "player_id": player_id, "kind": kind}),
                       ex=self.settings.mail_unsubscribe_ttl_seconds)
        return token

    def unsubscribe(self, token: str) -> tuple[str, str | None] | None:
        """(player, kind or None for all) of an unsubscribe link, which turns that e-mail off; None if unknown.
        Not spent on use: a second click (or the client's POST after the person's) must not fail."""
        raw = self.redis.get(self.keys.mail_token(hash_token(token)))
        if raw is None:
            return None
        data = orjson.loads(raw)
        if data.get("purpose") != "unsubscribe":
            return None
        Preferences(self.redis, self.keys).email_off(data["player_id"], data["kind"])
        return data["player_id"], data["kind"]


# -- what a message says ---------------------------------------------------------------------------------

def describe(kind: str, data: dict[str, Any]) -> tuple[str, str]:
    """(title, one line) of a message, from the fields every channel shows (nothing private)."""
    game = data.get("game_id", "")
    if kind == "your_turn":
        title = data.get("title")
        return "Your turn", (f"It is your turn in {title} (game {game})." if title else f"It is your turn in game {game}.")
    if kind == "deadline_soon":
        return "Your deadline is near", f"Your turn in game {game} times out in {data.get('hours')} hours."
    if kind == "invited":
        return "You are invited", f"You are invited to seat {data.get('seat')} of a {data.get('game', 'game')} " \
                                  f"game ({game})."
    if kind == "game_over":
        place = data.get("place")
        totals = ", ".join(f"seat {s['seat']}: {s['total']:g}" for s in data.get("scores", []))
        return "Game over", f"Game {game} has ended" + (f": you placed {place}" if place else "") + \
            (f" ({totals})." if totals else ".")
    leaving = _leaving_words(kind, data)
    if leaving is not None:
        return leaving
    return kind.replace("_", " ").capitalize(), f"Game {game}: {kind.replace('_', ' ')}."


def _days(seconds: float) -> str:
    days = max(1, round(seconds / 86400))
    return f"{days} day" + ("s" if days != 1 else "")


def _leaving_words(kind: str, data: dict[str, Any]) -> tuple[str, str] | None:
    """The words of the messages about leaving a game (an absent seat, a resignation, an idle end)."""
    game = data.get("game_id", "")
    if kind == "absence_warning":
        return "Your game is waiting for you", (
            f"It has been your turn in game {game} for {_days(data.get('idle_seconds', 0))}. Play a move within "
            f"{_days(data.get('vote_in_seconds', 0))}, or the other players may end the game (you placed last) "
            "or give your seat to a bot.")
    if kind == "absent":
        return "The table may now vote about your seat", (
            f"You have not moved in game {game} for {_days(data.get('idle_seconds', 0))}: the other players may now "
            "vote to end the game (you placed last) or to give your seat to a bot. Play a move to stop the vote.")
    if kind == "absent_vote":
        return "A player is away", (
            f"{data.get('name', 'A player')} has not moved in game {game} for {_days(data.get('idle_seconds', 0))}. "
            "You may vote to end the game or to give their seat to a bot.")
    if kind == "left":
        name = data.get("name", "A player")
        how = "resigned" if data.get("how") == "resigned" else "left the game"
        return f"{name} {how}", f"{name} {how} in game {game}" + (
            "; a bot plays their seat to the end." if data.get("bot") else "; the game is over.")
    return None


MAIL_POLICY = email.policy.default.clone(refold_source="none")
"""Headers set with ``set_raw`` go on the wire as given: ``List-Unsubscribe`` holds one long URL that the default
policy would fold into RFC 2047 encoded-words (``=?utf-8?q?...?=``), which mail providers do not read as a
link, so they would offer no one-click unsubscribe. The line stays far below RFC 5322's 998 characters."""


def build_message(settings: AsyncSettings, to: str, subject: str, text: str,
                  unsubscribe_url: str | None, html_part: str | None = None) -> EmailMessage:
    """One message: plain text, with ``html_part`` as its multipart/alternative HTML twin when given."""
    message = EmailMessage(policy=MAIL_POLICY)
    message["From"] = settings.mail_from
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="taproom")
    if unsubscribe_url:
        # RFC 8058: a mail client may POST "List-Unsubscribe=One-Click" to the URL without asking again.
        # Raw: one unfolded line with the URL in angle brackets (RFC 2369), never encoded-words.
        message.set_raw("List-Unsubscribe", f"<{unsubscribe_url}>")
        message.set_raw("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
    message.set_content(text)
    if html_part is not None:
        message.add_alternative(html_part, subtype="html")
    return message


def smtp_send(settings: AsyncSettings, message: EmailMessage) -> None:
    """Hand one message to the SMTP server; raises (so rq retries) when it does not take it."""
    timeout = settings.smtp_timeout_seconds
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if settings.smtp_tls == "ssl":
        smtp = smtplib.SMTP_SSL(settings.smtp_host, settings.smtp_port, timeout=timeout, context=context)
    else:
        smtp = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=timeout)
    with smtp:
        if settings.smtp_tls == "starttls":
            smtp.starttls(context=context)
        if settings.smtp_username:
            smtp.login(settings.smtp_username, settings.smtp_password.get_secret_value())
        smtp.send_message(message)


# -- queueing (called by the notifier) -------------------------------------------------------------------

class Mailer:
    def __init__(self, client: redis.Redis, keys: Keys, queue: Queue, settings: AsyncSettings, clock: Clock) -> None:
        self.redis = client
        self.keys = keys
        self.queue = queue
        self.settings = settings
        self.clock = clock
        self.addresses = Addresses(client, keys, settings)

    @property
    def enabled(self) -> bool:
        return bool(self.settings.smtp_host)

    def _tag(self) -> str:
        return job_safe(self.keys.prefix.rstrip(":")) or "tr"

    def _enqueue(self, job_id: str, func: Any, *args: Any, when: float | None = None) -> bool:
        if Job.exists(job_id, connection=self.queue.connection):
            return False  # queued before a crash, or a repeat: once
        intervals = self.settings.mail_retry_intervals
        options: dict[str, Any] = dict(job_id=job_id, result_ttl=3600, failure_ttl=7 * 86400,
                                       retry=Retry(max=len(intervals), interval=intervals) if intervals else None)
        if when is not None and when > self.clock.now():
            self.queue.enqueue_at(at(when), func, *args, **options)
        else:
            self.queue.enqueue(func, *args, **options)
        return True

    def send_verification(self, player_id: str, address: str) -> str:
        token = self.addresses.request(player_id, address)
        self._enqueue(f"mailverify-{self._tag()}-{hash_token(token)[:20]}", deliver_verification,
                      player_id, token)
        return token

    def dispatch(self, player_id: str, kind: str, body: bytes, delivery: str, prefs: NotificationPrefs,
                 when: float | None) -> str | None:
        """Queue the e-mail of one message as the player chose: now (or when their quiet hours end), into
        the daily digest, or not at all. Returns what was done."""
        if not self.enabled or kind not in EMAIL_KINDS or self.addresses.verified(player_id) is None:
            return None
        mode = prefs.email.mode(kind)
        if mode == "immediate":
            self._enqueue(f"mail-{self._tag()}-{delivery}", deliver_email, player_id, kind, body.decode(),
                          delivery, when=when)
            return "immediate"
        if mode == "digest":
            self.redis.hset(self.keys.digest(player_id), delivery, body)
            due = prefs.next_digest(self.clock.now())
            day = int(due // 86400)
            self._enqueue(f"digest-{self._tag()}-{job_safe(player_id)}-{day}", deliver_digest, player_id,
                          when=max(due, when or 0))
            return "digest"
        return None


# -- jobs -------------------------------------------------------------------------------------------------

# Compatibility: mail jobs queued before the worker carried the settings were given ``prefix``, ``shards`` and
# ``async_settings`` keywords. They are accepted (``**_queued_before``) and ignored — the worker's settings are the
# deployment's. Remove once no such job can be left: a day (a digest's furthest schedule) plus the last retry
# interval after every deployment runs this version.
def _job_env(connection: redis.Redis | None) -> tuple[redis.Redis, Keys, AsyncSettings]:
    root = job_root_of(connection)
    return root.redis, root.keys, root.settings


def _job_clock(connection: redis.Redis | None) -> Clock:
    return job_root_of(connection).clock


def deliver_verification(player_id: str, token: str, *,
                         connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """rq job: mail the verification link to the pending address (if it is still the one asked for)."""
    client, keys, settings = _job_env(connection)
    raw = client.get(keys.mail_token(hash_token(token)))
    if raw is None:
        return {"skipped": "verified or expired"}
    address = orjson.loads(raw)["address"]
    if Addresses(client, keys, settings).status(player_id)["pending"] != address:
        return {"skipped": "another address was asked for"}
    link = _link(settings, f"/email/verify?token={token}")
    message = build_message(settings, address, "Taproom: confirm your e-mail address",
                            f"Follow this link to receive Taproom notifications at this address:\n{link}\n\n"
                            "If you did not ask for this, ignore this message.\n\n"
                            f"Your notification settings: {settings_link(settings)}\n", None,
                            page("Confirm your e-mail address",
                                 ["Taproom will send your notifications to this address once you confirm it.",
                                  "If you did not ask for this, ignore this message."],
                                 "Confirm this address", link, settings, None))
    smtp_send(settings, message)
    return {"sent": "verification"}


def deliver_email(player_id: str, kind: str, body: str, delivery: str, *,
                  connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """rq job: e-mail one message, if the player still wants it; raises on SMTP failure (rq retries)."""
    client, keys, settings = _job_env(connection)
    clock = _job_clock(connection)
    addresses = Addresses(client, keys, settings)
    to = addresses.verified(player_id)
    prefs = Preferences(client, keys).get(player_id)
    if to is None or not prefs.wants(kind) or prefs.email.mode(kind) != "immediate":
        return {"skipped": "not wanted"}
    data = orjson.loads(body)
    game_id = data.get("game_id", "")
    if kind == "your_turn" and not prefs.email.every_turn and game_id:
        # one per game per interval; the marker names its delivery, so a retry of that e-mail still goes.
        # The time is the service clock's (not a Redis TTL), so the limit follows the clock jobs run by.
        marker = keys.mail_turn_sent(player_id, game_id)
        last = client.get(marker)
        if last is not None:
            last_delivery, _, last_ts = last.decode().rpartition(":")
            if last_delivery != delivery and clock.now() - float(last_ts) < settings.mail_turn_interval_seconds:
                return {"skipped": "a your-turn e-mail for this game went out within the interval"}
        client.set(marker, f"{delivery}:{clock.now()!r}", ex=2 * settings.mail_turn_interval_seconds + 86400)
    if kind == "your_turn" and game_id and "mover" not in data and isinstance(data.get("version"), int):
        data["mover"] = who_moved(job_root_of(connection), game_id, data["version"])
    title, line = describe(kind, data)
    unsubscribe = _link(settings, f"/email/unsubscribe?token={addresses.unsubscribe_token(player_id, kind)}")
    content = compose(kind, data, title, line, settings, prefs.zone(), unsubscribe)
    smtp_send(settings, build_message(settings, to, content.subject, content.text, unsubscribe, content.html))
    log.info("email sent", player_id=player_id, kind=kind, delivery=delivery)
    return {"sent": delivery}


def deliver_digest(player_id: str, *, connection: redis.Redis | None = None, **_queued_before: Any) -> dict[str, Any]:
    """rq job: one e-mail with every message waiting in the player's digest; removes only what it sent."""
    client, keys, settings = _job_env(connection)
    addresses = Addresses(client, keys, settings)
    waiting: dict[bytes, bytes] = client.hgetall(keys.digest(player_id))  # type: ignore[assignment]
    to = addresses.verified(player_id)
    if not waiting or to is None:
        return {"skipped": "nothing to send"}
    prefs = Preferences(client, keys).get(player_id)
    items = sorted((orjson.loads(b) for b in waiting.values()), key=lambda m: m.get("ts", 0))
    lines = []
    for item in items:
        if prefs.wants(item["kind"]) and prefs.email.mode(item["kind"]) == "digest":
            _, line = describe(item["kind"], item)
            lines.append((line, game_link(settings, item.get("game_id", ""))))
    if lines:
        unsubscribe = _link(settings, f"/email/unsubscribe?token={addresses.unsubscribe_token(player_id, None)}")
        content = digest_content(lines, settings, unsubscribe)
        smtp_send(settings, build_message(settings, to, content.subject, content.text, unsubscribe, content.html))
    client.hdel(keys.digest(player_id), *waiting.keys())
    return {"sent": len(lines)}
