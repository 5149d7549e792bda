"""Commands (what a seat wants) and events (what happened) of Carcassonne + Hills & Sheep."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.core import Command, Event

from . import rules

# -- commands ------------------------------------------------------------------


class PlaceTile(Command):
    """Place the drawn tile at (x, y) turned ``rotation`` quarter turns clockwise (§5.2 step 1)."""

    type: Literal["PlaceTile"] = "PlaceTile"
    x: int
    y: int
    rotation: int = Field(ge=0, le=3)


class PlaceFigure(Command):
    """Put a follower, the shepherd or the abbot on feature ``feature`` of the tile just placed.

    Features are named per tile: ``c0`` cities, ``r0`` roads, ``f0`` fields, ``m`` monastery, ``g`` garden.
    """

    type: Literal["PlaceFigure"] = "PlaceFigure"
    figure: Literal["follower", "shepherd", "abbot"] = "follower"
    feature: str


class RecallAbbot(Command):
    """The Abbot: instead of placing a figure, take your abbot back and score its monastery or garden now."""

    type: Literal["RecallAbbot"] = "RecallAbbot"


class Pass(Command):
    """Place no figure this turn."""

    type: Literal["Pass"] = "Pass"


class TendFlock(Command):
    """Hills & Sheep: the tile extended your shepherd's field; grow (draw a token) or gather (score)."""

    type: Literal["TendFlock"] = "TendFlock"
    action: Literal["grow", "gather"]


# -- events --------------------------------------------------------------------


class GameStarted(Event):
    """The table is set: the start tile lies at (0, 0) and the stacks hold these tiles."""

    type: Literal["GameStarted"] = "GameStarted"
    players: int
    hills_and_sheep: bool
    river: bool
    start_tile: str
    tiles: dict[str, int]
    river_tiles: dict[str, int] = Field(default_factory=dict)
    lake: bool = False
    bag: dict[str, int] = Field(default_factory=dict)
    abbot: bool = False


class TileDrawn(Event):
    """``seat`` drew ``tile``, shown to everyone; with the ``DRAWN_TILE_PRIVATE`` house rule only that seat
    sees which until the game ends."""

    type: Literal["TileDrawn"] = "TileDrawn"
    seat: int
    tile: str

    @property  # a ClassVar on Event; here it follows the rule constant at call time
    def private_fields(self) -> frozenset[str]:  # type: ignore[override]
        return frozenset({"tile"}) if rules.DRAWN_TILE_PRIVATE else frozenset()

    def private_to(self) -> frozenset[int]:
        return frozenset({self.seat})


class TileDiscarded(Event):
    """The drawn tile fits nowhere: it leaves the game and the seat draws again (§9.14)."""

    type: Literal["TileDiscarded"] = "TileDiscarded"
    seat: int
    tile: str


class TilePlaced(Event):
    type: Literal["TilePlaced"] = "TilePlaced"
    seat: int
    x: int
    y: int
    rotation: int
    tile: str


class TileBuried(Event):
    """A random tile from the stack went face down under a hill; nobody sees which until the game ends (H&S).

    ``x``/``y`` name the hill; both are None when the hill fitted nowhere and was discarded with the tile under it.
    """

    type: Literal["TileBuried"] = "TileBuried"
    private_fields = frozenset({"tile"})
    seat: int
    x: int | None
    y: int | None
    tile: str


class FollowerPlaced(Event):
    type: Literal["FollowerPlaced"] = "FollowerPlaced"
    seat: int
    x: int
    y: int
    feature: str


class ShepherdPlaced(Event):
    type: Literal["ShepherdPlaced"] = "ShepherdPlaced"
    seat: int
    x: int
    y: int
    feature: str


class AbbotPlaced(Event):
    type: Literal["AbbotPlaced"] = "AbbotPlaced"
    seat: int
    x: int
    y: int
    feature: str


class AbbotRecalled(Event):
    """The abbot came home and scored its monastery or garden as at game end (no vineyard bonus)."""

    type: Literal["AbbotRecalled"] = "AbbotRecalled"
    seat: int
    x: int
    y: int
    feature: str
    kind: Literal["monastery", "garden"]
    points: int


class FigureSkipped(Event):
    type: Literal["FigureSkipped"] = "FigureSkipped"
    seat: int


class TokenDrawn(Event):
    """A token came out of the bag for ``seat``'s flock; 0 is the wolf (which goes straight back)."""

    type: Literal["TokenDrawn"] = "TokenDrawn"
    seat: int
    token: int
    reason: Literal["placed", "grow"]


class FlockFieldExtended(Event):
    """The tile extended the field of the seat's shepherd: the seat must grow or gather."""

    type: Literal["FlockFieldExtended"] = "FlockFieldExtended"
    seat: int


class FlockScattered(Event):
    """A wolf: these seats' shepherds return to supply and their sheep go back into the bag, unscored."""

    type: Literal["FlockScattered"] = "FlockScattered"
    seats: list[int]
    tokens: list[int]


class FlockGathered(Event):
    """The flocks of a field went to the stable: each seat scored ``points`` (all sheep in the field).

    ``shares``, when present, gives each seat's own points instead (rule variant, see rules.py).
    """

    type: Literal["FlockGathered"] = "FlockGathered"
    seats: list[int]
    points: int
    tokens: list[int]
    closed: bool = False
    shares: list[int] | None = None


class FeatureScored(Event):
    """A feature was scored: ``winners`` each got ``points``; ``returned`` followers went home.

    ``bonus`` is the vineyard part of a monastery's points.
    """

    type: Literal["FeatureScored"] = "FeatureScored"
    kind: Literal["road", "city", "monastery", "field", "garden"]
    completed: bool
    x: int
    y: int
    feature: str
    tiles: int
    points: int
    bonus: int = 0
    winners: list[int]
    returned: list[tuple[int, int, int, str]]
    """(seat, x, y, feature) of every follower taken off the board."""
    abbots: list[tuple[int, int, int, str]] = Field(default_factory=list)
    """(seat, x, y, feature) of an abbot taken off the board."""


class GameEnded(Event):
    type: Literal["GameEnded"] = "GameEnded"
    scores: list[int]


COMMAND_TYPES = (PlaceTile, PlaceFigure, Pass, TendFlock, RecallAbbot)
EVENT_TYPES = (GameStarted, TileDrawn, TileDiscarded, TilePlaced, TileBuried, FollowerPlaced, ShepherdPlaced,
               AbbotPlaced, AbbotRecalled, FigureSkipped, TokenDrawn, FlockFieldExtended, FlockScattered, FlockGathered, FeatureScored, GameEnded)
