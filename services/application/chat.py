"""Table chat: per game, the seats' chat and a separate spectators' chat, kept in Redis beside the game
(never in its event log), with a length limit, a rate limit per caller (the API's ``limits`` rules:
``rate_limit_chat``) and mutes.

Who may do what:

* the seats' chat (``seats``): the holders of the game's seats write; everyone may read it (spectators
  watch the table talk, as at a club);
* the spectators' chat (``spectators``): registered players without a seat in the game write and read;
  the seats read it only once the game is over, so nobody can be coached while it runs.

A caller (``player:<id>``, or ``seat:<game>:<n>`` for a seat token) may mute another author: that author's
messages are left out of everything the caller reads, here and on the stream, in every game. Messages
reach open pages through the game's stream (``event: chat``). Each channel is a Redis stream under the
game's hash tag, trimmed to the newest ``chat_keep`` messages; the archive takes the channels along
(``Keys.chat_side_keys``, registered in ``services.infrastructure.bootstrap``): an archived game's chat is read from its
archive, and nobody posts to it any more (``game_archived``).
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import orjson
import redis

from domain.core import RuleError
from services.infrastructure.bootstrap import chat_side_name
from services.infrastructure.eventstore import EventStore, Keys

Channel = Literal["seats", "spectators"]
CHANNELS: tuple[Channel, ...] = ("seats", "spectators")
FINISHED = ("ended", "scored", "expired")


@dataclass(frozen=True)
class Speaker:
    """Who is chatting: ``key`` names them for mutes (``player:<id>`` or ``seat:<game>:<n>``); ``seats`` are the
    seats they hold in this game (empty: a spectator)."""

    key: str
    name: str
    seats: tuple[int, ...] = ()
    registered: bool = False


def readable(channel: Channel, speaker: Speaker | None, status: str) -> bool:
    if channel == "seats":
        return True
    return speaker is None or not speaker.seats or status in FINISHED


def clean_text(text: str, limit: int) -> str:
    """The message as stored: control characters out (newlines kept), trimmed, at most ``limit`` characters."""
    kept = "".join(c for c in text if c in "\n\t" or unicodedata.category(c)[0] != "C").strip()
    if not kept:
        raise RuleError("a chat message needs some text", code="invalid_request")
    if len(kept) > limit:
        raise RuleError(f"a chat message has at most {limit} characters, not {len(kept)}", code="invalid_request")
    return kept


class Chat:
    def __init__(self, store: EventStore, max_chars: int = 500, keep: int = 500) -> None:
        """``store``: the composition root's (its Redis and keys; archived games' chat is read through it)."""
        self.redis: redis.Redis = store.redis
        self.keys: Keys = store.keys
        self.max_chars = max_chars
        self.keep = keep
        self.store = store

    def post(self, game_id: str, channel: Channel, speaker: Speaker, text: str,
             seat: int | None = None) -> dict[str, Any]:
        """Append a message; the caller's right to the channel is checked here."""
        if channel == "seats":
            if not speaker.seats:
                raise RuleError(f"only the seats of game {game_id} write in its table chat; spectators have "
                                "their own", code="not_your_seat")
            if seat is None:
                seat = speaker.seats[0]
            elif seat not in speaker.seats:
                raise RuleError(f"you do not hold seat {seat} of game {game_id}", code="not_your_seat")
        else:
            if speaker.seats:
                raise RuleError("players at the table do not write in the spectators' chat", code="forbidden")
            if not speaker.registered:
                raise RuleError("the spectators' chat needs a player token (POST /players)", code="forbidden")
            seat = None
        if self.redis.exists(self.keys.archived(game_id)):
            raise RuleError(f"game {game_id} is archived; its chat is read-only", code="game_archived")
        message = {"channel": channel, "author": speaker.key, "name": speaker.name, "seat": seat,
                   "text": clean_text(text, self.max_chars), "ts": time.time()}
        entry_id = self.redis.xadd(self.keys.chat(game_id, channel), {"m": orjson.dumps(message)},
                                   maxlen=self.keep, approximate=False)
        return {"id": _text(entry_id), **message}

    def read(self, game_id: str, channel: Channel, muted: Iterable[str] = (), after: str | None = None,
             limit: int = 100) -> list[dict[str, Any]]:
        """The newest ``limit`` messages (after ``after``, an id, when given), oldest first, muted authors left out."""
        key = self.keys.chat(game_id, channel)
        if not self.redis.exists(key) and self.redis.exists(self.keys.archived(game_id)):
            return messages(_archived_rows(self.store.archived_side(game_id, chat_side_name(channel)), after, limit),
                            set(muted))
        if after:
            rows: Any = self.redis.xrange(key, f"({after}", "+", count=limit)
        else:
            rows = list(reversed(self.redis.xrevrange(key, "+", "-", count=limit)))
        return messages(rows, set(muted))

    # -- mutes -----------------------------------------------------------------------
    def muted(self, viewer: str) -> set[str]:
        return {m.decode() for m in self.redis.smembers(self.keys.mutes(viewer))}  # type: ignore[union-attr]

    def mute(self, viewer: str, author: str, cap: int) -> None:
        """Mute ``author`` for ``viewer``; at most ``cap`` authors muted (``too_many_mutes`` beyond)."""
        if author == viewer:
            raise RuleError("you cannot mute yourself", code="invalid_request")
        key = self.keys.mutes(viewer)
        # Add first, then count: of two racing mutes at the cap neither slips past it.
        if self.redis.sadd(key, author) and self.redis.scard(key) > cap:  # type: ignore[operator]
            self.redis.srem(key, author)
            raise RuleError(f"you have muted {cap} authors, the most there can be: unmute one first",
                            code="too_many_mutes")

    def unmute(self, viewer: str, author: str) -> None:
        self.redis.srem(self.keys.mutes(viewer), author)


def messages(rows: Iterable[Any], muted: set[str]) -> list[dict[str, Any]]:
    """Stream entries as messages (muted authors left out)."""
    out = []
    for entry_id, fields in rows:
        message = orjson.loads(fields[b"m"])
        if message["author"] not in muted:
            out.append({"id": _text(entry_id), **message})
    return out


def _archived_rows(side: dict[str, Any] | None, after: str | None, limit: int) -> list[Any]:
    """An archived channel (``{"type": "stream", "value": [[id, fields], ...]}``) as stream rows, the same
    window :meth:`Chat.read` takes from Redis."""
    rows = [(entry_id, {k.encode(): v.encode() for k, v in fields.items()}) for entry_id, fields in
            (side or {}).get("value", [])]
    if after:
        rows = [row for row in rows if _stream_id(row[0]) > _stream_id(after)]
        return rows[:limit]
    return rows[-limit:]


def _stream_id(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
