"""What a processor keeps up beside deciding: snapshots, compactions and the games' seeds. A part of
:class:`~services.adapters.processor.processor.Processor` (a mixin over its store and settings)."""

from __future__ import annotations

import secrets

from domain.core import seed_from_text
from services.adapters.processor.plans import Plan
from services.infrastructure.aggregates import Loaded
from services.infrastructure.commands import CommandMessage
from services.infrastructure.eventstore.store import EventStore
from services.infrastructure.settings import Settings


class Upkeep:
    store: EventStore
    settings: Settings
    _seeds: dict[str, bytes]
    _snapshot_owed: set[str]

    def _snapshot_due(self, game_id: str, from_version: int, after: Loaded) -> bool:
        """Whether the command that took the game from ``from_version`` to ``after`` ends with a snapshot."""
        every = self.settings.snapshot_every
        new_version = after.version
        due = bool(every) and (new_version // every > from_version // every or game_id in self._snapshot_owed)
        if due and after.record is not None and after.record.undo is not None:
            # a snapshot never carries an undo trail (the state copy where it began): it is taken once the
            # trail has ended, so a record loaded from it is the one the log folds to
            self._snapshot_owed.add(game_id)
            return False
        if due:
            self._snapshot_owed.discard(game_id)
        return due

    def _after_append(self, plan: Plan) -> None:
        self._after_appends([plan])

    def _after_appends(self, plans: list[Plan]) -> None:
        """The snapshots due after these appends, and the compactions: the settled log before a command that
        crossed a multiple of ``compact_every``, compressed (the stream keeps at least the last command, so a
        reader that finds nothing after its version is caught up). One
        compaction per game, up to the last such command of the batch, all in two round trips."""
        every = self.settings.compact_every
        snapshots: list[tuple[str, int, str, bytes, float]] = []
        upto: dict[str, int] = {}
        for plan in plans:
            after, append = plan.after, plan.append
            if after is None or append is None:
                continue
            game_id = plan.message.game_id
            if plan.snapshot is not None:
                snapshots.append((game_id, after.version, after.hash, plan.snapshot, after.ts))
            if every and after.version // every > append.expected_version // every:
                upto[game_id] = max(upto.get(game_id, 0), append.expected_version)
        if upto or snapshots:
            self.store.compact_many(upto, snapshots)

    def _seed(self, game_id: str) -> bytes | None:
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self.store.seed(game_id)
            if seed is not None:
                self._keep_seed(game_id, seed)
        return seed

    def _keep_seed(self, game_id: str, seed: bytes) -> None:
        if len(self._seeds) >= self.settings.aggregate_cache_size * 4:
            self._seeds.clear()
        self._seeds[game_id] = seed

    def _seed_for_new_game(self, game_id: str, message: CommandMessage) -> bytes:
        dev_seed = message.dev_seed
        if dev_seed is not None and self.settings.allow_client_seed:
            fresh = seed_from_text(str(dev_seed))
        else:
            fresh = secrets.token_bytes(32)
        return self.store.ensure_seed(game_id, fresh)
