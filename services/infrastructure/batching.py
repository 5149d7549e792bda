"""Batches of the feed followers: reads made for a whole batch in one round trip, writes deferred to one.

The reactor reads, per game and per player, a few keys one at a time (turn clocks, notification preferences,
webhooks) and writes a few (clocks, "sent" markers, watches). Over a batch of feed entries those become one
pipeline of reads before the batch (:class:`ReadAhead`, consulted first by whoever reads such a key) and one
pipeline of writes after it (:class:`BatchWrites`). A key read ahead is kept up to date by whoever writes it
during the batch. Both live for one batch only, on the follower's thread.
"""

from __future__ import annotations

from typing import Any

from services.infrastructure.eventstore.store import run_scripts
from services.infrastructure.redisconn import is_cluster


class ReadAhead:
    """Values of keys read for a batch, by key (a missing key was not read ahead: read it as usual)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def __contains__(self, key: str) -> bool:
        return key in self.values

    def get(self, key: str) -> Any:
        return self.values[key]

    def put(self, key: str, value: Any) -> None:
        self.values[key] = value


class BatchWrites:
    """Writes sent in one round trip when the batch ends: plain commands on ``pipe``, scripts through
    :meth:`script` (on a Redis Cluster, whose pipelines refuse EVALSHA, a script runs at once instead)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.pipe = client.pipeline(transaction=False)
        self._scripts: list[Any] = []
        self._cluster = is_cluster(client)

    def script(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """Run ``script`` with the batch's writes (None: the reply comes later), or at once on a cluster."""
        if self._cluster:
            return script(keys=keys, args=args)
        self.pipe.evalsha(script.sha, len(keys), *keys, *args)
        if script not in self._scripts:
            self._scripts.append(script)
        return None

    def pending(self) -> bool:
        """Whether writes wait for :meth:`execute`."""
        return len(self.pipe) > 0

    def execute(self) -> None:
        if len(self.pipe):
            run_scripts(self.pipe, self._scripts)
