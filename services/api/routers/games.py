"""Games: create, join, look, act, replay, follow.

Every change goes through the command stream; handlers only validate what
they can cheaply (so bad input is refused at once) and wait briefly for the
processor's outcome.
"""

from __future__ import annotations

import time
import uuid
from typing import Any, AsyncIterator

import orjson
from fastapi import APIRouter, Body, Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, StreamingResponse

from domain.core import InvalidCommand, get_game
from domain.core.lifecycle import PLAYER_KERNEL_COMMANDS, GameRecord, kernel_commands, new_game_pace, parse_command
from domain.core.seating import bot_seat_names

from ...aggregates import Repository
from ...async_play.deadlines import TurnClocks
from ...async_play.vacation import Vacations
from ...bots import LEVELS
from ...eventstore import Envelope
from ..deps import Context, Principal, get_context, optional_principal, require_principal, resolve_seat
from ..errors import ApiError, error_response
from ..schemas import GameCreatedResponse, JoinRequest, JoinResponse, NewGame, SeatCreated

router = APIRouter(tags=["games"])
GameId = Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")


def _outcome_or_error(ctx: Context, game_id: str, command_id: str) -> dict[str, Any]:
    outcome = ctx.bus.wait(game_id, command_id, ctx.settings.command_wait_seconds)
    if outcome is None:
        raise _Queued(game_id, command_id)
    if not outcome.accepted:
        raise ApiError(outcome.code or "rejected", outcome.message or "command rejected")
    return outcome.to_dict()


class _Queued(Exception):
    def __init__(self, game_id: str, command_id: str) -> None:
        self.game_id, self.command_id = game_id, command_id


def queued_response(exc: _Queued, poll: str | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse({"status": "queued", "command_id": exc.command_id,
                         "poll": poll or f"/games/{exc.game_id}/commands/{exc.command_id}", **extra},
                        status_code=202)


@router.post("/games", response_model=GameCreatedResponse, status_code=201)
def create_game(body: NewGame, principal: Principal | None = Depends(optional_principal),
                ctx: Context = Depends(get_context)) -> Any:
    """Create a game. Named human seats get a token (shown once); seats without name or bot are open to join."""
    game = get_game(body.game)
    options = game.parse_options(body.options)
    game.check_seats(options, len(body.seats))
    if body.seed is not None and not ctx.settings.allow_client_seed:
        raise ApiError("seed_not_allowed", "this server keeps seeds secret; a chosen seed is for development only")
    pace = new_game_pace(body.pace)  # this version's defaults (takeover after 3 timeouts ...) written in
    if pace is not None and pace.autopilot_level not in LEVELS:
        raise ApiError("invalid_request", f"unknown autopilot level {pace.autopilot_level!r}; known: {', '.join(sorted(LEVELS))}")
    player_id = principal.player_id if principal and principal.kind == "player" else None
    game_id = uuid.uuid4().hex[:12]
    specs, tokens = [], {}
    bot_names = bot_seat_names([(s.name, s.bot) for s in body.seats])
    for index, seat in enumerate(body.seats):
        if seat.bot is not None and seat.bot not in LEVELS:
            raise ApiError("invalid_request", f"seat {index}: unknown bot level {seat.bot!r}; known: {', '.join(sorted(LEVELS))}")
        if seat.me and player_id is None:
            raise ApiError("unauthorized", f"seat {index} says me=true: send a player token")
        if seat.me and seat.bot:
            raise ApiError("invalid_request", f"seat {index} cannot be both a bot and yours")
        name = bot_names[index] or seat.name
        if seat.me and not name:
            name = ctx.redis.hget(ctx.keys.player(player_id or ""), "name")
            name = name.decode() if name else "player"
        specs.append({"name": name, "bot": seat.bot, "player_id": player_id if seat.me else None})
        if name and not seat.bot and not seat.me:
            tokens[index] = ctx.issue_token({"kind": "seat", "game_id": game_id, "seat": index})
    command = {"type": "taproom.CreateGame", "game": game.id, "options": options.model_dump(mode="json"),
               "seats": specs, "seed_commitment": "", "creator": player_id, "hot_seat": body.hot_seat}
    if pace is not None:
        command["pace"] = pace.model_dump(mode="json")
    command_id = ctx.bus.submit(game_id, command, seat=-1, actor=f"player:{player_id}" if player_id else "guest",
                                dev_seed=body.seed)
    try:
        _outcome_or_error(ctx, game_id, command_id)
    except ApiError:
        for token in tokens.values():
            ctx.revoke_token(token)
        raise
    except _Queued as queued:  # the tokens are shown now or never: hand them out with the 202
        return queued_response(queued, poll=f"/games/{game_id}", game_id=game_id,
                               seats=[{"seat": i, "name": s["name"], "bot": s["bot"], "token": tokens.get(i)}
                                      for i, s in enumerate(specs)])
    meta = ctx.meta(game_id)
    return GameCreatedResponse(
        game_id=game_id, version=meta["version"], seed_commitment=meta["seed_commitment"],
        seats=[SeatCreated(seat=i, name=s["name"], bot=s["bot"], token=tokens.get(i)) for i, s in enumerate(specs)])


@router.post("/games/{game_id}/join", response_model=JoinResponse)
def join_game(game_id: str = GameId, body: JoinRequest = Body(default_factory=JoinRequest),
              principal: Principal | None = Depends(optional_principal), ctx: Context = Depends(get_context)) -> Any:
    """Take an open seat as the calling player, or as a guest (a seat token is returned)."""
    meta = ctx.meta(game_id)
    player_id = principal.player_id if principal and principal.kind == "player" else None
    name = body.name
    if player_id and not name:
        raw = ctx.redis.hget(ctx.keys.player(player_id), "name")
        name = raw.decode() if raw else None
    if not name:
        raise ApiError("invalid_request", "a guest must give a name")
    open_seats = [s["seat"] for s in meta["seats"] if s["open"]]
    if not open_seats:
        raise ApiError("no_open_seat", f"game {game_id} has no open seat")
    seat = body.seat if body.seat is not None else open_seats[0]
    if seat not in open_seats:
        raise ApiError("seat_taken", f"seat {seat} is not open; open seats: {open_seats}")
    command = {"type": "taproom.ClaimSeat", "name": name, "player_id": player_id}
    token = None if player_id else ctx.issue_token({"kind": "seat", "game_id": game_id, "seat": seat})
    command_id = ctx.bus.submit(game_id, command, seat=seat, actor=f"player:{player_id}" if player_id else "guest")
    try:
        outcome = _outcome_or_error(ctx, game_id, command_id)
    except ApiError:
        if token:
            ctx.revoke_token(token)
        raise
    except _Queued as queued:
        return queued_response(queued, poll=f"/games/{game_id}", game_id=game_id, seat=seat, token=token)
    return JoinResponse(game_id=game_id, seat=seat, version=outcome["version"], token=token)


def _with_clock(ctx: Context, game_id: str, data: dict[str, Any]) -> dict[str, Any]:
    """A view with the clock of now (deadlines move with vacations, so they are read, not projected)."""
    clocks = TurnClocks(ctx.redis, ctx.keys, Vacations(ctx.redis, ctx.keys, 0))  # deadlines only: no allowance
    data["clock"] = ctx.with_record(game_id, lambda record, _: clocks.view(record))
    return data


@router.get("/games/{game_id}")
def public_view(game_id: str = GameId, ctx: Context = Depends(get_context)) -> Any:
    """The public view (what a spectator sees), with ``clock``: now, each seat's deadline and consecutive
    timeouts, and after how many a seat is taken over."""
    raw = ctx.redis.get(ctx.keys.view(game_id, None))
    if raw is None:
        from projections.read_models import view

        return _with_clock(ctx, game_id, ctx.with_record(game_id, lambda record, _: view(record, None, 0.0)))
    return JSONResponse(_with_clock(ctx, game_id, orjson.loads(raw)))


@router.get("/games/{game_id}/view")
def seat_view(game_id: str = GameId, seat: int | None = Query(None), principal: Principal = Depends(require_principal),
              ctx: Context = Depends(get_context)) -> Any:
    """The caller's seat view (hidden information of other seats removed by construction), with ``clock``."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    raw = ctx.redis.get(ctx.keys.view(game_id, chosen))
    if raw is None:
        from projections.read_models import view

        return _with_clock(ctx, game_id, ctx.with_record(game_id, lambda record, _: view(record, chosen, 0.0)))
    return JSONResponse(_with_clock(ctx, game_id, orjson.loads(raw)))


@router.get("/games/{game_id}/legal")
def legal_commands(game_id: str = GameId, seat: int | None = Query(None),
                   principal: Principal = Depends(require_principal), ctx: Context = Depends(get_context)) -> Any:
    """The caller's legal commands now: the game's when it is their turn, and the kernel's (``taproom.*``:
    taking the seat back after a timeout, votes about a taken-over seat) whenever they apply."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    assert chosen is not None

    def legal(record: GameRecord, version: int) -> dict[str, Any]:
        commands = kernel_commands(record, chosen)
        if record.status == "active" and chosen in record.to_act():
            commands = record.game.legal_commands(record.state, chosen) + commands
        return {"version": version, "seat": chosen,
                "commands": [c.model_dump(mode="json", exclude={"seat"}) for c in commands]}

    return ctx.with_record(game_id, legal)


@router.post("/games/{game_id}/commands")
def submit_command(request_body: dict[str, Any] = Body(..., examples=[{"command_id": "c1", "type": "PlaceTile"}]),
                   game_id: str = GameId, seat: int | None = Query(None),
                   principal: Principal = Depends(require_principal), ctx: Context = Depends(get_context)) -> Any:
    """Submit a command for the caller's seat; waits briefly for the outcome (202 with a poll link if still queued).

    ``command_id`` (chosen by the client, scoped to the game and seat) makes a retry safe: one id has one
    outcome forever. Sending an id again answers the outcome it already has, accepted or rejected, and
    changes nothing; a rejected command is never decided again under its id, even when it would now be
    legal, so try again under a new ``command_id``."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    assert chosen is not None
    data = dict(request_body)
    command_id = data.pop("command_id", None) or uuid.uuid4().hex
    expected = data.pop("expected_version", None)
    if not isinstance(command_id, str) or not 1 <= len(command_id) <= 80:
        raise ApiError("invalid_request", "command_id must be a string of 1 to 80 characters")
    if expected is not None and not isinstance(expected, int):
        raise ApiError("invalid_request", "expected_version must be an integer")
    kind = str(data.get("type", ""))
    if kind.startswith("taproom.") and kind not in PLAYER_KERNEL_COMMANDS:
        raise InvalidCommand(f"service commands cannot be submitted here; a player's are: "
                             f"{', '.join(PLAYER_KERNEL_COMMANDS)}")
    data["seat"] = chosen
    command = parse_command(get_game(meta["game"]), data)  # refuse malformed commands before queueing
    actor = f"player:{principal.player_id}" if principal.kind == "player" else f"seat:{chosen}"
    ctx.bus.submit(game_id, command.model_dump(mode="json"), seat=chosen, actor=actor,
                   command_id=f"{game_id}:{chosen}:{command_id}", expected_version=expected)
    try:
        outcome = _outcome_or_error(ctx, game_id, f"{game_id}:{chosen}:{command_id}")
    except _Queued as queued:
        return queued_response(queued)
    events = ctx.store.read(game_id, after=outcome["from_version"], until=outcome["version"])
    over = meta["status"] == "scored"
    return {"status": "accepted", "command_id": command_id, "version": outcome["version"],
            "events": [e.redacted(chosen, over) for e in events]}


@router.get("/games/{game_id}/commands/{command_id}")
def command_outcome(game_id: str = GameId, command_id: str = Path(max_length=80), seat: int | None = Query(None),
                    principal: Principal = Depends(require_principal), ctx: Context = Depends(get_context)) -> Any:
    """The outcome of a command submitted earlier (poll after a 202); it never changes once given."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    outcome = ctx.bus.outcome(game_id, f"{game_id}:{chosen}:{command_id}")
    if outcome is None:
        return JSONResponse({"status": "queued", "command_id": command_id}, status_code=202)
    if not outcome.accepted:
        return error_response(outcome.code or "rejected", outcome.message or "command rejected")
    return {"status": "accepted", "command_id": command_id, "version": outcome.version}


@router.get("/games/{game_id}/events")
def history(game_id: str = GameId, after: int = Query(0, ge=0), limit: int = Query(500, ge=1, le=5000),
            seat: int | None = Query(None), principal: Principal | None = Depends(optional_principal),
            ctx: Context = Depends(get_context)) -> Any:
    """The event history after version ``after``, redacted for the caller until the game ends."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    over = meta["status"] == "scored"
    events = ctx.store.read(game_id, after=after, count=limit)
    return {"game_id": game_id, "version": meta["version"], "seat": chosen,
            "events": [e.redacted(chosen, over) for e in events]}


@router.get("/games/{game_id}/at/{version}")
def view_at(game_id: str = GameId, version: int = Path(ge=1), seat: int | None = Query(None),
            principal: Principal | None = Depends(optional_principal), ctx: Context = Depends(get_context)) -> Any:
    """The view at any past version (step-by-step replay), for the caller's seat or the public."""
    from projections.read_models import view

    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    if version > meta["version"]:
        head, _ = ctx.store.head(game_id)
        if version > head:
            raise ApiError("not_found", f"game {game_id} is at version {head}, not {version}")
    past = Repository(ctx.store, cache_size=1).at(game_id, version)
    assert past.record is not None
    return view(past.record, chosen, past.ts)


SSE_BLOCK_MS = 500
"""How long one XREAD BLOCK waits: also how soon a closed page is noticed."""
SSE_KEEPALIVE_SECONDS = 15.0


@router.get("/games/{game_id}/stream")
def stream(request: Request, game_id: str = GameId, after: int | None = Query(None, ge=0),
           timeout: float = Query(300.0, gt=0, le=3600), seat: int | None = Query(None),
           ticket: str | None = Query(None, max_length=100, description="a stream ticket (POST .../stream-ticket) "
                                      "for clients that cannot send headers, such as a browser's EventSource"),
           principal: Principal | None = Depends(optional_principal), ctx: Context = Depends(get_context)) -> Any:
    """Server-sent events: each new event (redacted for the caller) as the game moves."""
    if principal is None and ticket is not None:
        from .web import principal_for_ticket

        principal = principal_for_ticket(ctx, ticket, game_id)
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    start = meta["version"] if after is None else after
    # The checks above run in a worker thread and return at once; the stream itself is async and waits on
    # the event loop, so open pages hold no worker thread (a thread each would stall every sync route).
    return StreamingResponse(_sse(request, ctx, game_id, chosen, start, timeout), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _sse(request: Request, ctx: Context, game_id: str, seat: int | None, start: int,
               timeout: float) -> AsyncIterator[bytes]:
    aredis = ctx.aredis()
    key = ctx.keys.events(game_id)
    cursor, deadline, last_beat = start, time.monotonic() + timeout, time.monotonic()
    ctx.open_streams += 1
    try:
        yield b": connected\n\n"
        while time.monotonic() < deadline:
            if await request.is_disconnected():
                return
            entries: Any = await aredis.xrange(key, f"{cursor + 1}-0", "+", count=200)
            envelopes = [Envelope.trusted(fields[b"e"]) for _, fields in entries]
            over = any(e.type == "taproom.SeedRevealed" for e in envelopes) or await _status(ctx, game_id) == "scored"
            for env in envelopes:
                payload = orjson.dumps(env.redacted(seat, over))
                yield b"id: %d\nevent: game_event\ndata: %s\n\n" % (env.version, payload)
                cursor = env.version
            if over and not envelopes:
                yield b"event: end\ndata: {}\n\n"
                return
            if not envelopes:
                left_ms = int((deadline - time.monotonic()) * 1000)
                await aredis.xread({key: f"{cursor}-1"}, block=max(1, min(SSE_BLOCK_MS, left_ms)), count=1)
                if time.monotonic() - last_beat > SSE_KEEPALIVE_SECONDS:
                    last_beat = time.monotonic()
                    yield b": keep-alive\n\n"
    finally:
        ctx.open_streams -= 1


async def _status(ctx: Context, game_id: str) -> str:
    raw = await ctx.aredis().get(ctx.keys.meta(game_id))
    if raw is not None:
        return orjson.loads(raw)["status"]
    # The projector lags: build the meta from the record, in a worker thread (it is sync and may replay).
    return (await run_in_threadpool(ctx.meta, game_id))["status"]
