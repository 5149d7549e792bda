"""An ASGI middleware refusing request bodies over a size limit with 413, before any handler reads them."""

from __future__ import annotations

from typing import Any

import orjson


class BodySizeLimit:
    """Refuses a body over ``max_bytes`` with 413 ``body_too_large``.

    A declared ``Content-Length`` over the limit is refused at once; one within it passes as it is (the HTTP
    server reads no more than declared), and so does a request without a body. A chunked body is read here
    first, up to the limit, and handed on in one piece: raising from inside the app's ``receive`` instead would
    surface as FastAPI's 400 "error parsing the body", not as 413.
    """

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        if declared is not None:  # within the limit (the server reads no more than declared), or no body
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        received = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left before sending its body
                await self.app(scope, _replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], receive), send)

    async def _refuse(self, send: Any) -> None:
        body = orjson.dumps({"code": "body_too_large", "message": f"request body over {self.max_bytes} bytes"})
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _declared_length(scope: dict) -> int | None:
    """The body's declared length (0: no body at all); None when it must be counted (chunked, or a length
    that is not a number)."""
    length = chunked = None
    for name, value in scope.get("headers") or ():
        if name == b"content-length":
            length = value
        elif name == b"transfer-encoding":
            chunked = value
    if chunked is not None:
        return None
    if length is None:
        return 0
    return int(length) if length.isdigit() else None


def _replay(messages: list[dict], receive: Any) -> Any:
    """A ``receive`` that gives ``messages`` first, then the real ones (a stream waits on it for disconnects)."""
    pending = list(messages)

    async def replayed() -> dict:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed
