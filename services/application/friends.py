"""Friends: a player follows others by handle; their friends list says who is online now and which games each
plays (to watch), and which of the player's own open games have a free seat (to invite a friend in one tap,
with the existing invitations).

Following is one-way and needs no consent (as on lichess or BGA): it shows only what anyone sees already (a
game in the lobby or on its page, an open page as "online"), never a seat's hidden information. Each player
follows at most ``max_follows_per_player``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import redis

from domain.core import RuleError
from projections.read_models import GameMeta, load_meta
from services.application.presence import Presence
from services.infrastructure.clock import Clock
from services.infrastructure.eventstore import Keys
from services.infrastructure.players import Player, Players
from services.infrastructure.redisconn import mget

CURRENT = ("open", "active")
GAMES_LOOKED_AT = 30
"""Of each friend's games, the latest this many are looked at for the ones still being played."""


@dataclass(frozen=True)
class Friend:
    player: Player
    online: bool
    last_seen: float | None
    games: list[GameMeta] = field(default_factory=list)


class Friends:
    def __init__(self, client: redis.Redis, keys: Keys, presence: Presence, clock: Clock, limit: int) -> None:
        self.redis = client
        self.keys = keys
        self.presence = presence
        self.clock = clock
        self.limit = limit
        self.players = Players(client, keys)

    def _find(self, handle: str) -> Player:
        found = self.players.by_handle(handle.strip().removeprefix("@"))
        if found is None:
            raise RuleError(f"no player with handle {handle!r}", code="player_not_found")
        return found

    def follow(self, player_id: str, handle: str) -> Player:
        """Add the player with ``handle`` to ``player_id``'s friends (again: nothing changes)."""
        friend = self._find(handle)
        if friend.player_id == player_id:
            raise RuleError("you cannot follow yourself", code="cannot_follow_self")
        key = self.keys.follows(player_id)
        # add first, then count: of two racing follows at the limit neither slips past it
        added = self.redis.zadd(key, {friend.player_id: self.clock.now()}, nx=True)
        if added and self.redis.zcard(key) > self.limit:
            self.redis.zrem(key, friend.player_id)
            raise RuleError(f"you follow {self.limit} players already: unfollow one first", code="too_many_follows")
        return friend

    def unfollow(self, player_id: str, handle: str) -> Player:
        friend = self._find(handle)
        if not self.redis.zrem(self.keys.follows(player_id), friend.player_id):
            raise RuleError(f"you do not follow @{friend.handle}", code="not_following")
        return friend

    def following(self, player_id: str) -> list[str]:
        return [m.decode() for m in self.redis.zrange(self.keys.follows(player_id), 0, -1)]  # type: ignore[union-attr]

    def _current_games(self, player_ids: list[str]) -> dict[str, list[GameMeta]]:
        """Each player's games still being played (open or active), latest first, in two round trips."""
        with self.redis.pipeline(transaction=False) as pipe:
            for pid in player_ids:
                pipe.zrange(self.keys.inbox(pid), 0, GAMES_LOOKED_AT - 1)
            lists = pipe.execute()
        ids = [[g.decode() for g in found] for found in lists]
        wanted = list(dict.fromkeys(g for games in ids for g in games))
        metas = {g: load_meta(raw) for g, raw in zip(wanted, mget(self.redis, [self.keys.meta(g) for g in wanted]))
                 if raw}
        return {pid: [metas[g] for g in games if g in metas and metas[g].status in CURRENT]
                for pid, games in zip(player_ids, ids)}

    def friends(self, player_id: str) -> list[Friend]:
        """The friends list: online ones first, then by name."""
        ids = self.following(player_id)
        people = [p for p in (self.players.get(pid) for pid in ids) if p is not None]
        seen = self.presence.online([p.player_id for p in people])
        games = self._current_games([p.player_id for p in people])
        out = [Friend(p, seen.get(p.player_id) is not None, seen.get(p.player_id), games.get(p.player_id, []))
               for p in people]
        return sorted(out, key=lambda f: (not f.online, f.player.name.lower()))

    def open_seats_of(self, player_id: str) -> list[GameMeta]:
        """The player's own open games with a free seat: where a friend can be invited in one tap."""
        mine = self._current_games([player_id])[player_id]
        return [m for m in mine if m.status == "open" and m.creator == player_id and any(s.open for s in m.seats)]
