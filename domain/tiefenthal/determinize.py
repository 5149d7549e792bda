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
from collections.abc import Sequence
from typing import Any

from .cards import CARDS, GROUPS, TAVERN_TYPES, VP
from .scoring import vp
from .state import COLOURED_PER_PLAYER, WHITE_PER_PLAYER, Player, State, is_white
from .tavern import TILES


def _match_vp(p: Player, target: int, guest_deck: list[int], rng: random.Random) -> None:
    """Swap guests between ``p``'s deck and the guest deck until ``p``'s public VP total is met."""
    for _ in range(200):
        diff = target - vp(p)
        if diff == 0:
            return
        mine = [i for i, c in enumerate(p.deck_rest) if CARDS[c].kind == "guest" and not CARDS[c].three_beer]
        if not mine or not guest_deck:
            return
        pairs = [(i, j) for i in mine for j in range(len(guest_deck))
                 if VP[guest_deck[j]] - VP[p.deck_rest[i]] == diff]
        if not pairs:
            pairs = [(i, j) for i in mine for j in range(len(guest_deck))
                     if 0 < (VP[guest_deck[j]] - VP[p.deck_rest[i]]) * diff]
        if not pairs:
            return
        i, j = rng.choice(pairs)
        p.deck_rest[i], guest_deck[j] = guest_deck[j], p.deck_rest[i]
    guest_deck.sort()


def _balance_vp(others: list[Player], target: dict[int, int], rng: random.Random) -> None:
    """Swap dealt non-regular cards between other players until each one's public VP total is met."""
    for _ in range(300):
        err = {p.seat: target[p.seat] - vp(p) for p in others}
        wrong = [p for p in others if err[p.seat]]
        if not wrong or len(others) < 2:
            return
        if len(wrong) >= 2:  # both errors shrink
            p, q = rng.sample(wrong, 2)
            moves = [(i, j) for i, a in enumerate(p.deck_rest) if CARDS[a].kind != "regular"
                     for j, b in enumerate(q.deck_rest) if CARDS[b].kind != "regular"
                     and abs(err[p.seat] - (VP[b] - VP[a])) + abs(err[q.seat] + (VP[b] - VP[a]))
                     < abs(err[p.seat]) + abs(err[q.seat])]
        else:  # one wrong: pass its error on to another, whose guests may then swap with the guest deck
            p = wrong[0]
            q = rng.choice([o for o in others if o is not p])
            moves = [(i, j) for i, a in enumerate(p.deck_rest) if CARDS[a].kind != "regular"
                     for j, b in enumerate(q.deck_rest) if CARDS[b].kind != "regular" and VP[b] - VP[a] == err[p.seat]]
            if moves:
                i, j = rng.choice(moves)
                p.deck_rest[i], q.deck_rest[j] = q.deck_rest[j], p.deck_rest[i]
            return
        if moves:
            i, j = rng.choice(moves)
            p.deck_rest[i], q.deck_rest[j] = q.deck_rest[j], p.deck_rest[i]


def _ids(cards: list[dict[str, Any]]) -> list[int]:
    return [c["id"] for c in cards]


def state_from_view(view: dict[str, Any], seat: int, rng: random.Random,
                    legal: Sequence[Any] | None = None) -> State:
    """A state consistent with ``view``; hidden card placement sampled from ``rng`` (``legal`` unused)."""
    n = len(view["players"])
    s = State(n=n, round=view["round"], phase=view["phase"], start=view["start_player"])
    s.rounds = view.get("rounds", s.rounds)
    s.active = view["active"] if view["active"] is not None else -1
    to_act = view["to_act"]
    s.redraw = bool(to_act) if s.phase == "B" else True
    seen: set[int] = set()
    for pv in view["players"]:
        p = Player(seat=pv["seat"])
        tav = pv["tavern"]
        p.tables = [_ids(t) for t in tav["tables"]]
        p.noble_table = tav["noble_table"] if tav["noble_table"] is not None else -1
        p.staff = {k: _ids(v) for k, v in tav["staff"].items()}
        p.discard = _ids(pv["discard"])
        p.upgraded = {t for t in TILES if pv["tiles"][t]["upgraded"]}
        p.safe, p.storage, p.monastery = pv["safe"], pv["storage"], pv["monastery"]
        p.counter_guests = pv["counter_guests"]
        p.dice = {d["die"]: d["value"] for d in pv["dice"]}
        p.placed = {d["die"]: (d["space"], d["boost"]) for d in pv["dice"] if d["space"] is not None}
        p.used_spaces = set(pv["used_spaces"])
        p.boost_spent = pv["dishwashers"]["in_use"] - sum(b for _, b in p.placed.values())
        p.doubloons, p.beer = pv["doubloons"], pv["beer"]
        p.bought = list(pv["bought_this_round"])
        p.recruited = pv["recruited_this_round"]
        p.noble_recruits = pv.get("noble_recruits_this_round", 0)
        p.pending = [list(o) for o in pv["pending_choices"]]
        p.planned, p.done = pv["planned"], pv["done"]
        p.kept = s.phase == "B" and s.redraw and p.seat not in to_act and p.counter_guests > 0
        if "deck_top" in pv:
            p.deck_top = _ids(pv["deck_top"])
        seen.update(p.discard, p.tavern_cards(), p.deck_top)
        s.players.append(p)
    guests = view["guests"]
    s.display = _ids(guests["display"])
    s.three_beer = list(GROUPS["three_beer"][:guests["three_beer"]["count"]])
    s.counter_supply = view["supply"]["counter_guests"]
    s.box = [c for colour in range(n, 4) for c in GROUPS.get(f"regular:{colour}", [])]
    seen.update(s.display, s.three_beer, s.box)
    unseen = [c for c in range(len(CARDS)) if c not in seen]
    # the seat's own deck below its known top: exactly these names
    me = s.players[seat]
    want = Counter(view["players"][seat].get("deck_rest", {}))
    for c in unseen:
        if want[CARDS[c].name] > 0:
            want[CARDS[c].name] -= 1
            me.deck_rest.append(c)
    taken = set(me.deck_rest)
    unseen = [c for c in unseen if c not in taken]
    # supply stacks hold their counts of each type; the surplus is in other players' decks
    s.supply = {}
    loose: list[int] = []
    for t in TAVERN_TYPES:
        pool = [c for c in unseen if CARDS[c].kind == t]
        count = view["supply"]["tavern_cards"][t]["count"]
        s.supply[t] = pool[:count]
        loose.extend(pool[count:])
    nobles = [c for c in unseen if CARDS[c].kind == "noble"]
    s.supply["noble"] = nobles[:view["supply"]["nobles"]]
    loose.extend(nobles[view["supply"]["nobles"]:])
    others = [p for p in s.players if p.seat != seat]
    for p in others:
        p.deck_rest = [c for c in unseen if CARDS[c].colour == p.seat and CARDS[c].kind == "regular"]
    guest_pool = [c for c in unseen if CARDS[c].kind == "guest" and not CARDS[c].three_beer]
    loose.extend(c for c in unseen if CARDS[c].kind == "guest" and CARDS[c].three_beer)
    rng.shuffle(guest_pool)
    deck_size = guests["deck_count"]
    s.guest_deck = sorted(guest_pool[:deck_size])
    loose.extend(guest_pool[deck_size:])
    rng.shuffle(loose)
    for p in others:
        need = view["players"][p.seat]["deck_count"] - len(p.deck_rest)
        p.deck_rest.extend(loose[:max(0, need)])
        loose = loose[max(0, need):]
    target = {p.seat: view["players"][p.seat]["victory_points"] for p in others}
    for _ in range(8):  # alternate: the guest deck absorbs what swaps between opponents cannot
        for p in others:
            _match_vp(p, target[p.seat], s.guest_deck, rng)
        _balance_vp(others, target, rng)
        if all(vp(p) == target[p.seat] for p in others):
            break
    s.guest_deck.sort()
    # dice
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
        for key, values in (view["coasters"] or {}).items():
            coaster = s.coasters[s.held_coaster(int(key))]
            for v in values:
                d = free.pop(0)
                s.die_value[d] = v
                coaster.append(d)
    else:
        for d in free:
            s.coasters[d // WHITE_PER_PLAYER].append(d)
    return s


def prune(view: dict[str, Any], legal: list[Any]) -> list[Any]:
    """Moving a die that is already placed only undoes a move; a heuristic bot would shuffle it for ever."""
    me = next(p for p in view["players"] if p["seat"] == view["you"])
    placed = {d["die"] for d in me["dice"] if d["space"] is not None}
    kept = [c for c in legal if not (c.type == "PlaceDie" and c.die in placed)]
    return kept or legal
