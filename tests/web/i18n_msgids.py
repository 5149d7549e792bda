"""The msgids the game boards ask the catalog for: every ``t("…")`` and ``tn("…", "…", …)`` in a board's modules
(string literals, joined with ``+`` when split over lines), and the engine's words each board translates once it
has the game's description (names, labels, goal texts: see boards/localise.js)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[2] / "services" / "web" / "static"
BOARDS = STATIC / "boards"
CATALOGS = STATIC / "i18n"
GAMES = {"carcassonne": "carcassonne", "heaven-and-ale": "heaven_and_ale", "tiefenthal": "tiefenthal"}

_STR = r'"((?:[^"\\]|\\.)*)"(?:\s*\+\s*"((?:[^"\\]|\\.)*)")*'
_CALL = re.compile(r"(?<![\w.])(tn?)\(\s*" + r'("(?:[^"\\]|\\.)*"(?:\s*\+\s*"(?:[^"\\]|\\.)*")*)')
_PIECE = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _unescape(s: str) -> str:
    return json.loads(f'"{s}"')


def code_msgids(game: str) -> dict[str, str]:
    """msgid -> "t" or "tn" for every literal call in the game's board modules."""
    out: dict[str, str] = {}
    for path in sorted(BOARDS.glob(f"{game}*.js")):
        for m in _CALL.finditer(path.read_text(encoding="utf-8")):
            out["".join(_unescape(p) for p in _PIECE.findall(m.group(2)))] = m.group(1)
    return out


def _walk(value: Any, keys: tuple[str, ...], found: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if k in keys and isinstance(v, str):
                found.add(v)
            elif k in keys and isinstance(v, list) and all(isinstance(x, str) for x in v):
                found.update(v)
            else:
                _walk(v, keys, found)
    elif isinstance(value, list):
        for v in value:
            _walk(v, keys, found)


def engine_msgids(game: str) -> set[str]:
    """The description's words the board passes through t() (the keys boards/localise.js is given)."""
    found: set[str] = set()
    if game == "heaven-and-ale":
        from domain.heaven_and_ale.description import description

        _walk(description(), ("text", "prices", "monk", "sunny", "shady", "storage_tile_back"), found)
    elif game == "tiefenthal":
        from domain.tiefenthal.cards import CARDS
        from domain.tiefenthal.description import describe

        _walk(describe(), ("name", "label", "unit", "effect", "card_names"), found)
        found.update(c.name for c in CARDS)  # the view's cards carry their names too
    return found


def catalog(locale: str, game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CATALOGS / locale / f"{game}.json").read_text(encoding="utf-8"))
    return data
