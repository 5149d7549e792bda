"""The base of every game's view models (``Game.view_models``).

A game's ``view(state, seat)`` builds plain JSON-ready dicts on the engine's own path (no pydantic there);
its view models describe that JSON for clients (the OpenAPI schema) and let the bots' determinizers read a
view by attribute. ``parse_view`` / ``dump_view`` give the JSON back unchanged: fields are declared in the
order the view builds them, keys a view leaves out stay out (``exclude_unset``), and a key the model does not
declare fails validation (``extra="forbid"``): a view cannot grow a key that its schema, and so every client
and bot reading it, does not know. tests/domain/test_view_models.py parses every seat's view along seeded
games of every title against these models.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

V = TypeVar("V", bound=BaseModel)


class ViewModel(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


def parse_view(model: type[V], view: dict[str, Any]) -> V:
    return model.model_validate(view)


def dump_view(view: BaseModel) -> dict[str, Any]:
    """The view's JSON as the game built it."""
    return view.model_dump(mode="json", by_alias=True, exclude_unset=True)
