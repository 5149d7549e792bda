"""What a game's event stream says after each run of events: the caller's new view and legal commands
(``event: view``), so a page redraws from the stream alone, without asking ``/view`` and ``/legal`` again.

Both are read from the models the processor writes with every append (``projections/inline.py``): the seat's
stored view (redacted for that seat by the game itself) and the stored body of its ``GET /legal``; a spectator
gets the public view and no commands. Nothing is folded. A frame is sent only when the models are at exactly
the version of the last event sent, so a page never draws a board its move log has not reached; when they are
not (a later append landed between the reads, or a game whose models are missing: archived, or written by a
tool that writes none) no frame is sent, and the next run of events brings one, or the page falls back to its
refresh requests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from projections import read_models
from projections.inline import load_legal
from projections.read_models import GameMeta
from services.adapters.api.deps import seats_of
from services.adapters.api.principals import Principal
from services.infrastructure.eventstore import Keys


def _meta_in(view: dict[str, Any]) -> GameMeta:
    """The game's meta a stored view carries (a view is the meta, the seat and its board)."""
    return GameMeta.model_validate({k: v for k, v in view.items() if k not in ("seat", "board")})


@dataclass(frozen=True)
class SeatFrames:
    """The view frames of one stream: the seats it may show (those the caller held when it opened, or the one it
    asked for; none: the public view), checked again against every view read, so a seat the caller no longer
    holds (taken over by a bot after a vote) is never shown again."""

    keys: Keys
    game_id: str
    principal: Principal | None
    seats: tuple[int, ...]  # empty: a spectator, shown the public view

    @classmethod
    def of(cls, keys: Keys, game_id: str, principal: Principal | None, meta: GameMeta,
           chosen: int | None, asked: int | None) -> SeatFrames:
        """``chosen``: the seat the stream's events are redacted for; ``asked``: the seat the request named."""
        if chosen is None:
            return cls(keys, game_id, None, ())
        held = (asked,) if asked is not None else tuple(seats_of(principal, game_id, meta))
        return cls(keys, game_id, principal, held or (chosen,))

    async def frame(self, aredis: Any, version: int) -> bytes | None:
        """The ``view`` message at ``version`` (the last event sent), or None when the models are not there."""
        pipe = aredis.pipeline(transaction=False)
        self.queue(pipe)
        return self.message(await pipe.execute(), version)

    def queue(self, pipe: Any) -> None:
        """Queue the reads of the frame on ``pipe`` (a round trip the stream makes anyway)."""
        for seat in self.seats or (None,):
            pipe.get(self.keys.view(self.game_id, seat))
        if self.seats:
            pipe.hmget(self.keys.legal(self.game_id), [str(seat) for seat in self.seats])

    def message(self, replies: list[Any], version: int) -> bytes | None:
        """The ``view`` message from what :meth:`queue` read, at ``version``, or None."""
        if self.seats:
            return self._seat_frame(replies[:-1], replies[-1], version)
        return _message(replies[0], None, version)

    def _seat_frame(self, raws: list[bytes | None], legals: list[bytes | None], version: int) -> bytes | None:
        """The frame of the seat the caller's ``/view`` would show now: of the seats still held, the first to act,
        else the first (as :func:`~services.adapters.api.deps.resolve_seat` picks)."""
        if raws[0] is None:
            return None
        first = read_models.load_view(raws[0])
        held = set(seats_of(self.principal, self.game_id, _meta_in(first))) if self.principal is not None else set()
        still = [index for index, seat in enumerate(self.seats) if seat in held]
        if not still:
            return None
        acting = [index for index in still if self.seats[index] in first.get("to_act", [])]
        index = (acting or still)[0]
        if legals[index] is None:
            return None
        return _message(raws[index], legals[index], version, first if index == 0 else None)


def _message(raw: bytes | None, legal: bytes | None, version: int, view: dict[str, Any] | None = None
             ) -> bytes | None:
    if raw is None:
        return None
    view = view if view is not None else read_models.load_view(raw)
    if view.get("version") != version:
        return None
    body = b'{"view":' + orjson.dumps(view)
    if legal is not None:
        commands = load_legal(legal)
        if orjson.loads(commands).get("version") != version:  # read a moment after the view: an append between
            return None
        body += b',"legal":' + commands
    return b"event: view\ndata: " + body + b"}\n\n"
