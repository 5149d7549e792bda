"""Redis keys of asynchronous play, built on :class:`services.eventstore.Keys` (same prefix, same hash tags)."""

from __future__ import annotations

from dataclasses import dataclass

from ..eventstore import Keys


@dataclass(frozen=True)
class AsyncKeys(Keys):
    def clock(self, game_id: str) -> str:
        """Per game: ``start:<seat>`` -> "version:since" while the seat waits; ``bank:<seat>`` -> seconds left."""
        return self._g(game_id, "clock")

    def vacations(self, player_id: str) -> str:
        """Zset of "start:end" intervals (score = start)."""
        return f"{self.prefix}vac:{player_id}"

    def vacation_used(self, player_id: str) -> str:
        """Hash: year -> vacation seconds used (granted) in that year."""
        return f"{self.prefix}vacused:{player_id}"

    def webhook(self, player_id: str) -> str:
        return f"{self.prefix}hook:{player_id}"

    def notified(self, dedupe: str) -> str:
        return f"{self.prefix}notified:{dedupe}"

    def notes(self, player_id: str) -> str:
        """The player's latest messages (newest first), also without a webhook."""
        return f"{self.prefix}notes:{player_id}"

    def deadline_watch(self) -> str:
        """Zset: timed game -> the earliest deadline of its waiting seats (the watchdog checks late ones)."""
        return f"{self.prefix}deadlinewatch"

    def watch_tries(self, job_id: str) -> str:
        """Counter of how often the watchdog enqueued ``job_id`` again (it gives up after a few)."""
        return f"{self.prefix}botwatch:tries:{job_id}"

    @classmethod
    def of(cls, keys: Keys) -> "AsyncKeys":
        return cls(keys.prefix, keys.shards)
