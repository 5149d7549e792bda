"""Events (past tense): facts, with every chance outcome written in. All are public:
cards are revealed face up when drawn and every acquisition is visible at the table."""

from __future__ import annotations

from typing import Any, Literal

from domain.core import Event

from . import data


class GameSetUp(Event):
    """Setup: supplies, starting decks (unordered) and the first guest display."""

    type: Literal["GameSetUp"] = "GameSetUp"
    players: int
    start_player: int
    decks: list[list[int]]
    supply: dict[str, list[int]]
    guest_deck: list[int]
    display: list[int]
    three_beer: list[int]
    box: list[int]
    counter_guests: int
    counter_guest_redraw: bool = True
    rounds: int = data.ROUNDS.value  # fewer only in a short development game (option ``rounds``)


class RoundStarted(Event):
    """Phase A: the moon moved to ``round``."""

    type: Literal["RoundStarted"] = "RoundStarted"
    round: int
    start_player: int


class PhaseStarted(Event):
    type: Literal["PhaseStarted"] = "PhaseStarted"
    phase: str


class ChoiceOffered(Event):
    """A bonus that needs a decision: the seat must pick one option."""

    type: Literal["ChoiceOffered"] = "ChoiceOffered"
    seat: int
    options: list[dict[str, Any]]
    reason: str


class BonusChosen(Event):
    type: Literal["BonusChosen"] = "BonusChosen"
    seat: int
    option: dict[str, Any]


class CardGained(Event):
    """A card from the supply went face down on top of the seat's deck."""

    type: Literal["CardGained"] = "CardGained"
    seat: int
    card: int
    reason: str


class CounterGuestGained(Event):
    type: Literal["CounterGuestGained"] = "CounterGuestGained"
    seat: int


class CounterGuestUsed(Event):
    type: Literal["CounterGuestUsed"] = "CounterGuestUsed"
    seat: int


class MonasteryMoved(Event):
    type: Literal["MonasteryMoved"] = "MonasteryMoved"
    seat: int
    steps: int
    position: int


class CurrencyGained(Event):
    """Doubloons/beer from a bonus: ``stored`` = into safe/storage (outside the seat's turn)."""

    type: Literal["CurrencyGained"] = "CurrencyGained"
    seat: int
    doubloons: int = 0
    beer: int = 0
    stored: bool = False


class TavernFilled(Event):
    """Phase B: the cards the seat revealed, in order (the discard was reshuffled when the deck ran out)."""

    type: Literal["TavernFilled"] = "TavernFilled"
    seat: int
    cards: list[int]


class TavernKept(Event):
    """Phase B: the seat keeps its tavern as filled."""

    type: Literal["TavernKept"] = "TavernKept"
    seat: int


class TavernCleared(Event):
    """Phase B: a counter guest cleared the tavern; its cards went to the discard pile."""

    type: Literal["TavernCleared"] = "TavernCleared"
    seat: int


class WaitressDiceRolled(Event):
    """Phase C: coloured dice taken and rolled."""

    type: Literal["WaitressDiceRolled"] = "WaitressDiceRolled"
    seat: int
    dice: list[int]
    values: list[int]


class WhiteDiceRolled(Event):
    """Phase D: the white dice on every coaster rolled (``values[c]`` in coaster ``c``'s die order)."""

    type: Literal["WhiteDiceRolled"] = "WhiteDiceRolled"
    values: list[list[int]]


class DiePicked(Event):
    type: Literal["DiePicked"] = "DiePicked"
    seat: int
    die: int


class DiePlaced(Event):
    type: Literal["DiePlaced"] = "DiePlaced"
    seat: int
    die: int
    space: str
    boost: int


class PlanningFinished(Event):
    type: Literal["PlanningFinished"] = "PlanningFinished"
    seat: int


class TurnStarted(Event):
    """Phase F: the seat's turn; stored money and Beer Merchant beer become virtual money."""

    type: Literal["TurnStarted"] = "TurnStarted"
    seat: int
    from_safe: int
    from_storage: int
    merchant_beer: int


class DieTaken(Event):
    type: Literal["DieTaken"] = "DieTaken"
    seat: int
    die: int
    space: str
    doubloons: int
    beer: int


class CardBought(Event):
    type: Literal["CardBought"] = "CardBought"
    seat: int
    card: int
    price: int


class TileUpgraded(Event):
    """A tile flipped; ``returned`` tavern cards went back to the supply (special offer)."""

    type: Literal["TileUpgraded"] = "TileUpgraded"
    seat: int
    tile: str
    returned: list[int]
    price: int


class GuestRecruited(Event):
    """A guest recruited for beer; ``refill`` = the card turned up from the guest deck (None: none)."""

    type: Literal["GuestRecruited"] = "GuestRecruited"
    seat: int
    card: int
    price: int
    refill: int | None


class NoblesRecruited(Event):
    type: Literal["NoblesRecruited"] = "NoblesRecruited"
    seat: int
    cards: list[int]
    price: int


class TurnEnded(Event):
    type: Literal["TurnEnded"] = "TurnEnded"
    seat: int
    stored_doubloons: int
    stored_beer: int
    lost_doubloons: int
    lost_beer: int


class RoundClosed(Event):
    """Phase G: every tavern card went to its owner's discard; the mug passed on."""

    type: Literal["RoundClosed"] = "RoundClosed"
    round: int
    next_start: int


class GameEnded(Event):
    type: Literal["GameEnded"] = "GameEnded"


EVENT_TYPES = (GameSetUp, RoundStarted, PhaseStarted, ChoiceOffered, BonusChosen, CardGained, CounterGuestGained,
               CounterGuestUsed, MonasteryMoved, CurrencyGained, TavernFilled, TavernKept, TavernCleared, WaitressDiceRolled, WhiteDiceRolled,
               DiePicked, DiePlaced, PlanningFinished, TurnStarted, DieTaken, CardBought, TileUpgraded, GuestRecruited,
               NoblesRecruited, TurnEnded, RoundClosed, GameEnded)
