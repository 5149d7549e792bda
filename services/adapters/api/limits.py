"""An ASGI middleware refusing request bodies over a size limit with 413, before any handler reads them."""

from __future__ import annotations

from typing import Any

import orjson


class BodySizeLimit:
    """Refuses a body over ``max_bytes`` with 413 ``body_too_large``.

    A declared ``Content-Length`` over the limit is refused at once. Any other body (chunked, or shorter than
    declared) is read here first, up to the limit, and handed on in one piece: raising from inside the app's
    ``receive`` instead would surface as FastAPI's 400 "error parsing the body", not as 413.
    """

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await self._refuse(send)
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


def _replay(messages: list[dict], receive: Any) -> Any:
    """A ``receive`` that gives ``messages`` first, then the real ones (a stream waits on it for disconnects)."""
    pending = list(messages)

    async def replayed() -> dict:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed
