"""Bearer tokens of seats and players: stored hashed, the token itself shown once."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import orjson
import redis

from services.infrastructure.eventstore import Keys


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Tokens:
    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys

    def issue(self, principal: dict[str, Any]) -> str:
        token = secrets.token_urlsafe(24)
        self.redis.set(self.keys.token(hash_token(token)), orjson.dumps(principal))
        return token

    def issue_seat(self, game_id: str, seat: int) -> str:
        return self.issue({"kind": "seat", "game_id": game_id, "seat": seat})

    def revoke(self, token: str) -> None:
        self.redis.delete(self.keys.token(hash_token(token)))

    def principal_for(self, token: str) -> dict[str, Any] | None:
        raw = self.redis.get(self.keys.token(hash_token(token)))
        return orjson.loads(raw) if isinstance(raw, bytes | str) else None
