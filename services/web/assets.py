"""The web client's files, read, fingerprinted and gzipped once at start, served from memory.

Every file under ``static/`` has two addresses: its plain one (``/static/js/api.js``, revalidated on each use:
``no-cache`` and an ETag) and a fingerprinted one that carries a hash of its bytes in the name
(``/static/js/api.3f9c0a1b2d.js``), cached for a year as ``immutable``. The page (``index.html``, rendered
here) names only fingerprinted addresses, and an import map sends every module address to its fingerprinted
one. The map applies to the addresses a module's relative imports resolve to (``../api.js`` from
``/static/js/pages/game.<hash>.js`` is ``/static/js/api.js``, mapped to ``/static/js/api.<hash>.js``), so
modules keep their relative imports and each file has its own hash: a returning player downloads exactly the
files that changed. Text files are gzipped here, at level 9, once; the API's JSON is compressed per answer
by Starlette's ``GZipMiddleware`` (see ``services.adapters.api.app``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
COMPRESSIBLE = (".js", ".css", ".html", ".json", ".svg", ".txt", ".md", ".map")
_FINGERPRINTED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{10})(?P<ext>\.[A-Za-z0-9]+)$")
_STATIC_URL = re.compile(r"""(?P<q>["'])/static/(?P<path>[A-Za-z0-9_./-]+)(?P=q)""")
_IMPORT_MAP = re.compile(r'(<script type="importmap">)(?P<map>.*?)(</script>)', re.DOTALL)


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, their gzip (None when it would not help), type, hash and ETag."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    digest: str

    @property
    def etag(self) -> str:
        return f'"{self.digest}"'


def make_asset(body: bytes, name: str) -> Asset:
    media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if name.endswith((".js", ".mjs")):
        media_type = "text/javascript"
    if media_type.startswith("text/") or media_type.endswith(("json", "javascript")):
        media_type += "; charset=utf-8"
    squeezed = gzip.compress(body, compresslevel=9, mtime=0) if name.endswith(COMPRESSIBLE) else None
    if squeezed is not None and len(squeezed) >= len(body):
        squeezed = None
    return Asset(body, squeezed, media_type, hashlib.sha256(body).hexdigest()[:10])


def fingerprinted(path: str, digest: str) -> str:
    """``js/api.js`` → ``js/api.<digest>.js``."""
    stem, dot, ext = path.rpartition(".")
    return f"{stem}.{digest}.{ext}" if dot and "/" not in ext else f"{path}.{digest}"


class Assets:
    """The files of one static folder, and the page that names them by fingerprint."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Asset] = {}
        for file in sorted(root.rglob("*")):
            if file.is_file() and not file.name.startswith("."):
                relative = file.relative_to(root).as_posix()
                self.files[relative] = make_asset(file.read_bytes(), relative)
        self.page = make_asset(self.render_page((root / "index.html").read_text(encoding="utf-8")), "index.html")

    def url(self, path: str) -> str:
        """The fingerprinted address of a file under the folder (``js/api.js``)."""
        return f"/static/{fingerprinted(path, self.files[path].digest)}"

    def import_map(self, declared: dict[str, str]) -> dict[str, Any]:
        """The page's import map: its bare names (``preact``) and every module's plain address, fingerprinted."""
        imports = {name: self.url(target.removeprefix("/static/")) for name, target in declared.items()}
        for path in self.files:
            if path.endswith(".js") and path != "sw.js":  # the service worker is registered at /sw.js
                imports[f"/static/{path}"] = self.url(path)
        return {"imports": imports}

    def render_page(self, template: str) -> bytes:
        """index.html with every ``/static/…`` address fingerprinted and the import map completed."""
        declared_map = _IMPORT_MAP.search(template)
        declared = json.loads(declared_map.group("map")).get("imports", {}) if declared_map else {}

        def swap(match: re.Match[str]) -> str:
            path = match.group("path")
            if path not in self.files:
                return match.group(0)
            return f"{match.group('q')}{self.url(path)}{match.group('q')}"

        page = _STATIC_URL.sub(swap, template)
        found = _IMPORT_MAP.search(page)
        if found is not None:  # after the swap: the map's keys are the plain addresses
            generated = json.dumps(self.import_map(declared), indent=0, sort_keys=True)
            page = page[:found.start("map")] + generated + page[found.end("map"):]
        return page.encode("utf-8")

    def lookup(self, path: str) -> tuple[Asset, bool] | None:
        """The file a request path names, and whether the address was fingerprinted with its current hash."""
        if path in self.files:
            return self.files[path], False
        found = _FINGERPRINTED.match(path)
        if found is None:
            return None
        asset = self.files.get(found.group("stem") + found.group("ext"))
        if asset is None:
            return None
        # an old page asking for an old version gets today's bytes, revalidated, rather than a broken page
        return asset, asset.digest == found.group("hash")


def respond(asset: Asset, headers: Headers, cache_control: str, extra: dict[str, str] | None = None,
            head: bool = False, page: bool = False) -> Response:
    """The answer for one file: 304 when the client holds this version, its gzip when the client takes it.

    ``page``: the HTML page, whole and as it is, every time: the security policy hashes its import map on the
    way out and gzip comes after (further out); a 304 would carry a policy without that hash, which the browser
    would store over the page's own, and the page would run no module."""
    common = {"Cache-Control": cache_control, "Vary": "Accept-Encoding", **(extra or {})}
    if not page:
        common["ETag"] = asset.etag
        if asset.etag in headers.get("if-none-match", ""):
            return Response(status_code=304, headers=common)
    precompressed = not page
    body = asset.body
    if precompressed and asset.gzipped is not None and "gzip" in headers.get("accept-encoding", ""):
        body = asset.gzipped
        common["Content-Encoding"] = "gzip"
    response = Response(b"" if head else body, media_type=asset.media_type, headers=common)
    if head:
        response.headers["Content-Length"] = str(len(body))
    return response


class StaticAssets:
    """ASGI app for ``/static``: fingerprinted addresses immutable, plain ones revalidated, gzip when taken."""

    def __init__(self, assets: Assets) -> None:
        self.assets = assets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(405)
        found = self.assets.lookup(scope["path"].removeprefix(scope.get("root_path", "")).lstrip("/"))
        if found is None:
            raise HTTPException(404)
        asset, current = found
        response = respond(asset, Headers(scope=scope), IMMUTABLE if current else REVALIDATE,
                           head=scope["method"] == "HEAD")
        await response(scope, receive, send)
