"""Games' view models (``Game.view_models``) appear in the OpenAPI schema as what ``GameView.board`` may be."""

from __future__ import annotations

from types import SimpleNamespace

from pydantic import BaseModel

from domain.core.capabilities import ViewModels
from services.api.docs import with_view_models


class SeatBoard(BaseModel):
    score: int
    hand: list[str]


class PublicBoard(BaseModel):
    score: int


def test_view_models_become_components_and_board_choices():
    schema = {"components": {"schemas": {"GameView": {"properties": {"board": {"title": "Board"}}}}}}
    game = SimpleNamespace(id="toy", view_models=ViewModels(seat=SeatBoard, spectator=PublicBoard))
    plain = SimpleNamespace(id="plain", view_models=None)
    out = with_view_models(schema, [game, plain])  # type: ignore[list-item]
    components = out["components"]["schemas"]
    assert components["SeatBoard"]["properties"]["hand"]["items"] == {"type": "string"}
    assert "hand" not in components["PublicBoard"]["properties"]
    board = components["GameView"]["properties"]["board"]
    assert board["anyOf"][:2] == [{"$ref": "#/components/schemas/SeatBoard"}, {"$ref": "#/components/schemas/PublicBoard"}]
    assert {"type": "null"} in board["anyOf"]  # a view before the game starts has no board


def test_without_view_models_the_schema_is_unchanged():
    schema = {"components": {"schemas": {"GameView": {"properties": {"board": {"title": "Board"}}}}}}
    assert with_view_models(schema, [SimpleNamespace(id="plain", view_models=None)]) == {  # type: ignore[list-item]
        "components": {"schemas": {"GameView": {"properties": {"board": {"title": "Board"}}}}}}
