"""The routes a game's clients hit on every move (``/legal``, ``POST /commands``, the public and seat views),
async on ``redis.asyncio``.

One way through each: the FastAPI route, its one answer function here, one admission
(:mod:`services.adapters.api.admission`: the request's rates counted, its token and the game's meta read, with the
seat's view or legal commands when the seat is known, in one round trip). Nothing is folded here: the processor
writes the game's meta, views and legal commands with every append (``projections/inline.py``), and the answer
to a move is what its append handed over (the version, the seats to act and, while the mover is still to act,
its legal commands), so a client needs about one request per move.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response

from domain.core import Command, RuleError, get_game
from domain.core.lifecycle import parse_command
from domain.core.pace import Pace
from projections import read_models
from projections.inline import legal_for, load_legal
from projections.read_models import GameMeta
from services.adapters.api import raw
from services.adapters.api.abuse import client_address
from services.adapters.api.admission import Admitted, Call, admit, fresh, known_seat
from services.adapters.api.deps import BEARER, Context, resolve_seat
from services.adapters.api.errors import ApiError, error_responses, queued_response
from services.adapters.api.principals import Principal
from services.adapters.api.schemas import CommandAccepted, CommandQueued, GameView, LegalCommands
from services.application import games
from services.application.clocks.turns import TurnClocks
from services.application.clocks.vacation import Vacations
from services.application.commands import actor_of
from services.application.results import Accepted, Queued, Rejected

router = APIRouter(tags=["games"])
TOKEN: dict[str, Any] = {"security": [{BEARER.scheme_name: []}]}
"""The bearer scheme these routes take, as OpenAPI says it (the routes read the header themselves, in their one
admission round trip: no dependency to solve per request; the scheme is declared by the routes that depend on
``BEARER``)."""
SEAT_ROUTE: dict[str, Any] = {**TOKEN, "parameters": [raw.GAME_ID_PARAMETER, raw.SEAT_PARAMETER]}
"""A seat's route: its game id, ``?seat=`` and token, read by the route itself (``api.raw``)."""


def _json(data: Any, status_code: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status_code, media_type="application/json")


def call_of(request: Request) -> Call:
    """What admitting reads of a request."""
    return Call(request.method, getattr(request.scope.get("route"), "path", ""), client_address(request),
                request.headers.get("authorization"))


async def _record(ctx: Context, admitted: Admitted) -> Any:
    """The game's record folded afresh (for a game whose stored models cannot answer: archived, or written by
    a tool that writes none); its ``(record, version, ts)``."""
    loaded = admitted.loaded or await fresh(ctx, admitted.game_id)
    if loaded.record is None:
        raise ApiError("game_not_found", f"no game {admitted.game_id!r}")
    return loaded


async def legal_answer(ctx: Context, call: Call, game_id: str, seat: int | None) -> Response:
    guess = known_seat(ctx, call, game_id, seat)
    key = ctx.keys.legal(game_id)
    admitted = await admit(ctx, call, game_id, (lambda pipe: pipe.hget(key, str(guess))) if guess is not None else None)
    principal = admitted.principal()
    meta = admitted.meta()
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    assert chosen is not None
    raw = admitted.replies[0] if guess is not None and guess == chosen else None
    if raw is None and admitted.stored:
        raw = await ctx.loop_parts().redis.hget(key, str(chosen))  # type: ignore[misc]
    if raw is None or not admitted.stored:
        loaded = await _record(ctx, admitted)
        return _json(legal_for(loaded.record, loaded.version, chosen))
    return Response(load_legal(raw), media_type="application/json")


@router.get("/games/{game_id}/legal", response_model=LegalCommands, openapi_extra=SEAT_ROUTE,
            responses=error_responses(401, 403, 404, 422, 429))
async def legal_commands(request: Request) -> Any:
    """The caller's legal commands now: the game's when it is their turn, and the kernel's (``taproom.*``:
    ``taproom.Resign`` at any point of an active game, taking the seat back after a timeout or an absence, votes
    about a taken-over or absent seat, ``taproom.Undo`` while the caller's
    last move of this turn may be taken back) whenever they apply."""
    return await legal_answer(request.app.state.context, call_of(request), raw.game_id(request), raw.seat(request))


async def command_answer(ctx: Context, call: Call, game_id: str, seat: int | None, body: dict[str, Any]) -> Response:
    """The answer to a move: admitted (rates, token, the game's meta: one round trip), checked against the meta
    (seat, type, parse: a malformed command is refused before anything is queued), then claimed, queued and
    waited for in one more; answered from what the append handed over."""
    admitted = await admit(ctx, call, game_id)
    try:
        move = _move(admitted.principal, admitted.meta, game_id, seat, body)
    except MalformedCommand as malformed:  # the id it came under is used by the refusal (docs/playing.md: command ids)
        raise await games.refuse_malformed_async(ctx.loop_parts().bus, game_id, malformed.seat, malformed.command_id,
                                                 malformed.body, malformed.expected, malformed.error) from None
    return await _submit(ctx, game_id, move)


class MalformedCommand(Exception):
    """A request's body names no command of the game (``error``: why), sent for ``seat`` under ``command_id``."""

    def __init__(self, error: RuleError, seat: int, command_id: str | None, body: dict[str, Any],
                 expected: Any) -> None:
        super().__init__(error.message)
        self.error, self.seat, self.command_id, self.body, self.expected = error, seat, command_id, body, expected


@dataclass(frozen=True)
class _Move:
    command: Command
    seat: int
    actor: str
    command_id: str | None
    expected: int | None


def _move(principal_of: Callable[[], Principal], meta_of: Callable[[], GameMeta], game_id: str,
          seat: int | None, body: dict[str, Any]) -> _Move:
    """The command a request's body asks for, checked against the caller's principal and the game's meta
    (each read when first needed: the refusals come in the routes' order)."""
    data = dict(body)
    seat = _named_seat(data, seat)
    principal = principal_of()
    meta = meta_of()
    try:
        chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    except ApiError as refused:
        raise _left_already(principal, game_id, meta, data) or refused from None
    assert chosen is not None
    command_id, expected = _envelope_fields(data)
    data["seat"] = chosen
    try:  # refuse malformed commands before queueing
        games.check_player_command_type(str(data.get("type", "")))
        command = parse_command(get_game(meta.game), data)
    except RuleError as exc:
        raise MalformedCommand(exc, chosen, command_id, data, expected) from None
    actor = actor_of(principal.player_id if principal.kind == "player" else None, chosen)
    return _Move(command, chosen, actor, command_id, expected)


def _named_seat(data: dict[str, Any], seat: int | None) -> int | None:
    """The seat the body names (taken out of it), which must agree with the query's; else the query's."""
    if "seat" not in data:
        return seat
    named = data.pop("seat")  # never silently replaced: a client that names a seat means that seat
    if not isinstance(named, int) or isinstance(named, bool):
        raise ApiError("invalid_request", "'seat' must be an integer (or left out: the token's seat)")
    if seat is not None and seat != named:
        raise ApiError("invalid_request", f"the body says seat {named} but the query says seat {seat}")
    return named


def _envelope_fields(data: dict[str, Any]) -> tuple[str | None, int | None]:
    """The body's ``command_id`` and ``expected_version``, taken out of it and checked."""
    command_id = data.pop("command_id", None) or None
    expected = data.pop("expected_version", None)
    if command_id is not None and not isinstance(command_id, str):
        raise ApiError("invalid_request", "command_id must be a string of 1 to 80 characters")
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise ApiError("invalid_request", "expected_version must be an integer")
    return command_id, expected


def _left_already(principal: Principal | None, game_id: str, meta: GameMeta,
                  data: dict[str, Any]) -> ApiError | None:
    """A resignation from a player whose seat is no longer theirs because they left it (a bot plays it now):
    said as such, not as a seat they never held."""
    if principal is None or data.get("type") != "taproom.Resign":
        return None
    for index, info in enumerate(meta.seats):
        mine = (principal.kind == "seat" and principal.game_id == game_id and principal.seat == index) or \
            (principal.kind == "player" and info.player_id is not None and info.player_id == principal.player_id)
        if mine and info.left:
            return ApiError("already_resigned", f"you left game {game_id} already (seat {index})")
    return None


async def _submit(ctx: Context, game_id: str, move: _Move) -> Response:
    result = await games.submit_command_async(ctx.root, ctx.loop_parts().bus, game_id, move.command, actor=move.actor,
                                              command_id=move.command_id, expected_version=move.expected)
    if isinstance(result, Rejected):
        raise result.error()
    if isinstance(result, Queued):
        return queued_response(result)
    return _json(await _accepted(ctx, game_id, move.seat, result))


@router.post("/games/{game_id}/commands", response_model=CommandAccepted, response_model_exclude_unset=True,
             openapi_extra={**SEAT_ROUTE, "requestBody": raw.COMMAND_BODY},
             responses={202: {"model": CommandQueued}, **error_responses(400, 401, 403, 404, 409, 413, 422, 429, 503)})
async def submit_command(request: Request) -> Any:
    """Submit a command for the caller's seat; waits briefly for the outcome (202 with a poll link if still queued).

    ``command_id`` (chosen by the client, scoped to the game and seat) makes a retry safe: one id has one
    outcome forever. Sending an id again with the same body answers the outcome it already has, accepted or
    rejected, and changes nothing; with another body it is refused (409 ``command_id_reused``). A rejected
    command is never decided again under its id, even when it would now be legal, so try again under a new
    ``command_id``.

    The seat is the token's; a `seat` in the body (or `?seat=`) picks one of the seats the token holds, and is
    refused when the token does not hold it.

    The answer carries the new ``version``, the seats ``to_act`` now and, while the caller's seat is still to
    act, its ``legal`` commands (as `/legal` answers them).

    ``{"type": "taproom.Resign"}`` leaves the game for good, at any point (your turn or not): you are placed last
    (in the rating too); with two players still in, the game ends (``taproom.SeatLeft``, ``taproom.GameEnded``),
    with more a bot at the game's autopilot level plays your seat to the end. Refused with ``already_resigned``
    (409) once you left, ``game_not_active`` (409) when the game is over, ``not_your_seat`` (403) for a player
    without a seat and ``unauthorized`` (401) without a token."""
    gid, seat = raw.game_id(request), raw.seat(request)
    return await command_answer(request.app.state.context, call_of(request), gid, seat, await raw.json_object(request))


async def _accepted(ctx: Context, game_id: str, seat: int, result: Accepted) -> dict[str, Any]:
    """The answer to an accepted move: its events redacted for the caller, who acts now, and the caller's
    legal commands while it is still to act: what the append handed over with the outcome (an outcome the
    command id had already: read from the game's stored models)."""
    after = result.after
    if after is None:
        after = await _after_now(ctx, game_id, seat)
    over = after["status"] == "scored"
    answer: dict[str, Any] = {"status": "accepted", "command_id": result.command_id, "version": result.version,
                              "events": [e.redacted(seat, over) for e in result.events or []],
                              "to_act": after["to_act"]}
    if after.get("legal") is not None:
        answer["legal"] = after["legal"]
    return answer


async def _after_now(ctx: Context, game_id: str, seat: int) -> dict[str, Any]:
    """What the answer to a move says of the game now (its status, who acts, the mover's legal commands)."""
    meta = await ctx.meta_at_log_head(game_id)
    after: dict[str, Any] = {"status": meta.status, "to_act": meta.to_act}
    if meta.status == "active" and seat in meta.to_act:
        raw = await ctx.loop_parts().redis.hget(ctx.keys.legal(game_id), str(seat))  # type: ignore[misc]
        if raw is not None:
            after["legal"] = orjson.loads(load_legal(raw))
    return after


class _Prefetched:
    """A read-only stand-in for the Redis client :class:`TurnClocks` reads a clock view through, answering
    from what one pipelined round trip fetched (the clock hash, the vacations of the waiting players), so
    the clock logic runs as it is, on the event loop, without a worker thread. Any other read is a bug."""

    def __init__(self, hashes: dict[str, dict[bytes, bytes]], zsets: dict[str, list[bytes]]) -> None:
        self.hashes, self.zsets = hashes, zsets

    def hgetall(self, key: str) -> dict[bytes, bytes]:
        return self.hashes[key]

    def hget(self, key: str, field: str) -> bytes | None:
        return self.hashes[key].get(field.encode())

    def zrange(self, key: str, start: int, end: int) -> list[bytes]:
        assert (start, end) == (0, -1)
        return self.zsets[key]


@dataclass
class _ClockSeat:
    autopilot: str | None
    timeouts: int
    player_id: str | None


@dataclass
class _ClockFacts:
    """What :meth:`TurnClocks.view` reads of a game, taken from its meta (no record needed)."""

    game_id: str
    status: str
    pace: Pace | None
    seats: list[_ClockSeat] = field(default_factory=list)

    @classmethod
    def of(cls, meta: GameMeta) -> _ClockFacts:
        pace = Pace.model_validate(meta.pace) if meta.pace else None
        return cls(meta.game_id, meta.status, pace, [_ClockSeat(s.away, s.timeouts, s.player_id) for s in meta.seats])


async def view_answer(ctx: Context, call: Call, game_id: str, seat: int | None, public: bool) -> Response:
    """The stored view (or, for a game whose models cannot answer, one built from its record) with the clock
    of now."""
    parts = ctx.loop_parts()
    clock_key = ctx.keys.clock(game_id)
    guess = None if public else known_seat(ctx, call, game_id, seat)

    def reads(pipe: Any) -> None:
        pipe.hgetall(clock_key)
        if public or guess is not None:
            pipe.get(ctx.keys.view(game_id, guess))

    admitted = await admit(ctx, call, game_id, reads, with_token=not public)
    principal = None if public else admitted.principal()
    meta = admitted.meta()
    clock_hash = admitted.replies[0]
    raw = admitted.replies[1] if len(admitted.replies) > 1 else None
    if not public:
        chosen = resolve_seat(principal, game_id, meta, seat, required=True)
        if chosen != guess:
            raw = await parts.redis.get(ctx.keys.view(game_id, chosen)) if admitted.stored else None
        seat = chosen
    if raw is not None and admitted.stored:
        data = read_models.load_view(raw)
    else:
        loaded = await _record(ctx, admitted)
        data = read_models.view(loaded.record, None if public else seat, loaded.ts or time.time())
    data["clock"] = await _clock(ctx, meta, clock_hash)
    return _json(data)


async def _clock(ctx: Context, meta: GameMeta, clock_hash: dict[bytes, bytes]) -> dict[str, Any]:
    parts = ctx.loop_parts()
    facts = _ClockFacts.of(meta)
    clock_key = ctx.keys.clock(facts.game_id)
    waiting = {int(k.split(b":")[1]) for k in clock_hash if k.startswith(b"start:")}
    players = sorted({p for s in waiting if s < len(facts.seats) and (p := facts.seats[s].player_id)})
    zsets: dict[str, list[bytes]] = {}
    if players and facts.pace is not None:
        pipe = parts.redis.pipeline(transaction=False)
        for player in players:
            pipe.zrange(ctx.keys.vacations(player), 0, -1)
        zsets = dict(zip((ctx.keys.vacations(p) for p in players), await pipe.execute()))
    reader = _Prefetched({clock_key: clock_hash}, zsets)
    clocks = TurnClocks(reader, ctx.keys, Vacations(reader, ctx.keys, 0, ctx.root.clock),  # type: ignore[arg-type]
                        ctx.root.clock)
    return clocks.view(facts)  # type: ignore[arg-type]


@router.get("/games/{game_id}", response_model=GameView, response_model_exclude_unset=True,
            openapi_extra={"parameters": [raw.GAME_ID_PARAMETER]}, responses=error_responses(404, 422, 429))
async def public_view(request: Request) -> Any:
    """The public view (what a spectator sees), with ``clock``: now, each seat's deadline and consecutive
    timeouts, and after how many a seat is taken over."""
    return await view_answer(request.app.state.context, call_of(request), raw.game_id(request), None, public=True)


@router.get("/games/{game_id}/view", response_model=GameView, response_model_exclude_unset=True,
            openapi_extra=SEAT_ROUTE, responses=error_responses(401, 403, 404, 422, 429))
async def seat_view(request: Request) -> Any:
    """The caller's seat view (hidden information of other seats removed by construction), with ``clock``."""
    return await view_answer(request.app.state.context, call_of(request), raw.game_id(request), raw.seat(request),
                             public=False)
