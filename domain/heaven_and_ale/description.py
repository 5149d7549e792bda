"""The static description a client needs to draw the game, built from the engine's own data modules.

Nothing here is a second copy: every number comes from ``board``, ``garden``, ``production``,
``privileges``, ``barrels`` and ``delivery``, so a data fix changes the drawing too. It never depends on a
state, so clients cache it (the API serves it with an ETag).
"""

from __future__ import annotations

from typing import Any

from . import delivery
from .barrels import GOALS, LARGE_VP, NEW_GOAL, SMALL_VP
from .board import (
    BARREL,
    DISC_A,
    DISC_ABC,
    DISC_B,
    DISC_C,
    FIRST_PLAYER_VP,
    LAST_ROUND_EXTRA_DISCS,
    MONK,
    MONK_COST,
    RESOURCE,
    ROUNDS_BY_PLAYERS,
    SLOT_BREWMASTER,
    SLOT_BREWMASTER_STEPS,
    SLOT_DUCATS,
    SLOT_DUCATS_AMOUNT,
    SLOT_FIRST,
    SLOT_RESOURCE,
    SLOT_RESOURCE_STEPS,
    START,
    START_SLOTS,
    TRACK,
)
from .garden import (
    DIRECTIONS,
    NEIGHBOURS,
    SHED_COORDS,
    SHED_NAMES,
    SHED_NEIGHBOURS,
    SHED_PATTERNS,
    SPOT_COORDS,
    SPOT_NAMES,
    SPOT_SHEDS,
    is_sunny,
)
from .privileges import (
    CARD_BARRELS,
    CARD_BARRELS_VP,
    CARD_BREWMASTER,
    CARD_BREWMASTER_STEPS,
    CARD_DISCS,
    CARD_DUCATS,
    CARD_DUCATS_AMOUNT,
    CARD_RESOURCE,
    CARDS,
    PAIRS,
    SCORING_SPOTS,
)
from .production import (
    BRACKETS,
    COLOURS,
    EMERGENCY_COIN_DUCATS,
    FINAL_DUCATS_PER_STEP,
    SHED_REWARDS,
    START_BREWMASTER,
    START_DUCATS,
    START_MARKERS,
    TRACK_MAX,
)
from .supply import FERTILITIES, MONK_TYPES

DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

SPACE_TEXT: dict[str, str] = {
    START: "starting area: take a free starting space",
    RESOURCE: "buy resource tiles",
    MONK: "buy monk tiles (price: the monk cost number)",
    DISC_A: "disc on the x spot: name a fertility number, activate its tiles",
    DISC_B: "disc on a monk spot: trigger that monk type",
    DISC_C: "disc on a resource spot: activate that colour's tiles",
    DISC_ABC: "disc on any scoring spot (A, B or C)",
    BARREL: "claim the barrels whose goals you achieved",
}
SLOT_TEXT: dict[str, str] = {
    SLOT_FIRST: f"start the next round; +{FIRST_PLAYER_VP} VP if standing here at the end",
    SLOT_DUCATS: f"+{SLOT_DUCATS_AMOUNT} ducats",
    SLOT_BREWMASTER: f"brewmaster +{SLOT_BREWMASTER_STEPS}",
    SLOT_RESOURCE: f"one resource marker +{SLOT_RESOURCE_STEPS}",
}
CARD_TEXT: dict[str, str] = {
    CARD_DUCATS: f"take {CARD_DUCATS_AMOUNT} ducats",
    CARD_BREWMASTER: f"brewmaster +{CARD_BREWMASTER_STEPS}",
    CARD_BARRELS: f"+{CARD_BARRELS_VP} VP per barrel at the end",
    CARD_RESOURCE: "one colour's marker +1 per tile of that colour",
    CARD_DISCS: "a least advanced marker +1 per disc on your scoring spots",
}
STORAGE_TILE_TEXT: dict[str, str] = {
    delivery.TILE_KEGBALE: "take 1 keg and/or 1 bale from the reserve",
    **{t: f"carter value +{v} for good" for t, v in delivery.CARTER_BONUS.items()},
    **{t: f"keg area 1 or 2 scores {v} per keg" for t, v in delivery.POINT_TILES.items()},
    **{t: f"move the cart {v} steps now" for t, v in delivery.MOVE_TILES.items()},
}


def _track() -> dict[str, Any]:
    spaces = []
    for i, kind in enumerate(TRACK):
        space: dict[str, Any] = {"index": i, "kind": kind, "text": SPACE_TEXT[kind]}
        if i in MONK_COST:
            space["monk_cost"] = MONK_COST[i]
        extra = [n for n, spaces_ in LAST_ROUND_EXTRA_DISCS.items() if i in spaces_]
        if extra:
            space["last_round_extra_disc_for_players"] = extra
        spaces.append(space)
    return {
        "spaces": spaces,
        "starting_spaces": [{"name": n, "text": SLOT_TEXT[n]} for n in START_SLOTS],
        "rounds_by_players": {str(n): r for n, r in ROUNDS_BY_PLAYERS.items()},
    }


def _garden() -> dict[str, Any]:
    spots = []
    for i, name in enumerate(SPOT_NAMES):
        r, c = SPOT_COORDS[i]
        spots.append({"name": name, "row": r, "col": c, "sunny": is_sunny(i),
                      "neighbours": [SPOT_NAMES[n] for n in NEIGHBOURS[i]],
                      "sheds": [SHED_NAMES[s] for s in SPOT_SHEDS[i]]})
    sheds = []
    for s, name in enumerate(SHED_NAMES):
        r, c = SHED_COORDS[s]
        sheds.append({"name": name, "row": r, "col": c,
                      # by direction, so a shed type's pattern (direction numbers) names its spots
                      "neighbours": [SPOT_NAMES[n] for n in SHED_NEIGHBOURS[s]]})
    types = []
    for kind, patterns in SHED_PATTERNS.items():
        low = [row for row in SHED_REWARDS if row[2] == kind][0]
        nxt = [row[0] for row in SHED_REWARDS if row[0] > low[0]]
        types.append({"type": kind, "activates": len(patterns[0]),
                      "patterns": [list(p) for p in patterns],
                      "fertility_from": low[0], "fertility_to": (min(nxt) - 1) if nxt else None,
                      "brewmaster_steps": low[1]})
    return {
        "coordinates": "double-width hex rows: neighbours of (row, col) are (row, col±2) and (row±1, col±1)",
        "directions": [{"index": d, "name": DIRECTION_NAMES[d], "drow": dr, "dcol": dc}
                       for d, (dr, dc) in enumerate(DIRECTIONS)],
        "spots": spots,
        "sheds": sheds,
        "shed_types": types,
        "prices": "a shady spot costs the tile's price, a sunny spot twice",
        "activation": {"sunny": "moves the tile's colour marker by its fertility", "shady":
                       "pays its fertility in ducats", "monk": "moves the brewmaster 1 step"},
    }


def _production() -> dict[str, Any]:
    brackets = []
    for i, (low, rate, vp) in enumerate(BRACKETS):
        high = BRACKETS[i + 1][0] - 1 if i + 1 < len(BRACKETS) else TRACK_MAX
        brackets.append({"from": None if low < -50 else low, "to": high, "exchange_rate": rate, "vp_per_spot": vp})
    return {
        "colours": list(COLOURS),
        "track_max": TRACK_MAX,
        "lowest_spot": min(min(START_MARKERS), START_BREWMASTER),
        "start_markers": dict(zip(COLOURS, START_MARKERS)),
        "start_brewmaster": START_BREWMASTER,
        "start_ducats": START_DUCATS,
        "brackets": brackets,
        "fertilities": list(FERTILITIES),
        "monk_types": MONK_TYPES,
        "final_ducats_per_step": FINAL_DUCATS_PER_STEP,
        "emergency_coin_ducats": EMERGENCY_COIN_DUCATS,
        "scoring_spots": list(SCORING_SPOTS),
        "pairs": [[SCORING_SPOTS[a], SCORING_SPOTS[b]] for a, b in PAIRS],
        "privilege_cards": [{"card": c, "text": CARD_TEXT[c]} for c in CARDS],
    }


def _kegs_and_more() -> dict[str, Any]:
    road = []
    for i, (kind, points) in enumerate(delivery.ROAD):
        loc: dict[str, Any] = {"index": i, "kind": kind, "points": points}
        if kind == delivery.ROAD_TAVERN:
            loc["tavern"] = delivery.TAVERN_GATES_AT.index(i) + 1
        if i == delivery.MONASTERY_GATE_AT:
            loc["gate_after"] = {"gate": "monastery", "text": "load kegs, 1 bale each; without loading the cart stops"}
        if i in delivery.TAVERN_GATES_AT:
            t = delivery.TAVERN_GATES_AT.index(i)
            n = delivery.TAVERN_GATE_DELIVERS[t]
            loc["gate_after"] = {"gate": f"tavern{t + 1}", "delivers": n,
                                 "text": f"deliver {'all remaining kegs' if n is None else f'{n} keg'} "
                                         f"to keg area {t + 1}"}
        road.append(loc)
    return {
        "road": road,
        "monastery": delivery.MONASTERY,
        "keg_areas": [{"area": a + 1, "value": v, "upgradable": (a + 1) in delivery.UPGRADABLE_AREAS}
                      for a, v in enumerate(delivery.KEG_AREA_VALUES)],
        "storage": {"regular_spots": delivery.REGULAR_SPOTS, "rental_spots": 1, "rental_cost": delivery.RENTAL_COST,
                    "stored_keg_vp": delivery.STORED_KEG_VP_HALVES / 2, "start_kegs": delivery.START_KEGS,
                    "start_bales": delivery.START_BALES},
        "storage_tiles": [{"tile": t, "text": STORAGE_TILE_TEXT[t]} for t in delivery.STORAGE_TILES],
        "storage_tile_back": f"{delivery.BACK_STORAGE_SPOTS} extra storage spot",
        "carter_die_faces": delivery.DIE_FACES,
        "goods_per_round": delivery.GOODS_PER_ROUND,
        "kegs": delivery.KEGS,
        "bales": delivery.BALES,
    }


def description() -> dict[str, Any]:
    """Everything static about the boards; the ``kegs_and_more`` part applies when that option is on."""
    goals = [{"goal": g, "text": text} for g, (text, _) in enumerate(GOALS)]
    return {
        "game": "heaven-and-ale",
        "track": _track(),
        "garden": _garden(),
        "production": _production(),
        "barrels": {"goals": goals, "kegs_and_more_goal": {"goal": len(GOALS), "text": NEW_GOAL[0]},
                    "large_vp": LARGE_VP, "small_vp": SMALL_VP},
        "kegs_and_more": _kegs_and_more(),
    }
