"""The web client: static files served by the API process (see README.md here for the board-module contract)."""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).parent / "static"
