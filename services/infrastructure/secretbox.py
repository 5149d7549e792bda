"""Webhook secrets encrypted at rest with server keys (Fernet), with key rotation.

``TAPROOM_WEBHOOK_SECRET_KEYS`` holds comma-separated Fernet keys, newest first: the first encrypts, every one
decrypts (``MultiFernet``). To rotate: put a new key first, run ``taproom webhooks reencrypt`` (every stored
secret is then under the new key, and secrets stored in plain text by older versions are encrypted), then drop
the old key. Generate a key with ``taproom webhooks new-key``.

Without keys the embedded service (no ``REDIS_URL``, everything in one process and in memory) uses a key made
for this process; a service on a shared Redis refuses to store secrets until keys are set.
"""

from __future__ import annotations

from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from services.infrastructure.settings import AsyncSettings

__all__ = ["SecretBox", "SecretsUnavailable", "InvalidToken", "secret_box", "new_key"]


class SecretsUnavailable(Exception):
    """No key is configured on a service whose data outlives the process."""


class SecretBox:
    def __init__(self, keys: list[bytes]) -> None:
        if not keys:
            raise ValueError("at least one key")
        self._fernet = MultiFernet([Fernet(k) for k in keys])

    def seal(self, secret: str) -> str:
        return self._fernet.encrypt(secret.encode()).decode()

    def open(self, token: str) -> str:
        """The secret; ``InvalidToken`` when no configured key opens it (its key was dropped too early)."""
        return self._fernet.decrypt(token.encode()).decode()

    def reseal(self, token: str) -> str:
        """The same secret under the newest key."""
        return self._fernet.rotate(token.encode()).decode()


def new_key() -> str:
    return Fernet.generate_key().decode()


def secret_box(settings: AsyncSettings) -> SecretBox:
    """The box of the configured keys; see the module docstring for the case of none."""
    configured = settings.webhook_secret_keys.get_secret_value()
    if configured.strip():
        return _box_of(configured)
    if getattr(settings, "redis_url", None):
        raise SecretsUnavailable("webhooks need TAPROOM_WEBHOOK_SECRET_KEYS (Fernet keys) on this server")
    return _process_box()


@lru_cache(maxsize=8)
def _box_of(configured: str) -> SecretBox:
    return SecretBox([k.strip().encode() for k in configured.split(",") if k.strip()])


@lru_cache(maxsize=1)
def _process_box() -> SecretBox:
    # The embedded service keeps its data in this process's memory: a key of this process lives exactly as long.
    return SecretBox([Fernet.generate_key()])
