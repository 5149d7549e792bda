"""Games: create, join, look, act, replay, follow.

Every change goes through the command stream; handlers only validate what
they can cheaply (so bad input is refused at once) and wait briefly for the
processor's outcome.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Body, Depends, Header, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse
from pydantic import AfterValidator

from domain.core.lifecycle import SeatSpec
from projections.read_models import load_meta, view
from services.adapters.api.abuse import BotGames, GuestSeats, StreamSlot, client_address
from services.adapters.api.bounds import MAX_INT, VERSION_PATTERN, bounded_version
from services.adapters.api.chat_stream import ChatListener, chat_listener
from services.adapters.api.deps import (
    Context,
    IdempotencyKey,
    Principal,
    get_context,
    optional_principal,
    require_principal,
    resolve_seat,
    seats_of,
)
from services.adapters.api.errors import ApiError, error_response, error_responses, queued_response
from services.adapters.api.schemas import (
    CommandAccepted,
    CommandQueued,
    GameCreatedResponse,
    GameView,
    History,
    JoinRequest,
    JoinResponse,
    NewGame,
    SeatCreated,
)
from services.adapters.api.stream_views import SeatFrames
from services.application import games
from services.application.presence import StreamPresence
from services.application.results import Queued, Rejected
from services.infrastructure.eventstore import Envelope

router = APIRouter(tags=["games"])
GameId = Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")


def _seat_specs(body: NewGame, player_id: str | None) -> list[SeatSpec]:
    specs = []
    for index, seat in enumerate(body.seats):
        if seat.me and player_id is None:
            raise ApiError("unauthorized", f"seat {index} says me=true: send a player token")
        if seat.me and seat.bot:
            raise ApiError("invalid_request", f"seat {index} cannot be both a bot and yours")
        specs.append(SeatSpec(name=seat.name, bot=seat.bot, player_id=player_id if seat.me else None))
    return specs


@router.post("/games", response_model=GameCreatedResponse, status_code=201,
             responses={202: {"model": CommandQueued, "description": "still queued: the tokens are shown now"},
                        **error_responses(400, 401, 409, 413, 422, 503)})
def create_game(body: NewGame, principal: Principal | None = Depends(optional_principal),
                idempotency_key: str | None = IdempotencyKey, ctx: Context = Depends(get_context)) -> Any:
    """Create a game. Named human seats get a token (shown once); seats without name or bot are open to join.
    With an ``Idempotency-Key`` a retry (its answer lost, or a 503) answers the game the first try created,
    with its seat tokens issued anew, never a second game."""
    player_id = principal.player_id if principal and principal.kind == "player" else None
    new = games.NewGame(game=body.game, seats=_seat_specs(body, player_id), options=body.options, pace=body.pace,
                        hot_seat=body.hot_seat, creator=player_id, dev_seed=body.seed, rated=body.rated,
                        hints=body.hints, tutorial=body.tutorial, min_reliability=body.min_reliability)
    created = games.create_game(ctx.root, new, admission=BotGames(ctx.guard, player_id), key=idempotency_key)
    seats = [SeatCreated(seat=s.seat, name=s.name, bot=s.bot, token=s.token) for s in created.seats]
    result = created.result
    if isinstance(result, Rejected):
        raise result.error()
    if isinstance(result, Queued):  # the tokens are shown now or never: hand them out with the 202
        return queued_response(result, game_id=created.game_id, seats=[s.model_dump() for s in seats])
    meta = ctx.meta(created.game_id)
    return GameCreatedResponse(game_id=created.game_id, version=meta.version,
                               seed_commitment=meta.seed_commitment, seats=seats)


@router.post("/games/{game_id}/join", response_model=JoinResponse,
             responses={202: {"model": CommandQueued}, **error_responses(400, 401, 404, 409, 413, 422, 503)})
def join_game(request: Request, game_id: str = GameId, body: JoinRequest = Body(default_factory=JoinRequest),
              principal: Principal | None = Depends(optional_principal), ctx: Context = Depends(get_context)) -> Any:
    """Take an open seat as the calling player, or as a guest (a seat token is returned)."""
    meta = ctx.meta(game_id)
    player_id = principal.player_id if principal and principal.kind == "player" else None
    guest = player_id is None and (principal is None or principal.kind != "seat") and not meta.hot_seat
    taken = games.join_game(ctx.root, game_id, meta, seat=body.seat, name=body.name, player_id=player_id,
                            held=seats_of(principal, game_id, meta), seat_token=player_id is None,
                            admission=GuestSeats(ctx.guard, client_address(request)) if guest else None)
    result = taken.result
    if isinstance(result, Rejected):
        raise result.error()
    if isinstance(result, Queued):
        return queued_response(result, game_id=game_id, seat=taken.seat, token=taken.token)
    return JoinResponse(game_id=game_id, seat=taken.seat, version=result.version, token=taken.token)


@router.get("/games/{game_id}/commands/{command_id}", response_model=CommandAccepted, response_model_exclude_unset=True,
            responses={202: {"model": CommandQueued}, **error_responses(401, 403, 404, 409, 422)})
def command_outcome(game_id: str = GameId, command_id: str = Path(max_length=80), seat: int | None = Query(None, ge=0, le=MAX_INT),
                    principal: Principal = Depends(require_principal), ctx: Context = Depends(get_context)) -> Any:
    """The outcome of a command submitted earlier (poll after a 202); it never changes once given."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    assert chosen is not None
    result = games.command_outcome(ctx.root, game_id, chosen, command_id)
    if isinstance(result, Queued):
        return queued_response(result)
    if isinstance(result, Rejected):
        return error_response(result.code, result.message)
    return {"status": "accepted", "command_id": command_id, "version": result.version}


@router.get("/games/{game_id}/events", response_model=History, responses=error_responses(401, 403, 404, 422))
def history(game_id: str = GameId, after: int = Query(0, ge=0, le=MAX_INT), limit: int = Query(500, ge=1, le=5000),
            seat: int | None = Query(None, ge=0, le=MAX_INT), principal: Principal | None = Depends(optional_principal),
            ctx: Context = Depends(get_context)) -> Any:
    """The event history after version ``after``, redacted for the caller until the game ends."""
    meta = ctx.meta_at_head(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    over = meta.status == "scored"
    events = ctx.store.read(game_id, after=after, count=limit)
    return {"game_id": game_id, "version": meta.version, "seat": chosen,
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
    from services.infrastructure.audit import record_lines

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
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    if version > meta.version:
        head, _ = ctx.store.head(game_id)
        if version > head:
            raise ApiError("not_found", f"game {game_id} is at version {head}, not {version}")
    if version == 0:  # nothing has happened yet: only the facts the creation event made public
        return GameView(game_id=game_id, game=meta.game, options=meta.options, version=0, status="new", seats=[],
                        to_act=[], seed_commitment=meta.seed_commitment, updated=0.0, pace=meta.pace, seat=chosen,
                        board=None)
    past = ctx.root.records(cache_size=1).at(game_id, version)
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
* `event: view` (no id) after each run of events, when the game's stored models are at its last version:
  `{"view": ..., "legal": ...}`, what `GET /games/{id}/view` (without `clock`) and `GET /games/{id}/legal` would
  answer at that version for the caller's seat (of several held, the one `/view` picks: the first to act);
  a spectator gets the public view (`GET /games/{id}`, without `clock`) and no `legal`. A page redraws from it
  without asking; when it is missing (an archived game) or behind the events, ask those routes;
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
async def stream(request: Request, game_id: str = GameId, after: int | None = Query(None, ge=0, le=MAX_INT),
           timeout: float = Query(300.0, gt=0, le=3600), seat: int | None = Query(None, ge=0, le=MAX_INT),
           last_event_id: Annotated[str | None, AfterValidator(bounded_version)] = Header(
               None, alias="Last-Event-ID", pattern=VERSION_PATTERN, description=(
               "the id of the last event received (an event version): the stream resumes after it (a "
               "reconnecting EventSource sends it by itself); it takes precedence over `after`; blank: absent")),
           ticket: str | None = Query(None, max_length=100, description="a stream ticket (POST .../stream-ticket) "
                                      "for clients that cannot send headers, such as a browser's EventSource"),
           principal: Principal | None = Depends(optional_principal), ctx: Context = Depends(get_context)) -> Any:
    """Server-sent events: each new event (redacted for the caller) as the game moves; see the 200 response."""
    if principal is None and ticket is not None:
        from services.adapters.api.routers.web import principal_for_ticket

        principal = await principal_for_ticket(ctx, ticket, game_id)
    meta = await ctx.meta_at_log_head(game_id)
    version = int(meta.version)
    chosen = resolve_seat(principal, game_id, meta, seat, required=False)
    if last_event_id is not None:  # the validator made it the version (an int), or None when blank
        after = int(last_event_id)
    start = version if after is None else after
    holders = [(f"addr:{client_address(request)}", ctx.settings.max_streams_per_address)]
    if principal is not None:
        holders.append((f"player:{principal.player_id}" if principal.kind == "player"
                        else f"seat:{game_id}:{principal.seat}", ctx.settings.max_streams_per_caller))
    slot = await ctx.guard.open_stream(ctx.aredis(), holders)
    views = SeatFrames.of(ctx.keys, game_id, principal, meta, chosen, seat)
    listener = chat_listener(ctx, game_id, meta, meta.status, principal)
    # A player's open page is their presence at the game: no "your turn" e-mail or push while it is open
    page = StreamPresence(ctx.presence, principal.player_id if principal and principal.kind == "player" else None,
                          game_id, uuid.uuid4().hex)
    # Checks and stream run on the event loop: an open page holds no worker thread.
    return StreamingResponse(_sse(request, ctx, game_id, chosen, start, timeout, slot, listener, page, views),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _sse_message(event: str, data: dict[str, Any], event_id: int | None = None) -> bytes:
    head = b"id: %d\n" % event_id if event_id is not None else b""
    return head + b"event: %s\ndata: %s\n\n" % (event.encode(), orjson.dumps(data))


async def _next_run(ctx: Context, aredis: Any, game_id: str, cursor: int, views: SeatFrames, look: bool
                    ) -> tuple[list[Envelope], str, bytes | None]:
    """The next events after ``cursor`` (at most 200), the game's status and the caller's view frame at the last
    of them, in one round trip; the view is read with them only when events are likely (``look``: the stream
    just woke for them, or had more), else in one more when some came."""
    pipe = aredis.pipeline(transaction=False)
    pipe.xrange(ctx.keys.events(game_id), f"{cursor + 1}-0", "+", count=200)
    pipe.get(ctx.keys.meta(game_id))
    pipe.hget(ctx.keys.head(game_id), "version")
    if look:
        views.queue(pipe)
    entries, stored, head, *seen = await pipe.execute()
    envelopes = [Envelope.trusted(fields[b"e"]) for _, fields in entries]
    if envelopes and envelopes[0].version != cursor + 1:
        # a stretch after the cursor moved into a compressed segment: the store reads it from there
        envelopes = await run_in_threadpool(ctx.store.read, game_id, cursor, None, 200)
    meta = load_meta(stored) if stored is not None else None
    if meta is None or (head is not None and meta.version < int(head)):
        status = await _status(ctx, game_id)  # the models missing or behind the log: the fold answers
    else:
        status = meta.status
    if not envelopes:
        return envelopes, status, None
    version = envelopes[-1].version
    return envelopes, status, views.message(seen, version) if look else await views.frame(aredis, version)


def _event_frames(envelopes: list[Envelope], seat: int | None, revealed: bool) -> list[bytes]:
    frames = []
    for env in envelopes:
        frames.append(_sse_message("game_event", env.redacted(seat, revealed), env.version))
        if env.type == "taproom.GameScored":  # the final scores, distinct from the event that ended play
            frames.append(_sse_message("scored", {"version": env.version, **env.payload}))
    return frames


async def _sse(request: Request, ctx: Context, game_id: str, seat: int | None, start: int,
               timeout: float, slot: StreamSlot, listener: ChatListener,
               page: StreamPresence, views: SeatFrames) -> AsyncIterator[bytes]:
    aredis = ctx.aredis()
    key = ctx.keys.events(game_id)
    cursor, deadline, last_beat = start, time.monotonic() + timeout, time.monotonic()
    renewed = time.monotonic()
    ctx.open_streams += 1
    try:
        await listener.start(aredis)
        await page.renew(aredis)  # before the first byte: a page that saw "connected" is present
        yield b": connected\n\n"
        if await aredis.exists(ctx.keys.archived(game_id)):
            async for message in _sse_archived(ctx, game_id, seat, cursor):
                yield message
            return
        look = True  # events are likely: read the view with them
        while time.monotonic() < deadline:
            if await request.is_disconnected():
                return
            renewed = await _renew(aredis, renewed, slot, page)
            envelopes, status, view = await _next_run(ctx, aredis, game_id, cursor, views, look)
            expired, revealed = _game_ends(status, envelopes)
            over = revealed or expired
            if envelopes:
                cursor = envelopes[-1].version
                # one write: the page takes the events and the view they lead to together
                yield b"".join([*_event_frames(envelopes, seat, revealed), view or b""])
            said = await listener.new_messages(aredis)
            for chat_message in said:
                yield _sse_message("chat", chat_message)
            if over and not envelopes:
                yield _sse_message("end", {"reason": "expired" if expired else "game_over",
                                           "reconnect": False, "last_event_id": cursor})
                return
            look = bool(envelopes)
            if not envelopes and not said:
                # one wait for both: a new event or a new chat message wakes the stream
                look = bool(await aredis.xread({key: f"{cursor}-1", **listener.cursors}, block=_block_ms(deadline),
                                               count=1))
                if time.monotonic() - last_beat > SSE_KEEPALIVE_SECONDS:
                    last_beat = time.monotonic()
                    yield b": keep-alive\n\n"
        # Streams are bounded (proxies and idle clients); say so, so a client reconnects instead of guessing.
        yield _sse_message("end", {"reason": "timeout", "reconnect": True, "last_event_id": cursor})
    finally:
        ctx.open_streams -= 1
        await slot.release(aredis)
        await page.close(aredis)



async def _renew(aredis: Any, renewed: float, slot: StreamSlot, page: StreamPresence) -> float:
    """Renew the stream's slot and the page's presence every ``STREAM_RENEW_SECONDS``; when it was done last."""
    if time.monotonic() - renewed <= STREAM_RENEW_SECONDS:
        return renewed
    await slot.renew(aredis)
    await page.renew(aredis)
    return time.monotonic()


def _game_ends(status: str, envelopes: list[Envelope]) -> tuple[bool, bool]:
    """Whether the game expired, and whether its seed is revealed (scored), by its status or the new events."""
    expired = status == "expired" or any(e.type == "taproom.GameExpired" for e in envelopes)
    revealed = status == "scored" or any(e.type == "taproom.SeedRevealed" for e in envelopes)
    return expired, revealed


def _block_ms(deadline: float) -> int:
    """How long one wait for news may block: ``SSE_BLOCK_MS``, less near the stream's end (at least 1 ms)."""
    return max(1, min(SSE_BLOCK_MS, int((deadline - time.monotonic()) * 1000)))


async def _sse_archived(ctx: Context, game_id: str, seat: int | None, cursor: int) -> AsyncIterator[bytes]:
    """The stream of an archived game: its events after ``cursor`` from the archive, then the end."""
    envelopes = await run_in_threadpool(ctx.store.read, game_id, cursor)
    for env in envelopes:
        yield _sse_message("game_event", env.redacted(seat, True), env.version)
        cursor = env.version
        if env.type == "taproom.GameScored":
            yield _sse_message("scored", {"version": env.version, **env.payload})
    yield _sse_message("end", {"reason": "game_over", "reconnect": False, "last_event_id": cursor})


async def _status(ctx: Context, game_id: str) -> str:
    return str((await ctx.meta_at_log_head(game_id)).status)
