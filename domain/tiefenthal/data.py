"""Every number of Module 1 in one place, each with where it comes from.

``V(value, source, note)`` carries one value. ``RULES`` = the Module 1 rules text
(taverns-of-tiefenthal.txt), ``RESEARCHED`` = tiefenthal.md (a named source there),
``ESTIMATE`` = a provisional value chosen to make a sensible game (see RULES_NOTES.md,
"How the estimates were made"). Replacing a value with the printed one is an edit
of this file only: the engine reads nothing else (``cards.py`` and ``tavern.py``
turn these records into runtime tables).

Bonus specs (round track, monastery track, guest recruit bonuses) are small dicts:

* ``{"kind": "card", "card": <tavern card type>}``: that tavern card from the supply
* ``{"kind": "noble"}``: a noble from the supply
* ``{"kind": "counter_guest"}``: a counter guest from the supply
* ``{"kind": "monastery", "steps": n}``: n steps on the monastery track
* ``{"kind": "doubloons", "n": n}`` / ``{"kind": "beer", "n": n}``: virtual money
  (outside your phase F turn it goes into the safe / beer storage, up to the limit)
* ``{"kind": "upgrade"}``: a free upgrade of a tile of your choice (brings a noble)
* ``{"kind": "choice", "options": [spec, spec, ...]}``: pick one
* ``{"kind": "none"}``: nothing
"""

from __future__ import annotations

from typing import Any, NamedTuple

RULES = "rules text"
RESEARCHED = "researched"
ESTIMATE = "estimate"


class V(NamedTuple):
    """One data value and its provenance."""

    value: Any
    source: str
    note: str = ""


# -- the game frame -------------------------------------------------------------------
ROUNDS = V(8, RULES, "Game Play: 8 rounds")
WHITE_DICE_PER_PLAYER = V(4, RULES, "Setup: each player takes 4 white dice")
COLOURED_DICE_PER_PLAYER = V(3, RULES, "Phase C: at most 3 dice in your colour")
COUNTER_GUESTS_PER_PLAYER = V(3, RULES, "Setup: 3 counter guests per player next to the monastery")
NOBLE_PRICES = V({1: 9, 2: 14, 3: 18}, RULES, "Recruit Nobles: 9, 14 or 18 beer for 1, 2 or 3")
GUEST_DISPLAY_SIZE = V(4, RULES, "Setup: 4 guests face up beside the 3-beer stack")
GUEST_RECRUITS_PER_ROUND = V(1, RULES, "Recruit a Guest: at most 1 a round")
TAVERN_CARDS_PER_TYPE_PER_ROUND = V(1, RULES, "Purchase Tavern Cards: at most 1 of each type a round")
START_SAFE = V(0, RULES, "Setup: safe marker on 0")
START_STORAGE = V(0, RULES, "Setup: beer storage marker on 0")
START_MONASTERY = V(0, RULES, "Setup: monastery marker on 0")
MONASTERY_LAST_SPACE = V(22, RULES, "The Monk: beyond 22 the marker goes back to the start space")

# -- tavern cards (bought with doubloons) -------------------------------------------
# count = copies in the box including the one of each type in every starting deck.
TAVERN_CARDS: dict[str, dict[str, V]] = {
    "merchant": {
        "name": V("Beer Merchant", RULES),
        "cost": V(2, ESTIMATE, "cheapest stack (tiefenthal.md T3 order)"),
        "vp": V(0, ESTIMATE),
        "count": V(14, ESTIMATE),
        "beer": V(1, RULES, "The Beer Merchant Visits: exactly 1 beer each"),
    },
    "dishwasher": {
        "name": V("Dishwasher", RULES),
        "cost": V(3, ESTIMATE, "= its special-offer discount"),
        "vp": V(0, ESTIMATE),
        "count": V(14, ESTIMATE),
    },
    "waitress": {
        "name": V("Waitress", RULES),
        "cost": V(4, ESTIMATE, "= its special-offer discount"),
        "vp": V(0, ESTIMATE),
        "count": V(18, ESTIMATE),
    },
    "table": {
        "name": V("Table", RULES),
        "cost": V(5, ESTIMATE, "= its special-offer discount"),
        "vp": V(0, ESTIMATE),
        "count": V(18, ESTIMATE),
    },
    "supplier": {
        "name": V("Beer Supplier", RULES),
        "cost": V(6, ESTIMATE, "= its special-offer discount"),
        "vp": V(0, ESTIMATE),
        "count": V(18, ESTIMATE),
    },
}
STARTING_TAVERN_CARDS = V(["waitress", "table", "supplier"], RULES, "Setup: 1 Waitress, 1 Table, 1 Beer Supplier")

# -- guests ------------------------------------------------------------------------
# dice = die values the guest's action space takes (all six = "?"); pay = doubloons
# when a die is removed from it; cost = beer to recruit; bonus = immediate bonus.
REGULARS = V(
    [  # one colour's 7 regulars; every colour has the same set (a dict by colour name may give each its own)
        {"dice": [1], "pay": 1, "vp": 0},
        {"dice": [2], "pay": 1, "vp": 0},
        {"dice": [3], "pay": 1, "vp": 0},
        {"dice": [4], "pay": 2, "vp": 0},
        {"dice": [5], "pay": 1, "vp": 0},
        {"dice": [6], "pay": 2, "vp": 0},
        {"dice": [2], "pay": 1, "vp": 0},
    ],
    RESEARCHED, "tiefenthal.md §6.2 placeholder (regulars pay 1 or 2, S8); die values a guess",
)
PLAYER_COLOURS = V(["red", "blue", "green", "yellow"], ESTIMATE, "names only")

THREE_BEER_GUESTS = V(
    [{"name": "Villager", "cost": 3, "dice": [3], "pay": 2, "vp": 1}] * 8,
    ESTIMATE, "8 cards costing 3 beer per the rules text; die/pay/vp guessed (tiefenthal.md §10 #2)",
)

GUESTS = V(
    [  # the shuffled guest deck (Module 1: the 10 white-die guests are removed)
        {"name": "Farmer", "cost": 4, "dice": [1], "pay": 2, "vp": 1, "copies": 3},
        {"name": "Miller", "cost": 4, "dice": [2], "pay": 2, "vp": 1, "copies": 3},
        {"name": "Carter", "cost": 4, "dice": [4], "pay": 3, "vp": 1, "copies": 2},
        {"name": "Baker", "cost": 5, "dice": [3], "pay": 3, "vp": 2, "copies": 3},
        {"name": "Butcher", "cost": 5, "dice": [4], "pay": 3, "vp": 2, "copies": 3},
        {"name": "Weaver", "cost": 5, "dice": [2], "pay": 2, "vp": 2, "copies": 2,
         "bonus": {"kind": "card", "card": "dishwasher"}},
        {"name": "Smith", "cost": 6, "dice": [6], "pay": 4, "vp": 3, "copies": 3},
        {"name": "Herbalist", "cost": 6, "dice": [5], "pay": 3, "vp": 3, "copies": 2,
         "bonus": {"kind": "monastery", "steps": 1}},
        {"name": "Tailor", "cost": 6, "dice": [3, 4], "pay": 3, "vp": 2, "copies": 2},
        {"name": "Merchant", "cost": 7, "dice": [1, 2], "pay": 4, "vp": 3, "copies": 2,
         "bonus": {"kind": "card", "card": "waitress"}},
        {"name": "Scholar", "cost": 7, "dice": [6], "pay": 3, "vp": 4, "copies": 2},
        {"name": "Captain", "cost": 8, "dice": [5, 6], "pay": 5, "vp": 4, "copies": 2},
        {"name": "Mayor", "cost": 9, "dice": [1, 2, 3, 4, 5, 6], "pay": 4, "vp": 5, "copies": 2,
         "bonus": {"kind": "counter_guest"}},
    ],
    ESTIMATE, "31 cards; beer 4-9, pay 2-5, VP 1-5, bonus on a third (tiefenthal.md §6.3 ranges)",
)

NOBLE = V(  # one spec times NOBLE_COUNT, or a list of specs each with "copies"
    {"name": "Noble", "dice": [1, 2, 3, 4, 5, 6], "pay": 1, "vp": 10},
    RESEARCHED, "10 VP (S9); pays little, takes any die ([M] tiefenthal.md §6.4)",
)
NOBLE_COUNT = V(40, ESTIMATE, "enough for about 9 upgrades a player plus beer purchases")

# -- tavern tiles ------------------------------------------------------------------
# values = (basic side, upgraded side) of the tile's number; cost = base upgrade
# price; discount_card/discount = the special offer; space = its action space:
# dice it takes and how many dice it holds (None = any number).
TILES: dict[str, dict[str, V]] = {
    "tables": {
        "values": V((3, 4), RESEARCHED, "3 tables at the start (S14), room for 4 upgraded (S7)"),
        "cost": V(12, ESTIMATE), "discount_card": V("table", RULES), "discount": V(5, RULES),
    },
    "waitress": {
        "values": V((0, 1), RULES, "the permanent waitress brings 1 die a round"),
        "cost": V(10, ESTIMATE), "discount_card": V("waitress", RULES), "discount": V(4, RULES),
    },
    "cashbox": {
        "values": V((1, 3), RULES, "1 doubloon, 3 upgraded"),
        "cost": V(7, ESTIMATE),
        "space": V({"dice": [1, 2, 3, 4, 5, 6], "limit": 1, "gives": "doubloons"}, ESTIMATE, "any die ([M]); 1x (tiefenthal.md §10 #13)"),
    },
    "monk": {
        "values": V((1, 2), RULES, "1 monastery step per 5, 2 upgraded"),
        "cost": V(8, ESTIMATE),
        "space": V({"dice": [5], "limit": None, "gives": "monastery"}, RULES, "each 5 removed moves the marker"),
    },
    "dishwasher": {
        "values": V((0, 1), RESEARCHED, "permanent dishwasher: +1 to a die like a card (S10)"),
        "cost": V(9, ESTIMATE), "discount_card": V("dishwasher", RULES), "discount": V(3, RULES),
    },
    "safe": {
        "values": V((2, 5), RULES, "store 2 doubloons, 5 upgraded"),
        "cost": V(6, ESTIMATE),
    },
    "host": {
        "values": V((0, 0), RULES, "the Host Counter is flipped only in Module 3"),
        "cost": V(None, RULES, "not upgradable in Module 1"),
    },
    "barrel": {
        "values": V((1, 2), RULES, "1 beer, 2 upgraded"),
        "cost": V(6, ESTIMATE),
        "space": V({"dice": [1, 2, 3, 4, 5, 6], "limit": 1, "gives": "beer"}, ESTIMATE,
                   "any die (a 3 sits on it in the rules example); 1x (tiefenthal.md §10 #13)"),
    },
    "supplier": {
        "values": V((1, 2), RULES, "1 beer per die (+1 per Beer Supplier card), 2 upgraded"),
        "cost": V(12, ESTIMATE), "discount_card": V("supplier", RULES), "discount": V(6, RULES),
        "space": V({"dice": [1, 6], "limit": None, "gives": "beer"}, RULES, "dice of value 1 and/or 6, any number"),
        "per_card": V((1, 1), RULES, "+1 beer per Beer Supplier card per die; the upgraded side keeping the +1 is a choice (RULES_NOTES)"),
    },
    "storage": {
        "values": V((2, 5), RULES, "store 2 beer, 5 upgraded"),
        "cost": V(6, ESTIMATE),
    },
}

# -- boards --------------------------------------------------------------------------
ROUND_TRACK = V(
    [
        {"kind": "counter_guest"},
        {"kind": "choice", "options": [{"kind": "card", "card": "waitress"}, {"kind": "card", "card": "table"}]},
        {"kind": "monastery", "steps": 1},
        {"kind": "upgrade"},
        {"kind": "counter_guest"},
        {"kind": "choice", "options": [{"kind": "card", "card": "dishwasher"}, {"kind": "card", "card": "supplier"}]},
        {"kind": "upgrade"},
        {"kind": "none"},
    ],
    RESEARCHED, "bonus kinds from S12/S14; per-round order is the tiefenthal.md §7 placeholder",
)

MONASTERY_TRACK = V(
    {
        3: {"kind": "card", "card": "merchant"},
        6: {"kind": "counter_guest"},
        9: {"kind": "card", "card": "dishwasher"},
        12: {"kind": "choice", "options": [{"kind": "card", "card": "waitress"}, {"kind": "card", "card": "table"}]},
        15: {"kind": "card", "card": "supplier"},
        18: {"kind": "counter_guest"},
        22: {"kind": "noble"},
    },
    ESTIMATE, "a reward every 3-4 spaces, growing in value (tiefenthal.md §10 #10)",
)

COUNTER_GUEST_USE = V(
    {"kind": "monastery", "steps": 1},
    RESEARCHED, "spend a counter guest for a monastery step (S12, T3); the other use is a tavern redraw",
)
