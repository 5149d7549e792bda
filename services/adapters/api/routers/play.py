"""The routes a game's clients hit on every move (``/legal``, ``POST /commands``, the public and seat views),
async on ``redis.asyncio``.

Each answer is made by one function here (``legal_answer``, ``command_answer``, ``view_answer``) that both
ways to it call: the ASGI hot path (:mod:`services.adapters.api.hot`), which serves regular requests without
FastAPI's routing and dependency machinery, and the FastAPI routes below, which document the routes and
answer every request the hot path hands over (anything irregular). No worker-thread hand-off on the way: the
request's rates are counted and its token and the game's record read in one pipelined round trip
(:mod:`services.adapters.api.admission`; the record from this process's cache, caught up with the log by one
XRANGE), and a command is claimed, queued and waited for in another (``services.infrastructure.async_commands``). The answer to a move carries
what the client needs next: the new version, the seats to act, and the caller's legal commands when
its seat is still to act, so a client needs about one request per move.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from fastapi import APIRouter, Body, Depends, Path, Query, Request, Security
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials

from domain.core import Command, RuleError, get_game
from domain.core.lifecycle import GameRecord, kernel_commands, parse_command
from projections import read_models
from services.adapters.api import admission
from services.adapters.api.abuse import client_address
from services.adapters.api.admission import Call, admit
from services.adapters.api.bounds import MAX_INT
from services.adapters.api.deps import BEARER, Context, get_context, resolve_seat
from services.adapters.api.errors import ApiError, error_responses, queued_response
from services.adapters.api.principals import Principal
from services.adapters.api.schemas import CommandAccepted, CommandQueued, GameView, LegalCommands
from services.application import games
from services.application.clocks.turns import TurnClocks
from services.application.clocks.vacation import Vacations
from services.application.commands import actor_of
from services.application.results import Accepted, Queued, Rejected
from services.infrastructure.aggregates import Loaded
from services.infrastructure.async_commands import Gate, Gated

router = APIRouter(tags=["games"])
GameId = Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")


def _json(data: Any, status_code: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status_code, media_type="application/json")


def seat_facts(record: GameRecord) -> dict[str, Any]:
    """What :func:`resolve_seat` reads of a game's meta, taken from the record itself (always current)."""
    return {"seats": [{"seat": i, "player_id": s.player_id, "bot": s.bot} for i, s in enumerate(record.seats)],
            "to_act": record.to_act(), "hot_seat": bool(record.hot_seat)}


def legal_for(record: GameRecord, version: int, seat: int) -> dict[str, Any]:
    """The seat's legal commands now: the game's when it is to act, and the kernel's whenever they apply."""
    commands = kernel_commands(record, seat)
    if record.status == "active" and seat in record.to_act():
        commands = record.game.legal_commands(record.state, seat) + commands
    return {"version": version, "seat": seat, "commands": [c.model_dump(mode="json", exclude={"seat"})
                                                           for c in commands]}


def call_of(request: Request) -> Call:
    """What admitting reads of a request that came through FastAPI."""
    return Call(request.method, getattr(request.scope.get("route"), "path", ""), client_address(request),
                request.headers.get("authorization"))


async def legal_answer(ctx: Context, call: Call, game_id: str, seat: int | None) -> Response:
    admitted = await admit(ctx, call, game_id)
    principal = admitted.principal()
    record, version = admitted.record()
    chosen = resolve_seat(principal, game_id, seat_facts(record), seat, required=True)
    assert chosen is not None
    return _json(legal_for(record, version, chosen))


@router.get("/games/{game_id}/legal", response_model=LegalCommands,
            responses=error_responses(401, 403, 404, 422, 429))
async def legal_commands(request: Request, game_id: str = GameId, seat: int | None = Query(None, ge=0, le=MAX_INT),
                         _: HTTPAuthorizationCredentials | None = Security(BEARER),
                         ctx: Context = Depends(get_context)) -> Any:
    """The caller's legal commands now: the game's when it is their turn, and the kernel's (``taproom.*``:
    ``taproom.Resign`` at any point of an active game, taking the seat back after a timeout or an absence, votes
    about a taken-over or absent seat, ``taproom.Undo`` while the caller's
    last move of this turn may be taken back) whenever they apply."""
    return await legal_answer(ctx, call_of(request), game_id, seat)


async def command_answer(ctx: Context, call: Call, game_id: str, seat: int | None, body: dict[str, Any]) -> Response:
    """The answer to a move. A token and a game this process knows take one round trip: the command is checked
    on the cached principal and record, then admitted, claimed, queued and waited for in one step whose gate
    queues it only while the token still stands and the game is still at that record's version (with its
    rates counted there). Anything else (a token or game new to this process, a request the check refuses,
    a gate that finds either changed) is admitted the long way, which answers as it always did, errors in
    their usual order included."""
    ready = admission.ready(ctx, call, game_id)
    if ready is not None:
        try:
            move = _move(lambda: ready.principal, ready.record, game_id, seat, body)
        except Exception:  # refused: the long way says why, after counting and checking what comes first
            move = None
        if move is not None:
            try:
                return await _submit(ctx, game_id, move, ready.gate)
            except Gated as exc:
                admission.gated(exc, ready.rates)  # 429 when a rate is spent; else the token or game changed
    admitted = await admit(ctx, call, game_id)
    try:
        move = _move(admitted.principal, admitted.record, game_id, seat, body)
    except MalformedCommand as malformed:  # the id it came under is used by the refusal (README: command ids)
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


def _move(principal_of: Callable[[], Principal], record_of: Callable[[], tuple[GameRecord, int]], game_id: str,
          seat: int | None, body: dict[str, Any]) -> _Move:
    """The command a request's body asks for, checked against the caller's principal and the game's record
    (each read when first needed: the refusals come in the routes' order)."""
    data = dict(body)
    if "seat" in data:  # never silently replaced: a client that names a seat means that seat
        named = data.pop("seat")
        if not isinstance(named, int) or isinstance(named, bool):
            raise ApiError("invalid_request", "'seat' must be an integer (or left out: the token's seat)")
        if seat is not None and seat != named:
            raise ApiError("invalid_request", f"the body says seat {named} but the query says seat {seat}")
        seat = named
    principal = principal_of()
    record, _version = record_of()
    try:
        chosen = resolve_seat(principal, game_id, seat_facts(record), seat, required=True)
    except ApiError as refused:
        raise _left_already(principal, game_id, record, data) or refused from None
    assert chosen is not None
    command_id = data.pop("command_id", None) or None
    expected = data.pop("expected_version", None)
    if command_id is not None and not isinstance(command_id, str):
        raise ApiError("invalid_request", "command_id must be a string of 1 to 80 characters")
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise ApiError("invalid_request", "expected_version must be an integer")
    data["seat"] = chosen
    try:  # refuse malformed commands before queueing
        games.check_player_command_type(str(data.get("type", "")))
        command = parse_command(get_game(record.game_type), data)
    except RuleError as exc:
        raise MalformedCommand(exc, chosen, command_id, data, expected) from None
    actor = actor_of(principal.player_id if principal.kind == "player" else None, chosen)
    return _Move(command, chosen, actor, command_id, expected)


def _left_already(principal: Principal | None, game_id: str, record: GameRecord, data: dict[str, Any]) -> ApiError | None:
    """A resignation from a player whose seat is no longer theirs because they left it (a bot plays it now):
    said as such, not as a seat they never held."""
    if principal is None or data.get("type") != "taproom.Resign":
        return None
    for index, info in enumerate(record.seats):
        mine = (principal.kind == "seat" and principal.game_id == game_id and principal.seat == index) or \
            (principal.kind == "player" and info.player_id is not None and info.player_id == principal.player_id)
        if mine and info.left:
            return ApiError("already_resigned", f"you left game {game_id} already (seat {index})")
    return None


async def _submit(ctx: Context, game_id: str, move: _Move, gate: Gate | None = None) -> Response:
    result = await games.submit_command_async(ctx.root, ctx.loop_parts().bus, game_id, move.command, actor=move.actor,
                                              command_id=move.command_id, expected_version=move.expected, gate=gate)
    if isinstance(result, Rejected):
        raise result.error()
    if isinstance(result, Queued):
        return queued_response(result)
    return _json(await _accepted(ctx, game_id, move.seat, result))


@router.post("/games/{game_id}/commands", response_model=CommandAccepted, response_model_exclude_unset=True,
             responses={202: {"model": CommandQueued}, **error_responses(400, 401, 403, 404, 409, 413, 422, 429, 503)})
async def submit_command(request: Request,
                         request_body: dict[str, Any] = Body(..., examples=[{"command_id": "c1", "type": "PlaceTile"},
                                                                            {"command_id": "c2", "type": "taproom.Resign"}]),
                         game_id: str = GameId, seat: int | None = Query(None, ge=0, le=MAX_INT),
                         _: HTTPAuthorizationCredentials | None = Security(BEARER),
                         ctx: Context = Depends(get_context)) -> Any:
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
    return await command_answer(ctx, call_of(request), game_id, seat, request_body)


async def _accepted(ctx: Context, game_id: str, seat: int, result: Accepted) -> dict[str, Any]:
    """The answer to an accepted move: its events redacted for the caller, who acts now, and the caller's
    legal commands while it is still to act."""
    parts = ctx.loop_parts()
    events = result.events or []
    after = parts.records.advance(game_id, result.from_version, events)
    if after is None:  # another process moved the game meanwhile, or nothing cached: catch up
        after, _ = await parts.records.current(parts.redis, game_id)
    record = after.record
    assert record is not None
    over = record.status == "scored"
    answer: dict[str, Any] = {"status": "accepted", "command_id": result.command_id, "version": result.version,
                              "events": [e.redacted(seat, over) for e in events], "to_act": record.to_act()}
    if record.status == "active" and seat in answer["to_act"]:
        answer["legal"] = legal_for(record, after.version, seat)
    return answer


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


def _at_head(raw: bytes | None, loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """The projected view ``raw``, unless the projector has not folded the log's head yet: then the view built
    from the record at the head (a page refreshing on a stream event would otherwise get the version before
    that event and, with no later event to wake it, stay there)."""
    data = read_models.load_view(raw) if raw is not None else None
    if data is None or data["version"] < loaded.version:
        assert loaded.record is not None
        data = read_models.view(loaded.record, seat, loaded.ts or time.time())
    return data


async def view_answer(ctx: Context, call: Call, game_id: str, seat: int | None, public: bool) -> Response:
    """A projected view (or one built from the record while the projector lags) with the clock of now."""
    parts = ctx.loop_parts()
    view_key = ctx.keys.view(game_id, None)
    clock_key = ctx.keys.clock(game_id)

    def reads(pipe: Any) -> None:
        pipe.hgetall(clock_key)
        if public:
            pipe.get(view_key)

    admitted = await admit(ctx, call, game_id, reads, with_token=not public)
    principal = None if public else admitted.principal()
    record, _version = admitted.record()
    replies = admitted.replies
    clock_hash = replies[0]
    if public:
        raw = replies[1]
    else:
        seat = resolve_seat(principal, game_id, seat_facts(record), seat, required=True)
        raw = await parts.redis.get(ctx.keys.view(game_id, seat))
    data = _at_head(raw, admitted.loaded, None if public else seat)
    waiting = {int(k.split(b":")[1]) for k in clock_hash if k.startswith(b"start:")}
    players = {p for s in waiting if s < len(record.seats) and (p := record.seats[s].player_id)}
    zsets: dict[str, list[bytes]] = {}
    if players and record.pace is not None:
        pipe = parts.redis.pipeline(transaction=False)
        for player in sorted(players):
            pipe.zrange(ctx.keys.vacations(player), 0, -1)
        zsets = dict(zip((ctx.keys.vacations(p) for p in sorted(players)), await pipe.execute()))
    reader = _Prefetched({clock_key: clock_hash}, zsets)
    clocks = TurnClocks(reader, ctx.keys, Vacations(reader, ctx.keys, 0, ctx.root.clock),  # type: ignore[arg-type]
                        ctx.root.clock)
    data["clock"] = clocks.view(record)
    return _json(data)


@router.get("/games/{game_id}", response_model=GameView, response_model_exclude_unset=True,
            responses=error_responses(404, 422, 429))
async def public_view(request: Request, game_id: str = GameId, ctx: Context = Depends(get_context)) -> Any:
    """The public view (what a spectator sees), with ``clock``: now, each seat's deadline and consecutive
    timeouts, and after how many a seat is taken over."""
    return await view_answer(ctx, call_of(request), game_id, None, public=True)


@router.get("/games/{game_id}/view", response_model=GameView, response_model_exclude_unset=True,
            responses=error_responses(401, 403, 404, 422, 429))
async def seat_view(request: Request, game_id: str = GameId, seat: int | None = Query(None, ge=0, le=MAX_INT),
                    _: HTTPAuthorizationCredentials | None = Security(BEARER),
                    ctx: Context = Depends(get_context)) -> Any:
    """The caller's seat view (hidden information of other seats removed by construction), with ``clock``."""
    return await view_answer(ctx, call_of(request), game_id, seat, public=False)
