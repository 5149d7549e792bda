"""One settings object for every part of the service, read from environment variables (pydantic-settings).

Variables are prefixed ``TAPROOM_`` except ``REDIS_URL`` (the conventional name).
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class _Section(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TAPROOM_", extra="ignore")


class ClockSettings(_Section):
    """Asynchronous play: expiry of open games, vacations, deadlines, the watchdog, the service's own moves."""

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
    abandoned_after_seconds: int = 14 * 86400
    """An untimed game's seat to act this long without moving is marked absent: the other players may vote to
    end the game (the seat last) or to give the seat to a bot."""
    abandoned_warning_seconds: int = 3 * 86400
    """The absent player is told this long before the vote opens (with a link back to the game)."""
    idle_end_after_seconds: int = 60 * 86400
    """An untimed game whose seat to act has not moved for this long ends by itself (that seat last), is scored
    and archived."""
    notifications_kept: int = 50
    public_url: str = ""
    """Where clients reach the service (``https://taproom.example``): the start of links in messages
    (reclaim a seat, open a game); empty: links are paths."""
    bot_think_seconds: float = 1.0
    """Hard cap in seconds on a ``search`` bot's move (and an autopilot's at that level). The search's budget is
    the game's simulations per move (``SearchSettings.simulations``), which ends sooner on a quiet machine;
    the cap only bites on an overloaded one."""


class WebhookSettings(_Section):
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
    ``services/infrastructure/secretbox.py`` for rotation). Required on a shared Redis; the embedded service
    makes one per process."""

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


class MailSettings(_Section):
    """E-mail (SMTP through an rq job)."""

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
    presence_grace_seconds: int = 120
    """``TAPROOM_PRESENCE_GRACE_SECONDS``: no "your turn" e-mail or push while the player has the game open (its
    page's live stream connected); once they leave, one is sent if the turn is still theirs this long after."""
    presence_ttl_seconds: int = 60
    """An open stream says the page is there every 20 s; without a word for this long (a process that died),
    the page counts as left from when it last spoke."""
    online_seconds: int = 90
    """A player counts as online when a page of theirs was open within this long: an open game stream (every
    20 s) or any page's inbox poll (once a minute while visible), with half a minute to spare."""
    max_follows_per_player: int = 200
    """Players one player may follow (409 ``too_many_follows`` beyond)."""



class PushSettings(_Section):
    """Web Push (VAPID)."""

    vapid_private_key: SecretStr = SecretStr("")
    """The VAPID signing key (PEM, or base64url of the raw 32-byte P-256 key); empty: Web Push is off."""
    vapid_public_key: str = ""
    """base64url of the uncompressed public point: the ``applicationServerKey`` the page subscribes with."""
    vapid_subject: str = "mailto:taproom@localhost"
    push_ttl_seconds: int = 86400
    push_retry_intervals: list[int] = Field(default_factory=lambda: [10, 60, 300])
    max_push_subscriptions_per_player: int = 10
    """Browsers one player may subscribe (409 ``too_many_push_subscriptions`` beyond): each notification goes to
    every one of them, at hosts the player chose."""


class AsyncSettings(ClockSettings, WebhookSettings, MailSettings, PushSettings):
    """The asynchronous-play sections: what its jobs are given (without the secrets)."""

    model_config = SettingsConfigDict(env_prefix="TAPROOM_", extra="ignore")




SECRET_FIELDS = frozenset({"smtp_password", "vapid_private_key", "webhook_secret_keys"})
"""Never copied into job arguments (rq stores those in Redis): jobs read them from their own environment."""


class StoreSettings(_Section):
    """Where and how games are kept: Redis, keys, snapshots, seeds, command outcomes."""

    redis_url: str | None = Field(default=None, validation_alias=AliasChoices("REDIS_URL", "TAPROOM_REDIS_URL"))
    """Without it the whole service runs in one process on an in-process Redis (fakeredis)."""
    redis_cluster: bool = False
    """``REDIS_URL`` names a node of a Redis Cluster (the event store's keys are hash-tagged per shard)."""
    queue_redis_url: str | None = None
    """rq's job queues and the API's rate-limit counters: a plain Redis server (rq does not support Redis
    Cluster). Default: ``REDIS_URL``; required when ``redis_cluster`` is set."""
    append_replicas: int = 0
    """Acknowledge a command only once this many replicas have its append (``WAIT``): set it to 1 on a
    cluster (or any replicated Redis) so a failover cannot lose an acknowledged command. 0: do not wait."""
    append_replica_timeout_ms: int = 1000
    """How long an append waits for its replicas before the processor backs off and takes it up again."""
    no_replica_policy: Literal["refuse", "local_fsync"] = "refuse"
    """What a master without the replicas ``append_replicas`` asks for (a promoted replica whose old master is
    not back yet) does with the commands of its shards. ``refuse`` (the default): they are not acknowledged;
    those shards stop alone (the processor carries on with its other shards and tries them again with backoff)
    and the API answers 503 with ``Retry-After`` to their games only. ``local_fsync``: a command is
    acknowledged once that master has it on its own disk (``WAITAOF`` on Redis >= 7.2, else AOF on with
    ``appendfsync always``), and ``taproom_appends_without_replica_total`` counts each one (alert on it); a
    master that cannot say so refuses as above."""
    redis_socket_timeout_seconds: float = 2.0
    """The longest any Redis call waits for its answer beyond the wait it asked for itself (a ``BLPOP`` of a
    command's outcome, a ``WAIT`` for replicas): a frozen Redis (a stopped process, a partition that drops
    packets) is then an outage like a dead one, and a request gets 503 with ``Retry-After`` after this long
    instead of hanging."""
    redis_connect_timeout_seconds: float = 2.0
    feed_rewind_seconds: float = 5.0
    """After a Redis outage the projector and reactor resume this long before their checkpoints: a failover
    can lose the last writes made before it, and handling those feed entries again restores them."""
    key_prefix: str = "tr:"
    shards: int = 16
    snapshot_every: int = 100
    compact_every: int = 16
    """Every this many events the settled part of a game's log (events and command records) is moved into one
    compressed segment appended to the others (``EventStore.compact``, ``eventstore.segments``): about a
    tenth of their memory. Smaller: a shorter uncompressed tail but more, smaller blocks (16 is the least
    memory at a game's peak; see ``bench/memory_figures.py``). 0: never."""
    allow_client_seed: bool = False
    """Development/tests only: lets clients choose a game's seed. Otherwise seeds are server-secret."""
    invitation_ttl_seconds: int = 3 * 86400
    """An invitation to a seat neither accepted nor declined within this long lapses and the seat opens again
    (shorter than an open game's expiry, so others still have time to join)."""
    command_wait_seconds: float = 2.0
    outcome_ttl_seconds: int = 300
    """How long a settled command's outcome key stays (what a waiting request polls). Short: once it is gone
    the outcome is still answered, forever, from the game's records (``CommandBus.outcome``)."""
    archive_after_seconds: float = 3600.0
    """A scored game is archived this long after it was scored (its log, views and snapshots leave Redis for
    the cold store; reads answer from the archive). Negative: never archive."""
    archive_dir: str | None = None
    """The cold store's directory (default ``$XDG_DATA_HOME/taproom/archive``, i.e. ``~/.local/share/...``), used
    while ``cold_store_url`` is unset: the embedded default (one machine, or a directory every part mounts)."""
    cold_store_url: str | None = None
    """A deployment's cold store: ``postgresql://user:password@host:5432/taproom`` (archived games and the results
    table, read by every process; ``services.infrastructure.coldstore``). Unset: the directory ``archive_dir``."""
    cold_store_migrate: bool = False
    """Move the cold store's schema to this version's (Alembic) when the part first uses the cold store (so a
    part starts even while PostgreSQL is down); otherwise run ``taproom migrate``. The deployments set it on the
    worker, which writes the archives (no archive can be read before one was written)."""
    max_body_bytes: int = 64 * 1024


class LimitSettings(_Section):
    """Limits on what one client can do."""

    # Limits on what one client can do (issue 16). Rates are `limits` strings ("10/minute;100/day"), counted in
    # Redis so they hold across API processes. "Per caller" counts a player token by player, a seat token by
    # seat and an anonymous request by client address (the socket peer; behind a reverse proxy, the address it
    # forwards when it is one of ``trusted_proxies``).
    rate_limit_address: str = "600/minute"
    """Every request without a token (or with one that stands for no one) from one client address."""
    rate_limit_caller: str = "600/minute"
    """Every request with a token, per caller (a player, or the seat of a seat token), wherever it comes from:
    players who share an address (a household behind one router, a school) each have their own. What one address
    can do with tokens stays bounded by how many it can get (``rate_limit_register``, ``rate_limit_join``)."""
    rate_limit_register: str = "10/hour;50/day"
    """Player registrations per client address."""
    rate_limit_create_game: str = "30/hour"
    """Games created per caller."""
    rate_limit_create_game_per_address: str = "60/hour"
    """Games created from one client address, whoever the callers are."""
    rate_limit_join: str = "60/hour"
    """Seats taken per caller."""
    rate_limit_command: str = "120/minute"
    """Commands submitted over HTTP per caller (bots and service jobs do not use HTTP)."""
    rate_limit_stream_open: str = "30/minute"
    """Event streams opened per caller."""
    rate_limit_chat: str = "5/10second;30/minute"
    """Chat messages posted per caller (a player, or a seat token), in every game together."""
    chat_max_chars: int = 500
    """The longest chat message (characters, after trimming)."""
    chat_keep: int = 500
    """Chat messages kept per game and channel (the oldest go first)."""
    max_chat_mutes: int = 200
    """Chat authors one caller may mute (409 ``too_many_mutes`` beyond)."""
    max_blocks: int = 200
    """Players one player may block (409 ``too_many_blocks`` beyond)."""
    chat_report_reason_chars: int = 300
    """The longest reason a chat report may give."""
    max_bot_games_per_player: int = 5
    """Unfinished games with a bot seat one player may have created; bot games need a player token."""
    max_streams_per_caller: int = 20
    max_streams_per_address: int = 50
    trusted_proxies: str = ""
    """``TAPROOM_TRUSTED_PROXIES``: the reverse proxies in front of the API, comma-separated addresses or networks
    (``10.0.0.0/8``; ``*`` trusts every peer). Only a request whose peer is one of them has its client address
    (and scheme) read from ``X-Forwarded-For`` (``-Proto``); empty, the default, trusts none: the socket peer is
    the client, and a forwarded header changes nothing (the per-address limits cannot be dodged by sending one).
    Given to uvicorn's ``forwarded_allow_ips``."""


class ProcessSettings(_Section):
    """The running parts: leases, retries, caches, logs, the HTTP server, the rq queue."""

    lease_ms: int = 10_000
    max_deliveries: int = 3
    """A command that crashed the processor this many times becomes a dead letter."""
    aggregate_cache_size: int = 2048
    reactor_linger_ms: int = 20
    """Under load the reactor reads the feeds at most this often: after a read that returned two entries or more
    (several games moving at once) it waits out the rest of this before the next. Each read costs a round
    trip and a wake-up whatever it brings, and most entries concern the reactor not at all (human seats, no
    clock), so fewer, fuller reads are most of its CPU; a lone game (one entry a read) never waits. 0: read
    as fast as entries come."""
    projector_linger_ms: int = 0
    """The same for the projector (0: off). It delays the read models by up to this much under load."""
    log_json: bool | None = None
    """JSON logs; default: JSON unless stderr is a terminal."""
    log_level: str = "INFO"
    health_port: int | None = None
    """``TAPROOM_HEALTH_PORT``: processor, projector, reactor and worker serve ``/livez`` and ``/readyz`` on it
    (``services/infrastructure/health.py``); unset, no health server."""
    health_stale_seconds: float = 60.0
    """A part whose loop has not turned for this long is not alive (its probe fails and it is restarted)."""
    host: str = "127.0.0.1"
    port: int = 8000
    rq_queue: str = "taproom"
    coach_queue: str = "taproom-coach"
    """The coach's own rq queue (post-game analysis, minutes of CPU a game): worked by its own worker (a thread of
    the embedded service, ``taproom worker --coach`` in a deployment), so bot turns and scoring never wait
    behind an analysis."""
    coach_auto: bool = False
    """Analyse every scored game with a human seat without being asked (off: a player of the game asks,
    ``POST /games/{id}/analysis``)."""
    coach_search_share: float = Field(1.0, gt=0.0, le=4.0)
    """The coach's search budget per decision as a share of the game's own (``SearchSettings.simulations``): below 1
    a cheaper, weaker analysis (the search's CPU is most of the job's; see ``bench/coach_bench.py``)."""
    coach_job_timeout_seconds: int = 1800
    """The longest an analysis job may run before rq stops it (it is then ``failed``; asking again retries)."""


class Settings(StoreSettings, LimitSettings, ProcessSettings, AsyncSettings):
    """Everything configurable, one object read once from ``TAPROOM_*`` (and ``REDIS_URL``), in sections
    (:class:`StoreSettings`, :class:`LimitSettings`, :class:`ProcessSettings`, and the asynchronous-play
    :class:`AsyncSettings`: :class:`ClockSettings`, :class:`WebhookSettings`, :class:`MailSettings`,
    :class:`PushSettings`). A part that needs one section takes that type; the fields stay flat, so every
    variable keeps its name."""

    model_config = SettingsConfigDict(env_prefix="TAPROOM_", extra="ignore")


def with_async(settings: Settings, async_settings: AsyncSettings | None) -> Settings:
    """``settings`` with the asynchronous-play section of ``async_settings`` (the embedded service and tests
    may give that section on its own): what its jobs run under."""
    if async_settings is None or async_settings is settings:
        return settings
    return settings.model_copy(update={name: getattr(async_settings, name) for name in AsyncSettings.model_fields})


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()


# -- the settings of rq jobs ----------------------------------------------------------------------------------
# Jobs are given ids only; the worker that runs them says which settings they run under: a worker built with
# settings (the embedded service's thread, tests) for the jobs it performs, else the process's own
# ``Settings`` read once from its environment (``taproom worker``: the deployment gives it the API's).
_JOB_SETTINGS: contextvars.ContextVar[Settings | None] = contextvars.ContextVar("taproom_job_settings", default=None)


def job_settings() -> Settings:
    """The settings of the job being run: its worker's, else this process's (:func:`get_settings`)."""
    return _JOB_SETTINGS.get() or get_settings()


@contextmanager
def jobs_run_with(settings: Settings | None) -> Iterator[None]:
    """Jobs run inside this block (by this thread) see ``settings`` (None: the process's own)."""
    token = _JOB_SETTINGS.set(settings)
    try:
        yield
    finally:
        _JOB_SETTINGS.reset(token)
