"""The static description a client draws Tiefenthal from: the tavern board's tiles and action spaces,
the two sides of each tile, the shared boards' tracks and the card types.

Every number is read from ``data.py`` through the runtime tables the engine itself uses, so the
description cannot drift from the rules; only the words (labels, units, phase names) live here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import data
from .cards import CARDS, GROUPS, TAVERN_TYPES
from .flow import COUNTER_GUEST_USE, MONASTERY_LAST, MONASTERY_START_COUNTS_AS_STEP, MONASTERY_TRACK, ROUND_TRACK
from .tavern import DISCOUNT, DISCOUNT_CARD, PER_CARD, TILE_COST, TILE_SPACES, TILE_VALUES, TILES, UPGRADABLE

PHASES: dict[str, str] = {
    "A": "Round bonus", "B": "Fill the taverns", "C": "Waitress dice", "D": "Dice draft",
    "E": "Planning (all at once)", "F": "Turns", "G": "End of round", "end": "Game over",
}
SIMULTANEOUS_PHASES = ("A", "B", "E")
"""Phases where every seat listed in ``to_act`` decides at once (RULES_NOTES, model of the game)."""

TILE_WORDS: dict[str, tuple[str, str]] = {  # tile id -> (label, what its number counts)
    "tables": ("Tables", "permanent tables"),
    "waitress": ("Waitress", "coloured dice a round"),
    "cashbox": ("Cashbox", "doubloons per die"),
    "monk": ("Monk", "monastery steps per 5"),
    "dishwasher": ("Dish washing", "+1 steps a round"),
    "safe": ("Safe", "doubloons kept"),
    "host": ("Host", "(Module 3)"),
    "barrel": ("House brew", "beer per die"),
    "supplier": ("Beer supplier", "beer per die"),
    "storage": ("Beer storage", "beer kept"),
}
CARD_EFFECTS: dict[str, str] = {
    "merchant": "1 beer at the start of your turn",
    "dishwasher": "+1 to one die a round",
    "waitress": "1 coloured die a round",
    "table": "one more table this round",
    "supplier": "+1 beer per die on the supplier",
}


def _tile(t: str) -> dict[str, Any]:
    label, unit = TILE_WORDS.get(t, (t, ""))
    out: dict[str, Any] = {"id": t, "label": label, "unit": unit, "sides": list(TILE_VALUES[t]),
                           "upgradable": t in UPGRADABLE, "cost": TILE_COST.get(t)}
    if t in DISCOUNT_CARD:
        out["special_offer"] = {"card": DISCOUNT_CARD[t], "discount": DISCOUNT[t]}
    space = TILE_SPACES.get(t)
    if space is not None:
        out["space"] = {"dice": sorted(space.dice), "limit": space.limit, "gives": space.gives,
                        "per_card": PER_CARD.get(t, 0)}
    return out


def _guest_types() -> list[dict[str, Any]]:
    """One entry per distinct printed guest (with how many copies), in catalogue order."""
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for group in ("three_beer", "guest", "noble"):
        for cid in GROUPS[group]:
            c = CARDS[cid].public()
            key = (c["kind"], c["name"], c.get("cost"), tuple(c["dice"]), c["pay"], c["vp"])
            if key in seen:
                seen[key]["copies"] += 1
            else:
                seen[key] = {k: v for k, v in c.items() if k != "id"} | {"copies": 1, "three_beer": group == "three_beer"}
    return list(seen.values())


@lru_cache(maxsize=1)
def describe() -> dict[str, Any]:
    """The JSON-ready description (the same for every Module 1 game)."""
    return {
        "module": 1,
        "rounds": data.ROUNDS.value,
        "phases": [{"id": k, "label": v, "simultaneous": k in SIMULTANEOUS_PHASES} for k, v in PHASES.items()],
        "tavern": {
            "tiles": [_tile(t) for t in TILES],
            "table_space_prefix": "table:",
            "dice": {"white_per_player": data.WHITE_DICE_PER_PLAYER.value,
                     "coloured_max": data.COLOURED_DICE_PER_PLAYER.value},
        },
        "round_track": list(ROUND_TRACK),
        "monastery_track": {
            "last": MONASTERY_LAST,
            "start_counts_as_step": MONASTERY_START_COUNTS_AS_STEP,
            "bonuses": {str(k): v for k, v in sorted(MONASTERY_TRACK.items())},
        },
        "tavern_cards": [{"type": t, "name": CARDS[GROUPS[t][0]].name, "cost": CARDS[GROUPS[t][0]].cost,
                          "vp": CARDS[GROUPS[t][0]].vp, "count": len(GROUPS[t]), "effect": CARD_EFFECTS.get(t, "")}
                         for t in TAVERN_TYPES],
        "guests": _guest_types(),
        "regulars": [{k: v for k, v in CARDS[c].public().items() if k not in ("id", "name")}
                     for c in GROUPS["regular:0"]],
        "guest_display": data.GUEST_DISPLAY_SIZE.value,
        "limits": {"guests_per_round": data.GUEST_RECRUITS_PER_ROUND.value,
                   "tavern_cards_per_type_per_round": data.TAVERN_CARDS_PER_TYPE_PER_ROUND.value,
                   "noble_recruits_per_turn": data.NOBLE_RECRUITS_PER_ROUND.value},
        "noble_prices": {str(k): v for k, v in data.NOBLE_PRICES.value.items()},
        "counter_guest_use": dict(COUNTER_GUEST_USE),
        "counter_guests_per_player": data.COUNTER_GUESTS_PER_PLAYER.value,
        "colours": list(data.PLAYER_COLOURS.value),
        # by card id: the move log names the cards an event carries (every printed card is public; an event
        # carries only the ids the server does not hide)
        "card_names": [c.name for c in CARDS],
    }
