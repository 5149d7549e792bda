"""Games' view models (``Game.view_models``) appear in the OpenAPI schema as what ``GameView.board`` may be."""

from __future__ import annotations

from types import SimpleNamespace

from pydantic import BaseModel

from domain.core.capabilities import ViewModels
from services.adapters.api.docs import with_view_models


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
    assert components["toy_SeatBoard"]["properties"]["hand"]["items"] == {"type": "string"}
    assert "hand" not in components["toy_PublicBoard"]["properties"]
    board = components["GameView"]["properties"]["board"]
    assert board["anyOf"][:2] == [{"$ref": "#/components/schemas/toy_SeatBoard"},
                                  {"$ref": "#/components/schemas/toy_PublicBoard"}]
    assert {"type": "null"} in board["anyOf"]  # a view before the game starts has no board


def test_a_game_model_named_like_an_api_model_does_not_replace_it():
    class ScoreSheet(BaseModel):  # an API component has this name too
        nobles: int

    class Board(BaseModel):
        sheet: ScoreSheet

    api_sheet = {"properties": {"seat": {"type": "integer"}}}
    schema = {"components": {"schemas": {"ScoreSheet": api_sheet, "GameView": {"properties": {"board": {}}}}}}
    game = SimpleNamespace(id="tavern-game", view_models=ViewModels(seat=Board, spectator=Board))
    components = with_view_models(schema, [game])["components"]["schemas"]  # type: ignore[list-item]
    assert components["ScoreSheet"] is api_sheet
    assert components["tavern_game_ScoreSheet"]["properties"]["nobles"] == {"title": "Nobles", "type": "integer"}
    assert components["tavern_game_Board"]["properties"]["sheet"] == {"$ref": "#/components/schemas/tavern_game_ScoreSheet"}


def test_without_view_models_the_schema_is_unchanged():
    schema = {"components": {"schemas": {"GameView": {"properties": {"board": {"title": "Board"}}}}}}
    assert with_view_models(schema, [SimpleNamespace(id="plain", view_models=None)]) == {  # type: ignore[list-item]
        "components": {"schemas": {"GameView": {"properties": {"board": {"title": "Board"}}}}}}
