"""What the error-wording middleware (services/adapters/api/localized.py) costs per request: a bare ASGI app
against the same app wrapped, for a success and an error, without Accept-Language, in English and in German.
Prints microseconds per request (the machine's noise included: compare the differences, not single figures)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from services.adapters.api.localized import LocalizedErrors

N = 50_000


async def ok_app(scope: dict, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b'{"ok":true}'})


async def error_app(scope: dict, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b'{"code":"game_not_found","message":"no game g1"}'})


async def discard(message: dict) -> None:
    return None


async def per_request(app: Any, headers: list[tuple[bytes, bytes]]) -> float:
    scope = {"type": "http", "headers": headers}
    started = time.perf_counter()
    for _ in range(N):
        await app(scope, None, discard)
    return (time.perf_counter() - started) / N * 1e6


async def main() -> None:
    callers: tuple[tuple[str, list[tuple[bytes, bytes]]], ...] = (
        ("no header", []), ("English", [(b"accept-language", b"en-US,en;q=0.9")]),
        ("German", [(b"accept-language", b"de-DE,de;q=0.9")]))
    for answer, app in (("200", ok_app), ("404", error_app)):
        for who, headers in callers:
            bare = await per_request(app, headers)
            wrapped = await per_request(LocalizedErrors(app), headers)
            print(f"{answer} {who:9s}  bare {bare:6.2f} us  wrapped {wrapped:6.2f} us  cost {wrapped - bare:+6.2f} us")


if __name__ == "__main__":
    asyncio.run(main())
