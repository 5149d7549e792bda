"""Chat you can moderate: blocking a player, reporting a message (issue 34).

* **Block** (a player blocks a player): the blocked player's chat is hidden for the blocker (live, on the
  stream and in the replay: :meth:`services.application.chat.Chat.hidden` joins blocks to mutes), and their
  invitations to the blocker are refused (``invitation_refused``, checked by
  :class:`services.application.invitations.Invitations`). The blocked player is not told. At most
  ``max_blocks`` players (409 ``too_many_blocks``), as mutes have ``max_chat_mutes``. Blocks are kept as
  ``player:<id>`` (a chat author) in a set beside the blocker's mutes (one slot: read together in one ``SUNION``).
* **Report** a chat message (any reader but its author): the report keeps a copy of the message (it outlives
  the channel's trimming), the reporter, an optional reason and the time, in a hash of the game (archived with
  it, ``Keys.chat_reports``); a global index of reported games (``Keys.chat_report_index``) lets an operator
  list them (``taproom reports``). One report per reporter and message: reporting again changes nothing and
  answers the first report (a retry after a 503 is harmless).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from domain.core import RuleError
from services.application.chat import Channel, Chat, Speaker, messages, readable
from services.infrastructure.bootstrap import CHAT_REPORTS_SIDE_NAME
from services.infrastructure.eventstore import EventStore, Keys
from services.infrastructure.players import Player, Players


def author_key(player_id: str) -> str:
    return f"player:{player_id}"


class Blocks:
    def __init__(self, client: redis.Redis, keys: Keys, cap: int = 200) -> None:
        self.redis = client
        self.keys = keys
        self.cap = cap
        self.players = Players(client, keys)

    def blocked(self, player_id: str) -> list[Player]:
        """The players ``player_id`` blocked (by name)."""
        found: Any = self.redis.smembers(self.keys.blocks(author_key(player_id)))
        ids = sorted(m.decode().removeprefix("player:") for m in found)
        players = [self.players.get(i) or Player(i, "(a removed player)", None, 0.0) for i in ids]
        return sorted(players, key=lambda p: p.name.casefold())

    def is_blocked(self, player_id: str, by: str) -> bool:
        """Whether ``by`` blocked ``player_id``."""
        return bool(self.redis.sismember(self.keys.blocks(author_key(by)), author_key(player_id)))

    def block(self, player_id: str, other: str) -> Player:
        """Block ``other`` (a player id) for ``player_id``; blocking twice is one block."""
        if other == player_id:
            raise RuleError("you cannot block yourself", code="invalid_request")
        found = self.players.get(other)
        if found is None:
            raise RuleError(f"no player {other!r}", code="player_not_found")
        key = self.keys.blocks(author_key(player_id))
        # Add first, then count: of two racing blocks at the cap neither slips past it.
        if self.redis.sadd(key, author_key(other)) and self.redis.scard(key) > self.cap:  # type: ignore[operator]
            self.redis.srem(key, author_key(other))
            raise RuleError(f"you have blocked {self.cap} players, the most there can be: unblock one first",
                            code="too_many_blocks")
        return found

    def unblock(self, player_id: str, other: str) -> None:
        self.redis.srem(self.keys.blocks(author_key(player_id)), author_key(other))


@dataclass(frozen=True)
class Report:
    report_id: str
    game_id: str
    channel: str
    message_id: str
    author: str
    author_name: str
    text: str
    said_at: float
    reporter: str
    reporter_name: str
    reason: str
    ts: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Reports:
    def __init__(self, store: EventStore, chat: Chat, reason_chars: int = 300) -> None:
        self.store = store
        self.redis: redis.Redis = store.redis
        self.keys: Keys = store.keys
        self.chat = chat
        self.reason_chars = reason_chars

    def report(self, game_id: str, channel: Channel, message_id: str, reporter: Speaker, status: str,
               reason: str = "") -> tuple[Report, bool]:
        """Report a message the reporter can read; returns the report and whether it is new."""
        if not readable(channel, reporter, status):
            raise RuleError("you cannot read that chat, so you cannot report its messages", code="forbidden")
        reason = " ".join(reason.split())
        if len(reason) > self.reason_chars:
            raise RuleError(f"a report's reason has at most {self.reason_chars} characters", code="invalid_request")
        message = self._message(game_id, channel, message_id)
        if message["author"] == reporter.key:
            raise RuleError("you cannot report your own message", code="invalid_request")
        report_id = hashlib.sha256(f"{reporter.key}\n{channel}\n{message_id}".encode()).hexdigest()[:24]
        report = Report(report_id=report_id, game_id=game_id, channel=channel, message_id=message_id,
                        author=message["author"], author_name=message["name"], text=message["text"],
                        said_at=message["ts"], reporter=reporter.key, reporter_name=reporter.name, reason=reason,
                        ts=time.time())
        # The index first: a report whose own write is lost leaves an index entry with nothing behind it
        # (listed as nothing), never a report no operator can find.
        self.redis.zadd(self.keys.chat_report_index(), {game_id: report.ts})
        if self.redis.hsetnx(self.keys.chat_reports(game_id), report_id, orjson.dumps(report.to_dict())):
            return report, True
        stored: Any = self.redis.hget(self.keys.chat_reports(game_id), report_id)
        return Report(**orjson.loads(stored)), False

    def _message(self, game_id: str, channel: Channel, message_id: str) -> dict[str, Any]:
        key = self.keys.chat(game_id, channel)
        if self.redis.exists(key) or not self.redis.exists(self.keys.archived(game_id)):
            rows: Any = self.redis.xrange(key, message_id, message_id)
            found = messages(rows, set())
        else:
            found = [m for m in self.chat.replay(game_id, ()) if m["id"] == message_id and m["channel"] == channel]
        if not found:
            raise RuleError(f"no message {message_id} in the {channel} chat of game {game_id} (it may have been "
                            "trimmed)", code="message_not_found")
        return found[0]

    def of_game(self, game_id: str) -> list[Report]:
        """The game's reports, oldest first (from Redis, and from its archive once it was archived)."""
        raw: Any = self.redis.hgetall(self.keys.chat_reports(game_id))
        found = {k.decode(): orjson.loads(v) for k, v in raw.items()}
        if self.redis.exists(self.keys.archived(game_id)):
            side = self.store.archived_side(game_id, CHAT_REPORTS_SIDE_NAME) or {}
            for report_id, value in side.get("value", {}).items():
                found.setdefault(report_id, orjson.loads(value))
        return sorted((Report(**r) for r in found.values()), key=lambda r: r.ts)

    def latest(self, limit: int = 50) -> list[Report]:
        """The newest reports of every game, newest first (at most ``limit``)."""
        games: Any = self.redis.zrevrange(self.keys.chat_report_index(), 0, limit - 1)
        found = [r for g in games for r in self.of_game(g.decode())]
        return sorted(found, key=lambda r: r.ts, reverse=True)[:limit]

