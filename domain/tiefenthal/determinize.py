"""Rebuild a full state from one seat's view, sampling what the seat cannot see (for search bots).

Hidden from a seat: the order of its own deck below the cards it put on top
(the view gives the rest as a multiset of names), the make-up of the other
players' decks (only their sizes), the guest deck (only its size) and which
physical card of a type lies in a supply stack. Every card id is somewhere, so
the cards not seen anywhere are dealt: the other colours' regulars to their
owners, unseen tavern cards and nobles beyond the supply counts to the other
players' decks, and the unseen guests between the guest deck and those decks
(counts as the view shows). The 3-beer stack is only ever taken from the top,
so it is the first ``count`` cards of its group.

Public facts the view does not carry (see the bot report): the
``counter_guest_redraw`` option (inferred: true whenever phase B waits for a
seat, else the default), ``kept`` (inferred from ``to_act`` in phase B),
``picks`` (the white dice held while drafting) and which coaster a free white
die sits on outside phase D (irrelevant to the rules: all are rolled).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from domain.core.views import parse_view

from .cards import CARDS, GROUPS, TAVERN_TYPES, VP
from .scoring import vp
from .state import COLOURED_PER_PLAYER, WHITE_PER_PLAYER, Player, TiefenthalState, is_white
from .tavern import TILES
from .view_models import Card, PlayerView, SeatView


def _match_vp(p: Player, target: int, guest_deck: list[int], rng: random.Random) -> None:
    """Swap guests between ``p``'s deck and the guest deck until ``p``'s public VP total is met."""
    for _ in range(200):
        diff = target - vp(p)
        if diff == 0:
            return
        pairs = _guest_swaps(p, guest_deck, diff)
        if not pairs:
            return
        i, j = rng.choice(pairs)
        p.deck_rest[i], guest_deck[j] = guest_deck[j], p.deck_rest[i]
    guest_deck.sort()


def _guest_swaps(p: Player, guest_deck: list[int], diff: int) -> list[tuple[int, int]]:
    """(deck index, guest deck index) swaps of an ordinary guest that close ``diff`` exactly, else that move
    toward it; none when ``p`` holds no such guest."""
    mine = [i for i, c in enumerate(p.deck_rest) if CARDS[c].kind == "guest" and not CARDS[c].three_beer]
    if not mine or not guest_deck:
        return []
    gains = [(i, j, VP[guest_deck[j]] - VP[p.deck_rest[i]]) for i in mine for j in range(len(guest_deck))]
    exact = [(i, j) for i, j, gain in gains if gain == diff]
    return exact or [(i, j) for i, j, gain in gains if 0 < gain * diff]


def _swappable(p: Player, q: Player, good: Callable[[int], bool]) -> list[tuple[int, int]]:
    """Index pairs of non-regular cards of ``p`` and ``q`` whose swap (``q``'s VP minus ``p``'s) is ``good``."""
    return [(i, j) for i, a in enumerate(p.deck_rest) if CARDS[a].kind != "regular"
            for j, b in enumerate(q.deck_rest) if CARDS[b].kind != "regular" and good(VP[b] - VP[a])]


def _swap(p: Player, q: Player, moves: list[tuple[int, int]], rng: random.Random) -> None:
    if moves:
        i, j = rng.choice(moves)
        p.deck_rest[i], q.deck_rest[j] = q.deck_rest[j], p.deck_rest[i]


def _settles(error: int, gain: int) -> bool:
    return gain == error


def _shrinks(ep: int, eq: int, gain: int) -> bool:
    """Both players' errors together get smaller when ``p`` gains ``gain`` VP from ``q``."""
    return abs(ep - gain) + abs(eq + gain) < abs(ep) + abs(eq)


def _balance_vp(others: list[Player], target: dict[int, int], rng: random.Random) -> None:
    """Swap dealt non-regular cards between other players until each one's public VP total is met."""
    for _ in range(300):
        err = {p.seat: target[p.seat] - vp(p) for p in others}
        wrong = [p for p in others if err[p.seat]]
        if not wrong or len(others) < 2:
            return
        if len(wrong) == 1:  # pass its error on to another, whose guests may then swap with the guest deck
            p = wrong[0]
            q = rng.choice([o for o in others if o is not p])
            _swap(p, q, _swappable(p, q, partial(_settles, err[p.seat])), rng)
            return
        p, q = rng.sample(wrong, 2)  # both errors shrink
        ep, eq = err[p.seat], err[q.seat]
        _swap(p, q, _swappable(p, q, partial(_shrinks, ep, eq)), rng)


def _ids(cards: list[Card]) -> list[int]:
    return [c.id for c in cards]


def _player(pv: PlayerView, phase: str, redraw: bool, to_act: list[int]) -> Player:
    """A player's public part, as the view shows it (its hidden deck is dealt later)."""
    p = Player(seat=pv.seat)
    _tavern(p, pv)
    _round(p, pv)
    p.kept = phase == "B" and redraw and p.seat not in to_act and p.counter_guests > 0
    if pv.deck_top is not None:
        p.deck_top = _ids(pv.deck_top)
    return p


def _tavern(p: Player, pv: PlayerView) -> None:
    """What stays in the player's tavern between rounds: tables, staff, upgrades, stores."""
    p.tables = [_ids(t) for t in pv.tavern.tables]
    p.noble_table = pv.tavern.noble_table if pv.tavern.noble_table is not None else -1
    p.staff = {k: _ids(v) for k, v in pv.tavern.staff.items()}
    p.discard = _ids(pv.discard)
    p.upgraded = {t for t in TILES if pv.tiles[t].upgraded}
    p.safe, p.storage, p.monastery = pv.safe, pv.storage, pv.monastery
    p.counter_guests = pv.counter_guests
    p.doubloons, p.beer = pv.doubloons, pv.beer


def _round(p: Player, pv: PlayerView) -> None:
    """This round's part: the dice and where they stand, purchases, recruits, pending choices."""
    p.dice = {d.die: d.value for d in pv.dice}
    p.placed = {d.die: (d.space, d.boost) for d in pv.dice if d.space is not None}
    p.used_spaces = set(pv.used_spaces)
    p.boost_spent = pv.dishwashers.in_use - sum(b for _, b in p.placed.values())
    p.bought = list(pv.bought_this_round)
    p.recruited = pv.recruited_this_round
    p.noble_recruits = pv.noble_recruits_this_round or 0
    p.pending = [[o.model_dump(exclude_unset=True) for o in choice] for choice in pv.pending_choices]
    p.planned, p.done = pv.planned, pv.done


def _own_deck(me: Player, names: dict[str, int], unseen: list[int]) -> list[int]:
    """The seat's own deck below its known top: exactly these names; the cards still unseen after it."""
    want = Counter(names)
    for c in unseen:
        if want[CARDS[c].name] > 0:
            want[CARDS[c].name] -= 1
            me.deck_rest.append(c)
    taken = set(me.deck_rest)
    return [c for c in unseen if c not in taken]


def _supply(s: TiefenthalState, view: SeatView, unseen: list[int]) -> list[int]:
    """Supply stacks hold their counts of each type; the surplus (returned: loose cards) is in other decks."""
    s.supply = {}
    loose: list[int] = []
    for t in TAVERN_TYPES:
        pool = [c for c in unseen if CARDS[c].kind == t]
        count = view.supply.tavern_cards[t].count
        s.supply[t] = pool[:count]
        loose.extend(pool[count:])
    nobles = [c for c in unseen if CARDS[c].kind == "noble"]
    s.supply["noble"] = nobles[:view.supply.nobles]
    loose.extend(nobles[view.supply.nobles:])
    return loose


def _deal_others(s: TiefenthalState, view: SeatView, seat: int, unseen: list[int], loose: list[int],
                 rng: random.Random) -> None:
    """The other players' decks and the guest deck, dealt from the unseen cards to the sizes and VP the view shows."""
    others = [p for p in s.players if p.seat != seat]
    for p in others:
        p.deck_rest = [c for c in unseen if CARDS[c].colour == p.seat and CARDS[c].kind == "regular"]
    _deal_guests(s, view, unseen, loose, rng)
    rng.shuffle(loose)
    for p in others:
        need = max(0, view.player(p.seat).deck_count - len(p.deck_rest))
        p.deck_rest.extend(loose[:need])
        loose = loose[need:]
    _fit_victory_points(s, others, {p.seat: view.player(p.seat).victory_points for p in others}, rng)
    s.guest_deck.sort()


def _deal_guests(s: TiefenthalState, view: SeatView, unseen: list[int], loose: list[int],
                 rng: random.Random) -> None:
    """The guest deck at the size the view shows; the other unseen guests (three-beer ones too) go to ``loose``."""
    guest_pool = [c for c in unseen if CARDS[c].kind == "guest" and not CARDS[c].three_beer]
    loose.extend(c for c in unseen if CARDS[c].kind == "guest" and CARDS[c].three_beer)
    rng.shuffle(guest_pool)
    deck_size = view.guests.deck_count
    s.guest_deck = sorted(guest_pool[:deck_size])
    loose.extend(guest_pool[deck_size:])


def _fit_victory_points(s: TiefenthalState, others: list[Player], target: dict[int, int],
                        rng: random.Random) -> None:
    for _ in range(8):  # alternate: the guest deck absorbs what swaps between opponents cannot
        for p in others:
            _match_vp(p, target[p.seat], s.guest_deck, rng)
        _balance_vp(others, target, rng)
        if all(vp(p) == target[p.seat] for p in others):
            break


def _dice(s: TiefenthalState, coasters: dict[str, list[int]] | None) -> None:
    """Die values of the held dice; the free white dice on the coasters (by value in phase D)."""
    n = s.n
    total = n * (WHITE_PER_PLAYER + COLOURED_PER_PLAYER)
    s.die_value = [1] * total
    held: set[int] = set()
    for p in s.players:
        for d, v in p.dice.items():
            s.die_value[d] = v
            held.add(d)
    free = [d for d in range(n * WHITE_PER_PLAYER) if d not in held]
    s.coasters = [[] for _ in range(n)]
    if s.phase == "D":
        s.picks = sum(1 for p in s.players for d in p.dice if is_white(d, n))
        for key, values in (coasters or {}).items():
            coaster = s.coasters[s.held_coaster(int(key))]
            for v in values:
                d = free.pop(0)
                s.die_value[d] = v
                coaster.append(d)
    else:
        for d in free:
            s.coasters[d // WHITE_PER_PLAYER].append(d)


def state_from_view(view: dict[str, Any], seat: int, rng: random.Random,
                    legal: Sequence[Any] | None = None) -> TiefenthalState:
    """A state consistent with ``view``; hidden card placement sampled from ``rng`` (``legal`` unused)."""
    v = parse_view(SeatView, view)
    n = len(v.players)
    s = TiefenthalState(n=n, round=v.round, phase=v.phase, start=v.start_player)
    s.rounds = v.rounds
    s.active = v.active if v.active is not None else -1
    s.redraw = bool(v.to_act) if s.phase == "B" else True
    s.players = [_player(pv, s.phase, s.redraw, v.to_act) for pv in v.players]
    seen: set[int] = set()
    for p in s.players:
        seen.update(p.discard, p.tavern_cards(), p.deck_top)
    s.display = _ids(v.guests.display)
    s.three_beer = list(GROUPS["three_beer"][:v.guests.three_beer.count])
    s.counter_supply = v.supply.counter_guests
    s.box = [c for colour in range(n, 4) for c in GROUPS.get(f"regular:{colour}", [])]
    seen.update(s.display, s.three_beer, s.box)
    unseen = _own_deck(s.players[seat], v.player(seat).deck_rest or {},
                       [c for c in range(len(CARDS)) if c not in seen])
    loose = _supply(s, v, unseen)
    _deal_others(s, v, seat, unseen, loose, rng)
    _dice(s, v.coasters)
    return s


def prune(view: dict[str, Any], legal: list[Any]) -> list[Any]:
    """Moving a die that is already placed only undoes a move; a heuristic bot would shuffle it for ever."""
    v = parse_view(SeatView, view)
    placed = {d.die for d in v.player(v.you).dice if d.space is not None}
    kept = [c for c in legal if not (c.type == "PlaceDie" and c.die in placed)]
    return kept or legal
