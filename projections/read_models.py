"""What the read side stores per game, computed from a game record by the game's own ``view``.

Each seat's view is built by the game from (state, seat): hidden information
is never put in and filtered out later. Scores appear once the game is scored.
"""

from __future__ import annotations

import zlib
from typing import Any

import orjson

from domain.core.lifecycle import GameRecord
from domain.core.seating import Invitation


def seats_public(record: GameRecord) -> list[dict[str, Any]]:
    """Each seat; one reserved by a standing invitation is not ``open`` (only its invitee may take it).
    Its standing with the clock: ``away`` (the policy that took it over), ``timeouts`` (consecutive missed
    deadlines), ``timed_out_turn`` (the policy is finishing a missed turn), ``votes`` (seats that voted
    about it)."""
    return [{"seat": i, "name": s.name, "bot": s.bot, "player_id": s.player_id,
             "open": not s.taken and s.invitation is None, "away": s.autopilot,
             "invited": _invited(s.invitation), "timeouts": s.timeouts, "timed_out_turn": s.overdue is not None,
             "votes": list(s.votes)} for i, s in enumerate(record.seats)]


def _invited(invitation: Invitation | None) -> dict[str, Any] | None:
    if invitation is None:
        return None
    return {"player_id": invitation.player_id, "name": invitation.name, "handle": invitation.handle,
            "expires_at": invitation.expires_at}


def meta(record: GameRecord, updated: float) -> dict[str, Any]:
    """The summary the lobby, the inbox and every view share."""
    data: dict[str, Any] = {
        "game_id": record.game_id, "game": record.game_type, "options": record.options,
        "version": record.version, "status": record.status, "seats": seats_public(record),
        "to_act": record.to_act(), "seed_commitment": record.seed_commitment, "updated": updated,
        "pace": record.pace.model_dump(mode="json") if record.pace else None,
        "creator": record.creator, "hot_seat": bool(record.hot_seat),
        # ended -> scored takes a moment (a scoring job); say so instead of leaving a client to guess at null
        "scores_pending": record.status == "ended",
    }
    if record.status == "scored":
        data["scores"] = [s.model_dump() for s in record.scores]
        data["places"] = {str(k): v for k, v in record.places.items()}
        data["seed"] = record.seed
    return data


def view(record: GameRecord, seat: int | None, updated: float) -> dict[str, Any]:
    """The view of ``seat`` (None = public) at the record's version."""
    data = meta(record, updated)
    data["seat"] = seat
    data["board"] = record.game.view(record.state, seat) if record.state is not None else None
    return data


def dump_view(data: dict[str, Any]) -> bytes:
    """A view as stored: JSON, zlib-compressed (a board view shrinks about sevenfold; read with load_view)."""
    return zlib.compress(orjson.dumps(data), 6)


def load_view(raw: bytes) -> dict[str, Any]:
    """A stored view (compressed by :func:`dump_view`, or plain JSON as older projectors wrote it)."""
    return orjson.loads(raw if raw[:1] == b"{" else zlib.decompress(raw))
