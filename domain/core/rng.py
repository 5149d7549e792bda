"""Deterministic randomness: one RNG per decision, derived from the game's secret seed.

The seed (32 random bytes, made by the service with ``secrets``) never appears in
the log until the game ends; ``commitment(seed)`` is published at creation.
Every decision at version ``v`` draws from ``rng_for(seed, v)``, so re-running
the recorded commands from the revealed seed must reproduce every event.
"""

from __future__ import annotations

import hashlib
import random


def rng_for(seed: bytes, version: int) -> random.Random:
    """The RNG for the decision taken when the game is at ``version``."""
    digest = hashlib.sha256(seed + b"|" + str(version).encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, hex."""
    return hashlib.sha256(seed).hexdigest()


def seed_from_text(text: str) -> bytes:
    """A development/test seed from a human string (only allowed when the server permits it)."""
    return hashlib.sha256(b"taproom-dev-seed|" + text.encode()).digest()


class SeedDice:
    """A game's secret seed as the aggregate uses it: one RNG per version, and the seed at the end."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def rng(self, version: int) -> random.Random:
        return rng_for(self.seed, version)

    def reveal(self) -> bytes:
        return self.seed
