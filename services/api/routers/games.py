"""Games: create, join, look, act, replay, follow.

Every change goes through the command stream; handlers only validate what
they can cheaply (so bad input is refused at once) and wait briefly for the
processor's outcome.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import orjson
from fastapi import APIRouter, Body, Depends, Header, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response, StreamingResponse

from domain.core import InvalidCommand, get_game
from domain.core.lifecycle import PLAYER_KERNEL_COMMANDS, GameRecord, kernel_commands, new_game_pace, parse_command
from domain.core.seating import bot_seat_names

from ...aggregates import Repository
from ...async_play.deadlines import TurnClocks
from ...async_play.vacation import Vacations
from ...bots import LEVELS
from ...eventstore import Envelope
from ..abuse import StreamSlot, client_address
from ..bounds import MAX_INT
from ..chat_stream import ChatListener, chat_listener
from ..deps import Context, Principal, get_context, optional_principal, require_principal, resolve_seat, seats_of
from ..errors import ApiError, error_response, error_responses
from ..schemas import (
    CommandAccepted,
    CommandQueued,
    GameCreatedResponse,
    GameView,
    History,
    JoinRequest,
    JoinResponse,
    LegalCommands,
    NewGame,
    SeatCreated,
)
from ..seating import check_one_seat

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


@router.post("/games", response_model=GameCreatedResponse, status_code=201,
             responses={202: {"model": CommandQueued, "description": "still queued: the tokens are shown now"},
                        **error_responses(400, 401, 409, 413, 422, 503)})
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
    has_bots = any(s["bot"] for s in specs)
    if has_bots and player_id is None:  # each bot game costs worker time: only known players, and a few each
        raise ApiError("unauthorized", "games with bots need a player token (POST /players)")
    if has_bots:
        ctx.guard.claim_bot_game(player_id or "", game_id)
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
        if has_bots:
            ctx.guard.release_bot_game(player_id or "", game_id)
        raise
    except _Queued as queued:  # the tokens are shown now or never: hand them out with the 202
        return queued_response(queued, poll=f"/games/{game_id}", game_id=game_id,
                               seats=[{"seat": i, "name": s["name"], "bot": s["bot"], "token": tokens.get(i)}
                                      for i, s in enumerate(specs)])
    meta = ctx.meta(game_id)
    return GameCreatedResponse(
        game_id=game_id, version=meta["version"], seed_commitment=meta["seed_commitment"],
        seats=[SeatCreated(seat=i, name=s["name"], bot=s["bot"], token=tokens.get(i)) for i, s in enumerate(specs)])


@router.post("/games/{game_id}/join", response_model=JoinResponse,
             responses={202: {"model": CommandQueued}, **error_responses(400, 401, 404, 409, 413, 422, 503)})
def join_game(request: Request, game_id: str = GameId, body: JoinRequest = Body(default_factory=JoinRequest),
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
    if player_id is None:  # a player's seats are the domain's rule (one each unless hot-seat)
        check_one_seat(seats_of(principal, game_id, meta), game_id, bool(meta.get("hot_seat")))
    open_seats = [s["seat"] for s in meta["seats"] if s["open"]]
    if not open_seats:
        raise ApiError("no_open_seat", f"game {game_id} has no open seat")
    seat = body.seat if body.seat is not None else open_seats[0]
    if seat not in open_seats:
        raise ApiError("seat_taken", f"seat {seat} is not open; open seats: {open_seats}")
    guest = player_id is None and (principal is None or principal.kind != "seat") and not meta.get("hot_seat")
    if guest:
        ctx.guard.claim_guest_seat(game_id, client_address(request), seat)
    command = {"type": "taproom.ClaimSeat", "name": name, "player_id": player_id}
    token = None if player_id else ctx.issue_token({"kind": "seat", "game_id": game_id, "seat": seat})
    command_id = ctx.bus.submit(game_id, command, seat=seat, actor=f"player:{player_id}" if player_id else "guest")
    try:
        outcome = _outcome_or_error(ctx, game_id, command_id)
    except ApiError:
        if token:
            ctx.revoke_token(token)
        if guest:
            ctx.guard.release_guest_seat(game_id, client_address(request))
        raise
    except _Queued as queued:
        return queued_response(queued, poll=f"/games/{game_id}", game_id=game_id, seat=seat, token=token)
    return JoinResponse(game_id=game_id, seat=seat, version=outcome["version"], token=token)


def _with_clock(ctx: Context, game_id: str, data: dict[str, Any]) -> dict[str, Any]:
    """A view with the clock of now (deadlines move with vacations, so they are read, not projected)."""
    clocks = TurnClocks(ctx.redis, ctx.keys, Vacations(ctx.redis, ctx.keys, 0))  # deadlines only: no allowance
    data["clock"] = ctx.with_record(game_id, lambda record, _: clocks.view(record))
    return data


@router.get("/games/{game_id}", response_model=GameView, response_model_exclude_unset=True,
            responses=error_responses(404, 422))
def public_view(game_id: str = GameId, ctx: Context = Depends(get_context)) -> Any:
    """The public view (what a spectator sees), with ``clock``: now, each seat's deadline and consecutive
    timeouts, and after how many a seat is taken over."""
    raw = ctx.redis.get(ctx.keys.view(game_id, None))
    if raw is None:
        from projections.read_models import view

        return _with_clock(ctx, game_id, ctx.with_record(game_id, lambda record, _: view(record, None, 0.0)))
    return JSONResponse(_with_clock(ctx, game_id, orjson.loads(raw)))


@router.get("/games/{game_id}/view", response_model=GameView, response_model_exclude_unset=True,
            responses=error_responses(401, 403, 404, 422))
def seat_view(game_id: str = GameId, seat: int | None = Query(None, ge=0, le=MAX_INT), principal: Principal = Depends(require_principal),
              ctx: Context = Depends(get_context)) -> Any:
    """The caller's seat view (hidden information of other seats removed by construction), with ``clock``."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    raw = ctx.redis.get(ctx.keys.view(game_id, chosen))
    if raw is None:
        from projections.read_models import view

        return _with_clock(ctx, game_id, ctx.with_record(game_id, lambda record, _: view(record, chosen, 0.0)))
    return JSONResponse(_with_clock(ctx, game_id, orjson.loads(raw)))


@router.get("/games/{game_id}/legal", response_model=LegalCommands,
            responses=error_responses(401, 403, 404, 422))
def legal_commands(game_id: str = GameId, seat: int | None = Query(None, ge=0, le=MAX_INT),
                   principal: Principal = Depends(require_principal), ctx: Context = Depends(get_context)) -> Any:
    """The caller's legal commands now: the game's when it is their turn, and the kernel's (``taproom.*``:
    taking the seat back after a timeout, votes about a taken-over seat, ``taproom.Undo`` while the caller's
    last move of this turn may be taken back) whenever they apply."""
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


@router.post("/games/{game_id}/commands", response_model=CommandAccepted, response_model_exclude_unset=True,
             responses={202: {"model": CommandQueued}, **error_responses(400, 401, 403, 404, 409, 413, 422, 503)})
def submit_command(request_body: dict[str, Any] = Body(..., examples=[{"command_id": "c1", "type": "PlaceTile"}]),
                   game_id: str = GameId, seat: int | None = Query(None, ge=0, le=MAX_INT),
                   principal: Principal = Depends(require_principal), ctx: Context = Depends(get_context)) -> Any:
    """Submit a command for the caller's seat; waits briefly for the outcome (202 with a poll link if still queued).

    ``command_id`` (chosen by the client, scoped to the game and seat) makes a retry safe: one id has one
    outcome forever. Sending an id again with the same body answers the outcome it already has, accepted or
    rejected, and changes nothing; with another body it is refused (409 ``command_id_reused``). A rejected
    command is never decided again under its id, even when it would now be legal, so try again under a new
    ``command_id``.

    The seat is the token's; a `seat` in the body (or `?seat=`) picks one of the seats the token holds, and is
    refused when the token does not hold it."""
    meta = ctx.meta(game_id)
    data = dict(request_body)
    if "seat" in data:  # never silently replaced: a client that names a seat means that seat
        named = data.pop("seat")
        if not isinstance(named, int) or isinstance(named, bool):
            raise ApiError("invalid_request", "'seat' must be an integer (or left out: the token's seat)")
        if seat is not None and seat != named:
            raise ApiError("invalid_request", f"the body says seat {named} but the query says seat {seat}")
        seat = named
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    assert chosen is not None
    command_id = data.pop("command_id", None) or uuid.uuid4().hex
    expected = data.pop("expected_version", None)
    if not isinstance(command_id, str) or not 1 <= len(command_id) <= 80:
        raise ApiError("invalid_request", "command_id must be a string of 1 to 80 characters")
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise ApiError("invalid_request", "expected_version must be an integer")
    kind = str(data.get("type", ""))
    if kind.startswith("taproom.") and kind not in PLAYER_KERNEL_COMMANDS:
        raise InvalidCommand(f"service commands cannot be submitted here; a player's are: "
                             f"{', '.join(PLAYER_KERNEL_COMMANDS)}")
    data["seat"] = chosen
    command = parse_command(get_game(meta["game"]), data)  # refuse malformed commands before queueing
    actor = f"player:{principal.player_id}" if principal.kind == "player" else f"seat:{chosen}"
    body = command.model_dump(mode="json")
    _claim_command_id(ctx, game_id, f"{game_id}:{chosen}:{command_id}", body, expected)
    ctx.bus.submit(game_id, body, seat=chosen, actor=actor,
                   command_id=f"{game_id}:{chosen}:{command_id}", expected_version=expected)
    try:
        outcome = _outcome_or_error(ctx, game_id, f"{game_id}:{chosen}:{command_id}")
    except _Queued as queued:
        return queued_response(queued)
    events = ctx.store.read(game_id, after=outcome["from_version"], until=outcome["version"])
    over = meta["status"] == "scored"
    return {"status": "accepted", "command_id": command_id, "version": outcome["version"],
            "events": [e.redacted(chosen, over) for e in events]}


def _claim_command_id(ctx: Context, game_id: str, command_id: str, body: dict[str, Any], expected: int | None) -> None:
    """A command id names one command: re-sending it with the same body is answered with the first outcome,
    with another body it is refused (409 command_id_reused) instead of silently answering for the first."""
    fingerprint = hashlib.sha256(orjson.dumps([body, expected], option=orjson.OPT_SORT_KEYS)).hexdigest()
    key = ctx.keys.command_body(game_id, command_id)
    if ctx.redis.set(key, fingerprint, nx=True, ex=ctx.settings.outcome_ttl_seconds):
        # First use, as far as the fingerprints remember: an applied command's record outlives them.
        applied = ctx.store.command_record(game_id, command_id)
        if applied is None or applied.get("command") == body:
            return
        ctx.redis.delete(key)  # the applied command's body stays the one this id names
    else:
        first = ctx.redis.get(key)
        if first is None or first.decode() == fingerprint:
            return
    raise ApiError("command_id_reused", f"command id {command_id.rsplit(':', 1)[-1]!r} was already used for another "
                                        "command in this game: choose a new id for a new command")


@router.get("/games/{game_id}/commands/{command_id}", response_model=CommandAccepted, response_model_exclude_unset=True,
            responses={202: {"model": CommandQueued}, **error_responses(401, 403, 404, 409, 422)})
def command_outcome(game_id: str = GameId, command_id: str = Path(max_length=80), seat: int | None = Query(None, ge=0, le=MAX_INT),
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


@router.get("/games/{game_id}/events", response_model=History, responses=error_responses(401, 403, 404, 422))
def history(game_id: str = GameId, after: int = Query(0, ge=0, le=MAX_INT), limit: int = Query(500, ge=1, le=5000),
            seat: int | None = Query(None, ge=0, le=MAX_INT), principal: Principal | None = Depends(optional_principal),
            ctx: Context = Depends(get_context)) -> Any:
    """The event history after version ``after``, redacted for the caller until the game ends."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    over = meta["status"] == "scored"
    events = ctx.store.read(game_id, after=after, count=limit)
    return {"game_id": game_id, "version": meta["version"], "seat": chosen,
            "events": [e.redacted(chosen, over) for e in events]}


@router.get("/games/{game_id}/record", response_class=Response,
            responses={200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                             "description": "the game record, JSON Lines: a header, every event envelope, "
                                            "then (once the seed is revealed) every accepted command"},
                       **error_responses(401, 403, 404, 422)})
def game_record(game_id: str = GameId, seat: int | None = Query(None, ge=0, le=MAX_INT),
                principal: Principal | None = Depends(optional_principal), ctx: Context = Depends(get_context)) -> Any:
    """The game record for `taproom verify`: complete once the game is scored and the seed revealed; before
    that, the events with every field hidden from the caller's seat redacted (and no commands)."""
    from ...audit import record_lines

    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    body = b"\n".join(record_lines(ctx.store, game_id, chosen)) + b"\n"
    return Response(body, media_type="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'})


@router.get("/games/{game_id}/at/{version}", response_model=GameView, response_model_exclude_unset=True,
            responses=error_responses(401, 403, 404, 422))
def view_at(game_id: str = GameId, version: int = Path(ge=0, le=MAX_INT), seat: int | None = Query(None, ge=0, le=MAX_INT),
            principal: Principal | None = Depends(optional_principal), ctx: Context = Depends(get_context)) -> Any:
    """The view at any version from 0 (before the creation event) to the head: step-by-step replay, for the
    caller's seat or the public. A version inside a command shows the state after that one event."""
    from projections.read_models import view

    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    if version > meta["version"]:
        head, _ = ctx.store.head(game_id)
        if version > head:
            raise ApiError("not_found", f"game {game_id} is at version {head}, not {version}")
    if version == 0:  # nothing has happened yet: only the facts the creation event made public
        return {"game_id": game_id, "game": meta["game"], "options": meta["options"], "version": 0, "status": "new",
                "seats": [], "to_act": [], "seed_commitment": meta["seed_commitment"], "updated": 0.0,
                "pace": meta.get("pace"), "seat": chosen, "board": None}
    past = Repository(ctx.store, cache_size=1).at(game_id, version)
    assert past.record is not None
    return view(past.record, chosen, past.ts)


SSE_BLOCK_MS = 500
"""How long one XREAD BLOCK waits: also how soon a closed page is noticed."""
SSE_KEEPALIVE_SECONDS = 15.0
STREAM_RENEW_SECONDS = 20.0
"""How often an open stream renews its slot (it lapses after ``abuse.STREAM_SLOT_SECONDS`` without)."""


STREAM_DOC = """Server-sent events (`text/event-stream`), in this order:

* `: connected` (a comment) at once;
* `event: game_event` with `id: <version>` for every event after the start (`Last-Event-ID`, else `after`, else
  the head now), its JSON envelope redacted for the caller until the game is scored;
* `event: chat` (no id) for every new table-chat message the caller may read (`{id, channel, author, name, seat,
  text, ts}`; authors the caller muted are left out; `GET /games/{id}/chat` gives what was said before);
* `event: scored` (no id) right after the `taproom.GameScored` event: `{version, scores, places}`, the final
  scores (a game is `ended` first, and `scored` moments later);
* `event: end` last: `{"reason": "game_over" | "expired", "reconnect": false, "last_event_id": N}` when the game
  is over, or `{"reason": "timeout", "reconnect": true, "last_event_id": N}` when the stream's `timeout` ran out:
  reconnect then with `Last-Event-ID: N` (an EventSource does it by itself);
* `: keep-alive` comments while nothing happens.
"""

@router.get("/games/{game_id}/stream", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
                             "description": STREAM_DOC}, **error_responses(401, 403, 404, 422)})
def stream(request: Request, game_id: str = GameId, after: int | None = Query(None, ge=0, le=MAX_INT),
           timeout: float = Query(300.0, gt=0, le=3600), seat: int | None = Query(None, ge=0, le=MAX_INT),
           last_event_id: str | None = Header(None, alias="Last-Event-ID", description=(
               "the id of the last event received: the stream resumes after it (a reconnecting EventSource "
               "sends it by itself); it takes precedence over `after`")),
           ticket: str | None = Query(None, max_length=100, description="a stream ticket (POST .../stream-ticket) "
                                      "for clients that cannot send headers, such as a browser's EventSource"),
           principal: Principal | None = Depends(optional_principal), ctx: Context = Depends(get_context)) -> Any:
    """Server-sent events: each new event (redacted for the caller) as the game moves; see the 200 response."""
    if principal is None and ticket is not None:
        from .web import principal_for_ticket

        principal = principal_for_ticket(ctx, ticket, game_id)
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    if last_event_id is not None and last_event_id.strip():
        if not last_event_id.strip().isdigit():
            raise ApiError("invalid_request", f"Last-Event-ID must be an event version (an integer), "
                                              f"not {last_event_id[:20]!r}")
        after = int(last_event_id.strip())
    start = meta["version"] if after is None else after
    holders = [(f"addr:{client_address(request)}", ctx.settings.max_streams_per_address)]
    if principal is not None:
        holders.append((f"player:{principal.player_id}" if principal.kind == "player"
                        else f"seat:{game_id}:{principal.seat}", ctx.settings.max_streams_per_caller))
    slot = ctx.guard.open_stream(holders)
    listener = chat_listener(ctx, game_id, meta, principal)
    # The checks above run in a worker thread and return at once; the stream itself is async and waits on
    # the event loop, so open pages hold no worker thread (a thread each would stall every sync route).
    return StreamingResponse(_sse(request, ctx, game_id, chosen, start, timeout, slot, listener),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _sse_message(event: str, data: dict[str, Any], event_id: int | None = None) -> bytes:
    head = b"id: %d\n" % event_id if event_id is not None else b""
    return head + b"event: %s\ndata: %s\n\n" % (event.encode(), orjson.dumps(data))


async def _sse(request: Request, ctx: Context, game_id: str, seat: int | None, start: int,
               timeout: float, slot: StreamSlot, listener: ChatListener) -> AsyncIterator[bytes]:
    aredis = ctx.aredis()
    key = ctx.keys.events(game_id)
    cursor, deadline, last_beat = start, time.monotonic() + timeout, time.monotonic()
    renewed = time.monotonic()
    ctx.open_streams += 1
    try:
        await listener.start(aredis)
        yield b": connected\n\n"
        while time.monotonic() < deadline:
            if await request.is_disconnected():
                return
            if time.monotonic() - renewed > STREAM_RENEW_SECONDS:
                renewed = time.monotonic()
                await slot.renew(aredis)
            entries: Any = await aredis.xrange(key, f"{cursor + 1}-0", "+", count=200)
            envelopes = [Envelope.trusted(fields[b"e"]) for _, fields in entries]
            status = await _status(ctx, game_id)
            revealed = status == "scored" or any(e.type == "taproom.SeedRevealed" for e in envelopes)
            over = revealed or status == "expired" or any(e.type == "taproom.GameExpired" for e in envelopes)
            for env in envelopes:
                yield _sse_message("game_event", env.redacted(seat, revealed), env.version)
                cursor = env.version
                if env.type == "taproom.GameScored":  # the final scores, distinct from the event that ended play
                    yield _sse_message("scored", {"version": env.version, **env.payload})
            said = await listener.new_messages(aredis)
            for message in said:
                yield _sse_message("chat", message)
            if over and not envelopes:
                yield _sse_message("end", {"reason": "game_over" if revealed else "expired",
                                           "reconnect": False, "last_event_id": cursor})
                return
            if not envelopes and not said:
                left_ms = int((deadline - time.monotonic()) * 1000)
                # one wait for both: a new event or a new chat message wakes the stream
                await aredis.xread({key: f"{cursor}-1", **listener.cursors}, block=max(1, min(SSE_BLOCK_MS, left_ms)),
                                   count=1)
                if time.monotonic() - last_beat > SSE_KEEPALIVE_SECONDS:
                    last_beat = time.monotonic()
                    yield b": keep-alive\n\n"
        # Streams are bounded (proxies and idle clients); say so, so a client reconnects instead of guessing.
        yield _sse_message("end", {"reason": "timeout", "reconnect": True, "last_event_id": cursor})
    finally:
        ctx.open_streams -= 1
        await slot.release(aredis)



async def _status(ctx: Context, game_id: str) -> str:
    raw = await ctx.aredis().get(ctx.keys.meta(game_id))
    if raw is not None:
        return orjson.loads(raw)["status"]
    # The projector lags: build the meta from the record, in a worker thread (it is sync and may replay).
    return (await run_in_threadpool(ctx.meta, game_id))["status"]
