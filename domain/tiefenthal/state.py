"""The game state: plain dataclasses of card and die ids, with a fast clone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import data as _data
from . import tavern

OVER = "end"
"""The phase after the game ended (the name every engine uses; the value is Tiefenthal's view vocabulary)."""


@dataclass
class Player:
    """One tavern host: deck, tavern this round, dice, tracks and this turn's virtual money."""

    seat: int
    deck_top: list[int] = field(default_factory=list)  # top first; the owner knows this order
    deck_rest: list[int] = field(default_factory=list)  # unordered: drawn uniformly at random
    discard: list[int] = field(default_factory=list)
    tables: list[list[int]] = field(default_factory=list)  # cards at each occupied table (noble stack: bottom first)
    noble_table: int = -1  # index in ``tables`` of the noble stack, -1 when none this round
    staff: dict[str, list[int]] = field(default_factory=dict)  # tavern cards placed this round, by type
    upgraded: set[str] = field(default_factory=set)
    safe: int = 0
    storage: int = 0
    monastery: int = 0
    counter_guests: int = 0
    dice: dict[int, int] = field(default_factory=dict)  # held die id -> value (not yet removed)
    placed: dict[int, tuple[str, int]] = field(default_factory=dict)  # die id -> (space, dishwasher boost)
    used_spaces: set[str] = field(default_factory=set)  # 1x spaces a die was removed from this round
    boost_spent: int = 0  # dishwasher steps on dice already removed this round
    doubloons: int = 0  # virtual, during the phase F turn
    beer: int = 0
    bought: list[str] = field(default_factory=list)  # tavern card types bought this round
    recruited: int = 0  # guests recruited this round
    noble_recruits: int = 0  # times nobles were recruited this round (= this phase F turn)
    pending: list[list[dict[str, Any]]] = field(default_factory=list)  # bonus choices to make, oldest first
    kept: bool = False  # phase B: the tavern is final (no counter-guest redraw wanted)
    planned: bool = False  # phase E finished
    done: bool = False  # phase F turn finished

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.__dict__.update(self.__dict__)
        p.deck_top = self.deck_top[:]
        p.deck_rest = self.deck_rest[:]
        p.discard = self.discard[:]
        p.tables = [t[:] for t in self.tables]
        p.staff = {k: v[:] for k, v in self.staff.items()}
        p.upgraded = set(self.upgraded)
        p.dice = dict(self.dice)
        p.placed = dict(self.placed)
        p.used_spaces = set(self.used_spaces)
        p.bought = list(self.bought)
        p.pending = [list(o) for o in self.pending]
        return p

    def tile(self, tile: str) -> int:
        """The current number of a tile (basic or upgraded side)."""
        return tavern.TILE_VALUES[tile][1 if tile in self.upgraded else 0]

    def n_staff(self, kind: str) -> int:
        return len(self.staff.get(kind, ()))

    def tavern_cards(self) -> list[int]:
        """Every card placed in the tavern this round."""
        out = [c for t in self.tables for c in t]
        for cards in self.staff.values():
            out.extend(cards)
        return out

    def owned_cards(self) -> list[int]:
        """Every card the player owns: deck, discard and tavern."""
        return self.deck_top + self.deck_rest + self.discard + self.tavern_cards()

    def boost_capacity(self) -> int:
        """Dishwasher steps available this round: one per Dishwasher card plus the permanent one (Phase E)."""
        return self.n_staff("dishwasher") + self.tile("dishwasher")

    def boost_in_use(self) -> int:
        return self.boost_spent + sum(b for _, b in self.placed.values())


@dataclass
class TiefenthalState:
    """The whole game."""

    n: int
    round: int = 0
    phase: str = "A"
    start: int = 0  # start player of the round
    players: list[Player] = field(default_factory=list)
    supply: dict[str, list[int]] = field(default_factory=dict)  # tavern card stacks by type, and "noble"
    guest_deck: list[int] = field(default_factory=list)  # unordered face-down guest pile
    display: list[int] = field(default_factory=list)  # face-up guests
    three_beer: list[int] = field(default_factory=list)  # face-up 3-beer stack, top last
    counter_supply: int = 0
    box: list[int] = field(default_factory=list)  # cards out of this game (other colours' regulars)
    coasters: list[list[int]] = field(default_factory=list)  # white die ids on each coaster
    die_value: list[int] = field(default_factory=list)  # value of every die by id
    picks: int = 0  # dice drafted in this phase D
    active: int = -1  # seat whose phase F turn it is
    redraw: bool = True  # counter guests may redraw the tavern in phase B (option)
    rounds: int = _data.ROUNDS.value  # the game ends after this round (option ``rounds``, for short test games)

    def copy(self) -> TiefenthalState:
        s = TiefenthalState.__new__(TiefenthalState)
        s.__dict__.update(self.__dict__)
        s.players = [p.copy() for p in self.players]
        s.supply = {k: v[:] for k, v in self.supply.items()}
        s.guest_deck = self.guest_deck[:]
        s.display = self.display[:]
        s.three_beer = self.three_beer[:]
        s.box = self.box[:]
        s.coasters = [c[:] for c in self.coasters]
        s.die_value = self.die_value[:]
        return s

    # -- turn order helpers -------------------------------------------------------
    def order(self) -> list[int]:
        """Seats in turn order from the start player (clockwise)."""
        return [(self.start + i) % self.n for i in range(self.n)]

    def picker(self) -> int:
        """Phase D: the seat that picks next."""
        return (self.start + self.picks % self.n) % self.n

    def held_coaster(self, seat: int) -> int:
        """Phase D: the coaster in front of ``seat`` (coasters pass to the left after each pick round)."""
        return (seat - self.picks // self.n) % self.n

    def white_dice(self) -> int:
        return self.n * WHITE_PER_PLAYER


WHITE_PER_PLAYER: int = _data.WHITE_DICE_PER_PLAYER.value
COLOURED_PER_PLAYER: int = _data.COLOURED_DICE_PER_PLAYER.value


def coloured_die(seat: int, k: int, n: int) -> int:
    """The id of a player's k-th coloured die (white dice are 0 .. 4n-1)."""
    return n * WHITE_PER_PLAYER + seat * COLOURED_PER_PLAYER + k


def is_white(die: int, n: int) -> bool:
    return die < n * WHITE_PER_PLAYER


State = TiefenthalState
"""The short name, kept while branches that use it merge (heuristics)."""
