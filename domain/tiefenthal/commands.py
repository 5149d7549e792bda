"""Commands a seat sends (imperative). One small command per decision."""

from __future__ import annotations

from typing import Literal

from domain.core import Command


class KeepTavern(Command):
    """Phase B: keep the tavern as it was filled."""

    type: Literal["KeepTavern"] = "KeepTavern"


class RedrawTavern(Command):
    """Phase B: spend a counter guest, clear the tavern to the discard pile and fill it again."""

    type: Literal["RedrawTavern"] = "RedrawTavern"


class PickDie(Command):
    """Phase D: take a white die of this value from the coaster in front of you."""

    type: Literal["PickDie"] = "PickDie"
    value: int


class PlaceDie(Command):
    """Phase E/F: put a held die on an action space (dishwashers raise it as needed)."""

    type: Literal["PlaceDie"] = "PlaceDie"
    die: int
    space: str


class FinishPlanning(Command):
    """Phase E: done planning (dice left unplaced may still be placed in phase F)."""

    type: Literal["FinishPlanning"] = "FinishPlanning"


class TakeDie(Command):
    """Phase F: remove a placed die and collect what its space gives."""

    type: Literal["TakeDie"] = "TakeDie"
    die: int


class BuyCard(Command):
    """Phase F: buy one tavern card of this type for doubloons."""

    type: Literal["BuyCard"] = "BuyCard"
    card_type: str


class UpgradeTile(Command):
    """Phase F: flip a tavern tile, returning ``returned`` matching tavern cards (special offer)."""

    type: Literal["UpgradeTile"] = "UpgradeTile"
    tile: str
    returned: int = 0


class RecruitGuest(Command):
    """Phase F: recruit a displayed guest (or the top 3-beer guest) for beer."""

    type: Literal["RecruitGuest"] = "RecruitGuest"
    card: int


class RecruitNobles(Command):
    """Phase F: recruit 1, 2 or 3 nobles for beer."""

    type: Literal["RecruitNobles"] = "RecruitNobles"
    count: int


class UseCounterGuest(Command):
    """Phase F: spend a counter guest for its effect (a monastery step)."""

    type: Literal["UseCounterGuest"] = "UseCounterGuest"


class ChooseBonus(Command):
    """Pick option ``option`` of your oldest pending bonus choice."""

    type: Literal["ChooseBonus"] = "ChooseBonus"
    option: int


class EndTurn(Command):
    """Phase F: end your turn, storing what the safe and beer storage hold."""

    type: Literal["EndTurn"] = "EndTurn"


COMMAND_TYPES = (KeepTavern, RedrawTavern, PickDie, PlaceDie, FinishPlanning, TakeDie, BuyCard, UpgradeTile, RecruitGuest, RecruitNobles,
                 UseCounterGuest, ChooseBonus, EndTurn)
