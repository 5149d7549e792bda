"""What the read side stores per game, computed from a game record by the game's own ``view``.

Each seat's view is built by the game from (state, seat): hidden information
is never put in and filtered out later. Scores appear once the game is scored.

:class:`GameMeta` is the one typed game summary: the append stores it (``projections/inline.py``), the API
describes its responses with it (it is in the OpenAPI schema), and every reader reads it back as the model
(:func:`load_meta`), where a key nobody declared is an error.
"""

from __future__ import annotations

import zlib
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field

from domain.core.lifecycle import GameRecord, Seat
from domain.core.seating import Invitation

GameStatus = Literal["new", "open", "active", "ended", "scored", "expired"]
LIFE_CYCLE = """`open` (seats to fill: `POST /games/{id}/join`) → `active` (play: `to_act` names the seats to move)
→ `ended` (play is over; the final scoring is a moment away: `scores_pending` is true, `scores` absent) →
`scored` (`scores`, `places` and the revealed `seed` are present; the record is complete). An open game nobody
fills becomes `expired`. `new` is only seen at `GET /games/{id}/at/0`, before the creation event."""


class _Closed(BaseModel):
    """A key nobody declared is an error (a read model fails loudly instead of carrying it along); frozen: a
    stored record is read, never changed in place. Clients should still ignore fields they do not know: a later
    version may declare more."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Invited(_Closed):
    """A standing invitation reserving a seat for one player."""

    player_id: str
    name: str
    handle: str | None = None
    expires_at: float


class SeatInfo(_Closed):
    seat: int
    name: str | None = None
    bot: str | None = Field(default=None, description="bot level, when a bot holds the seat")
    player_id: str | None = None
    open: bool = Field(description="nobody holds the seat yet (a seat reserved by an invitation is not open)")
    away: str | None = Field(default=None, description="the policy playing for a timed-out seat, if any")
    invited: Invited | None = None
    timeouts: int = Field(default=0, description="consecutive missed deadlines")
    timed_out_turn: bool = Field(default=False, description="the policy is finishing a missed turn")
    votes: list[int] = Field(default_factory=list, description="seats that voted about this one")
    vote_choices: list[str] | None = Field(default=None, description="each vote's choice (`end` or `replace`), in the "
                                           "order of `votes`; present while votes about an absent seat stand")
    absent: bool = Field(default=False, description="an untimed game waited too long for this seat: the other "
                                                    "players may vote to end the game or to give it to a bot")
    left: Literal["resigned", "abandoned", "idle"] | None = Field(
        default=None, description="the player left the game for good (last place; a bot plays the seat on when "
                                  "the game went on): they `resigned`, or `abandoned` it (the table voted them out), "
                                  "or the game ended `idle` waiting for them")
    left_order: int | None = Field(default=None, description="1 for the first seat to leave, 2 for the next ...")


class ScoreSheet(_Closed):
    seat: int
    total: float
    breakdown: dict[str, float] = Field(default_factory=dict, description="points per scoring category")
    tiebreak: list[float] = Field(default_factory=list)


class GameMeta(_Closed):
    """The summary every view, the lobby and the inbox share."""

    game_id: str
    game: str
    options: dict[str, Any]
    version: int = Field(description="the number of events so far")
    status: GameStatus = Field(description=LIFE_CYCLE)
    seats: list[SeatInfo]
    to_act: list[int] = Field(description="seats that may act now (several in simultaneous phases)")
    seed_commitment: str = Field(description="sha256 of the secret seed, published at creation")
    updated: float = Field(description="time of the last event (Unix seconds)")
    pace: dict[str, Any] | None = None
    creator: str | None = Field(default=None, description="the player who created the game")
    hot_seat: bool = Field(default=False, description="one device may hold several seats")
    tutorial: bool = Field(default=False, description="a guided first game (always casual, with hints): a client "
                           "shows its coach panel")
    rated: bool = Field(default=True, description="false: a casual game, left out of the ratings")
    hints: bool = Field(default=False, description="the seats may ask for a hint on their turn (a casual game)")
    hints_asked: dict[str, int] = Field(default_factory=dict, description="seat -> hints it asked for")
    min_reliability: int | None = Field(default=None, description="only players with at least this reliability "
                                        "(per cent of their games finished without a takeover) may take a seat")
    scores_pending: bool = Field(default=False, description="true while `ended`: the final scores are coming")
    scores: list[ScoreSheet] | None = Field(default=None, description="only once `scored`")
    places: dict[str, int] | None = Field(default=None, description="seat -> place (1 = first), once `scored`")
    seed: str | None = Field(default=None, description="the revealed seed (hex), once `scored`")

    def to_json(self) -> dict[str, Any]:
        """The stored form: the fields set (scores, places and seed only once scored)."""
        return self.model_dump(mode="json", exclude_unset=True)

    def holders(self) -> dict[int, str]:
        """Seat -> the player holding it (seats held by a player only)."""
        return {s.seat: s.player_id for s in self.seats if s.player_id}


def load_meta(raw: bytes | str) -> GameMeta:
    """A game's meta as stored (:meth:`GameMeta.to_json`, serialised by orjson): parsed and checked in one step
    (pydantic's JSON parser; ``bench/meta_read_bench.py`` measures it against a plain ``orjson.loads``). A key
    nobody declared raises ``pydantic.ValidationError``."""
    return GameMeta.model_validate_json(raw)


def seats_public(record: GameRecord) -> list[SeatInfo]:
    """Each seat; one reserved by a standing invitation is not ``open`` (only its invitee may take it).
    Its standing with the clock: ``away`` (the policy that took it over), ``timeouts`` (consecutive missed
    deadlines), ``timed_out_turn`` (the policy is finishing a missed turn), ``votes`` (seats that voted
    about it); and for good: ``left`` (how the player left, set only then), ``absent`` (set only then)."""
    return [SeatInfo(seat=i, name=s.name, bot=s.bot, player_id=s.player_id,
                     open=not s.taken and s.invitation is None, away=s.autopilot, invited=_invited(s.invitation),
                     timeouts=s.timeouts, timed_out_turn=s.overdue is not None, votes=list(s.votes), **_leaving(s))
            for i, s in enumerate(record.seats)]


def _leaving(seat: Seat) -> dict[str, Any]:
    """The fields of leaving, given only when they say something (older stored views stay as they were)."""
    fields: dict[str, Any] = {}
    if seat.left:
        fields.update(left=seat.left_how, left_order=seat.left)
    if seat.absent:
        fields.update(absent=True, vote_choices=list(seat.choices))
    return fields


def _invited(invitation: Invitation | None) -> Invited | None:
    if invitation is None:
        return None
    return Invited(player_id=invitation.player_id, name=invitation.name, handle=invitation.handle,
                   expires_at=invitation.expires_at)


def _casual(record: GameRecord) -> dict[str, Any]:
    """A casual game's flags (a tutorial is one), set only when they differ from a rated game's (the stored meta of
    every other game stays as it was)."""
    flags: dict[str, Any] = {"tutorial": True} if record.tutorial else {}
    if not record.rated:
        flags["rated"] = False
    if record.min_reliability is not None:
        flags["min_reliability"] = record.min_reliability
    if record.hints:
        flags["hints"] = True
        flags["hints_asked"] = {str(k): v for k, v in record.hints_asked.items()}
    return flags


def meta(record: GameRecord, updated: float) -> GameMeta:
    """The summary the lobby, the inbox and every view share."""
    scored: dict[str, Any] = {}
    if record.status == "scored":
        scored = {"scores": [ScoreSheet(**s.model_dump()) for s in record.scores],
                  "places": {str(k): v for k, v in record.places.items()}, "seed": record.seed}
    return GameMeta(
        game_id=record.game_id, game=record.game_type, options=record.options, version=record.version,
        status=record.status, seats=seats_public(record), to_act=record.to_act(),
        seed_commitment=record.seed_commitment, updated=updated,
        pace=record.pace.model_dump(mode="json") if record.pace else None,
        creator=record.creator, hot_seat=bool(record.hot_seat), **_casual(record),
        # ended -> scored takes a moment (a scoring job); say so instead of leaving a client to guess at null
        scores_pending=record.status == "ended", **scored)


def view_of(summary: dict[str, Any], record: GameRecord, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None = public): the stored meta ``summary`` with the game's own view as ``board``."""
    return {**summary, "seat": seat,
            "board": record.game.view(record.state, seat) if record.state is not None else None}


def view(record: GameRecord, seat: int | None, updated: float) -> dict[str, Any]:
    """The view of ``seat`` (None = public) at the record's version."""
    return view_of(meta(record, updated).to_json(), record, seat)


try:  # ISA-L's deflate: output any zlib reads (load_view, every API process), 2-3 times faster than zlib's own
    from isal.isal_zlib import compress as _compress
except ImportError:  # pragma: no cover - isal is a dependency; zlib's own compressor writes the same format
    from zlib import compress as _compress

VIEW_LEVEL = 1
"""Deflate level of stored views. With ISA-L (``isal``) a Carcassonne view (about 8 KB of JSON) takes about 15 µs
at level 1 and shrinks to 1.46 KB; zlib's own level 1 took about 40 µs for 1.54 KB (its level 6: 50 µs for less
again). The projector compresses every seat's view after each command: it was a quarter of its CPU."""


def dump_view(data: dict[str, Any]) -> bytes:
    """A view as stored: JSON, deflated in zlib's format (a board view shrinks about fivefold; read with
    load_view)."""
    return _compress(orjson.dumps(data), VIEW_LEVEL)


def dump_views(summary: bytes, seats: list[int | None], boards: list[Any]) -> list[bytes]:
    """The stored views of ``seats`` (compressed as :func:`dump_view` does) from the meta as stored
    (``summary``: a JSON object) and each seat's board: the meta is serialised once, not once per seat. Byte for
    byte ``dump_view(view_of(...))``."""
    head = summary[:-1] + b',"seat":'
    return [_compress(b"".join((head, orjson.dumps(seat), b',"board":', orjson.dumps(board), b"}")), VIEW_LEVEL)
            for seat, board in zip(seats, boards)]


def load_view(raw: bytes) -> dict[str, Any]:
    """A stored view (compressed by :func:`dump_view`, or plain JSON as older projectors wrote it)."""
    view: dict[str, Any] = orjson.loads(raw if raw[:1] == b"{" else zlib.decompress(raw))
    return view
