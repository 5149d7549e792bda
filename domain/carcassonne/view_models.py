"""The views of Carcassonne as pydantic models (``GAME.view_models``): what ``view.build`` makes, field by field.

The seat's view adds ``seat`` and ``my_turn``; the drawn ``tile`` is ``"hidden"`` to the others only
under the hidden-draw house rule. Tiles under hills and the stacks' order are never in any view.
"""

from __future__ import annotations

from domain.core.capabilities import ViewModels
from domain.core.views import ViewModel


class Options(ViewModel):
    hills_and_sheep: bool
    river: bool
    abbot: bool


class PlacedTile(ViewModel):
    x: int
    y: int
    tile: str
    rotation: int
    edges: str
    hill: bool
    vineyard: bool
    garden: bool


class TileFeature(ViewModel):
    id: str
    kind: str


class LastPlaced(ViewModel):
    x: int
    y: int
    tile: str
    rotation: int
    features: list[TileFeature]


class Follower(ViewModel):
    seat: int
    x: int
    y: int
    feature: str
    kind: str


class Shepherd(ViewModel):
    seat: int
    x: int
    y: int
    feature: str
    flock: list[int]


class Abbot(ViewModel):
    seat: int
    x: int
    y: int
    feature: str


class Supply(ViewModel):
    followers: int
    followers_total: int
    shepherd: bool
    abbot: bool


class Figure(ViewModel):
    seat: int
    figure: str
    at: list[int | str]
    """[x, y, feature id] of the tile segment it stands on."""


class Feature(ViewModel):
    """A feature on the board: its segments ([x, y, feature id]), figures and worth now."""

    kind: str
    parts: list[list[int | str]]
    complete: bool
    tiles: int
    points: int
    figures: list[Figure]
    leaders: list[int]
    shepherds: list[int] | None = None
    """Fields only."""
    sheep: int | None = None
    """Fields only."""


class SpectatorView(ViewModel):
    players: int
    options: Options
    phase: str
    turn: int
    turns: int
    tile: str | None
    tiles_left: int
    unseen_tiles: dict[str, int]
    """Tile id -> how many of it this seat has not seen (stacks, tiles under hills)."""
    buried_count: int
    discarded: list[str]
    board: list[PlacedTile]
    last_placed: LastPlaced | None
    followers: list[Follower]
    shepherds: list[Shepherd]
    abbots: list[Abbot]
    supply: list[Supply]
    scores: list[int]
    breakdown: list[dict[str, int]]
    """Per seat: scoring category -> points."""
    river_end: list[int] | None
    features: list[Feature]
    bag: dict[str, int] | None = None
    """Hills & Sheep: token -> count left in the bag."""


class Completed(ViewModel):
    kind: str
    tiles: int
    points: int
    """What it scores when completed (to ``winners``; nobody when empty)."""
    winners: list[int]


class Completion(ViewModel):
    x: int
    y: int
    rotation: int
    completes: list[Completed]


class SeatView(SpectatorView):
    seat: int
    my_turn: bool
    completions: list[Completion] | None = None
    """Only for the seat placing the drawn tile: each placement of it that completes a road, city, monastery or
    garden, and what that feature then scores (the placements not listed complete nothing)."""


VIEW_MODELS = ViewModels(seat=SeatView, spectator=SpectatorView)
