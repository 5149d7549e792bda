"""The round (Game Play, phases A to G): automatic steps, bonuses and the monastery track.

``decide`` collects events in a :class:`Ctx` (the core :class:`~domain.core.decision.Decision`); reading
``ctx.state`` after an event was emitted gives the state with those events folded in (a copy, made once).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.core.decision import Decision

from . import data
from . import events as ev
from .cards import GROUPS, GUEST_KINDS, KIND
from .evolve import apply
from .state import COLOURED_PER_PLAYER, TiefenthalState, coloured_die, is_white
from .tavern import UPGRADABLE

ROUNDS: int = data.ROUNDS.value
ROUND_TRACK: list[dict[str, Any]] = list(data.ROUND_TRACK.value)
MONASTERY_TRACK: dict[int, dict[str, Any]] = dict(data.MONASTERY_TRACK.value)
MONASTERY_LAST: int = data.MONASTERY_LAST_SPACE.value
MONASTERY_START_COUNTS_AS_STEP: bool = data.MONASTERY_START_COUNTS_AS_STEP.value
"""The step past the last space lands on the start space (True) or the return is free (RULES_NOTES readings)."""
COUNTER_GUEST_USE: dict[str, Any] = dict(data.COUNTER_GUEST_USE.value)


class Ctx(Decision[TiefenthalState]):
    """The core decision context (:class:`~domain.core.decision.Decision`) bound to Tiefenthal's fold."""

    __slots__ = ()

    def __init__(self, state: TiefenthalState | None, rng: random.Random) -> None:
        super().__init__(state, rng, apply, TiefenthalState.copy)


# -- bonuses (round track, monastery track, guests' recruit bonus) -----------------------

def grant(ctx: Ctx, seat: int, bonus: dict[str, Any], reason: str) -> None:
    """Give ``seat`` one bonus spec (see ``data.py``); a missing supply card gives nothing, kind "none" nothing."""
    give = _GRANTS.get(bonus["kind"])
    if give is not None:
        give(ctx, seat, bonus, reason)


def _grant_card(ctx: Ctx, seat: int, bonus: dict[str, Any], reason: str) -> None:
    stack = ctx.state.supply.get(bonus["card"] if bonus["kind"] == "card" else "noble", [])
    if stack:
        ctx.emit(ev.CardGained(seat=seat, card=stack[-1], reason=reason))


def _grant_counter_guest(ctx: Ctx, seat: int, bonus: dict[str, Any], reason: str) -> None:
    if ctx.state.counter_supply > 0:
        ctx.emit(ev.CounterGuestGained(seat=seat))


def _grant_monastery(ctx: Ctx, seat: int, bonus: dict[str, Any], reason: str) -> None:
    move_monastery(ctx, seat, bonus["steps"])


def _grant_currency(ctx: Ctx, seat: int, bonus: dict[str, Any], reason: str) -> None:
    doubloons = bonus["kind"] == "doubloons"
    gain_currency(ctx, seat, bonus["n"] if doubloons else 0, 0 if doubloons else bonus["n"])


def _grant_upgrade(ctx: Ctx, seat: int, bonus: dict[str, Any], reason: str) -> None:
    p = ctx.state.players[seat]
    options = [{"kind": "upgrade_tile", "tile": t} for t in UPGRADABLE if t not in p.upgraded]
    if options:
        ctx.emit(ev.ChoiceOffered(seat=seat, options=options, reason=reason))


def _grant_upgrade_tile(ctx: Ctx, seat: int, bonus: dict[str, Any], reason: str) -> None:
    if bonus["tile"] not in ctx.state.players[seat].upgraded:
        upgrade(ctx, seat, bonus["tile"], [], 0)


def _grant_choice(ctx: Ctx, seat: int, bonus: dict[str, Any], reason: str) -> None:
    ctx.emit(ev.ChoiceOffered(seat=seat, options=list(bonus["options"]), reason=reason))


_GRANTS: dict[str, Callable[[Ctx, int, dict[str, Any], str], None]] = {
    "card": _grant_card, "noble": _grant_card, "counter_guest": _grant_counter_guest,
    "monastery": _grant_monastery, "doubloons": _grant_currency, "beer": _grant_currency,
    "upgrade": _grant_upgrade, "upgrade_tile": _grant_upgrade_tile, "choice": _grant_choice,
}


def gain_currency(ctx: Ctx, seat: int, doubloons: int, beer: int) -> None:
    """Virtual money during the seat's own turn; otherwise into safe/storage up to their limits."""
    s = ctx.state
    p = s.players[seat]
    if s.phase == "F" and s.active == seat and not p.done:
        ctx.emit(ev.CurrencyGained(seat=seat, doubloons=doubloons, beer=beer, stored=False))
        return
    d = max(0, min(doubloons, p.tile("safe") - p.safe))
    b = max(0, min(beer, p.tile("storage") - p.storage))
    if d or b:
        ctx.emit(ev.CurrencyGained(seat=seat, doubloons=d, beer=b, stored=True))


def move_monastery(ctx: Ctx, seat: int, steps: int) -> None:
    """The Monk: move the marker; every bonus passed or landed on is gained; past the last space back to 0.

    "If your Marker moves beyond the "22" space ..., place your Marker back on the starting space of the Track
    and continue its movement from there": the step past 22 lands on the start space, or, with
    ``MONASTERY_START_COUNTS_AS_STEP`` off, the return is free and that step goes on to space 1.
    """
    pos = ctx.state.players[seat].monastery
    path = []
    for _ in range(steps):
        if pos < MONASTERY_LAST:
            pos += 1
        else:
            pos = 0 if MONASTERY_START_COUNTS_AS_STEP else 1
        path.append(pos)
    ctx.emit(ev.MonasteryMoved(seat=seat, steps=steps, position=pos))
    for space in path:
        bonus = MONASTERY_TRACK.get(space)
        if bonus:
            grant(ctx, seat, bonus, f"monastery {space}")


def upgrade(ctx: Ctx, seat: int, tile: str, returned: list[int], price: int) -> None:
    """Flip a tile; every upgrade brings a noble onto the deck (Upgrade your Tavern)."""
    ctx.emit(ev.TileUpgraded(seat=seat, tile=tile, returned=returned, price=price))
    grant(ctx, seat, {"kind": "noble"}, f"upgrade {tile}")


# -- automatic phases ---------------------------------------------------------------------

def setup_events(n: int, rng: random.Random, start_player: int = 0, redraw: bool = True,
                 rounds: int = ROUNDS) -> list[Any]:
    """Setup: supplies, starting decks (7 regulars + Waitress, Table, Beer Supplier), the guest display."""
    supply = {t: list(GROUPS[t]) for t in data.TAVERN_CARDS}
    supply["noble"] = list(GROUPS["noble"])
    decks = []
    for seat in range(n):
        deck = list(GROUPS[f"regular:{seat}"])
        for t in data.STARTING_TAVERN_CARDS.value:
            deck.append(supply[t].pop())
        decks.append(sorted(deck))
    box = [c for colour in range(n, len(data.PLAYER_COLOURS.value)) for c in GROUPS[f"regular:{colour}"]]
    guest_deck = list(GROUPS["guest"])
    display = []
    for _ in range(data.GUEST_DISPLAY_SIZE.value):
        display.append(guest_deck.pop(rng.randrange(len(guest_deck))))
    first = ev.GameSetUp(players=n, start_player=start_player, decks=decks, supply=supply, guest_deck=guest_deck,
                         display=display, three_beer=list(GROUPS["three_beer"]), box=box,
                         counter_guests=n * data.COUNTER_GUESTS_PER_PLAYER.value, counter_guest_redraw=redraw,
                         rounds=rounds)
    ctx = Ctx(None, rng)
    ctx.emit(first)
    start_round(ctx, 1, start_player)
    advance(ctx, rng)
    return ctx.events


def start_round(ctx: Ctx, rnd: int, start: int) -> None:
    """Phase A: the moon moves on and every player gets the round bonus, in turn order."""
    ctx.emit(ev.RoundStarted(round=rnd, start_player=start))
    bonus = ROUND_TRACK[rnd - 1] if rnd - 1 < len(ROUND_TRACK) else {"kind": "none"}
    for seat in ctx.state.order():
        grant(ctx, seat, bonus, f"round {rnd}")


def fill_tavern(ctx: Ctx, seat: int, rng: random.Random) -> None:
    """Phase B: reveal cards until every table is taken; nobles stack; reshuffle an empty deck."""
    p = ctx.state.players[seat]
    top, rest, discard = list(p.deck_top), list(p.deck_rest), list(p.discard)
    tables = p.tile("tables") + p.n_staff("table")
    occupied = len(p.tables)
    noble_seated = p.noble_table >= 0
    drawn: list[int] = []
    while occupied < tables:
        if top:
            card = top.pop(0)
        else:
            if not rest:
                if not discard:
                    break
                rest, discard = discard, []
            card = rest.pop(rng.randrange(len(rest)))
        drawn.append(card)
        kind = KIND[card]
        if kind == "table":
            tables += 1
        elif kind in GUEST_KINDS and not (kind == "noble" and noble_seated):
            occupied += 1
            noble_seated = noble_seated or kind == "noble"
    ctx.emit(ev.TavernFilled(seat=seat, cards=drawn))


def waitress_dice(ctx: Ctx, seat: int, rng: random.Random) -> None:
    """Phase C: one coloured die per Waitress card and permanent waitress, at most 3 in all."""
    s = ctx.state
    p = s.players[seat]
    held = [d for d in p.dice if not is_white(d, s.n)]
    free = [coloured_die(seat, k, s.n) for k in range(COLOURED_PER_PLAYER) if coloured_die(seat, k, s.n) not in p.dice]
    count = min(len(free), max(0, COLOURED_PER_PLAYER - len(held)), p.n_staff("waitress") + p.tile("waitress"))
    if count:
        dice = free[:count]
        ctx.emit(ev.WaitressDiceRolled(seat=seat, dice=dice, values=[rng.randint(1, 6) for _ in dice]))


def _after_a(ctx: Ctx, rng: random.Random) -> bool:
    s = ctx.state
    if any(p.pending for p in s.players):
        return False
    ctx.emit(ev.PhaseStarted(phase="B"))
    for seat in s.order():
        fill_tavern(ctx, seat, rng)
    return True


def _after_b(ctx: Ctx, rng: random.Random) -> bool:
    s = ctx.state
    if s.redraw and any(not p.kept and p.counter_guests > 0 for p in s.players):
        return False
    ctx.emit(ev.PhaseStarted(phase="C"))
    for seat in s.order():
        waitress_dice(ctx, seat, rng)
    ctx.emit(ev.PhaseStarted(phase="D"))
    ctx.emit(ev.WhiteDiceRolled(values=[[rng.randint(1, 6) for _ in c] for c in ctx.state.coasters]))
    return False


def _after_d(ctx: Ctx, rng: random.Random) -> bool:
    s = ctx.state
    if s.picks >= s.white_dice():
        ctx.emit(ev.PhaseStarted(phase="E"))
    return False


def _after_e(ctx: Ctx, rng: random.Random) -> bool:
    s = ctx.state
    if all(p.planned for p in s.players):
        ctx.emit(ev.PhaseStarted(phase="F"))
        start_turn(ctx, s.start)
    return False


def _after_f(ctx: Ctx, rng: random.Random) -> bool:
    s = ctx.state
    if s.players[s.active].done is False:
        return False
    order = s.order()
    i = order.index(s.active)
    if i + 1 < len(order):
        start_turn(ctx, order[i + 1])
        return False
    ctx.emit(ev.RoundClosed(round=s.round, next_start=(s.start + 1) % s.n))
    if s.round >= s.rounds:
        ctx.emit(ev.GameEnded())
        return False
    start_round(ctx, s.round + 1, ctx.state.start)
    return True


AUTOMATIC: dict[str, Callable[[Ctx, random.Random], bool]] = {
    "A": _after_a, "B": _after_b, "D": _after_d, "E": _after_e, "F": _after_f,
}
"""Per phase: the automatic steps once nobody must decide there; True when the next phase may go on too."""


def advance(ctx: Ctx, rng: random.Random) -> None:
    """Run the automatic steps until some seat must decide (or the game is over)."""
    while True:
        step = AUTOMATIC.get(ctx.state.phase)
        if step is None or not step(ctx, rng):
            return


def start_turn(ctx: Ctx, seat: int) -> None:
    """Phase F: stored money becomes spendable; each Beer Merchant in the tavern gives 1 beer."""
    p = ctx.state.players[seat]
    merchant = data.TAVERN_CARDS["merchant"]["beer"].value * p.n_staff("merchant")
    ctx.emit(ev.TurnStarted(seat=seat, from_safe=p.safe, from_storage=p.storage, merchant_beer=merchant))
