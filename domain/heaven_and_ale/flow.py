"""Turn and round flow: the scratch context ``decide`` works in, rewards, stages, turn end, round preparation.

``decide`` runs on a copy of the state and folds each event into it as soon
as it is emitted, so later rules read the consequences of earlier ones.
"""

from __future__ import annotations

import random

from domain.core.decision import Decision

from . import delivery
from . import events as ev
from .barrels import claimable
from .board import (
    BARREL,
    DISC_SPACES,
    LAST_ROUND_EXTRA_DISCS,
    MONK,
    MONK_SPACES,
    RESOURCE,
    RESOURCE_SPACES,
    SLOT_FIRST,
    START_SLOTS,
    TRACK,
    TRACK_LEN,
)
from .evolve import evolve
from .garden import N_SIDE, SHED_NAMES, SHED_NEIGHBOURS, SPOT_NAMES, shed_options
from .production import BREWMASTER_OVERFLOW_DUCATS, MARKER_OVERFLOW_DUCATS, TRACK_MAX, shed_reward
from .rules import SpaceChecks, cart_performable, effective_pos, goods_performable, potential_money
from .state import (
    EMPTY,
    OVER,
    STEP_BARREL,
    STEP_BUY,
    STEP_CART,
    STEP_DISC,
    STEP_GOODS,
    STEP_SHED,
    STEP_STORAGE,
    HeavenAndAleState,
)
from .supply import MONK_BASE, MONKS_PER_PILE, pile_back_for_round, tile_name


class Ctx(Decision[HeavenAndAleState]):
    """The core decision context (:class:`~domain.core.decision.Decision`) bound to Heaven & Ale's fold."""

    __slots__ = ()

    def __init__(self, state: HeavenAndAleState | None, rng: random.Random) -> None:
        super().__init__(state, rng, evolve, HeavenAndAleState.copy, eager=True)


# -- rewards ---------------------------------------------------------------------------------------
class Gains:
    """Accumulates activation rewards for one seat, applying the caps at 20 (§3.6, U8)."""

    def __init__(self, s: HeavenAndAleState, seat: int) -> None:
        self.p = s.players[seat]
        self.seat = seat
        self.ducats = 0
        self.markers = [0, 0, 0, 0, 0]
        self.brew = 0

    def marker(self, colour: int, steps: int) -> None:
        room = max(0, TRACK_MAX - (self.p.markers[colour] + self.markers[colour]))
        moved = min(steps, room)
        self.markers[colour] += moved
        self.ducats += (steps - moved) * MARKER_OVERFLOW_DUCATS

    def brewmaster(self, steps: int) -> None:
        room = max(0, TRACK_MAX - (self.p.brewmaster + self.brew))
        moved = min(steps, room)
        self.brew += moved
        self.ducats += (steps - moved) * BREWMASTER_OVERFLOW_DUCATS

    def activate(self, spot: int) -> None:
        """Activate the tile on ``spot``: shady pays ducats, sunny moves its marker, a monk moves the brewmaster."""
        code = self.p.garden[spot]
        if code == EMPTY:
            return
        if code >= MONK_BASE:
            self.brewmaster(1)
        elif spot < N_SIDE:
            self.marker(code // 5, code % 5 + 1)
        else:
            self.ducats += code % 5 + 1

    def emit(self, ctx: Ctx, reason: str) -> None:
        if self.ducats or self.brew or any(self.markers):
            ctx.emit(ev.RewardsGained(seat=self.seat, reason=reason, ducats=self.ducats, markers=self.markers,
                                      brewmaster=self.brew))


# -- stages of a turn ------------------------------------------------------------------------------
def prompt(ctx: Ctx, step: str, shed: int | None = None, pair: int | None = None) -> None:
    ctx.emit(ev.StepBegan(seat=ctx.state.turn, step=step, shed=None if shed is None else SHED_NAMES[shed], pair=pair))


def start_base_action(ctx: Ctx) -> None:
    """After moving onto a track space: the base action, if it can be performed (§3.4, expansion A1)."""
    s = ctx.state
    seat, space = s.turn, s.space
    p = s.players[seat]
    if not SpaceChecks(s, seat).base(space):
        after_base(ctx)
        return
    kind = TRACK[space]
    if kind in (RESOURCE, MONK):
        prompt(ctx, STEP_BUY)
    elif kind == BARREL:
        optional = s.kegs_and_more and (goods_performable(s, p, space, potential_money(p))
                                        or cart_performable(s, p, space))
        if optional:
            prompt(ctx, STEP_BARREL)
        else:
            claim_barrels(ctx)
            after_base(ctx)
    else:
        prompt(ctx, STEP_DISC)


def claim_barrels(ctx: Ctx) -> None:
    large, small = claimable(ctx.state, ctx.state.turn)
    ctx.emit(ev.BarrelsClaimed(seat=ctx.state.turn, large=large, small=small))


def after_base(ctx: Ctx) -> None:
    """Expansion A2: kegs and bales, then A3: the carter die; then the turn ends."""
    s = ctx.state
    if s.kegs_and_more:
        p = s.players[s.turn]
        if goods_performable(s, p, s.space, potential_money(p)):
            prompt(ctx, STEP_GOODS)
            return
    after_goods(ctx)


def after_goods(ctx: Ctx) -> None:
    s = ctx.state
    if s.kegs_and_more and cart_performable(s, s.players[s.turn], s.space):
        prompt(ctx, STEP_CART)
        return
    end_turn(ctx)


def resume_buying(ctx: Ctx) -> None:
    """Resolve enclosed sheds in order (expansion B, then §3.7), then go on buying."""
    s = ctx.state
    seat = s.turn
    while s.sheds_pending:
        shed = s.sheds_pending[0]
        p = s.players[seat]
        if s.kegs_and_more and p.storage_tiles[shed] is not None:
            prompt(ctx, STEP_STORAGE, shed=shed)
            return
        if p.sheds[shed] == EMPTY:
            build_shed(ctx, shed)
            p = ctx.state.players[seat]
        options = shed_options(shed, p.sheds[shed])
        if len(options) > 1:
            prompt(ctx, STEP_SHED, shed=shed)
            return
        activate_shed(ctx, shed, options[0])
        s = ctx.state
    prompt(ctx, STEP_BUY)


def build_shed(ctx: Ctx, shed: int) -> None:
    """§3.7 steps 1-2: fertility sum, brewmaster steps, shed type."""
    s = ctx.state
    p = s.players[s.turn]
    fertility = sum(p.garden[n] % 5 + 1 for n in SHED_NEIGHBOURS[shed] if p.garden[n] < MONK_BASE)
    steps, kind = shed_reward(fertility)
    ctx.emit(ev.ShedBuilt(seat=s.turn, shed=SHED_NAMES[shed], fertility=fertility, shed_type=kind))
    gains = Gains(ctx.state, ctx.state.turn)
    gains.brewmaster(steps)
    gains.emit(ctx, f"shed {SHED_NAMES[shed]}")


def activate_shed(ctx: Ctx, shed: int, spots: tuple[int, ...]) -> None:
    """§3.7 step 3: activate the chosen adjacent tiles."""
    seat = ctx.state.turn
    ctx.emit(ev.ShedTilesActivated(seat=seat, shed=SHED_NAMES[shed], spots=[SPOT_NAMES[x] for x in spots]))
    gains = Gains(ctx.state, seat)
    for spot in spots:
        gains.activate(spot)
    gains.emit(ctx, f"shed {SHED_NAMES[shed]} activation")


# -- turn end, rounds -------------------------------------------------------------------------------
def roll(ctx: Ctx) -> int:
    return ctx.rng.randint(1, delivery.DIE_FACES)


def end_turn(ctx: Ctx) -> None:
    s = ctx.state
    seat = s.turn
    if s.kegs_and_more:
        carter_die_at_turn_end(ctx)
        s = ctx.state
    ctx.emit(ev.TurnEnded(seat=seat))
    s = ctx.state
    if all(p.done for p in s.players):
        if s.round >= s.rounds:
            ctx.emit(ev.GameEnded())
            return
        prepare_round(ctx, s.round + 1)
        s = ctx.state
        ctx.emit(ev.RoundBegan(round=s.round + 1))
        begin_turn(ctx, ctx.state.slots[START_SLOTS.index(SLOT_FIRST)])
        return
    nxt = (seat + 1) % s.n
    while s.players[nxt].done:
        nxt = (nxt + 1) % s.n
    begin_turn(ctx, nxt)


def begin_turn(ctx: Ctx, seat: int) -> None:
    ctx.emit(ev.TurnBegan(seat=seat))


def carter_die_at_turn_end(ctx: Ctx) -> None:
    """Expansion A 'IMPORTANT' and its special case (RULES_NOTES R-K1, R-K2)."""
    s = ctx.state
    p = s.players[s.turn]
    here = 0 if p.done else p.pos
    d = s.die_space
    if d == EMPTY:
        return
    if d == here:
        r = roll(ctx)
        ctx.emit(ev.CarterDiePlaced(space=(here + r) % TRACK_LEN, value=r, reason="rolled"))
        return
    if 1 <= d < TRACK_LEN and s.turn_from < d < effective_pos(p) and all(effective_pos(q) > d for q in s.players):
        # "Place the die ... one space ahead of the player figure that is farthest ahead": a figure that has
        # entered the starting area this round is the farthest ahead (effective_pos), so then the die goes to
        # the space after the starting area; otherwise after the farthest figure on the track.
        r = roll(ctx)
        farthest = max(effective_pos(q) for q in s.players)
        ctx.emit(ev.CarterDiePlaced(space=(farthest + 1) % TRACK_LEN, value=r, reason="skipped"))


def draw(rng: random.Random, counts: list[int]) -> int:
    """Draw one item uniformly from a multiset given as counts (the pile's order never exists)."""
    total = sum(counts)
    x = rng.randrange(total)
    for code, c in enumerate(counts):
        if x < c:
            return code
        x -= c
    raise AssertionError("unreachable")


def stock_track(ctx: Ctx, round_no: int) -> None:
    """§3.2 steps 2, 4-6 / §3.12 steps 1-4: monks, resource tiles and discs onto the track."""
    s = ctx.state
    piles = [p[:] for p in s.piles]
    resources: list[tuple[int, str, int]] = []
    for space in RESOURCE_SPACES:
        back = 0 if sum(piles[0]) else 1
        if not sum(piles[back]):
            break
        code = draw(ctx.rng, piles[back])
        piles[back][code] -= 1
        resources.append((space, tile_name(code), back))
    back = pile_back_for_round(round_no)
    monk_counts = s.monk_piles[back][:]
    monks: list[tuple[int, str]] = []
    for space in MONK_SPACES[:MONKS_PER_PILE]:
        if not sum(monk_counts):
            break
        t = draw(ctx.rng, monk_counts)
        monk_counts[t] -= 1
        monks.append((space, tile_name(MONK_BASE + t)))
    discs = s.discs[:]
    reserve = s.disc_reserve()
    extra = LAST_ROUND_EXTRA_DISCS.get(s.n, ()) if round_no == s.rounds else ()
    for space in DISC_SPACES:
        want = 1 + (space in extra)
        add = max(0, min(want - discs[space], reserve))
        discs[space] += add
        reserve -= add
    ctx.emit(ev.TrackStocked(round=round_no, resources=resources, monks=monks, monk_back=back, discs=discs))


def add_goods(ctx: Ctx) -> None:
    """Expansion setup 5 / C: 4 kegs then 4 bales, counting the die's pips from the die (start area counts)."""
    s = ctx.state
    pos = s.die_space
    kegs: list[int] = []
    bales: list[int] = []
    for _i in range(min(delivery.GOODS_PER_ROUND, s.keg_reserve)):
        pos = (pos + s.die_value) % TRACK_LEN
        kegs.append(pos)
    for _i in range(min(delivery.GOODS_PER_ROUND, s.bale_reserve)):
        pos = (pos + s.die_value) % TRACK_LEN
        bales.append(pos)
    ctx.emit(ev.GoodsAdded(kegs=kegs, bales=bales))


def prepare_round(ctx: Ctx, round_no: int) -> None:
    stock_track(ctx, round_no)
    if ctx.state.kegs_and_more:
        add_goods(ctx)


def start_play(ctx: Ctx) -> None:
    """After setup: (expansion) roll and place the carter die, add goods; then round 1 begins."""
    s = ctx.state
    if s.kegs_and_more:
        r = roll(ctx)
        ctx.emit(ev.CarterDiePlaced(space=r % TRACK_LEN, value=r, reason="setup"))
        add_goods(ctx)
    ctx.emit(ev.RoundBegan(round=1))
    begin_turn(ctx, ctx.state.start_player)


def game_over(s: HeavenAndAleState) -> bool:
    return s.phase == OVER
