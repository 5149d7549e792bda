"""The web client: static files served by the API process (see README.md here for the board-module contract)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from services.web.assets import Assets

STATIC_DIR = Path(__file__).parent / "static"


@cache
def client_assets() -> Assets:
    """The client's files, fingerprinted and gzipped: read once per process (the app builds it at start)."""
    return Assets(STATIC_DIR)
