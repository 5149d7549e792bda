"""What the browser client needs beyond the game routes: the site itself, stream tickets, the audit verdict.

The page is served at ``/`` with its files under ``/static`` (services/web/static). A browser's EventSource
cannot send an Authorization header, and the long-lived token must never sit in a URL (URLs get logged), so
the page trades its token for a stream ticket: random, valid for ``STREAM_TICKET_SECONDS``, for one game only.
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path as FilePath
from typing import Any

import orjson
from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field

from domain.core import get_game
from services.adapters.api.deps import Context, Principal, get_context, require_principal, seats_of
from services.adapters.api.errors import ApiError, error_responses
from services.infrastructure.audit import verify
from services.infrastructure.tokens import hash_token
from services.web import client_assets
from services.web.assets import REVALIDATE, respond

router = APIRouter(tags=["web"])
GameId = Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")

class MarkdownResponse(PlainTextResponse):
    media_type = "text/markdown"


STREAM_TICKET_SECONDS = 60
VERDICT_CACHE_SECONDS = 7 * 24 * 3600


class StreamTicket(BaseModel):
    ticket: str = Field(description="pass as ?ticket= to GET /games/{id}/stream")
    game_id: str
    expires_in: int = Field(description="seconds the ticket stays valid")


class Verdict(BaseModel):
    """The audit of a game's log, as `taproom verify` reports it."""

    game_id: str
    version: int
    status: str
    seed_commitment: str = Field(description="SHA-256 (hex) of the seed, published at creation")
    seed: str | None = Field(description="the seed (hex), revealed when the game ends; null before")
    events: int
    commands: int
    chain_ok: bool
    seed_revealed: bool
    seed_ok: bool | None = Field(description="null until the seed is revealed")
    replay_ok: bool | None = Field(description="null until the seed is revealed")
    problems: list[str]
    ok: bool


@router.get("/", include_in_schema=False)
def index(request: Request) -> Response:
    """The web client (a single page; its own routes live in the URL fragment), naming its files by fingerprint:
    sent whole on each visit (about 2 KB gzipped), so a new release is seen at once, while the files it names
    stay cached."""
    # sent as it is: a security policy hashes the page's import map on the way out; GZipMiddleware compresses it after
    return respond(client_assets().page, request.headers, REVALIDATE, page=True)


@router.get("/sw.js", include_in_schema=False)
def service_worker(request: Request) -> Response:
    """The service worker (Web Push), from the root path so that its scope is the whole site."""
    return respond(client_assets().files["sw.js"], request.headers, REVALIDATE, {"Service-Worker-Allowed": "/"})


@router.post("/games/{game_id}/stream-ticket", response_model=StreamTicket,
             responses=error_responses(401, 403, 404, 422, 503))
def stream_ticket(game_id: str = GameId, principal: Principal = Depends(require_principal),
                  watch: bool = Query(False, description="a registered player without a seat asks for a ticket "
                                                          "to follow as a spectator (the spectators' chat and "
                                                          "their own mutes come with it)"),
                  ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """A ticket for ``GET /games/{id}/stream?ticket=...``: valid 60 s, for this game only, acting as the caller."""
    meta = ctx.meta(game_id)
    if not seats_of(principal, game_id, meta) and not (watch and principal.kind == "player"):
        # A spectator needs no ticket (the public stream is open); refusing keeps tickets tied to a seat.
        raise ApiError("not_your_seat", f"your token holds no seat in game {game_id}; spectators need no ticket")
    ticket = secrets.token_urlsafe(24)
    data = {"game_id": game_id, "principal": principal.__dict__}
    ctx.redis.set(ctx.keys.stream_ticket(hash_token(ticket)), orjson.dumps(data), ex=STREAM_TICKET_SECONDS)
    return {"ticket": ticket, "game_id": game_id, "expires_in": STREAM_TICKET_SECONDS}


async def principal_for_ticket(ctx: Context, ticket: str, game_id: str) -> Principal:
    """The principal a stream ticket stands for; ``unauthorized`` when unknown, expired or for another game."""
    raw = await ctx.aredis().get(ctx.keys.stream_ticket(hash_token(ticket)))
    if raw is None:
        raise ApiError("unauthorized", "unknown or expired stream ticket (they last 60 s): ask for a new one")
    data = orjson.loads(raw)
    if data["game_id"] != game_id:
        raise ApiError("unauthorized", f"this stream ticket is for another game, not {game_id}")
    return Principal(**data["principal"])


@router.get("/games/{game_id}/verify", response_model=Verdict, responses=error_responses(404, 422, 503))
def verify_game(game_id: str = GameId, ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """The server's audit verdict: hash chain, seed against its commitment, replay of every command.

    Before the end only the chain can be checked (the seed is still secret); the answer carries the
    commitment and, once revealed, the seed, so a client can check the hash itself.
    """
    meta = ctx.meta_at_head(game_id)
    final = meta.status == "scored"
    if final and (cached := ctx.redis.get(ctx.keys.verdict(game_id))) is not None:
        return orjson.loads(cached)  # a replay per page view of a finished game would be wasted work
    report = verify(ctx.store.read(game_id), ctx.store.command_records(game_id))
    verdict = {"game_id": game_id, "version": meta.version, "status": meta.status,
               "seed_commitment": meta.seed_commitment, "seed": meta.seed, **report.to_dict()}
    if final and report.ok:  # a failed verdict is checked again on the next ask, never kept
        ctx.redis.set(ctx.keys.verdict(game_id), orjson.dumps(verdict), ex=VERDICT_CACHE_SECONDS)
    return verdict


@router.get("/games/types/{game}/rules", response_class=Response,
            responses={200: {"content": {"text/markdown": {"schema": {"type": "string"}}},
                             "description": "the rules notes, Markdown"}, **error_responses(400, 404, 422)})
def rules_notes(game: str = Path(pattern=r"^[a-z0-9-]{1,40}$")) -> Response:
    """The game's rules notes (Markdown): the rule choices this implementation made, for the start page."""
    found = get_game(game)  # unknown_game for a name not registered
    notes = FilePath(sys.modules[type(found).__module__].__file__ or "").parent / "RULES_NOTES.md"
    if not notes.is_file():
        raise ApiError("not_found", f"game {game!r} has no rules notes")
    return MarkdownResponse(notes.read_text(encoding="utf-8"))
