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
from cryptography.fernet import Fernet

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


REGISTRATION_KEY_SECONDS = 86400
"""How long a registration's client key answers a retry with the same player."""


def _sealer(*secrets_: str) -> Fernet:
    """A Fernet key derived from secrets only a client holds: what it seals opens for them alone."""
    material = hashlib.sha256(("sealed:" + ":".join(secrets_)).encode()).digest()
    return Fernet(base64.urlsafe_b64encode(material))


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
    def register(self, name: str, handle: str | None = None, client_key: str | None = None) -> Credentials:
        """A new player with a handle (the one given, else one made from the name), a token and a recovery code.

        With ``client_key`` (a secret the client chose) a retry answers the same player: see
        :meth:`_register_once`."""
        if client_key is not None:
            return self._register_once(name, handle, client_key)
        return self._register(name, handle, uuid.uuid4().hex[:16], new_token(), new_recovery_code())

    def _register(self, name: str, handle: str | None, player_id: str, token: str, code: str) -> Credentials:
        if handle is not None:
            check_handle(handle)
            if not self._claim(handle, player_id):
                raise RuleError(f"handle {handle!r} is taken (handles ignore case)", code="handle_taken")
        else:
            handle = self._claim_generated(name, player_id)
        created = time.time()
        # Not one transaction: the player's key and the token's key live in different cluster slots. The
        # token is written last, so a crash in between leaves no usable half-registered player.
        self.redis.hset(self.keys.player(player_id), mapping={
            "name": name, "handle": handle, "created": created,
            "token_hash": hash_secret(token), "recovery_hash": hash_secret(code)})
        self._store_token(token, player_id)
        return Credentials(Player(player_id, name, handle, created), token, code)

    def _register_once(self, name: str, handle: str | None, client_key: str) -> Credentials:
        """A registration a client may send again (its answer lost, or a 503): the first one under
        ``client_key`` keeps its player id, token and recovery code, sealed with a key derived from
        ``client_key`` under a key named by its hash, for :data:`REGISTRATION_KEY_SECONDS`. A retry (same key,
        name and handle) finishes whatever the first left undone and answers the same credentials, so only who
        holds the client key ever sees them again; once the token was rotated or the recovery code spent, the
        retry is refused (``client_key_used``) rather than answering secrets that no longer work. Another name
        or handle under the same key: ``client_key_reused``."""
        box = _sealer("registration", client_key)
        record_key = self.keys.registration(hash_secret(client_key))
        fresh: dict[str, Any] = {"player_id": uuid.uuid4().hex[:16], "token": new_token(), "code": new_recovery_code(),
                 "name": name, "handle": handle}
        sealed = box.encrypt(orjson.dumps(fresh))
        if not self.redis.set(record_key, sealed, nx=True, ex=REGISTRATION_KEY_SECONDS):
            stored = self.redis.get(record_key)
            fresh = orjson.loads(box.decrypt(stored)) if stored else fresh  # type: ignore[arg-type]
            if (fresh["name"], fresh["handle"]) != (name, handle):
                raise RuleError("this client key registered another name or handle; use a new key",
                                code="client_key_reused")
        player_id, token, code = fresh["player_id"], fresh["token"], fresh["code"]
        known: dict[bytes, bytes] = self.redis.hgetall(self.keys.player(player_id))  # type: ignore[assignment]
        if not known:
            try:
                return self._register(name, handle, player_id, token, code)
            except RuleError:
                self.redis.delete(record_key)  # nothing was registered: the key may be used again
                raise
        if known.get(b"token_hash", b"").decode() != hash_secret(token) \
                or known.get(b"recovery_hash", b"").decode() != hash_secret(code):
            raise RuleError("this client key's registration is done and its token or recovery code has changed "
                            "since", code="client_key_used")
        self._store_token(token, player_id)  # a first try may have stopped before it
        player = self.get(player_id)
        assert player is not None
        return Credentials(player, token, code)

    def _claim(self, handle: str, player_id: str) -> bool:
        """Claim the handle for ``player_id`` (True too when a first try of this registration claimed it)."""
        key = self.keys.handle(fold_handle(handle))
        return bool(self.redis.set(key, player_id, nx=True)) or self.redis.get(key) == player_id.encode()

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

    def rotate_token(self, player_id: str, presented: str, idempotency_key: str | None = None) -> str:
        """A new token for the player; the old one (and the presented one) stops working before this returns.
        With ``idempotency_key`` the new token is kept sealed under the old token and that key, for
        :meth:`rotated` to answer a retry of this rotation (its answer lost, or a 503)."""
        token = new_token()
        self._store_token(token, player_id)
        if idempotency_key:
            self.redis.set(self.keys.rotation(hash_secret(presented + ":" + idempotency_key)),
                           _sealer(presented, idempotency_key).encrypt(token.encode()), ex=REGISTRATION_KEY_SECONDS)
        previous = self._replace(player_id, {"token_hash": hash_secret(token)})
        self._revoke(previous.get("token_hash"), hash_secret(presented))
        return token

    def rotated(self, presented: str, idempotency_key: str) -> str | None:
        """The token a rotation made with the (now revoked) ``presented`` token under ``idempotency_key``
        answered, while it is still the player's token; None otherwise."""
        sealed = self.redis.get(self.keys.rotation(hash_secret(presented + ":" + idempotency_key)))
        if not sealed:
            return None
        token = _sealer(presented, idempotency_key).decrypt(sealed).decode()  # type: ignore[arg-type]
        return token if self.principal(token) is not None else None

    def new_recovery_code(self, player_id: str, presented: str = "", idempotency_key: str | None = None) -> str:
        """Replace the player's recovery code (the old one stops working). With ``idempotency_key`` the new code
        is kept sealed under the caller's token and that key in the player's own hash (written with the code's
        hash, in one step: they stand or fall together), and a retry under the same key answers it while it is
        still the player's code."""
        if not idempotency_key:
            code = new_recovery_code()
            self._replace(player_id, {"recovery_hash": hash_secret(code)})
            return code
        request = hash_secret(presented + ":" + idempotency_key)
        box = _sealer(presented, idempotency_key)
        stored: Any = self.redis.hmget(self.keys.player(player_id), "recovery_request", "recovery_hash")
        asked, current = (v.decode() if v else "" for v in stored)
        name, _, sealed = asked.partition(" ")
        if name == request:
            again = box.decrypt(sealed.encode()).decode()
            if hmac.compare_digest(hash_secret(again), current):
                return again
        code = new_recovery_code()
        self._replace(player_id, {"recovery_hash": hash_secret(code),
                                  "recovery_request": f"{request} {box.encrypt(code.encode()).decode()}"})
        return code

    def recover(self, handle: str, code: str, idempotency_key: str | None = None) -> Credentials:
        """Spend a recovery code: a new token (the lost one is revoked) and a new recovery code. With
        ``idempotency_key`` the answer is kept sealed under the spent code and that key, and a retry of this
        spending (its answer lost, or a 503) answers it again while both are still the player's."""
        refused = RuleError("no player with that handle and recovery code", code="invalid_recovery_code")
        player = self.by_handle(handle)
        if player is None:
            raise refused
        spent = normalize_recovery_code(code)
        if idempotency_key and (again := self._recovered(player, spent, idempotency_key)) is not None:
            return again
        token, fresh = new_token(), new_recovery_code()
        self._store_token(token, player.player_id)
        fields = {"token_hash": hash_secret(token), "recovery_hash": hash_secret(fresh)}
        if idempotency_key:  # the answer sealed in the player's own hash, written with the spending in one step
            sealed = _sealer(spent, idempotency_key).encrypt(f"{token} {fresh}".encode()).decode()
            fields["recovery_spend"] = f"{hash_secret(spent + ':' + idempotency_key)} {sealed}"
        try:
            previous = self._replace(player.player_id, fields, expect=("recovery_hash", hash_secret(spent)))
        except _Mismatch:
            self._revoke(hash_secret(token))
            raise refused from None
        self._revoke(previous.get("token_hash"))
        return Credentials(player, token, fresh)

    def _recovered(self, player: Player, spent: str, idempotency_key: str) -> Credentials | None:
        """What spending ``spent`` under ``idempotency_key`` answered, while its token and code are still the
        player's (a later rotation or spending makes the retry an ordinary refusal)."""
        stored: Any = self.redis.hmget(self.keys.player(player.player_id), "recovery_spend", "recovery_hash")
        spending, current = (v.decode() if v else "" for v in stored)
        name, _, sealed = spending.partition(" ")
        if not sealed or not hmac.compare_digest(name, hash_secret(spent + ":" + idempotency_key)):
            return None
        token, _, fresh = _sealer(spent, idempotency_key).decrypt(sealed.encode()).decode().partition(" ")
        holder = self.principal(token)
        if holder is None or holder.get("player_id") != player.player_id \
                or not hmac.compare_digest(hash_secret(fresh), current):
            return None
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
