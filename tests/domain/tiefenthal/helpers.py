"""Shared helpers for the Tiefenthal tests: invariants, arranging positions, driving commands."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from domain.core import Command, rng_for, seed_from_text
from domain.tiefenthal import GAME
from domain.tiefenthal.cards import CARDS, GROUPS, KIND
from domain.tiefenthal.state import COLOURED_PER_PLAYER, WHITE_PER_PLAYER, State, is_white
from domain.tiefenthal.tavern import TILE_VALUES

SEED = seed_from_text("tiefenthal-tests")


def all_card_locations(s: State) -> list[int]:
    """Every card id wherever it is: players, supplies, displays, box."""
    out: list[int] = []
    for p in s.players:
        out += p.owned_cards()
    for stack in s.supply.values():
        out += stack
    out += s.guest_deck + s.display + s.three_beer + s.box
    return out


def check_invariants(s: State, _event: Any = None) -> None:
    """Cards and dice conserved; stored money within limits; virtual money never negative."""
    cards = all_card_locations(s)
    assert len(cards) == len(CARDS), (len(cards), len(CARDS))
    assert sorted(cards) == list(range(len(CARDS))), [c for c, k in Counter(cards).items() if k > 1]
    white = s.n * WHITE_PER_PLAYER
    whites = [d for c in s.coasters for d in c] + [d for p in s.players for d in p.dice if is_white(d, s.n)]
    assert sorted(whites) == list(range(white))
    for p in s.players:
        coloured = [d for d in p.dice if not is_white(d, s.n)]
        assert len(coloured) <= COLOURED_PER_PLAYER
        assert all(white + p.seat * COLOURED_PER_PLAYER <= d < white + (p.seat + 1) * COLOURED_PER_PLAYER for d in coloured)
        assert set(p.placed) <= set(p.dice)
        assert 0 <= p.safe <= p.tile("safe"), (p.safe, p.tile("safe"))
        assert 0 <= p.storage <= p.tile("storage"), (p.storage, p.tile("storage"))
        assert p.doubloons >= 0 and p.beer >= 0
        assert p.boost_in_use() <= p.boost_capacity() + 0  # returned dishwashers never strand a raised die
        assert 0 <= p.monastery <= 22
        assert p.counter_guests >= 0
        assert all(KIND[c] == "noble" for c in (p.tables[p.noble_table] if p.noble_table >= 0 else []))
        for d, (_space, boost) in p.placed.items():
            assert p.dice[d] + boost <= 6
        if s.phase != "F" or s.active != p.seat:
            assert p.doubloons == 0 and p.beer == 0
    assert s.counter_supply >= 0
    assert s.counter_supply + sum(p.counter_guests for p in s.players) == 3 * s.n


class Driver:
    """Plays a game through ``decide``/``evolve`` with a live state, tracking events."""

    def __init__(self, n: int = 3, seed: str = "driver") -> None:
        self.secret = seed_from_text(seed)
        self.events = GAME.setup(GAME.parse_options({}), n, rng_for(self.secret, 0))
        self.state: State = GAME.fold(None, self.events)

    def do(self, command: Command) -> list[Any]:
        new = GAME.decide(self.state, command, rng_for(self.secret, len(self.events)))
        for e in new:
            self.state = GAME.evolve(self.state, e)
        self.events.extend(new)
        check_invariants(self.state)
        return new

    def random_until(self, done: Any, chooser: random.Random | None = None, limit: int = 20000) -> None:
        """Play random legal commands until ``done(state)``."""
        chooser = chooser or random.Random(1)
        for _ in range(limit):
            if done(self.state):
                return
            seat = chooser.choice(GAME.to_act(self.state))
            self.do(chooser.choice(GAME.legal_commands(self.state, seat)))
        raise AssertionError("condition never reached")

    def end_turns_until(self, done: Any) -> None:
        """Move on with the simplest commands (finish planning, pick the first die, end turns, first option)."""
        for _ in range(5000):
            if done(self.state):
                return
            seat = GAME.to_act(self.state)[0]
            legal = GAME.legal_commands(self.state, seat)
            pick = next((c for c in legal if c.type in ("EndTurn", "FinishPlanning", "PickDie", "ChooseBonus", "KeepTavern")), None)
            assert pick is not None, legal
            self.do(pick)
        raise AssertionError("condition never reached")


def card_of(group: str, s: State | None = None, exclude: set[int] = frozenset()) -> int:  # type: ignore[assignment]
    """Some card id of a group (tavern type, 'noble', 'guest', 'three_beer', 'regular:<seat>')."""
    for c in GROUPS[group]:
        if c not in exclude:
            return c
    raise LookupError(group)


def move_card(s: State, card: int, seat: int, where: str = "deck_top") -> None:
    """Test arrangement: take ``card`` from wherever it is and put it in a player's pile (keeps conservation)."""
    for p in s.players:
        for pile in (p.deck_top, p.deck_rest, p.discard):
            if card in pile:
                pile.remove(card)
        for t in p.tables:
            if card in t:
                t.remove(card)
        for v in p.staff.values():
            if card in v:
                v.remove(card)
    for pile in list(s.supply.values()) + [s.guest_deck, s.display, s.three_beer, s.box]:
        if card in pile:
            pile.remove(card)
    getattr(s.players[seat], where).append(card)


def tile_base(tile: str) -> int:
    return TILE_VALUES[tile][0]


def put_in_staff(s: State, seat: int, card: int) -> None:
    """Test arrangement: a tavern card lies next to its area this round."""
    move_card(s, card, seat, "discard")
    p = s.players[seat]
    p.discard.remove(card)
    p.staff.setdefault(KIND[card], []).append(card)


def seat_at_new_table(s: State, seat: int, card: int) -> int:
    """Test arrangement: a guest sits at a new table; returns the table index."""
    move_card(s, card, seat, "discard")
    p = s.players[seat]
    p.discard.remove(card)
    p.tables.append([card])
    return len(p.tables) - 1


def set_dice(s: State, seat: int, values: list[int]) -> list[int]:
    """Test arrangement: the seat holds dice of exactly these values (its white dice first, then coloured)."""
    from domain.tiefenthal.state import coloured_die
    p = s.players[seat]
    whites = sorted(d for d in p.dice if is_white(d, s.n))
    for d in list(p.dice):
        if not is_white(d, s.n):
            del p.dice[d]
    p.placed = {}
    ids = whites[: len(values)] + [coloured_die(seat, k, s.n) for k in range(max(0, len(values) - len(whites)))]
    for d in whites[len(values):]:
        del p.dice[d]
        s.coasters[seat].append(d)
    for d, v in zip(ids, values):
        p.dice[d] = v
        s.die_value[d] = v
    return ids


def arrange_deck_top(s: State, seat: int, cards: list[int]) -> None:
    """Test arrangement: these cards lie on top of the seat's deck in this order; the rest stays unordered."""
    p = s.players[seat]
    for c in cards:
        move_card(s, c, seat, "deck_top")
    p.deck_top = list(cards) + [c for c in p.deck_top if c not in cards]


def free_supply_cards(s: State, group: str, k: int) -> list[int]:
    """k card ids of a group that are still in a supply pile (guest deck, tavern stacks, nobles)."""
    pool = s.guest_deck if group == "guest" else s.supply[group]
    return list(pool[:k])
