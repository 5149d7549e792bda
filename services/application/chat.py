"""Table chat: per game, the seats' chat and a separate spectators' chat, kept in Redis beside the game
(never in its event log), with a length limit, a rate limit per caller (the API's ``limits`` rules:
``rate_limit_chat``) and mutes.

Who may do what:

* the seats' chat (``seats``): the holders of the game's seats write; everyone may read it (spectators
  watch the table talk, as at a club);
* the spectators' chat (``spectators``): registered players without a seat in the game write and read;
  the seats read it only once the game is over, so nobody can be coached while it runs.

A caller (``player:<id>``, or ``seat:<game>:<n>`` for a seat token) may mute another author, and a player may
block another player (``services.application.moderation``): that author's messages are left out of everything
the caller reads, here, on the stream and in the replay, in every game. Messages
reach open pages through the game's stream (``event: chat``). Each channel is a Redis stream under the
game's hash tag, trimmed to the newest ``chat_keep`` messages; the archive takes the channels along
(``Keys.chat_side_keys``, registered in ``services.infrastructure.bootstrap``): an archived game's chat is read from its
archive, and nobody posts to it any more (``game_archived``).

Each message is stamped with the game's version when it was posted (``version``), and whether the game was
over then, so the replay (:meth:`Chat.replay`) shows it at its place, to whoever could read it at the time.
A post sent with an ``Idempotency-Key`` is written once: the message and the record of what it answered go in
one script, in the game's slot, so a retry (after a 503 or a lost answer) answers the same message, and a
message lost with its master takes its record along (the retry then writes it afresh).
"""

from __future__ import annotations

import hashlib
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
REQUEST_SECONDS = 24 * 3600
"""How long a chat post's ``Idempotency-Key`` answers its retries."""

POST_SCRIPT = """
-- KEYS: 1 the channel's stream, 2 the game's head, 3 the archive pointer, 4 the request's record (keyed posts)
-- ARGV: 1 the message (JSON), 2 messages kept, 3 '1' once the game is over, 4 the record's TTL ('0': no key)
local keyed = ARGV[4] ~= '0'
if keyed then
  local prior = redis.call('GET', KEYS[4])
  if prior then return {'again', prior} end
end
if redis.call('EXISTS', KEYS[3]) == 1 then return {'archived'} end
local version = redis.call('HGET', KEYS[2], 'version') or '0'
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '*', 'm', ARGV[1], 'v', version, 'o', ARGV[3])
if keyed then
  redis.call('SET', KEYS[4], id .. '\\n' .. version .. '\\n' .. ARGV[1], 'EX', ARGV[4])
end
return {'new', id, version}
"""


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
        self._post = self.redis.register_script(POST_SCRIPT)

    def post(self, game_id: str, channel: Channel, speaker: Speaker, text: str, seat: int | None = None,
             over: bool = False, key: str | None = None) -> dict[str, Any]:
        """Append a message stamped with the game's version; the caller's right to the channel is checked here.
        ``over``: the game is over (the seats may read the spectators' chat from then on); ``key``: the client's
        ``Idempotency-Key`` (the same key answers the same message)."""
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
        message = {"channel": channel, "author": speaker.key, "name": speaker.name, "seat": seat,
                   "text": clean_text(text, self.max_chars), "ts": time.time()}
        request = self.keys.chat_request(game_id, _digest(speaker.key, key)) if key else self.keys.head(game_id)
        answer: Any = self._post(keys=[self.keys.chat(game_id, channel), self.keys.head(game_id),
                                       self.keys.archived(game_id), request],
                                 args=[orjson.dumps(message), self.keep, int(over), REQUEST_SECONDS if key else 0])
        kind = _text(answer[0])
        if kind == "archived":
            raise RuleError(f"game {game_id} is archived; its chat is read-only", code="game_archived")
        if kind == "again":
            entry_id, version, body = _text(answer[1]).split("\n", 2)
            before = orjson.loads(body)
            if (before["channel"], before["text"], before["seat"]) != (channel, message["text"], seat):
                raise RuleError("this Idempotency-Key already sent another chat message; use a new key",
                                code="idempotency_key_reused")
            return {"id": entry_id, **before, "version": int(version)}
        return {"id": _text(answer[1]), **message, "version": int(answer[2])}

    def retract(self, game_id: str, channel: Channel, message_id: str) -> None:
        """Take a message back (its post was refused for durability: an answer the client never had)."""
        self.redis.xdel(self.keys.chat(game_id, channel), message_id)

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

    def replay(self, game_id: str, seats: tuple[int, ...], hidden: Iterable[str] = (),
               upto: int | None = None) -> list[dict[str, Any]]:
        """Every kept message of the game, in the order of the game (``version``: the game's version when it was
        said), that a viewer holding ``seats`` could read when it was said: the seats' chat for everyone; the
        spectators' chat for those without a seat, and for the seats only what was said once the game was over.
        ``hidden``: authors the viewer muted or blocked; ``upto``: only what was said by that version."""
        out: list[dict[str, Any]] = []
        for channel in CHANNELS:
            for message in messages(self._all_rows(game_id, channel), set(hidden), flags=True):
                over = message.pop("over")
                if channel == "spectators" and seats and not over:
                    continue
                out.append(message)
        if any(m["version"] is None for m in out):
            self._place_by_time(game_id, out)
        out.sort(key=lambda m: (m["version"], m["ts"]))
        return [m for m in out if upto is None or m["version"] <= upto]

    def _all_rows(self, game_id: str, channel: Channel) -> list[Any]:
        key = self.keys.chat(game_id, channel)
        if not self.redis.exists(key) and self.redis.exists(self.keys.archived(game_id)):
            return _archived_rows(self.store.archived_side(game_id, chat_side_name(channel)), None, self.keep)
        return self.redis.xrange(key)  # type: ignore[return-value]

    def _place_by_time(self, game_id: str, found: list[dict[str, Any]]) -> None:
        """Messages kept before they were stamped: placed at the last event made before them."""
        times = [(env.ts, env.version) for env in self.store.read(game_id)]
        for message in found:
            if message["version"] is None:
                message["version"] = max((v for ts, v in times if ts <= message["ts"]), default=0)

    # -- mutes -----------------------------------------------------------------------
    def muted(self, viewer: str) -> set[str]:
        return {m.decode() for m in self.redis.smembers(self.keys.mutes(viewer))}  # type: ignore[union-attr]

    def hidden(self, viewer: str) -> set[str]:
        """The authors whose messages ``viewer`` does not see: muted, and (a player) the players blocked."""
        found: Any = self.redis.sunion(self.keys.mutes(viewer), self.keys.blocks(viewer))
        return {m.decode() for m in found}

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


def messages(rows: Iterable[Any], muted: set[str], flags: bool = False) -> list[dict[str, Any]]:
    """Stream entries as messages with their ``version`` (None: said before messages were stamped), muted
    authors left out; ``flags``: with ``over`` too (said once the game was over)."""
    out = []
    for entry_id, fields in rows:
        message = orjson.loads(fields[b"m"])
        if message["author"] in muted:
            continue
        version = fields.get(b"v")
        message = {"id": _text(entry_id), **message, "version": int(version) if version is not None else None}
        if flags:
            message["over"] = fields.get(b"o") == b"1"
        out.append(message)
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


def _digest(caller: str, key: str | None) -> str:
    return hashlib.sha256(f"{caller}\n{key}".encode()).hexdigest()[:32]


def _stream_id(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
