"""Error messages in the caller's language (issue 38): a pure ASGI middleware over every error answer.

Every error leaves as JSON ``{code, message, ...}`` (see :mod:`services.adapters.api.errors`), from many places
(the handlers, the hot path, the size limit, the durable-write check). This layer, outside them all, rewrites
the ``message`` of an error answer when the caller reads another language than English: the code's sentence
(:mod:`services.adapters.api.error_words`) in that language. The code and every other field stay as they are.
The caller's language: ``Accept-Language``; without the header, the setting of the player whose token the
request carried (``request.state.player_id``, set by the token's dependency). English answers pass untouched,
and so does everything that is not an error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import orjson

from services.adapters.api.error_words import SENTENCES
from services.infrastructure.i18n import SOURCE, negotiate, translator

SettingOf = Callable[[str], "str | None"]


def localize_error(body: bytes, locale: str) -> bytes | None:
    """The error body with its message in ``locale``; None when it is not an error body this layer words."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("code"), str):
        return None
    sentence = SENTENCES.get(data["code"])
    if sentence is None:
        return None
    data["message"] = translator(locale).gettext(sentence)
    return orjson.dumps(data)


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


class LocalizedErrors:
    """``setting_of(player_id)``: the player's chosen language (a blocking read, run in a thread), or None."""

    def __init__(self, app: Any, setting_of: SettingOf | None = None) -> None:
        self.app = app
        self.setting_of = setting_of

    async def _locale(self, scope: dict, header: str | None) -> str:
        if header is not None or self.setting_of is None:
            return negotiate(header)
        player = (scope.get("state") or {}).get("player_id")
        if not player:
            return SOURCE
        try:
            return negotiate(None, await asyncio.to_thread(self.setting_of, player))
        except Exception:  # the store away: the answer is already an error, and English is still an answer
            return SOURCE

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header = _header(scope, b"accept-language")
        if header is not None and negotiate(header) == SOURCE:
            await self.app(scope, receive, send)  # an English reader: nothing to do
            return
        held: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def sending(message: dict) -> None:
            if not held and (message["type"] != "http.response.start" or message["status"] < 400):
                await send(message)  # a success, a stream's body: as it is (the common case, one test)
                return
            if message["type"] == "http.response.start":
                content_type = dict(message.get("headers", ())).get(b"content-type", b"")
                if content_type.startswith(b"application/json"):
                    held["start"] = message  # the body decides: sent with it
                    return
            elif message["type"] == "http.response.body" and "start" in held:
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                await self._send_error(scope, header, held.pop("start"), b"".join(chunks), send)
                return
            await send(message)

        await self.app(scope, receive, sending)

    async def _send_error(self, scope: dict, header: str | None, start: dict, body: bytes, send: Any) -> None:
        locale = await self._locale(scope, header)
        worded = localize_error(body, locale) if locale != SOURCE else None
        if worded is not None:
            body = worded
            headers = [(k, v) for k, v in start.get("headers", ()) if k != b"content-length"]
            start = {**start, "headers": [*headers, (b"content-length", str(len(body)).encode()),
                                          (b"content-language", locale.encode())]}
        await send(start)
        await send({"type": "http.response.body", "body": body})
