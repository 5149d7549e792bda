"""The views of Tiefenthal as pydantic models (``GAME.view_models``): what ``view.py`` builds, field by field.

The seat's view adds its own draw pile (``deck_top``, ``deck_rest``) to its player entry; everything else
is public, so the spectator's view is the same shape with ``you`` None.
"""

from __future__ import annotations

from domain.core.capabilities import ViewModels
from domain.core.views import ViewModel


class Bonus(ViewModel):
    """A printed bonus (``kind`` and its parameters, as in the card data)."""

    kind: str
    card: str | None = None
    steps: int | None = None


class Card(ViewModel):
    id: int
    kind: str
    name: str
    vp: int
    dice: list[int] | None = None
    """Guests only: the die values they accept."""
    pay: int | None = None
    cost: int | None = None
    bonus: Bonus | None = None


class Option(ViewModel):
    kind: str
    card: str | None = None
    tile: str | None = None


class TrackSpace(ViewModel):
    kind: str
    card: str | None = None
    steps: int | None = None
    options: list[Option] | None = None


class TileLevel(ViewModel):
    upgraded: bool
    value: int


class Tavern(ViewModel):
    tables: list[list[Card]]
    noble_table: int | None
    staff: dict[str, list[Card]]


class Die(ViewModel):
    die: int
    value: int
    white: bool
    space: str | None
    boost: int


class Dishwashers(ViewModel):
    capacity: int
    in_use: int


class Yield(ViewModel):
    doubloons: int
    beer: int
    monastery: int


class Space(ViewModel):
    dice: list[int]
    limit: int | None
    gives: Yield
    used: bool
    table: int | None


class UpgradeOffer(ViewModel):
    returned: int
    price: int


class ScoreSheet(ViewModel):
    nobles: int
    guests: int
    regulars: int
    tavern_cards: int


class PlayerView(ViewModel):
    seat: int
    colour: str
    tiles: dict[str, TileLevel]
    safe: int
    storage: int
    monastery: int
    counter_guests: int
    deck_count: int
    discard: list[Card]
    tavern: Tavern
    dice: list[Die]
    dishwashers: Dishwashers
    used_spaces: list[str]
    doubloons: int
    beer: int
    bought_this_round: list[str]
    recruited_this_round: int
    pending_choices: list[list[Option]]
    planned: bool
    done: bool
    victory_points: int
    noble_recruits_this_round: int | None = None
    """Shown once it is not 0."""
    spaces: dict[str, Space]
    upgrade_prices: dict[str, int]
    upgrade_offers: dict[str, list[UpgradeOffer]]
    score: ScoreSheet
    deck_top: list[Card] | None = None
    """The seat's own view only: the cards it put on top of its deck, in order."""
    deck_rest: dict[str, int] | None = None
    """The seat's own view only: card name -> count in the shuffled rest of its deck."""


class TavernCardStack(ViewModel):
    count: int
    cost: int | None


class Supply(ViewModel):
    tavern_cards: dict[str, TavernCardStack]
    nobles: int
    noble_prices: dict[str, int]
    counter_guests: int
    upgrade_costs: dict[str, int]


class ThreeBeer(ViewModel):
    count: int
    top: Card | None


class Guests(ViewModel):
    display: list[Card]
    three_beer: ThreeBeer
    deck_count: int


class SpectatorView(ViewModel):
    round: int
    rounds: int
    phase: str
    start_player: int
    to_act: list[int]
    active: int | None
    you: int | None
    round_track: list[TrackSpace]
    monastery_track: dict[str, TrackSpace]
    coasters: dict[str, list[int]] | None
    """Phase D: the die values on each seat's coaster (by seat)."""
    supply: Supply
    guests: Guests
    players: list[PlayerView]

    def player(self, seat: int) -> PlayerView:
        return next(p for p in self.players if p.seat == seat)


class SeatView(SpectatorView):
    you: int


VIEW_MODELS = ViewModels(seat=SeatView, spectator=SpectatorView)

__all__ = ["VIEW_MODELS", "Card", "PlayerView", "SeatView", "SpectatorView"]
