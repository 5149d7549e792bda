"""Game state: plain dataclasses (picklable, comparable with ==) with fast copies.

Hidden information never exists here: the face-down resource piles and monk
stacks are kept as remaining counts (a multiset) and drawn from at the moment
of the draw, so no order is ever stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import delivery
from .board import START_SLOTS, TRACK_LEN
from .garden import N_SPOTS, SHED_NAMES
from .privileges import CARDS, PAIRS, SCORING_SPOTS
from .production import START_BREWMASTER, START_DUCATS, START_MARKERS
from .supply import DISCS, initial_monk_piles, initial_resource_piles

EMPTY = -1

# Phases
PLACING = "placing"  # §3.2 step 9: figures placed counter-clockwise on the starting spaces
ARRANGING = "arranging"  # Kegs & More setup 3D: storage tiles onto the shed spots (simultaneous)
PLAYING = "playing"
OVER = "over"

# Decision steps of the seat on turn (§3.15)
STEP_MOVE = "move"
STEP_BUY = "buy"
STEP_DISC = "disc"
STEP_BARREL = "barrel"
STEP_STORAGE = "storage"  # Kegs & More: use the storage tile of an enclosed shed
STEP_SHED = "shed"
STEP_PRIVILEGE = "privilege"
STEP_GOODS = "goods"  # Kegs & More: take kegs and/or bales
STEP_CART = "cart"  # Kegs & More: use the carter die


@dataclass
class Player:
    """One seat's board and pieces."""

    money: int = START_DUCATS
    brewmaster: int = START_BREWMASTER
    markers: list[int] = field(default_factory=lambda: list(START_MARKERS))
    garden: list[int] = field(default_factory=lambda: [EMPTY] * N_SPOTS)
    sheds: list[int] = field(default_factory=lambda: [EMPTY] * len(SHED_NAMES))  # shed type once enclosed
    discs: list[bool] = field(default_factory=lambda: [False] * len(SCORING_SPOTS))
    pairs: list[str | None] = field(default_factory=lambda: [None] * len(PAIRS))  # card, "declined" or None
    cards: list[str] = field(default_factory=lambda: list(CARDS))  # unplaced privilege cards
    large: list[int] = field(default_factory=list)  # barrel goals held, large barrel
    small: list[int] = field(default_factory=list)
    pos: int = 0  # track space of the figure (0 = starting area)
    done: bool = False  # entered the starting area this round
    slot: int = EMPTY  # starting space index while standing on one
    # Kegs & More
    kegs: int = 0  # kegs on regular storage spots
    bales: int = 0
    rental: str | None = None  # "keg" / "bale" on the rental spot
    extra_spots: int = 0  # flipped storage tiles
    board_tiles: list[str] = field(default_factory=list)  # carter bonus tiles at the top of the delivery board
    area_values: list[int | None] = field(default_factory=lambda: [None, None, None])  # point tiles on keg areas
    cart: int = delivery.MONASTERY
    cart_kegs: int = 0
    delivered: list[int] = field(default_factory=lambda: [0, 0, 0])
    storage_tiles: list[str | None] = field(default_factory=lambda: [None] * len(SHED_NAMES))

    def copy(self) -> Player:
        p = Player.__new__(Player)
        d = self.__dict__.copy()
        for k in ("markers", "garden", "sheds", "discs", "pairs", "cards", "large", "small", "board_tiles",
                  "area_values", "delivered", "storage_tiles"):
            d[k] = d[k][:]
        p.__dict__ = d
        return p

    # -- derived -----------------------------------------------------------
    def total_kegs(self) -> int:
        return self.kegs + (self.rental == "keg")

    def total_bales(self) -> int:
        return self.bales + (self.rental == "bale")

    def free_regular(self) -> int:
        return delivery.REGULAR_SPOTS + self.extra_spots - self.kegs - self.bales

    def carter_bonus(self) -> int:
        return sum(delivery.CARTER_BONUS.get(t, 0) for t in self.board_tiles)


@dataclass
class HeavenAndAleState:
    """The whole table."""

    n: int
    rounds: int
    kegs_and_more: bool
    start_player: int
    players: list[Player]
    phase: str = PLACING
    round: int = 1
    place_order: list[int] = field(default_factory=list)  # seats still to place in §3.2 step 9
    # turn
    turn: int = EMPTY
    step: str = ""
    space: int = 0  # space the figure landed on this turn
    turn_from: int = 0  # effective position (0..28) at the start of the turn
    acted: bool = False  # performed at least one of the space's actions
    bought: int = 0
    sheds_pending: list[int] = field(default_factory=list)
    pair: int = EMPTY
    # board
    tiles: list[list[int]] = field(default_factory=lambda: [[] for _ in range(TRACK_LEN)])
    discs: list[int] = field(default_factory=lambda: [0] * TRACK_LEN)
    piles: list[list[int]] = field(default_factory=initial_resource_piles)
    monk_piles: list[list[int]] = field(default_factory=initial_monk_piles)
    large: list[int] = field(default_factory=list)  # per barrel goal: owner seat or EMPTY
    small: list[int] = field(default_factory=list)
    slots: list[int] = field(default_factory=lambda: [EMPTY] * len(START_SLOTS))
    # Kegs & More
    kegs: list[int] = field(default_factory=lambda: [0] * TRACK_LEN)
    bales: list[int] = field(default_factory=lambda: [0] * TRACK_LEN)
    die_space: int = EMPTY
    die_value: int = 0
    keg_reserve: int = delivery.KEGS
    bale_reserve: int = delivery.BALES

    def copy(self) -> HeavenAndAleState:
        s = HeavenAndAleState.__new__(HeavenAndAleState)
        d = self.__dict__.copy()
        d["players"] = [p.copy() for p in self.players]
        for k in ("place_order", "sheds_pending", "discs", "large", "small", "slots", "kegs", "bales"):
            d[k] = d[k][:]
        d["tiles"] = [t[:] for t in self.tiles]
        d["piles"] = [p[:] for p in self.piles]
        d["monk_piles"] = [p[:] for p in self.monk_piles]
        s.__dict__ = d
        return s

    def discs_on_boards(self) -> int:
        return sum(sum(p.discs) for p in self.players)

    def disc_reserve(self) -> int:
        return DISCS - sum(self.discs) - self.discs_on_boards()


HAState = HeavenAndAleState
"""The short name, kept while branches that use it merge (heuristics)."""
