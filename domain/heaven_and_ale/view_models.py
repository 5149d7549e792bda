"""The views of Heaven & Ale as pydantic models (``GAME.view_models``): what ``view.view`` builds, field by field.

Everything on the table is public, so the seat's and the spectator's views have one shape; ``me`` is the
seat (None for a spectator). The ``*_choices`` are what each option of the pending decision would give,
computed by the rules' own code. Kegs & More adds ``delivery`` to each board and the carter die and
reserves at the end.
"""

from __future__ import annotations

from domain.core.capabilities import ViewModels
from domain.core.views import ViewModel


class ShedChoice(ViewModel):
    """One way to activate the pending shed and what it gives."""

    spots: list[str]
    ducats: int
    markers: dict[str, int]
    """Colour -> steps (only colours that move)."""
    brewmaster: int


class DiscChoice(ViewModel):
    """One disc choice on the current space and what it gives."""

    spot: str
    number: int | None
    ducats: int
    markers: dict[str, int]
    brewmaster: int


class CartChoice(ViewModel):
    load: int
    steps: int
    to: int
    to_kind: str
    loaded: int
    delivered: list[int]


class BarrelChoice(ViewModel):
    large: list[int]
    small: list[int]


class TilePrice(ViewModel):
    """What a tile on the track costs on a sunny and on a shady garden spot (§3.5)."""

    sunny: int
    shady: int


class TrackSpace(ViewModel):
    index: int
    kind: str
    tiles: list[str] | None = None
    prices: dict[str, TilePrice] | None = None
    """Tile -> its price from this space (monk tiles: the space's monk cost)."""
    monk_cost: int | None = None
    discs: int | None = None
    kegs: int | None = None
    bales: int | None = None


class Barrel(ViewModel):
    goal: int
    text: str
    large: int | None
    """The seat holding the goal's large barrel."""
    small: int | None


class Shed(ViewModel):
    type: int
    activates: int


class Pair(ViewModel):
    spots: list[str]
    card: str | None


class ScorePreview(ViewModel):
    markers_after_exchange_sorted: list[int]
    least_marker: int
    vp_per_spot: int
    breakdown: dict[str, float]
    total: float


class Delivery(ViewModel):
    kegs: int
    bales: int
    regular_spots: int
    regular_kegs: int
    regular_bales: int
    rental_spot: str | None
    board_tiles: list[str]
    carter_bonus: int
    keg_area_values: list[int]
    cart: int
    cart_kegs: int
    delivered: list[int]
    storage_tiles: dict[str, str]
    storage_tiles_in_hand: list[str]
    carter_value: int
    cart_location: str


class Board(ViewModel):
    seat: int
    ducats: int
    brewmaster: int
    exchange_rate: int
    vp_per_spot: int
    markers: dict[str, int]
    garden: dict[str, str]
    """Garden spot -> tile."""
    sheds: dict[str, Shed]
    discs: list[str]
    pairs: list[Pair]
    privilege_cards: list[str]
    large_barrels: list[int]
    small_barrels: list[int]
    figure: int | str
    """Track space, or ``"start"``."""
    finished_round: bool
    starting_space: str | None
    score_now: ScorePreview
    delivery: Delivery | None = None


class CarterDie(ViewModel):
    space: int | None
    value: int


class SpectatorView(ViewModel):
    phase: str
    round: int
    rounds: int
    players: int
    start_player: int
    turn: int | None
    step: str | None
    current_space: int | None
    pending_shed: str | None
    turn_started_at: int | None
    acted: bool | None
    bought: int | None
    pending_sheds: list[str]
    pending_pair: int | None
    pending_pair_spots: list[str] | None
    shed_choices: list[ShedChoice] | None
    disc_choices: list[DiscChoice] | None
    barrel_choice: BarrelChoice | None
    cart_choices: list[CartChoice] | None
    track: list[TrackSpace]
    starting_spaces: dict[str, int | None]
    barrels: list[Barrel]
    resource_piles: list[int]
    resource_piles_by_back: dict[str, int]
    monk_piles_left: int
    disc_reserve: int
    kegs_and_more: bool
    boards: list[Board]
    me: int | None
    carter_die: CarterDie | None = None
    keg_reserve: int | None = None
    bale_reserve: int | None = None


class SeatView(SpectatorView):
    me: int


VIEW_MODELS = ViewModels(seat=SeatView, spectator=SpectatorView)
