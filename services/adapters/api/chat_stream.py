"""The caller as a chat speaker, and the chat part of a game's event stream (``event: chat``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import redis.asyncio

from projections.read_models import GameMeta
from services.adapters.api.abuse import caller_of
from services.adapters.api.deps import Context, Principal, seats_of
from services.application.chat import CHANNELS, Speaker, messages, readable
from services.infrastructure.players import Players


def speaker_of(ctx: Context, principal: Principal | None, game_id: str, meta: GameMeta) -> Speaker | None:
    """The caller as chat sees them (None: anonymous, reads only)."""
    if principal is None:
        return None
    held = tuple(seats_of(principal, game_id, meta))
    name = ""
    if principal.kind == "player":
        player = Players(ctx.redis, ctx.keys).get(principal.player_id or "")
        name = player.name if player else ""
    if held and not name:
        name = meta.seats[held[0]].name or f"seat {held[0]}"
    return Speaker(key=caller_of(principal.__dict__, ""), name=name or "player", seats=held,
                   registered=principal.kind == "player")


@dataclass
class ChatListener:
    """Follows the chat channels a caller may read; ``cursors`` (stream key -> last id) join the stream's wait."""

    keys: list[str]
    mutes_key: str | None
    blocks_key: str | None = None
    cursors: dict[str, str] = field(default_factory=dict)
    muted: set[str] = field(default_factory=set)

    async def start(self, aredis: redis.asyncio.Redis) -> None:
        """From now on: only what is said after the stream opened (the page reads the history itself)."""
        for key in self.keys:
            last: Any = await aredis.xrevrange(key, "+", "-", count=1)
            self.cursors[key] = last[0][0].decode() if last else "0-0"
        await self._load_mutes(aredis)

    async def new_messages(self, aredis: redis.asyncio.Redis) -> list[dict[str, Any]]:
        if not self.cursors:
            return []
        found: Any = await aredis.xread(self.cursors, count=100)
        if not found:
            return []
        await self._load_mutes(aredis)  # a mute made on another page counts from the next message on
        out: list[dict[str, Any]] = []
        for key, rows in found:
            name = key.decode() if isinstance(key, bytes) else key
            self.cursors[name] = rows[-1][0].decode()
            out += messages(rows, self.muted)
        return out

    async def _load_mutes(self, aredis: redis.asyncio.Redis) -> None:
        if self.mutes_key is not None:  # the authors muted, and the players blocked (one slot)
            found: Any = await aredis.sunion(self.mutes_key, *([self.blocks_key] if self.blocks_key else []))
            self.muted = {m.decode() for m in found}


def chat_listener(ctx: Context, game_id: str, facts: GameMeta, status: str,
                  principal: Principal | None) -> ChatListener:
    """The channels the caller may read (``facts``: the game's meta, whose seats
    :func:`~services.adapters.api.deps.seats_of` reads); no I/O, so the async stream route may call it."""
    speaker = None if principal is None else Speaker(
        key=caller_of(principal.__dict__, ""), name="", seats=tuple(seats_of(principal, game_id, facts)),
        registered=principal.kind == "player")
    keys = [ctx.keys.chat(game_id, c) for c in CHANNELS if readable(c, speaker, status)]
    return ChatListener(keys, ctx.keys.mutes(speaker.key) if speaker else None,
                        ctx.keys.blocks(speaker.key) if speaker else None)
