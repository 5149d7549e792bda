"""What a seat may see: everything on the table, never the order of a draw pile
beyond the cards the seat itself put on top of its own deck."""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import data
from .actions import die_yield, returnable, space_rule, spaces_of, to_act
from .cards import CARDS, TAVERN_TYPES
from .flow import MONASTERY_TRACK, ROUND_TRACK
from .scoring import breakdown, vp
from .state import Player, TiefenthalState, is_white
from .tavern import TILE_COST, TILES, UPGRADABLE, table_index, upgrade_price


def _card(card: int) -> dict[str, Any]:
    return CARDS[card].public()


def _player(s: TiefenthalState, p: Player, me: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": p.seat,
        "colour": data.PLAYER_COLOURS.value[p.seat],
        "tiles": {t: {"upgraded": t in p.upgraded, "value": p.tile(t)} for t in TILES},
        "safe": p.safe,
        "storage": p.storage,
        "monastery": p.monastery,
        "counter_guests": p.counter_guests,
        "deck_count": len(p.deck_top) + len(p.deck_rest),
        "discard": [_card(c) for c in p.discard],
        "tavern": _tavern(p),
        "dice": _dice(s, p),
        "dishwashers": {"capacity": p.boost_capacity(), "in_use": p.boost_in_use()},
        "used_spaces": sorted(p.used_spaces),
        "doubloons": p.doubloons,
        "beer": p.beer,
        "bought_this_round": sorted(p.bought),
        "recruited_this_round": p.recruited,
        "pending_choices": [list(o) for o in p.pending],
        "planned": p.planned,
        "done": p.done,
        "victory_points": vp(p),
    }
    if p.noble_recruits:  # shown once it matters (a per-turn limit on recruiting nobles, RULES_NOTES readings)
        out["noble_recruits_this_round"] = p.noble_recruits
    # public for every seat: they follow from the tiles, the tavern and the cards placed there
    out["spaces"] = {sp: _space(p, sp) for sp in spaces_of(p)}
    out["upgrade_prices"] = {t: upgrade_price(t, 0) for t in UPGRADABLE if t not in p.upgraded}
    out["upgrade_offers"] = {t: [{"returned": r, "price": upgrade_price(t, r)} for r in range(returnable(p, t) + 1)]
                             for t in UPGRADABLE if t not in p.upgraded}
    out["score"] = {k: int(v) for k, v in breakdown(p).items()}
    if me:  # the seat's own draw pile: the cards it put on top (in order) and what the shuffled rest holds
        out["deck_top"] = [_card(c) for c in p.deck_top]
        out["deck_rest"] = dict(sorted(Counter(CARDS[c].name for c in p.deck_rest).items()))
    return out


def _tavern(p: Player) -> dict[str, Any]:
    return {
        "tables": [[_card(c) for c in t] for t in p.tables],
        "noble_table": p.noble_table if p.noble_table >= 0 else None,
        "staff": {k: [_card(c) for c in v] for k, v in p.staff.items() if v},
    }


def _dice(s: TiefenthalState, p: Player) -> list[dict[str, Any]]:
    return [{"die": d, "value": v, "white": is_white(d, s.n),
             "space": p.placed[d][0] if d in p.placed else None,
             "boost": p.placed[d][1] if d in p.placed else 0} for d, v in sorted(p.dice.items())]


def _space(p: Player, sp: str) -> dict[str, Any]:
    """One action space: the dice it takes, how many, what one die removed from it gives now, and who sits there."""
    accepts, limit = space_rule(p, sp)  # type: ignore[misc]
    doubloons, beer, monastery = die_yield(p, sp)
    out: dict[str, Any] = {"dice": sorted(accepts), "limit": limit,
                           "gives": {"doubloons": doubloons, "beer": beer, "monastery": monastery},
                           "used": sp in p.used_spaces}
    i = table_index(sp)
    out["table"] = i
    return out


def view(s: TiefenthalState, seat: int | None) -> dict[str, Any]:
    coasters = None
    if s.phase == "D":
        coasters = {str(seat_): [s.die_value[d] for d in s.coasters[s.held_coaster(seat_)]] for seat_ in range(s.n)}
    return {
        "round": s.round,
        "rounds": s.rounds,
        "phase": s.phase,
        "start_player": s.start,
        "to_act": to_act(s),
        "active": s.active if s.phase == "F" else None,
        "you": seat,
        "round_track": ROUND_TRACK,
        "monastery_track": {str(k): v for k, v in sorted(MONASTERY_TRACK.items())},
        "coasters": coasters,
        "supply": {
            "tavern_cards": {t: {"count": len(s.supply[t]), "cost": CARDS[s.supply[t][-1]].cost if s.supply[t] else None}
                             for t in TAVERN_TYPES},
            "nobles": len(s.supply["noble"]),
            "noble_prices": {str(k): v for k, v in data.NOBLE_PRICES.value.items()},
            "counter_guests": s.counter_supply,
            "upgrade_costs": dict(TILE_COST),
        },
        "guests": {
            "display": [_card(c) for c in s.display],
            "three_beer": {"count": len(s.three_beer), "top": _card(s.three_beer[-1]) if s.three_beer else None},
            "deck_count": len(s.guest_deck),
        },
        "players": [_player(s, p, p.seat == seat) for p in s.players],
    }

