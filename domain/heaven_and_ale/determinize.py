"""Rebuild a full state from one seat's view, sampling what the seat cannot see (for search bots).

Everything on the table is public in Heaven & Ale; hidden are only the
face-down resource piles (the view gives their sizes) and the monk stacks still
to come. Piles are dealt from the tiles not seen anywhere (on the track or in
a garden), with the sizes the view shows.

The facts of the turn under way (where the figure started, whether an action
was performed, tiles bought, sheds still to resolve) are in the view: once they
were guessed from the legal commands, and a wrong guess (say, no tile bought
yet) made the bot's own playouts buy a tile it did not have to. ``legal`` is
accepted for the common ``state_from_view`` signature and not needed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.core.views import parse_view

from . import delivery
from .board import START_SLOTS
from .garden import SHED_NAMES, SPOT_NAMES
from .privileges import PAIRS, SCORING_SPOTS
from .production import COLOURS
from .state import EMPTY, PLACING, HeavenAndAleState, Player
from .supply import (
    MONK_BASE,
    MONK_TYPES,
    MONKS_PER_PILE,
    N_RESOURCE_CODES,
    TILE_CODES,
    initial_monk_piles,
    initial_resource_piles,
    pile_back_for_round,
)
from .view_models import Board, Delivery, SeatView


def _player(b: Board) -> Player:
    p = Player()
    p.money = b.ducats
    p.brewmaster = b.brewmaster
    p.markers = [b.markers[c] for c in COLOURS]
    p.garden = [TILE_CODES[b.garden[name]] if name in b.garden else EMPTY for name in SPOT_NAMES]
    p.sheds = [b.sheds[name].type if name in b.sheds else EMPTY for name in SHED_NAMES]
    p.discs = [name in b.discs for name in SCORING_SPOTS]
    p.pairs = [pair.card for pair in b.pairs]
    assert len(p.pairs) == len(PAIRS)
    p.cards = list(b.privilege_cards)
    p.large = list(b.large_barrels)
    p.small = list(b.small_barrels)
    p.pos = 0 if b.figure == "start" else int(b.figure)
    p.done = b.finished_round
    p.slot = START_SLOTS.index(b.starting_space) if b.starting_space is not None else EMPTY
    if b.delivery is not None:
        _delivery(p, b.delivery)
    return p


def _delivery(p: Player, d: Delivery) -> None:
    """Kegs & More: the delivery board of one player."""
    p.kegs = d.regular_kegs
    p.bales = d.regular_bales
    p.rental = d.rental_spot
    p.extra_spots = d.regular_spots - delivery.REGULAR_SPOTS
    p.board_tiles = list(d.board_tiles)
    p.area_values = [v if v != delivery.KEG_AREA_VALUES[i] else None for i, v in enumerate(d.keg_area_values)]
    p.cart = d.cart
    p.cart_kegs = d.cart_kegs
    p.delivered = list(d.delivered)
    p.storage_tiles = [d.storage_tiles.get(name) for name in SHED_NAMES]


def _or_empty(value: int | None) -> int:
    return value if value is not None else EMPTY


def _table(s: HeavenAndAleState, v: SeatView) -> None:
    """The track, the starting spaces, the barrels and (Kegs & More) the carter die and reserves."""
    s.tiles = [[TILE_CODES[t] for t in space.tiles or ()] for space in v.track]
    s.discs = [space.discs or 0 for space in v.track]
    if v.kegs_and_more:
        s.kegs = [space.kegs or 0 for space in v.track]
        s.bales = [space.bales or 0 for space in v.track]
        assert v.carter_die is not None and v.keg_reserve is not None and v.bale_reserve is not None
        s.die_space = _or_empty(v.carter_die.space)
        s.die_value = v.carter_die.value
        s.keg_reserve = v.keg_reserve
        s.bale_reserve = v.bale_reserve
    s.slots = [_or_empty(who) for who in v.starting_spaces.values()]
    s.large = [_or_empty(b.large) for b in v.barrels]
    s.small = [_or_empty(b.small) for b in v.barrels]


def state_from_view(view: dict[str, Any], seat: int, rng: random.Random,
                    legal: Sequence[Any] | None = None) -> HeavenAndAleState:
    """A state consistent with ``view``; pile contents sampled from ``rng``."""
    v = parse_view(SeatView, view)
    n = v.players
    s = HeavenAndAleState(n=n, rounds=v.rounds, kegs_and_more=v.kegs_and_more, start_player=v.start_player,
                          players=[_player(b) for b in v.boards])
    s.phase = v.phase
    s.round = v.round
    s.turn = _or_empty(v.turn)
    s.step = v.step or ""
    s.space = v.current_space if v.current_space is not None else 0
    s.sheds_pending = [SHED_NAMES.index(name) for name in v.pending_sheds]
    s.pair = _or_empty(v.pending_pair)
    _table(s, v)
    if s.phase == PLACING:
        order = [(s.start_player - i) % n for i in range(1, n)]
        s.place_order = [q for q in order if s.players[q].slot == EMPTY]
    if s.turn != EMPTY:
        assert v.turn_started_at is not None and v.acted is not None and v.bought is not None
        s.turn_from = v.turn_started_at
        s.acted = v.acted
        s.bought = v.bought
    _deal_piles(s, v.resource_piles, rng)
    return s


def _unseen_counts(s: HeavenAndAleState) -> tuple[list[int], list[int]]:
    """How many of each resource tile and of each monk type are in no pile, garden or space the view shows."""
    seen = [c for space in s.tiles for c in space] + [c for p in s.players for c in p.garden if c != EMPTY]
    counts = [sum(per) for per in zip(*initial_resource_piles())]
    monks = [sum(per) for per in zip(*initial_monk_piles())]
    for c in seen:
        if c < MONK_BASE:
            counts[c] = max(0, counts[c] - 1)
        else:
            monks[c - MONK_BASE] = max(0, monks[c - MONK_BASE] - 1)
    return counts, monks


def _deal_piles(s: HeavenAndAleState, resource_piles: list[int], rng: random.Random) -> None:
    counts, monks = _unseen_counts(s)
    pool = [c for c in range(N_RESOURCE_CODES) for _ in range(counts[c])]
    rng.shuffle(pool)
    s.piles = []
    for size in resource_piles:
        pile = [0] * N_RESOURCE_CODES
        for c in pool[:size]:
            pile[c] += 1
        pool = pool[size:]
        s.piles.append(pile)
    # Monk stacks still to come: one per later round, from the back that round uses.
    monk_pool = [t for t in range(MONK_TYPES) for _ in range(monks[t])]
    rng.shuffle(monk_pool)
    s.monk_piles = [[0] * MONK_TYPES for _ in range(2)]
    for round_no in range(s.round + 1, s.rounds + 1):
        back = pile_back_for_round(round_no)
        for t in monk_pool[:MONKS_PER_PILE]:
            s.monk_piles[back][t] += 1
        monk_pool = monk_pool[MONKS_PER_PILE:]
