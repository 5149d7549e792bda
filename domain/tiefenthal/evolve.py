"""Folding events into the state: copies facts only, never validates, never draws randomness."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import events as ev
from .cards import GUEST_KINDS, KIND
from .state import COLOURED_PER_PLAYER, OVER, WHITE_PER_PLAYER, Player, TiefenthalState, is_white


def _take_from_supply(state: TiefenthalState, card: int) -> None:
    kind = KIND[card]
    stack = state.supply.get(kind)
    if stack is not None and card in stack:
        stack.remove(card)


def _to_deck_top(player: Player, card: int) -> None:
    """Everything bought or earned goes face down on top of the deck (Phase F)."""
    player.deck_top.insert(0, card)


def _set_up(state: Any, e: ev.GameSetUp) -> TiefenthalState:
    s = TiefenthalState(n=e.players, start=e.start_player)
    s.players = [Player(seat=i, deck_rest=list(d)) for i, d in enumerate(e.decks)]
    s.supply = {k: list(v) for k, v in e.supply.items()}
    s.guest_deck = list(e.guest_deck)
    s.display = list(e.display)
    s.three_beer = list(e.three_beer)
    s.box = list(e.box)
    s.counter_supply = e.counter_guests
    s.redraw = e.counter_guest_redraw
    s.rounds = e.rounds
    s.coasters = [list(range(c * WHITE_PER_PLAYER, (c + 1) * WHITE_PER_PLAYER)) for c in range(e.players)]
    s.die_value = [1] * (e.players * (WHITE_PER_PLAYER + COLOURED_PER_PLAYER))
    return s


def _round_started(s: TiefenthalState, e: ev.RoundStarted) -> TiefenthalState:
    s.round = e.round
    s.start = e.start_player
    s.phase = "A"
    s.picks = 0
    s.active = -1
    for p in s.players:
        p.bought = []
        p.recruited = 0
        p.noble_recruits = 0
        p.used_spaces = set()
        p.boost_spent = 0
        p.planned = False
        p.kept = False
        p.done = False
    return s


def _phase_started(s: TiefenthalState, e: ev.PhaseStarted) -> TiefenthalState:
    s.phase = e.phase
    if e.phase == "D":
        s.picks = 0
    return s


def _choice_offered(s: TiefenthalState, e: ev.ChoiceOffered) -> TiefenthalState:
    s.players[e.seat].pending.append(list(e.options))
    return s


def _bonus_chosen(s: TiefenthalState, e: ev.BonusChosen) -> TiefenthalState:
    s.players[e.seat].pending.pop(0)
    return s


def _card_gained(s: TiefenthalState, e: ev.CardGained) -> TiefenthalState:
    _take_from_supply(s, e.card)
    _to_deck_top(s.players[e.seat], e.card)
    return s


def _counter_gained(s: TiefenthalState, e: ev.CounterGuestGained) -> TiefenthalState:
    s.counter_supply -= 1
    s.players[e.seat].counter_guests += 1
    return s


def _counter_used(s: TiefenthalState, e: ev.CounterGuestUsed) -> TiefenthalState:
    s.players[e.seat].counter_guests -= 1
    s.counter_supply += 1
    return s


def _monastery(s: TiefenthalState, e: ev.MonasteryMoved) -> TiefenthalState:
    s.players[e.seat].monastery = e.position
    return s


def _currency(s: TiefenthalState, e: ev.CurrencyGained) -> TiefenthalState:
    p = s.players[e.seat]
    if e.stored:
        p.safe += e.doubloons
        p.storage += e.beer
    else:
        p.doubloons += e.doubloons
        p.beer += e.beer
    return s


def _filled(s: TiefenthalState, e: ev.TavernFilled) -> TiefenthalState:
    """Phase B: reveal each card and put it in its place; nobles stack at one table."""
    p = s.players[e.seat]
    for card in e.cards:
        if p.deck_top:
            p.deck_top.pop(0)
        else:
            if not p.deck_rest:
                p.deck_rest = p.discard
                p.discard = []
            p.deck_rest.remove(card)
        kind = KIND[card]
        if kind in GUEST_KINDS:
            if kind == "noble" and p.noble_table >= 0:
                p.tables[p.noble_table].append(card)
            else:
                if kind == "noble":
                    p.noble_table = len(p.tables)
                p.tables.append([card])
        else:
            p.staff.setdefault(kind, []).append(card)
    return s


def _kept(s: TiefenthalState, e: ev.TavernKept) -> TiefenthalState:
    s.players[e.seat].kept = True
    return s


def _clear_tavern(p: Player) -> None:
    p.discard.extend(p.tavern_cards())
    p.tables = []
    p.noble_table = -1
    p.staff = {}


def _cleared(s: TiefenthalState, e: ev.TavernCleared) -> TiefenthalState:
    _clear_tavern(s.players[e.seat])
    return s


def _waitress_dice(s: TiefenthalState, e: ev.WaitressDiceRolled) -> TiefenthalState:
    p = s.players[e.seat]
    for die, value in zip(e.dice, e.values):
        s.die_value[die] = value
        p.dice[die] = value
    return s


def _white_rolled(s: TiefenthalState, e: ev.WhiteDiceRolled) -> TiefenthalState:
    for coaster, values in zip(s.coasters, e.values):
        for die, value in zip(coaster, values):
            s.die_value[die] = value
    return s


def _picked(s: TiefenthalState, e: ev.DiePicked) -> TiefenthalState:
    s.coasters[s.held_coaster(e.seat)].remove(e.die)
    s.players[e.seat].dice[e.die] = s.die_value[e.die]
    s.picks += 1
    return s


def _placed(s: TiefenthalState, e: ev.DiePlaced) -> TiefenthalState:
    s.players[e.seat].placed[e.die] = (e.space, e.boost)
    return s


def _planned(s: TiefenthalState, e: ev.PlanningFinished) -> TiefenthalState:
    s.players[e.seat].planned = True
    return s


def _turn_started(s: TiefenthalState, e: ev.TurnStarted) -> TiefenthalState:
    p = s.players[e.seat]
    s.active = e.seat
    p.safe -= e.from_safe
    p.storage -= e.from_storage
    p.doubloons += e.from_safe
    p.beer += e.from_storage + e.merchant_beer
    return s


def _return_die(s: TiefenthalState, p: Player, die: int) -> None:
    """Used white dice go back to the player's coaster, coloured ones to the supply."""
    del p.dice[die]
    if is_white(die, s.n):
        s.coasters[p.seat].append(die)


def _die_taken(s: TiefenthalState, e: ev.DieTaken) -> TiefenthalState:
    p = s.players[e.seat]
    space, boost = p.placed.pop(e.die)
    p.boost_spent += boost
    p.used_spaces.add(space)
    _return_die(s, p, e.die)
    p.doubloons += e.doubloons
    p.beer += e.beer
    return s


def _bought(s: TiefenthalState, e: ev.CardBought) -> TiefenthalState:
    p = s.players[e.seat]
    _take_from_supply(s, e.card)
    _to_deck_top(p, e.card)
    p.doubloons -= e.price
    p.bought.append(KIND[e.card])
    return s


def _upgraded(s: TiefenthalState, e: ev.TileUpgraded) -> TiefenthalState:
    p = s.players[e.seat]
    p.upgraded.add(e.tile)
    p.doubloons -= e.price
    for card in e.returned:
        kind = KIND[card]
        p.staff[kind].remove(card)
        s.supply[kind].append(card)
    return s


def _recruited(s: TiefenthalState, e: ev.GuestRecruited) -> TiefenthalState:
    p = s.players[e.seat]
    p.beer -= e.price
    p.recruited += 1
    if e.card in s.display:
        slot = s.display.index(e.card)
        if e.refill is None:
            del s.display[slot]
        else:
            s.display[slot] = e.refill
    else:
        s.three_beer.remove(e.card)
        if e.refill is not None:  # the last 3-beer guest: a fifth card joins the display
            s.display.append(e.refill)
    if e.refill is not None:
        s.guest_deck.remove(e.refill)
    _to_deck_top(p, e.card)
    return s


def _nobles(s: TiefenthalState, e: ev.NoblesRecruited) -> TiefenthalState:
    p = s.players[e.seat]
    p.beer -= e.price
    p.noble_recruits += 1
    for card in e.cards:
        _take_from_supply(s, card)
        _to_deck_top(p, card)
    return s


def _turn_ended(s: TiefenthalState, e: ev.TurnEnded) -> TiefenthalState:
    p = s.players[e.seat]
    p.safe += e.stored_doubloons
    p.storage += e.stored_beer
    p.doubloons = 0
    p.beer = 0
    for die in list(p.dice):
        _return_die(s, p, die)
    p.placed = {}
    p.done = True
    return s


def _round_closed(s: TiefenthalState, e: ev.RoundClosed) -> TiefenthalState:
    """Phase G: all cards of the tavern go to the discard pile."""
    s.phase = "G"
    s.active = -1
    for p in s.players:
        _clear_tavern(p)
        p.used_spaces = set()
        p.boost_spent = 0
    s.start = e.next_start
    return s


def _game_ended(s: TiefenthalState, e: ev.GameEnded) -> TiefenthalState:
    s.phase = OVER
    return s


HANDLERS: dict[type, Callable[[Any, Any], TiefenthalState]] = {
    ev.GameSetUp: _set_up, ev.RoundStarted: _round_started, ev.PhaseStarted: _phase_started,
    ev.ChoiceOffered: _choice_offered, ev.BonusChosen: _bonus_chosen, ev.CardGained: _card_gained,
    ev.CounterGuestGained: _counter_gained, ev.CounterGuestUsed: _counter_used, ev.MonasteryMoved: _monastery,
    ev.CurrencyGained: _currency, ev.TavernFilled: _filled, ev.TavernKept: _kept, ev.TavernCleared: _cleared,
    ev.WaitressDiceRolled: _waitress_dice,
    ev.WhiteDiceRolled: _white_rolled, ev.DiePicked: _picked, ev.DiePlaced: _placed,
    ev.PlanningFinished: _planned, ev.TurnStarted: _turn_started, ev.DieTaken: _die_taken, ev.CardBought: _bought,
    ev.TileUpgraded: _upgraded, ev.GuestRecruited: _recruited, ev.NoblesRecruited: _nobles,
    ev.TurnEnded: _turn_ended, ev.RoundClosed: _round_closed, ev.GameEnded: _game_ended,
}


def apply(state: TiefenthalState | None, event: Any) -> TiefenthalState:
    """Fold one event (mutates ``state`` in place)."""
    return HANDLERS[type(event)](state, event)
