"""Security headers on every answer: the web client's Content-Security-Policy, ``nosniff``, the referrer policy.

The policy lets the page run scripts from this origin's files only: no inline script, no ``eval``, no other
host. The page's one inline element a browser treats as a script, its import map, is allowed by its SHA-256
(a hash source), computed here from the very bytes served, so an edit of the map (a fingerprinted URL, a new
module) needs no edit of the policy; any other inline script is refused by the browser. Style *elements* come
from files too; style *attributes* are allowed (the boards draw colours and sizes inline, and an attribute
cannot select or fetch anything a script could read). Nobody may frame a page (``frame-ancestors 'none'``).

The interactive API documentation (``/docs``, ``/redoc``: swagger-ui and redoc, which start with an inline
script) keeps every header but a policy that only forbids framing.

A compressor, if any, must sit outside this middleware: the hash is taken from the uncompressed page.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable
from typing import Any

Message = dict[str, Any]
Send = Callable[[Message], Awaitable[None]]

CLIENT_POLICY = ("default-src 'self'; script-src 'self'{hashes}; style-src 'self'; style-src-attr 'unsafe-inline'; "
                 "img-src 'self' data:; connect-src 'self'; font-src 'self'; worker-src 'self'; manifest-src 'self'; "
                 "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The web client's policy; ``{hashes}``: the hash sources of the served page's import maps."""
DOCS_POLICY = "frame-ancestors 'none'; object-src 'none'; base-uri 'none'"
DOCS_PATHS = ("/docs", "/redoc")
REFERRER_POLICY = "no-referrer"
"""Game ids and sign-in links live in URLs (the fragment stays home, the path would not): send none of it."""

_IMPORT_MAP = re.compile(rb"<script\s+type=\"importmap\"\s*>(.*?)</script>", re.DOTALL | re.IGNORECASE)
_ALWAYS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", REFERRER_POLICY.encode()),
           (b"x-frame-options", b"DENY")]
_CLIENT = (b"content-security-policy", CLIENT_POLICY.format(hashes="").encode())
_DOCS = (b"content-security-policy", DOCS_POLICY.encode())


def policy_for_page(html: bytes) -> str:
    """The client's policy for an HTML page: its import maps allowed by hash, nothing else inline."""
    hashes = "".join(f" 'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"
                     for body in _IMPORT_MAP.findall(html))
    return CLIENT_POLICY.format(hashes=hashes)


class SecurityHeaders:
    """ASGI middleware: adds the headers to every HTTP answer; an HTML page is held until whole (pages are a
    few kilobytes) so its policy can name its import map's hash."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope["path"].startswith(DOCS_PATHS)
        held: list[Message] = []

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *_ALWAYS]
                if not docs and _is_plain_html(headers):
                    held.append({**message, "headers": headers})  # its policy once the page is whole
                    return
                await send({**message, "headers": [*headers, _DOCS if docs else _CLIENT]})
                return
            if held and message["type"] == "http.response.body":
                held.append(message)
                if message.get("more_body", False):
                    return
                start, *bodies = held
                held.clear()
                page = b"".join(m.get("body", b"") for m in bodies)
                policy = (b"content-security-policy", policy_for_page(page).encode())
                await send({**start, "headers": [*start["headers"], policy]})
                await send({"type": "http.response.body", "body": page})
                return
            await send(message)

        await self.app(scope, receive, sending)


def _is_plain_html(headers: list[tuple[bytes, bytes]]) -> bool:
    """An uncompressed HTML answer (a compressed one is sent with the policy without hashes)."""
    kinds = {key.lower(): value for key, value in headers}
    return kinds.get(b"content-type", b"").startswith(b"text/html") and b"content-encoding" not in kinds
