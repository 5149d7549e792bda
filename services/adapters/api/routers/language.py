"""The player's language (issue 38): the pages follow it after a sign-in, and e-mails and pushes always do."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field, field_validator

from services.adapters.api.deps import Context, Principal, get_context, require_player
from services.adapters.api.errors import error_responses
from services.application.notifications.prefs import Preferences
from services.infrastructure.i18n import available_locales

router = APIRouter(tags=["players"])


class Language(BaseModel):
    model_config = ConfigDict(extra="forbid")
    language: str | None = Field(description="``en``, ``de``, …; null: none chosen (the browser's is used)",
                                 json_schema_extra={"enum": [*available_locales(), None]})

    @field_validator("language")
    @classmethod
    def _offered(cls, value: str | None) -> str | None:
        if value is not None and value not in available_locales():
            raise ValueError(f"no language {value!r}; choose among {list(available_locales())}")
        return value


@router.get("/players/me/language", response_model=Language, responses=error_responses(401, 403))
def show_language(player: Principal = Depends(require_player), ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """The caller's chosen language (null when they never chose one)."""
    return {"language": Preferences(ctx.redis, ctx.keys).language(player.player_id or "")}


@router.put("/players/me/language", response_model=Language, responses=error_responses(400, 401, 403, 413, 422))
def put_language(body: Language, player: Principal = Depends(require_player),
                 ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """Choose the caller's language: their e-mails and pushes are written in it from now on."""
    prefs = Preferences(ctx.redis, ctx.keys).set_language(player.player_id or "", body.language)
    return {"language": prefs.language}
