"""What a seat (or a spectator) sees: everything on the table is public; pile contents and order never."""

from __future__ import annotations

from typing import Any

from . import delivery
from .barrels import claimable, goals
from .board import MONK_COST, START_SLOTS, TRACK
from .flow import Gains
from .garden import SHED_NAMES, SHED_PATTERNS, SPOT_NAMES, shed_options
from .privileges import PAIRS, SCORING_SPOTS
from .production import COLOURS, bracket
from .rewards import disc_gains
from .rules import cart_loads, carter_value, disc_options, price_on, simulate_cart
from .scoring import preview
from .state import ARRANGING, EMPTY, STEP_BARREL, STEP_CART, STEP_DISC, STEP_SHED, HeavenAndAleState, Player
from .supply import tile_name


def _player(s: HeavenAndAleState, seat: int, p: Player) -> dict[str, Any]:
    rate, value = bracket(p.brewmaster)
    out: dict[str, Any] = {
        "seat": seat,
        "ducats": p.money,
        "brewmaster": p.brewmaster,
        "exchange_rate": rate,
        "vp_per_spot": value,
        "markers": dict(zip(COLOURS, p.markers)),
        "garden": {SPOT_NAMES[i]: tile_name(t) for i, t in enumerate(p.garden) if t != EMPTY},
        # A shed's type is how many adjacent tiles it activates (§3.7).
        "sheds": {SHED_NAMES[i]: {"type": k, "activates": len(SHED_PATTERNS[k][0])}
                  for i, k in enumerate(p.sheds) if k != EMPTY},
        "discs": [SCORING_SPOTS[i] for i, d in enumerate(p.discs) if d],
        "pairs": [{"spots": [SCORING_SPOTS[a], SCORING_SPOTS[b]], "card": p.pairs[i]} for i, (a, b) in enumerate(PAIRS)],
        "privilege_cards": list(p.cards),
        "large_barrels": list(p.large),
        "small_barrels": list(p.small),
        "figure": "start" if p.pos == 0 else p.pos,
        "finished_round": p.done,
        "starting_space": START_SLOTS[p.slot] if p.slot != EMPTY else None,
        "score_now": preview(s, seat),
    }
    if s.kegs_and_more:
        out["delivery"] = _delivery(s, p)
    return out


def _delivery(s: HeavenAndAleState, p: Player) -> dict[str, Any]:
    """Kegs & More: the player's delivery board, cart and storage tiles."""
    return {
        "kegs": p.total_kegs(),
        "bales": p.total_bales(),
        "regular_spots": delivery.REGULAR_SPOTS + p.extra_spots,
        "regular_kegs": p.kegs,
        "regular_bales": p.bales,
        "rental_spot": p.rental,
        "board_tiles": list(p.board_tiles),
        "carter_bonus": p.carter_bonus(),
        "keg_area_values": [v if v is not None else delivery.KEG_AREA_VALUES[i] for i, v in enumerate(p.area_values)],
        "cart": p.cart,
        "cart_kegs": p.cart_kegs,
        "delivered": list(p.delivered),
        "storage_tiles": {SHED_NAMES[i]: t for i, t in enumerate(p.storage_tiles) if t is not None},
        # Setup 3D: the tiles still to arrange (the same seven for everyone, so nothing hidden).
        "storage_tiles_in_hand": [t for t in delivery.STORAGE_TILES if t not in p.storage_tiles]
        if s.phase == ARRANGING else [],
        "carter_value": carter_value(s, p),
        "cart_location": delivery.ROAD[p.cart][0],
    }


def _gains(gains: Gains) -> dict[str, Any]:
    return {"ducats": gains.ducats, "markers": {c: n for c, n in zip(COLOURS, gains.markers) if n},
            "brewmaster": gains.brew}


def _shed_choices(s: HeavenAndAleState) -> list[dict[str, Any]]:
    """What each way of activating the pending shed would give now (§3.7 step 3), computed by the rules' own
    reward code so a client only shows it."""
    shed = s.sheds_pending[0]
    p = s.players[s.turn]
    out = []
    for spots in shed_options(shed, p.sheds[shed]):
        gains = Gains(s, s.turn)
        for spot in spots:
            gains.activate(spot)
        out.append({"spots": [SPOT_NAMES[x] for x in spots], **_gains(gains)})
    return out


def _disc_choices(s: HeavenAndAleState) -> list[dict[str, Any]]:
    """What each disc choice on the current space would give now (§3.6, §3.8)."""
    return [{"spot": SCORING_SPOTS[spot], "number": n, **_gains(disc_gains(s, s.turn, spot, n)[0])}
            for spot, n in disc_options(s, s.players[s.turn], s.space)]


def _cart_choices(s: HeavenAndAleState) -> list[dict[str, Any]]:
    """Where each use of the carter die takes the cart and what it loads and delivers (expansion A3)."""
    p = s.players[s.turn]
    steps = carter_value(s, p)
    out = []
    for load in cart_loads(p, steps, from_die=True):
        to, loaded, delivered, _ = simulate_cart(p.cart, p.cart_kegs, steps, load)
        out.append({"load": load, "steps": steps, "to": to, "to_kind": delivery.ROAD[to][0], "loaded": loaded,
                    "delivered": delivered})
    return out


def _barrel_choice(s: HeavenAndAleState) -> dict[str, list[int]]:
    """The goals whose large and small barrels ``ClaimBarrels`` would take now (§3.11)."""
    large, small = claimable(s, s.turn)
    return {"large": large, "small": small}


def _track(s: HeavenAndAleState) -> list[dict[str, Any]]:
    track = []
    for i, kind in enumerate(TRACK):
        space: dict[str, Any] = {"index": i, "kind": kind}
        if s.tiles[i]:
            space["tiles"] = sorted(tile_name(t) for t in s.tiles[i])
            # what each tile costs from this space, so a client shows the rule's price and never reckons it
            space["prices"] = {tile_name(t): {"sunny": price_on(t, i, sunny=True), "shady": price_on(t, i, sunny=False)}
                               for t in sorted(set(s.tiles[i]))}
        if i in MONK_COST:
            space["monk_cost"] = MONK_COST[i]
        if s.discs[i]:
            space["discs"] = s.discs[i]
        if s.kegs_and_more:
            space["kegs"] = s.kegs[i]
            space["bales"] = s.bales[i]
        track.append(space)
    return track


def _turn(s: HeavenAndAleState) -> dict[str, Any]:
    """Facts of the turn under way that everyone at the table saw happen (and that decide what is legal next):
    where the figure started, whether an action was performed, tiles bought, sheds enclosed and still to
    resolve; and what each option of the pending decision would give."""
    playing = s.turn != EMPTY
    return {
        "turn_started_at": s.turn_from if playing else None,
        "acted": s.acted if playing else None,
        "bought": s.bought if playing else None,
        "pending_sheds": [SHED_NAMES[i] for i in s.sheds_pending],
        "pending_pair": s.pair if s.pair != EMPTY else None,
        "pending_pair_spots": [SCORING_SPOTS[x] for x in PAIRS[s.pair]] if s.pair != EMPTY else None,
        **_choices(s, playing),
    }


def _choices(s: HeavenAndAleState, playing: bool) -> dict[str, Any]:
    """What each option of the pending decision would give (None for the decisions not pending)."""
    return {
        "shed_choices": _shed_choices(s) if s.step == STEP_SHED and s.sheds_pending else None,
        "disc_choices": _disc_choices(s) if s.step == STEP_DISC and playing else None,
        "barrel_choice": _barrel_choice(s) if s.step == STEP_BARREL and playing else None,
        "cart_choices": _cart_choices(s) if s.step == STEP_CART and playing else None,
    }


def view(s: HeavenAndAleState, seat: int | None) -> dict[str, Any]:
    playing = s.turn != EMPTY
    all_goals = goals(s.kegs_and_more)
    out: dict[str, Any] = {
        "phase": s.phase,
        "round": s.round,
        "rounds": s.rounds,
        "players": s.n,
        "start_player": s.start_player,
        "turn": s.turn if playing else None,
        "step": s.step or None,
        "current_space": s.space if playing else None,
        "pending_shed": SHED_NAMES[s.sheds_pending[0]] if s.sheds_pending else None,
        **_turn(s),
        "track": _track(s),
        "starting_spaces": {name: (who if who != EMPTY else None) for name, who in zip(START_SLOTS, s.slots)},
        "barrels": [{"goal": g, "text": text, "large": s.large[g] if s.large[g] != EMPTY else None,
                     "small": s.small[g] if s.small[g] != EMPTY else None} for g, (text, _) in enumerate(all_goals)],
        # Only the sizes of the face-down piles: never their order (which does not even exist).
        "resource_piles": [sum(p) for p in s.piles],
        "resource_piles_by_back": {"I": sum(s.piles[0]), "II": sum(s.piles[1])},
        "monk_piles_left": max(0, s.rounds - s.round),  # stacks of 4 still to come (unused ones are boxed)
        "disc_reserve": s.disc_reserve(),
        "kegs_and_more": s.kegs_and_more,
        "boards": [_player(s, i, p) for i, p in enumerate(s.players)],
        "me": seat,
    }
    if s.kegs_and_more:
        out["carter_die"] = {"space": s.die_space if s.die_space != EMPTY else None, "value": s.die_value}
        out["keg_reserve"] = s.keg_reserve
        out["bale_reserve"] = s.bale_reserve
    return out
