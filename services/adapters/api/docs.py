"""The API's own documentation: the OpenAPI description (life cycle, auth, errors, streams) and, per game, the
conventions a client needs (coordinates, rotation, edge order, feature ids, phases).

Each game keeps its conventions in ``CONVENTIONS.md`` beside its code (package data), so adding a game adds its
page; the description is assembled when the schema is first asked for, after the games are registered.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import resources
from typing import Any

from fastapi import FastAPI

from domain.core import all_games
from domain.core.game import Game
from projections.read_models import LIFE_CYCLE

OVERVIEW = f"""Play-by-turn board games: every move an event in an audited, replayable log.

**Getting started.** `POST /players` gives a player token (shown once); send it as `Authorization: Bearer
<token>` (the *Authorize* button here). `POST /games` creates a game (`seats`: named humans get a seat token,
`{{"bot": "random" | "greedy" | "search"}}` seats are played by the service, `{{"me": true}}` binds a seat to the
calling player, an empty seat is open to `POST /games/{{id}}/join`). Then read `GET /games/{{id}}/view` and
`GET /games/{{id}}/legal`, send one of the legal commands to `POST /games/{{id}}/commands` (with a `command_id` of
your choosing: re-sending the same id and body is safe and answers the same outcome), and follow
`GET /games/{{id}}/stream`. `GET /games/{{id}}/record` is the game record for `taproom verify`.

**Life cycle.** {LIFE_CYCLE}

**Errors** are always `{{"code": "...", "message": "..."}}` with a stable `code` and one status per code; an
error changes nothing. `not_your_turn` (409) means another seat must act; a move the rules refuse on your own
turn is `illegal_move` (422); a malformed command is `invalid_command` (422).

**Hidden information** (another seat's hand, a buried tile, what is left in a bag) is replaced by `"hidden"` in
events and never appears in views until the game is `scored`, when the whole record is revealed with the seed.
"""


def conventions(game: Game) -> str:
    """The game's CONVENTIONS.md (from its package), or a pointer to its command schemas when it has none."""
    package = sys.modules[type(game).__module__].__package__ or ""
    try:
        return resources.files(package).joinpath("CONVENTIONS.md").read_text(encoding="utf-8").strip()
    except (FileNotFoundError, ModuleNotFoundError, TypeError):
        return "See the command schemas in `GET /games/types`."


def description(games: list[Game] | None = None) -> str:
    parts = [OVERVIEW]
    for game in sorted(games if games is not None else all_games(), key=lambda g: g.id):
        text = conventions(game)
        if text.startswith("# "):  # the file's own title becomes a section of this page
            text = text.split("\n", 1)[1] if "\n" in text else ""
        parts.append(f"## Conventions: {game.title} (`{game.id}`)\n\n{text.strip()}\n")
    return "\n".join(parts)


def install_docs(app: FastAPI) -> None:
    """Build the description when the schema is first built (games register after the app may be made)."""
    build: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.description = description()
            return with_view_models(build())
        return build()

    app.openapi = openapi  # type: ignore[method-assign]


def with_view_models(schema: dict[str, Any], games: list[Game] | None = None) -> dict[str, Any]:
    """Name each registered game's view models (``Game.view_models``) in the schema: their components, under
    the game's id (``<game>_<Model>``: two games, or a game and the API, may name a model alike), and
    ``GameView.board`` as one of them (or, for a game without models, any object)."""
    import re

    from pydantic import BaseModel
    from pydantic.json_schema import JsonSchemaMode, models_json_schema

    components = schema.setdefault("components", {}).setdefault("schemas", {})
    board = components.get("GameView", {}).get("properties", {}).get("board")
    mode: JsonSchemaMode = "serialization"
    choices: list[dict[str, Any]] = []
    for game in sorted(games if games is not None else all_games(), key=lambda g: g.id):
        if game.view_models is None or board is None:
            continue
        prefix = re.sub(r"[^A-Za-z0-9]", "_", game.id) + "_"
        models: list[tuple[type[BaseModel], JsonSchemaMode]] = [(game.view_models.seat, mode),
                                                                (game.view_models.spectator, mode)]
        refs, defs = models_json_schema(models, ref_template=f"#/components/schemas/{prefix}{{model}}", by_alias=True)
        components.update({prefix + name: body for name, body in defs.get("$defs", {}).items()})
        choices += [refs[key] for key in models if refs[key] not in choices]
    if choices and board is not None:
        board["anyOf"] = [*choices, {"type": "object", "additionalProperties": True}, {"type": "null"}]
    return schema
