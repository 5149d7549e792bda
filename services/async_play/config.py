"""Settings of asynchronous play, read from ``TAPROOM_*`` environment variables.

The main :class:`services.settings.Settings` inherits these fields, so the
service has one settings object; code of this package only needs this part.
Every value has a default that suits production.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class AsyncSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TAPROOM_", extra="ignore")

    open_game_expiry_seconds: int = 7 * 86400
    """An open game nobody fills is closed after this long (a game's pace may say otherwise)."""
    vacation_days_per_year: int = 30
    deadline_warning_hours: list[int] = Field(default_factory=lambda: [12])
    """"Deadline in N hours" messages, one per N, sent when the deadline is further away than N hours."""
    scheduler_interval_seconds: float = 1.0
    watchdog_interval_seconds: float = 15.0
    watchdog_stale_seconds: float = 30.0
    """A bot, autopilot or scoring job missing for this long is enqueued again (so within a minute)."""
    watchdog_max_requeues: int = 5
    system_command_wait_seconds: float = 10.0
    """How long a deadline or autopilot job waits for its command's outcome: a command refused because
    another seat moved first is sent again at the new version. 0: do not wait (the watchdog recovers)."""
    system_command_attempts: int = 5
    """Sends of one deadline's or autopilot turn's command at most (each after a ``stale_version`` refusal)."""
    webhook_timeout_seconds: float = 5.0
    webhook_retry_intervals: list[int] = Field(default_factory=lambda: [10, 30, 90, 270, 810])
    """Exponential backoff between webhook delivery attempts (rq ``Retry``)."""
    webhook_allow_private: bool = False
    """Allow webhooks to loopback and private addresses (tests, single-host setups); off against SSRF."""
    webhook_allow_loopback: bool = False
    """Development: allow webhooks to this machine only (127.0.0.0/8, ::1, ``localhost``), so they can be
    tried locally; other private addresses stay refused. Off by default (against SSRF)."""
    webhook_secret_keys: SecretStr = SecretStr("")
    """Comma-separated Fernet keys, newest first, that encrypt webhook secrets at rest (see
    ``services/async_play/secretbox.py`` for rotation). Required on a shared Redis; the embedded service
    makes one per process."""
    notifications_kept: int = 50
    public_url: str = ""
    """Where clients reach the service (``https://taproom.example``): the start of links in messages
    (reclaim a seat, open a game); empty: links are paths."""
    bot_think_seconds: float = 1.0
    """Search budget of a ``search`` bot's move, and of an autopilot playing at that level."""

    # -- e-mail (SMTP through an rq job) ---------------------------------------------------------------
    smtp_host: str = ""
    """SMTP server for e-mail notifications; empty: e-mail is off (addresses can still be stored)."""
    smtp_port: int = 587
    smtp_tls: Literal["starttls", "ssl", "none"] = "starttls"
    """``ssl``: TLS from the first byte (port 465); ``starttls``: upgrade a plain connection; ``none``: tests only."""
    smtp_username: str = ""
    smtp_password: SecretStr = SecretStr("")
    smtp_timeout_seconds: float = 10.0
    mail_from: str = "Taproom <taproom@localhost>"
    mail_retry_intervals: list[int] = Field(default_factory=lambda: [30, 120, 600, 1800])
    """Backoff between attempts of one e-mail (rq ``Retry``)."""
    mail_turn_interval_seconds: int = 3600
    """At most one "your turn" e-mail per game this often, unless the player asks for every one."""
    mail_verify_ttl_seconds: int = 2 * 86400
    mail_unsubscribe_ttl_seconds: int = 90 * 86400
    """How long the one-click unsubscribe link of a message works."""

    # -- Web Push (VAPID) ---------------------------------------------------------------------------------
    vapid_private_key: SecretStr = SecretStr("")
    """The VAPID signing key (PEM, or base64url of the raw 32-byte P-256 key); empty: Web Push is off."""
    vapid_public_key: str = ""
    """base64url of the uncompressed public point: the ``applicationServerKey`` the page subscribes with."""
    vapid_subject: str = "mailto:taproom@localhost"
    push_ttl_seconds: int = 86400
    push_retry_intervals: list[int] = Field(default_factory=lambda: [10, 60, 300])

    @field_validator("webhook_secret_keys")
    @classmethod
    def _keys_are_fernet_keys(cls, value: SecretStr) -> SecretStr:
        from cryptography.fernet import Fernet

        for key in filter(None, (k.strip() for k in value.get_secret_value().split(","))):
            try:
                Fernet(key.encode())
            except ValueError:
                raise ValueError("each webhook secret key must be a Fernet key (taproom webhooks new-key)") from None
        return value


SECRET_FIELDS = frozenset({"smtp_password", "vapid_private_key", "webhook_secret_keys"})
"""Never copied into job arguments (rq stores those in Redis): jobs read them from their own environment."""


def job_settings(settings: AsyncSettings) -> dict[str, Any]:
    """The settings a job is given, without secrets."""
    return settings.model_dump(mode="json", include=set(AsyncSettings.model_fields) - SECRET_FIELDS)


def settings_in_job(given: dict[str, Any] | None) -> AsyncSettings:
    """Settings inside a job: those given, and the secrets from the worker's environment (constructing a
    settings object reads the environment for every field not passed)."""
    return AsyncSettings(**(given or {}))


def get_async_settings() -> AsyncSettings:
    """The service's one settings object (it includes these fields)."""
    from ..settings import get_settings

    return get_settings()
