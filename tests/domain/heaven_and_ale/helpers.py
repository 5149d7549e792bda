"""Shared helpers for the Heaven & Ale tests: building scenarios through the game's own commands."""

from __future__ import annotations

import random
from typing import Any

from domain.core import Command, Event
from domain.core.rng import rng_for, seed_from_text
from domain.heaven_and_ale import GAME, delivery
from domain.heaven_and_ale.board import TRACK_LEN
from domain.heaven_and_ale.state import EMPTY, PLAYING, HAState
from domain.heaven_and_ale.supply import DISCS, N_CODES, N_RESOURCE_CODES


class Table:
    """A live game driven through decide/evolve, keeping the event log for replay checks."""

    def __init__(self, n: int = 3, seed: str = "table", **options: Any) -> None:
        self.secret = seed_from_text(seed)
        self.options = GAME.parse_options(options)
        self.events: list[Event] = GAME.setup(self.options, n, rng_for(self.secret, 0))
        self.state: HAState = GAME.fold(None, self.events)

    def rng(self) -> random.Random:
        return rng_for(self.secret, len(self.events))

    def do(self, command: Command, rng: random.Random | None = None) -> list[Event]:
        new = GAME.decide(self.state, command, rng or self.rng())
        for event in new:
            self.state = GAME.evolve(self.state, event)
        self.events.extend(new)
        return new

    def start(self) -> Table:
        """Finish setup by taking the first legal choice of every placement / arrangement decision."""
        while self.state.phase != PLAYING:
            seat = GAME.to_act(self.state)[0]
            self.do(GAME.legal_commands(self.state, seat)[0])
        return self

    def legal(self, seat: int | None = None) -> list[Command]:
        return GAME.legal_commands(self.state, self.state.turn if seat is None else seat)

    @property
    def seat(self) -> int:
        return self.state.turn


def clear_board(s: HAState) -> None:
    """Empty every track space (tiles back to pile II so counts stay conserved) for a hand-built scenario."""
    for space in range(TRACK_LEN):
        for code in s.tiles[space]:
            if code < N_RESOURCE_CODES:
                s.piles[1][code] += 1
            else:
                s.monk_piles[1][code - N_RESOURCE_CODES] += 1
        s.tiles[space] = []


def put_tile(s: HAState, space: int, code: int) -> None:
    """Move a tile from the piles onto a track space (keeps the tile count conserved)."""
    if code < N_RESOURCE_CODES:
        back = 0 if s.piles[0][code] else 1
        s.piles[back][code] -= 1
    else:
        back = 0 if s.monk_piles[0][code - N_RESOURCE_CODES] else 1
        s.monk_piles[back][code - N_RESOURCE_CODES] -= 1
    s.tiles[space].append(code)


def plant(s: HAState, seat: int, spot: int, code: int) -> None:
    """Put a tile from the piles straight into a garden (scenario building)."""
    put_tile(s, 0, code)
    s.tiles[0].remove(code)
    s.players[seat].garden[spot] = code


def _tile_counts(s: HAState) -> list[int]:
    """How many of each resource and monk tile are anywhere: piles, monk piles, the market, the gardens."""
    resource = [0] * N_CODES
    for counts in s.piles:
        for code, c in enumerate(counts):
            resource[code] += c
    for back in s.monk_piles:
        for t, c in enumerate(back):
            resource[N_RESOURCE_CODES + t] += c
    for space in s.tiles:
        for code in space:
            resource[code] += 1
    for p in s.players:
        for code in p.garden:
            if code != EMPTY:
                resource[code] += 1
    return resource


def _check_player(s: HAState, i: int, p: Any) -> None:
    assert p.money >= 0, f"seat {i} has negative money"
    assert all(-20 <= m <= 20 for m in p.markers), p.markers
    assert -20 <= p.brewmaster <= 20
    assert 0 <= p.pos < TRACK_LEN
    if p.slot != EMPTY:
        assert s.slots[p.slot] == i and p.pos == 0
    assert set(p.large).isdisjoint(p.small)
    assert len(p.cards) + sum(1 for c in p.pairs if c not in (None, "declined")) <= 5


def _check_kegs_and_bales(s: HAState) -> None:
    kegs = s.keg_reserve + sum(s.kegs) + sum(p.total_kegs() + p.cart_kegs + sum(p.delivered) for p in s.players)
    bales = s.bale_reserve + sum(s.bales) + sum(p.total_bales() for p in s.players)
    assert kegs == delivery.KEGS, "kegs not conserved"
    assert bales == delivery.BALES, "bales not conserved"
    assert s.keg_reserve >= 0 and s.bale_reserve >= 0
    assert all(x >= 0 for x in s.kegs + s.bales)
    for p in s.players:
        assert p.kegs >= 0 and p.bales >= 0 and p.free_regular() >= 0
        assert 0 <= p.cart < delivery.ROAD_LEN and p.cart_kegs >= 0
        assert p.cart != delivery.MONASTERY or p.cart_kegs == 0


def check_invariants(s: HAState) -> None:
    """Conservation and bounds that must hold after every command."""
    resource = _tile_counts(s)
    assert resource[:N_RESOURCE_CODES] == [4] * N_RESOURCE_CODES, "resource tiles not conserved"
    assert resource[N_RESOURCE_CODES:] == [6] * 4, "monk tiles not conserved"
    assert all(c >= 0 for pile in s.piles for c in pile)
    assert all(c >= 0 for pile in s.monk_piles for c in pile)
    assert all(d >= 0 for d in s.discs) and s.disc_reserve() >= 0
    assert sum(s.discs) + s.discs_on_boards() + s.disc_reserve() == DISCS
    assert sorted(x for x in s.slots if x != EMPTY) == sorted(i for i, p in enumerate(s.players) if p.slot != EMPTY)
    for i, p in enumerate(s.players):
        _check_player(s, i, p)
    for g, owner in enumerate(s.large):
        assert owner == EMPTY or g in s.players[owner].large
    for g, owner in enumerate(s.small):
        assert owner == EMPTY or g in s.players[owner].small
    if s.kegs_and_more:
        _check_kegs_and_bales(s)
        assert s.die_space == EMPTY or 0 <= s.die_space < TRACK_LEN
