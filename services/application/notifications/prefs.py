"""A player's notification preferences, one record for every channel (webhook, e-mail, Web Push).

* ``kinds``: the message kinds the player wants outside Taproom (a kind switched off still lands in the
  in-app list, which is a place the player looks, not a channel that interrupts them);
* ``quiet_hours``: a daily window in the player's time zone during which nothing is delivered; what falls
  into it is delivered when it ends (scheduled, not dropped);
* ``email``: per kind, ``off``, ``immediate`` or ``digest`` (one message a day at ``digest_hour``), and
  ``every_turn`` to lift the one-"your turn"-per-game-per-hour limit.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Literal, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import redis
from pydantic import BaseModel, ConfigDict, Field, field_validator

from domain.core import InvalidCommand
from services.infrastructure.batching import ReadAhead
from services.infrastructure.eventstore import Keys
from services.infrastructure.i18n import available_locales

Kind = Literal["your_turn", "deadline_soon", "timed_out", "taken_over", "seat_vote", "replaced", "game_over",
               "invited", "absence_warning", "absent", "absent_vote", "left"]
KINDS: tuple[Kind, ...] = get_args(Kind)
EMAIL_KINDS = ("your_turn", "game_over", "invited", "deadline_soon", "absence_warning", "absent")
"""What a player may have e-mailed (the issue's four, and the two that warn a player their untimed game is about to
be voted on without them); the other seat-keeping kinds go to the other channels."""

EmailMode = Literal["off", "immediate", "digest"]


class QuietHours(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: time = Field(description="local time the quiet begins, e.g. 22:00")
    end: time = Field(description="local time it ends, e.g. 07:30 (before start: over midnight)")
    timezone: str = Field("UTC", description="IANA name, e.g. Europe/Berlin",
                          json_schema_extra={"enum": [*sorted(available_timezones() | {"UTC"})]})  # the schema names them

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r}") from None
        return value

    def until(self, now: float) -> float | None:
        """When the quiet that ``now`` falls into ends (a timestamp), or None outside it."""
        if self.start == self.end:
            return None
        zone = ZoneInfo(self.timezone)
        local = datetime.fromtimestamp(now, zone)
        t = local.time().replace(tzinfo=None)
        if self.start < self.end:
            inside = self.start <= t < self.end
        else:
            inside = t >= self.start or t < self.end
        if not inside:
            return None
        end = datetime.combine(local.date(), self.end, zone)
        if end <= local:
            end += timedelta(days=1)
        return end.timestamp()


def _every_kind_at_once() -> dict[str, EmailMode]:
    return {k: "immediate" for k in EMAIL_KINDS}


class EmailPrefs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kinds: dict[str, EmailMode] = Field(default_factory=_every_kind_at_once,
                                        json_schema_extra={"propertyNames": {"enum": list(EMAIL_KINDS)}})
    every_turn: bool = Field(False, description="a \"your turn\" e-mail for every turn, not one per game per hour")
    digest_hour: int = Field(8, ge=0, le=23, description="local hour (quiet hours' time zone) of the daily digest")

    @field_validator("kinds")
    @classmethod
    def _email_kinds(cls, value: dict[str, EmailMode]) -> dict[str, EmailMode]:
        unknown = sorted(set(value) - set(EMAIL_KINDS))
        if unknown:
            raise ValueError(f"no e-mail for {unknown}; choose among {list(EMAIL_KINDS)}")
        return {**{k: "off" for k in EMAIL_KINDS}, **value}

    def mode(self, kind: str) -> EmailMode:
        return self.kinds.get(kind, "off")


class NotificationPrefs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kinds: list[Kind] = Field(default_factory=lambda: list(KINDS), description="kinds delivered by any channel")
    quiet_hours: QuietHours | None = None
    email: EmailPrefs = Field(default_factory=lambda: EmailPrefs())
    language: str | None = Field(None, description="the player's language (``en``, ``de``): the pages, e-mails "
                                 "and pushes; none chosen: the browser's",
                                 json_schema_extra={"enum": [*available_locales(), None]})

    @field_validator("language")
    @classmethod
    def _offered_language(cls, value: str | None) -> str | None:
        if value is not None and value not in available_locales():
            raise ValueError(f"no language {value!r}; choose among {list(available_locales())}")
        return value

    @field_validator("kinds")
    @classmethod
    def _known_kinds(cls, value: list[Kind]) -> list[Kind]:
        unknown = sorted(set(value) - set(KINDS))
        if unknown:
            raise ValueError(f"unknown notification kinds {unknown}; choose among {list(KINDS)}")
        return list(dict.fromkeys(value))

    def wants(self, kind: str) -> bool:
        return kind in self.kinds

    def deliver_at(self, now: float) -> float | None:
        """None: deliver now; else the end of the quiet hours ``now`` falls into."""
        return self.quiet_hours.until(now) if self.quiet_hours else None

    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.quiet_hours.timezone if self.quiet_hours else "UTC")

    def next_digest(self, now: float) -> float:
        """The next ``digest_hour`` in the player's zone after ``now``."""
        zone = self.zone()
        local = datetime.fromtimestamp(now, zone)
        due = datetime.combine(local.date(), time(self.email.digest_hour), zone)
        if due <= local:
            due += timedelta(days=1)
        return due.timestamp()


class Preferences:
    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys
        self.read_ahead: ReadAhead | None = None  # preferences the reactor read for its batch

    def get(self, player_id: str) -> NotificationPrefs:
        key = self.keys.notify_prefs(player_id)
        if self.read_ahead is not None and key in self.read_ahead:
            raw = self.read_ahead.get(key)
        else:
            raw = self.redis.get(key)
        return NotificationPrefs.model_validate_json(raw) if raw else NotificationPrefs()

    def put(self, player_id: str, prefs: NotificationPrefs) -> NotificationPrefs:
        self.redis.set(self.keys.notify_prefs(player_id), prefs.model_dump_json())
        return prefs

    def language(self, player_id: str) -> str | None:
        """The player's chosen language, None when they never chose."""
        return self.get(player_id).language

    def set_language(self, player_id: str, language: str | None) -> NotificationPrefs:
        prefs = self.get(player_id)
        prefs.language = language
        return self.put(player_id, NotificationPrefs.model_validate(prefs.model_dump()))

    def email_off(self, player_id: str, kind: str | None) -> NotificationPrefs:
        """Unsubscribe: one kind's e-mail, or every e-mail (``None``)."""
        prefs = self.get(player_id)
        if kind is not None and kind not in EMAIL_KINDS:
            raise InvalidCommand(f"no e-mail kind {kind!r}")
        for k in ([kind] if kind else EMAIL_KINDS):
            prefs.email.kinds[k] = "off"
        return self.put(player_id, prefs)
