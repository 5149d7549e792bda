"""The hot routes' parameters read straight from the request (``POST /games/{id}/commands``, ``/legal``, the
views), without FastAPI's per-request parameter solving and pydantic body model: the game id and the seat are
checked here, the body is read as JSON and its command parsed by the game itself (``parse_command``).

Anything that does not pass the quick check is judged by pydantic with the very constraints the routes
declare in OpenAPI (:data:`PARAMETERS`, :data:`COMMAND_BODY`), and refused with FastAPI's own
``RequestValidationError``, so a refusal reads as every other route's does.
"""

from __future__ import annotations

import email.message
import re
from typing import Annotated, Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import Field, TypeAdapter, ValidationError

from services.adapters.api.bounds import MAX_INT, NOT_JSON, check_bounded, parse_json

GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
_GAME_ID = re.compile(GAME_ID_PATTERN)
_DIGITS = re.compile(r"[0-9]{1,16}")
_GAME_ID_ADAPTER: TypeAdapter[str] = TypeAdapter(Annotated[str, Field(pattern=GAME_ID_PATTERN)])
_SEAT_ADAPTER: TypeAdapter[int | None] = TypeAdapter(Annotated[int | None, Field(ge=0, le=MAX_INT)])
_BODY_ADAPTER: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])

GAME_ID_PARAMETER = {"name": "game_id", "in": "path", "required": True,
                     "schema": {"type": "string", "pattern": GAME_ID_PATTERN, "title": "Game Id"}}
SEAT_PARAMETER = {"name": "seat", "in": "query", "required": False,
                  "schema": {"anyOf": [{"type": "integer", "maximum": MAX_INT, "minimum": 0}, {"type": "null"}],
                             "title": "Seat"}}
COMMAND_BODY = {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "additionalProperties": True, "title": "Request Body",
    "examples": [{"command_id": "c1", "type": "PlaceTile"}, {"command_id": "c2", "type": "taproom.Resign"}]}}}}
"""What OpenAPI says of these routes' parameters and body, as FastAPI said it when it read them."""


def _refused(error: ValidationError, *where: str | int) -> RequestValidationError:
    return RequestValidationError([{**e, "loc": (*where, *e["loc"])} for e in error.errors()])


def game_id(request: Request) -> str:
    """The path's game id (422 ``invalid_request`` when it is not 1 to 64 letters, digits, ``_`` or ``-``)."""
    found: str = request.scope["path_params"]["game_id"]
    if _GAME_ID.match(found):
        return found
    try:
        return _GAME_ID_ADAPTER.validate_python(found)
    except ValidationError as error:
        raise _refused(error, "path", "game_id") from None


def seat(request: Request) -> int | None:
    """The ``?seat=`` of the query (None: not given), an integer from 0 to ``MAX_INT``."""
    if not request.scope.get("query_string"):
        return None
    text = request.query_params.get("seat")
    if text is None:
        return None
    if _DIGITS.fullmatch(text) and len(text) < 16:  # under 10**15: within MAX_INT for sure
        return int(text)
    try:
        return _SEAT_ADAPTER.validate_python(text)
    except ValidationError as error:
        raise _refused(error, "query", "seat") from None


async def json_object(request: Request) -> dict[str, Any]:
    """The request's body, a JSON object (422 ``malformed_json`` when it is not JSON, ``invalid_request`` when
    it is not an object or holds an integer past ``MAX_INT``), read as FastAPI reads a JSON body."""
    body = await request.body()
    value: Any = None
    if body:
        content_type = request.headers.get("content-type")
        value = body
        if content_type == "application/json" or (content_type and _json_type(content_type)):
            value = parse_json(body)
            if value is NOT_JSON:
                raise RequestValidationError([{"type": "json_invalid", "loc": ("body", 0), "msg": "JSON decode error",
                                               "input": {}, "ctx": {"error": "not JSON"}}])
    if body and isinstance(value, dict):
        check_bounded(value)
        return value
    if not body:
        raise RequestValidationError([{"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}])
    try:
        return _BODY_ADAPTER.validate_python(value)
    except ValidationError as error:
        raise _refused(error, "body") from None


def _json_type(content_type: str) -> bool:
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))
