"""API errors: every error a client can cause is JSON ``{code, message}`` with one fitting status."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import iter_route_contexts
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Mount, compile_path

from domain.core import RuleError
from domain.core.errors import describe_errors
from services.application.results import Queued, StillQueued
from services.infrastructure.resilience import UNAVAILABLE

STATUS_BY_CODE: dict[str, int] = {
    "malformed_json": 400,
    "unknown_game": 400,
    "unauthorized": 401,
    "invalid_recovery_code": 401,
    "forbidden": 403,
    "not_your_seat": 403,
    "not_found": 404,
    "game_not_found": 404,
    "command_not_found": 404,
    "no_description": 404,
    "player_not_found": 404,
    "invitation_not_found": 404,
    "invalid_token": 404,
    "push_disabled": 404,
    "email_disabled": 409,
    "invalid_email": 422,
    "invalid_push_endpoint": 422,
    "not_your_turn": 409,
    "stale_version": 409,
    "command_id_reused": 409,
    "client_key_reused": 409,
    "client_key_used": 409,
    "game_not_active": 409,
    "already_resigned": 409,
    "game_archived": 409,
    "game_not_over": 409,
    "hints_off": 409,
    "hints_in_rated_game": 422,
    "not_analysable": 409,
    "no_analysis": 404,
    "seat_taken": 409,
    "no_open_seat": 409,
    "handle_taken": 409,
    "already_seated": 409,
    "already_invited": 409,
    "too_many_push_subscriptions": 409,
    "too_many_mutes": 409,
    "too_many_blocks": 409,
    "invitation_refused": 403,
    "message_not_found": 404,
    "idempotency_key_reused": 409,
    "seat_reserved": 409,
    "invitation_expired": 410,
    "method_not_allowed": 405,
    "body_too_large": 413,
    "invalid_request": 422,
    "invalid_command": 422,
    "invalid_options": 422,
    "illegal_move": 422,
    "seed_not_allowed": 422,
    "rate_limited": 429,
    "too_many_bot_games": 429,
    "too_many_streams": 429,
    "internal_error": 500,
    "unavailable": 503,
    "write_not_durable": 503,
}


_STATUS_TITLES = {400: "Malformed request", 401: "Missing or unknown token", 403: "Token not allowed here", 410: "Gone",
                  404: "Not found", 409: "Conflict with the game's state", 413: "Request body too large",
                  422: "Invalid request or move", 500: "Internal error", 503: "Service unavailable"}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses: the ``{code, message}`` body and the codes each can carry."""
    from services.adapters.api.schemas import ErrorBody

    documented: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        codes = sorted(code for code, s in STATUS_BY_CODE.items() if s == status)
        listed = f" (code: {', '.join(f'`{c}`' for c in codes)})" if codes else ""
        documented[status] = {"model": ErrorBody, "description": f"{_STATUS_TITLES.get(status, 'Error')}{listed}"}
    return documented


class ApiError(Exception):
    def __init__(self, code: str, message: str, status: int | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or status_for(code)
        self.headers = headers


def status_for(code: str) -> int:
    return STATUS_BY_CODE.get(code, 422)


TOO_MANY_RETRY_SECONDS = 60
"""``Retry-After`` of a 429 whose cause gave none (each cap and rate gives its own): RFC 6585 asks every 429 to
say when to come back, and a client that is told nothing retries at once."""


def error_response(code: str, message: str, status: int | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    status = status or status_for(code)
    if status == 429 and "Retry-After" not in (headers or {}):
        headers = {**(headers or {}), "Retry-After": str(TOO_MANY_RETRY_SECONDS)}
    return JSONResponse({"code": code, "message": message}, status_code=status, headers=headers)


RETRY_AFTER_SECONDS = 2
"""What a 503 tells clients to wait: about a Redis restart's worth, so retries do not pile onto it."""


def unavailable_response(message: str, **extra: object) -> JSONResponse:
    """503 ``unavailable`` with ``Retry-After``: a dependency is away, the request did nothing."""
    return JSONResponse({"code": "unavailable", "message": message, **extra}, status_code=503,
                        headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def not_durable_response(exc: Exception) -> JSONResponse:
    """503 ``write_not_durable`` with ``Retry-After``: the write reached its master but not the replicas (or the
    disk) it must reach before being acknowledged, so it is not acknowledged; the same request again is safe."""
    return JSONResponse({"code": "write_not_durable",
                         "message": f"the write could not be made durable in time ({exc}); send it again shortly"},
                        status_code=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


_WHERE = {"query": "query parameter ", "path": "path parameter ", "header": "header ", "cookie": "cookie "}


def request_errors(errors: list) -> str:
    """FastAPI's validation errors in plain words: which field of the body (or which parameter), and what."""
    plain = []
    for error in errors:
        loc = tuple(error.get("loc", ()))
        prefix = ""
        if loc and loc[0] in _WHERE:
            prefix, loc = _WHERE[loc[0]], loc[1:]
        elif loc and loc[0] == "body":
            loc = loc[1:]
        text = describe_errors([{**error, "loc": loc}], limit=1)
        if not loc:  # the body as a whole
            text = text.replace("the input", "the request body", 1) if text.startswith("the input") \
                else f"the request body: {text}"
        plain.append(prefix + text)
    more = len(plain) - 5
    return "; ".join(plain[:5]) + (f" (and {more} more)" if more > 0 else "")


def queued_response(queued: Queued, **extra: Any) -> JSONResponse:
    """Every command still queued after the short wait answers alike: 202 ``{"status": "queued", "command_id",
    "poll", ...}``; ``poll`` answers the outcome once it is decided (the command is not lost)."""
    return JSONResponse({"status": "queued", "command_id": queued.command_id, "poll": queued.poll, **extra},
                        status_code=202)


def answer_for(exc: Exception) -> JSONResponse | None:
    """The answer to an exception a route raised, as the app's handlers give it (None: an unexpected one)."""
    if isinstance(exc, ApiError):
        return error_response(exc.code, exc.message, exc.status, exc.headers)
    if isinstance(exc, RuleError):
        return error_response(exc.code, exc.message)
    if isinstance(exc, StillQueued):
        return queued_response(exc.queued)
    if isinstance(exc, UNAVAILABLE):
        return unavailable_response(f"the service cannot reach its store ({type(exc).__name__}); try again shortly")
    return None


def allowed_methods(request: Request) -> str:
    """A 405's ``Allow``: every method some route of the request's path takes. Starlette names only the methods
    of the first route whose path matched, and a mounted directory of files names none."""
    path = request.scope["path"]
    methods: set[str] = set()
    for context in iter_route_contexts(request.app.router.routes):
        route = context.original_route
        if isinstance(route, Mount):
            if path.startswith(route.path + "/"):
                methods |= {"GET", "HEAD"}  # StaticFiles serves both, and nothing else
        elif context.methods and compile_path(context.path or "")[0].match(path):
            methods |= context.methods
    return ", ".join(sorted(methods))


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(StillQueued)
    async def _queued(_: Request, exc: StillQueued) -> JSONResponse:
        return queued_response(exc.queued)

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.code, exc.message, exc.status, exc.headers)

    @app.exception_handler(RuleError)
    async def _rule_error(_: Request, exc: RuleError) -> JSONResponse:
        return error_response(exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response("malformed_json", "the request body is not valid JSON")
        return error_response("invalid_request", request_errors(list(errors)) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # 400 here is FastAPI failing to read the body (e.g. a number of more than 4300 digits)
        code = {400: "malformed_json", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}.get(exc.status_code, "http_error")
        headers = {"Allow": allowed_methods(request)} if exc.status_code == 405 else None
        return error_response(code, str(exc.detail), exc.status_code, headers)

    async def _unavailable(_: Request, exc: Exception) -> JSONResponse:
        return unavailable_response(f"the service cannot reach its store ({type(exc).__name__}); try again shortly")

    for kind in UNAVAILABLE:  # Redis away (down, restarting, replaying its log): the request changed nothing
        app.add_exception_handler(kind, _unavailable)

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        return error_response("internal_error", "internal error", 500)
