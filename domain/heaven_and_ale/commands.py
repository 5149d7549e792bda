"""Commands: one per decision point of heaven-and-ale.md §3.15 and the Kegs & More actions."""

from __future__ import annotations

from typing import Literal, TypeVar, cast

from domain.core import Command

C = TypeVar("C", bound=Command)
_SHARED: dict[tuple[object, ...], Command] = {}


def shared(kind: type[C], seat: int, **fields: str | int | bool | None) -> C:
    """The command ``kind(seat=seat, **fields)``, validated once and then shared (commands are frozen): building
    every listed command anew was most of what listing the legal commands cost (bench/heaven_and_ale_bench.py).
    The key is the call itself, so a command has the same fields set as one built directly."""
    key = (kind, seat, *fields.items())
    got = _SHARED.get(key)
    if got is None:
        got = _SHARED[key] = kind.model_validate({"seat": seat, **fields})
    return cast(C, got)


class EnterStartingArea(Command):
    """Put the figure on a free starting space (§3.4 step 6, setup §3.2 step 9); ``colour`` for the +2 resource space."""

    type: Literal["EnterStartingArea"] = "EnterStartingArea"
    slot: str
    colour: str | None = None


class PlaceStorageTile(Command):
    """Kegs & More setup 3D: put one of your storage tiles face up on your next empty shed spot (A..G)."""

    type: Literal["PlaceStorageTile"] = "PlaceStorageTile"
    tile: str


class Move(Command):
    """Move the figure clockwise to track space ``space`` (1..27) (§3.4)."""

    type: Literal["Move"] = "Move"
    space: int


class BuyTile(Command):
    """Buy ``tile`` (e.g. ``"hops-4"``, ``"monk-2"``) from the space and place it on garden ``spot`` (§3.5)."""

    type: Literal["BuyTile"] = "BuyTile"
    tile: str
    spot: str


class EndBuying(Command):
    """Stop buying (after at least one tile, §3.5)."""

    type: Literal["EndBuying"] = "EndBuying"


class TakeDisc(Command):
    """Take a disc and put it on scoring ``spot``; ``number`` (1..5) names the fertility for the x spot (§3.6)."""

    type: Literal["TakeDisc"] = "TakeDisc"
    spot: str
    number: int | None = None


class ClaimBarrels(Command):
    """Claim every barrel whose goal you achieved (§3.11); only a command when Kegs & More makes it optional."""

    type: Literal["ClaimBarrels"] = "ClaimBarrels"


class ChooseShedTiles(Command):
    """Activate the adjacent tiles the new shed tile indicates (§3.7 step 3)."""

    type: Literal["ChooseShedTiles"] = "ChooseShedTiles"
    spots: list[str]


class PlacePrivilege(Command):
    """Place a privilege card beside the completed pair (§3.9); ``colour`` for the resource and disc-count cards."""

    type: Literal["PlacePrivilege"] = "PlacePrivilege"
    card: str
    colour: str | None = None


class DeclinePrivilege(Command):
    """Place no card beside the completed pair (§3.9)."""

    type: Literal["DeclinePrivilege"] = "DeclinePrivilege"


class UseEmergencyCoin(Command):
    """Return an unplaced privilege card to the box for 3 ducats (§3.10)."""

    type: Literal["UseEmergencyCoin"] = "UseEmergencyCoin"
    card: str


class ResolveStorageTile(Command):
    """Kegs & More B: use the enclosed shed's storage tile: its back (a storage spot) or its front.

    Front fields: ``keg``/``bale`` for the keg-and/or-bale tile (``rental`` names the piece put on the
    rental spot, if any); ``area`` (1 or 2) for a point tile; ``load`` kegs at the monastery gate for a move tile.
    """

    type: Literal["ResolveStorageTile"] = "ResolveStorageTile"
    side: Literal["back", "front"]
    keg: bool = False
    bale: bool = False
    rental: Literal["keg", "bale"] | None = None
    area: int | None = None
    load: int = 0


class TakeGoods(Command):
    """Kegs & More A2: take kegs and/or bales from the space; ``rental`` names the piece put on the rental spot."""

    type: Literal["TakeGoods"] = "TakeGoods"
    kegs: int = 0
    bales: int = 0
    rental: Literal["keg", "bale"] | None = None


class UseCarterDie(Command):
    """Kegs & More A3: move the cart by the carter value; ``load`` kegs when passing the monastery gate."""

    type: Literal["UseCarterDie"] = "UseCarterDie"
    load: int = 0


class Pass(Command):
    """Kegs & More A: skip this optional action of the space (at least one must be performed)."""

    type: Literal["Pass"] = "Pass"


COMMAND_TYPES = (EnterStartingArea, PlaceStorageTile, Move, BuyTile, EndBuying, TakeDisc, ClaimBarrels,
                 ChooseShedTiles, PlacePrivilege, DeclinePrivilege, UseEmergencyCoin, ResolveStorageTile,
                 TakeGoods, UseCarterDie, Pass)
