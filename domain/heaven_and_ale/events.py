"""Events: facts, past tense. Every random outcome (drawn tiles and monks, die rolls) is written here.

Everything in this game is public once it happens (tiles are placed face up),
so no event has private fields; the piles' order never exists at all.
"""

from __future__ import annotations

from typing import Literal

from domain.core import Event


class GameSetUp(Event):
    type: Literal["GameSetUp"] = "GameSetUp"
    players: int
    rounds: int
    kegs_and_more: bool
    start_player: int


class TrackStocked(Event):
    """Round preparation §3.12 / setup §3.2: tiles drawn onto spaces, discs set (counts after refill)."""

    type: Literal["TrackStocked"] = "TrackStocked"
    round: int
    resources: list[tuple[int, str, int]]  # (space, tile, back 0=I/1=II)
    monks: list[tuple[int, str]]  # (space, monk tile)
    monk_back: int
    discs: list[int]  # disc count of every track space after refilling


class StartingSpaceTaken(Event):
    type: Literal["StartingSpaceTaken"] = "StartingSpaceTaken"
    seat: int
    slot: str


class RewardsGained(Event):
    """Ducats gained and steps moved (already capped at 20; overflow counted in ducats)."""

    type: Literal["RewardsGained"] = "RewardsGained"
    seat: int
    reason: str
    ducats: int = 0
    markers: list[int] = [0, 0, 0, 0, 0]
    brewmaster: int = 0


class StorageTilePlaced(Event):
    type: Literal["StorageTilePlaced"] = "StorageTilePlaced"
    seat: int
    shed: str
    tile: str


class CarterDiePlaced(Event):
    type: Literal["CarterDiePlaced"] = "CarterDiePlaced"
    space: int
    value: int
    reason: str


class GoodsAdded(Event):
    """Kegs & More setup 5 / round C: kegs and bales put on spaces by counting pips."""

    type: Literal["GoodsAdded"] = "GoodsAdded"
    kegs: list[int]
    bales: list[int]


class RoundBegan(Event):
    type: Literal["RoundBegan"] = "RoundBegan"
    round: int


class TurnBegan(Event):
    type: Literal["TurnBegan"] = "TurnBegan"
    seat: int


class FigureMoved(Event):
    type: Literal["FigureMoved"] = "FigureMoved"
    seat: int
    space: int


class StepBegan(Event):
    """The seat on turn now faces decision ``step`` (shed / pair give its subject)."""

    type: Literal["StepBegan"] = "StepBegan"
    seat: int
    step: str
    shed: str | None = None
    pair: int | None = None


class TileBought(Event):
    type: Literal["TileBought"] = "TileBought"
    seat: int
    space: int
    tile: str
    spot: str
    cost: int


class ShedsEnclosed(Event):
    """A placement filled the sixth neighbour of these shed spots (§3.5); they are resolved in order."""

    type: Literal["ShedsEnclosed"] = "ShedsEnclosed"
    seat: int
    sheds: list[str]


class ShedBuilt(Event):
    """§3.7 steps 1-2: the shed tile of the fertility sum's type now stands on the spot."""

    type: Literal["ShedBuilt"] = "ShedBuilt"
    seat: int
    shed: str
    fertility: int
    shed_type: int


class ShedTilesActivated(Event):
    type: Literal["ShedTilesActivated"] = "ShedTilesActivated"
    seat: int
    shed: str
    spots: list[str]


class DiscTaken(Event):
    type: Literal["DiscTaken"] = "DiscTaken"
    seat: int
    space: int
    spot: str
    number: int | None = None


class PrivilegePlaced(Event):
    type: Literal["PrivilegePlaced"] = "PrivilegePlaced"
    seat: int
    pair: int
    card: str
    colour: str | None = None


class PrivilegeDeclined(Event):
    type: Literal["PrivilegeDeclined"] = "PrivilegeDeclined"
    seat: int
    pair: int


class EmergencyCoinUsed(Event):
    type: Literal["EmergencyCoinUsed"] = "EmergencyCoinUsed"
    seat: int
    card: str
    ducats: int


class BarrelsClaimed(Event):
    type: Literal["BarrelsClaimed"] = "BarrelsClaimed"
    seat: int
    large: list[int]
    small: list[int]


class ActionSkipped(Event):
    type: Literal["ActionSkipped"] = "ActionSkipped"
    seat: int
    step: str


class StorageTileUsed(Event):
    """Kegs & More B: the storage tile left the shed spot: flipped to its back or its front used."""

    type: Literal["StorageTileUsed"] = "StorageTileUsed"
    seat: int
    shed: str
    tile: str
    side: str
    area: int | None = None


class GoodsTaken(Event):
    """Kegs & More: kegs/bales onto storage spots, from a space (space >= 0) or the reserve (space -1)."""

    type: Literal["GoodsTaken"] = "GoodsTaken"
    seat: int
    space: int
    kegs: int
    bales: int
    rental: str | None = None
    cost: int = 0


class CartMoved(Event):
    """Kegs & More A3: the cart moved ``steps`` to ``to``; ``loaded`` kegs at the monastery gate (1 bale each)."""

    type: Literal["CartMoved"] = "CartMoved"
    seat: int
    to: int
    steps: int
    loaded: int
    delivered: list[int]
    source: str


class TurnEnded(Event):
    type: Literal["TurnEnded"] = "TurnEnded"
    seat: int


class GameEnded(Event):
    type: Literal["GameEnded"] = "GameEnded"


EVENT_TYPES = (GameSetUp, TrackStocked, StartingSpaceTaken, RewardsGained, StorageTilePlaced, CarterDiePlaced,
               GoodsAdded, RoundBegan, TurnBegan, FigureMoved, StepBegan, TileBought, ShedsEnclosed, ShedBuilt,
               ShedTilesActivated, DiscTaken, PrivilegePlaced, PrivilegeDeclined, EmergencyCoinUsed,
               BarrelsClaimed, ActionSkipped, StorageTileUsed, GoodsTaken, CartMoved, TurnEnded, GameEnded)
