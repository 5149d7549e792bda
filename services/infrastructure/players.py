"""Player identity: registration with a unique handle, one current token, a recovery code.

Display names may repeat; a handle is unique without regard to case and is
claimed atomically (``SET NX`` on the case-folded handle), so two
registrations racing for one handle cannot both win. Secrets (the token, the
recovery code) are stored only as SHA-256 hashes and shown once. The player's
hash keeps the hashes of its current token and recovery code; replacing
them is a compare-and-set on that one key (WATCH/MULTI), so a rotation or a
recovery racing another cannot leave two live tokens, and a recovery code
works once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
import unicodedata
import uuid
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from domain.core import RuleError
from services.infrastructure.eventstore import Keys

HANDLE_PATTERN = r"^[A-Za-z][A-Za-z0-9_]{2,19}$"
"""3 to 20 ASCII letters, digits or '_', starting with a letter: no look-alike letters from other scripts."""
RESERVED_HANDLES = frozenset({"admin", "administrator", "anonymous", "bot", "guest", "me", "moderator", "none",
                              "null", "root", "support", "system", "taproom"})
"""Handles nobody may take: they would read as the service itself (or clash with ``/players/me``)."""
GENERATED_TRIES = 20


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def fold_handle(handle: str) -> str:
    """The form uniqueness is checked on (handles are ASCII, so lower case is enough)."""
    return handle.lower()


def check_handle(handle: str) -> None:
    if not re.match(HANDLE_PATTERN, handle):
        raise RuleError(f"handle {handle!r} must be 3 to 20 letters, digits or '_', starting with a letter",
                        code="invalid_handle")
    if fold_handle(handle) in RESERVED_HANDLES:
        raise RuleError(f"handle {handle!r} is reserved", code="invalid_handle")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_recovery_code() -> str:
    """120 random bits as six groups of four base32 letters (easy to copy by hand)."""
    raw = base64.b32encode(secrets.token_bytes(15)).decode()
    return "-".join(raw[i:i + 4] for i in range(0, len(raw), 4))


def normalize_recovery_code(code: str) -> str:
    """Typed codes may differ in case, dashes and spaces."""
    plain = re.sub(r"[\s-]", "", code).upper()
    return "-".join(plain[i:i + 4] for i in range(0, len(plain), 4))


@dataclass(frozen=True)
class Player:
    player_id: str
    name: str
    handle: str | None  # players registered before handles existed have none
    created: float


@dataclass(frozen=True)
class Credentials:
    """What a registration or a recovery returns: secrets in the clear, this once."""

    player: Player
    token: str
    recovery_code: str


class _Mismatch(Exception):
    """The expected secret hash was not the stored one (compare-and-set refused)."""


class Players:
    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys

    # -- reading ---------------------------------------------------------------
    def get(self, player_id: str) -> Player | None:
        raw: dict[bytes, bytes] = self.redis.hgetall(self.keys.player(player_id))  # type: ignore[assignment]
        if not raw:
            return None
        handle = raw.get(b"handle")
        return Player(player_id=player_id, name=raw.get(b"name", b"").decode(),
                      handle=handle.decode() if handle else None, created=float(raw.get(b"created", 0)))

    def by_handle(self, handle: str) -> Player | None:
        if not re.match(HANDLE_PATTERN, handle):
            return None
        player_id: Any = self.redis.get(self.keys.handle(fold_handle(handle)))
        return self.get(player_id.decode()) if player_id else None

    # -- registering -------------------------------------------------------------
    def register(self, name: str, handle: str | None = None) -> Credentials:
        """A new player with a handle (the one given, else one made from the name), a token and a recovery code."""
        player_id = uuid.uuid4().hex[:16]
        if handle is not None:
            check_handle(handle)
            if not self._claim(handle, player_id):
                raise RuleError(f"handle {handle!r} is taken (handles ignore case)", code="handle_taken")
        else:
            handle = self._claim_generated(name, player_id)
        token, code = new_token(), new_recovery_code()
        created = time.time()
        # Not one transaction: the player's key and the token's key live in different cluster slots. The
        # token is written last, so a crash in between leaves no usable half-registered player.
        self.redis.hset(self.keys.player(player_id), mapping={
            "name": name, "handle": handle, "created": created,
            "token_hash": hash_secret(token), "recovery_hash": hash_secret(code)})
        self._store_token(token, player_id)
        return Credentials(Player(player_id, name, handle, created), token, code)

    def _claim(self, handle: str, player_id: str) -> bool:
        return bool(self.redis.set(self.keys.handle(fold_handle(handle)), player_id, nx=True))

    def _claim_generated(self, name: str, player_id: str) -> str:
        """A handle from the name's letters: the bare name if free, else with a random number."""
        ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        base = re.sub(r"[^A-Za-z0-9_]+", "_", ascii_name).strip("_")[:14]
        if not base or not base[0].isalpha():
            base = ("p_" + base)[:14] if base else "player"
        candidates = [base] + [f"{base}_{secrets.randbelow(10_000):04d}" for _ in range(GENERATED_TRIES)]
        for candidate in candidates:
            if re.match(HANDLE_PATTERN, candidate) and fold_handle(candidate) not in RESERVED_HANDLES \
                    and self._claim(candidate, player_id):
                return candidate
        fallback = f"p_{player_id}"  # the player id is unique: only a squatter could hold this
        if not self._claim(fallback, player_id):
            raise RuleError("could not find a free handle; choose one", code="handle_taken")
        return fallback

    # -- tokens and recovery ---------------------------------------------------------
    def principal(self, token: str) -> dict[str, Any] | None:
        raw = self.redis.get(self.keys.token(hash_secret(token)))
        return orjson.loads(raw) if raw else None

    def rotate_token(self, player_id: str, presented: str) -> str:
        """A new token for the player; the old one (and the presented one) stops working before this returns."""
        token = new_token()
        self._store_token(token, player_id)
        previous = self._replace(player_id, {"token_hash": hash_secret(token)})
        self._revoke(previous.get("token_hash"), hash_secret(presented))
        return token

    def new_recovery_code(self, player_id: str) -> str:
        """Replace the player's recovery code (the old one stops working)."""
        code = new_recovery_code()
        self._replace(player_id, {"recovery_hash": hash_secret(code)})
        return code

    def recover(self, handle: str, code: str) -> Credentials:
        """Spend a recovery code: a new token (the lost one is revoked) and a new recovery code."""
        refused = RuleError("no player with that handle and recovery code", code="invalid_recovery_code")
        player = self.by_handle(handle)
        if player is None:
            raise refused
        token, fresh = new_token(), new_recovery_code()
        self._store_token(token, player.player_id)
        try:
            previous = self._replace(player.player_id, {"token_hash": hash_secret(token),
                                                        "recovery_hash": hash_secret(fresh)},
                                     expect=("recovery_hash", hash_secret(normalize_recovery_code(code))))
        except _Mismatch:
            self._revoke(hash_secret(token))
            raise refused from None
        self._revoke(previous.get("token_hash"))
        return Credentials(player, token, fresh)

    def _store_token(self, token: str, player_id: str) -> None:
        self.redis.set(self.keys.token(hash_secret(token)), orjson.dumps({"kind": "player", "player_id": player_id}))

    def _revoke(self, *token_hashes: str | None) -> None:
        found = {h for h in token_hashes if h}
        if found:
            self.redis.delete(*(self.keys.token(h) for h in found))

    def _replace(self, player_id: str, values: dict[str, str],
                 expect: tuple[str, str] | None = None) -> dict[str, str | None]:
        """Set ``values`` in the player's hash if ``expect`` (field, value) holds; returns the previous values."""
        key = self.keys.player(player_id)
        fields = list(values)

        def swap(pipe: Any) -> dict[str, str | None]:
            old = pipe.hmget(key, fields + ([expect[0]] if expect else []))
            if expect is not None:
                stored = old[-1].decode() if old[-1] else ""
                if not hmac.compare_digest(stored, expect[1]):
                    raise _Mismatch
            pipe.multi()
            pipe.hset(key, mapping=values)
            return {f: (v.decode() if v else None) for f, v in zip(fields, old)}

        result: Any = self.redis.transaction(swap, key, value_from_callable=True)  # type: ignore[arg-type]
        return result  # type: ignore[no-any-return]
