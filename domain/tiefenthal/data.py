"""Every number of Module 1 in one place, each with where it comes from.

``V(value, source, note)`` carries one value. ``RULES`` = the Module 1 rules text
(taverns-of-tiefenthal.txt), also where a worked example there implies the value;
``RESEARCHED`` = tiefenthal.md (a named source there); ``ESTIMATE`` = a provisional value
chosen to make a sensible game (see RULES_NOTES.md, "How the estimates were made");
``READING`` = the rules text allows two readings and this is the one chosen (RULES_NOTES.md,
"Readings decided against the text", which also says how to test the other). Replacing a value with the printed one is an edit
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
READING = "reading"


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

# -- readings of the text (RULES_NOTES "Readings decided against the text") ----------
MONASTERY_START_COUNTS_AS_STEP = V(
    True, READING,
    "The Monk: 'place your Marker back on the starting space ... and continue its movement from there': "
    "the step past 22 lands on the start space 0 (True) or the return is free and the step goes on to 1 (False)",
)
NOBLE_RECRUITS_PER_ROUND = V(
    None, READING,
    "Recruit Nobles: 'at any time during your turn ... 9, 14 or 18 Beers ... 1, 2 or 3 Nobles' with no limit "
    "stated (unlike guests and tavern cards): None = as often as paid for; 1 = once a turn (at most 3 nobles)",
)
SUPPLIER_CARDS_COUNT_WHEN_UPGRADED = V(
    True, READING,
    "Deliver Beer: 'plus 1 additional Beer for each Beer Supplier card'; upgraded: 'you will receive 2 Beers "
    "for each Die': the cards still add +1 per die (True) or the upgraded side replaces them (False)",
)

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
REGULARS_PER_COLOUR = V(7, RULES, "Setup: each player takes the 7 Regular Customer Cards in his color")
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
    ESTIMATE, "tiefenthal.md §6.2 placeholder, marked [G] there (regulars pay 1 or 2 per review S8); die values a guess",
)
PLAYER_COLOURS = V(["red", "blue", "green", "yellow"], ESTIMATE, "names only")

THREE_BEER_GUEST_COUNT = V(8, RULES, "Setup: 'Find the 8 guests with a cost of 3 Beers'")
THREE_BEER_GUEST_COST = V(3, RULES, "Setup: 'guests with a cost of 3 Beers'")
THREE_BEER_GUEST = V(
    {"name": "Villager", "dice": [3], "pay": 2, "vp": 1},
    ESTIMATE, "die, pay and VP of each 3-beer guest guessed (tiefenthal.md §10 #2)",
)
WHITE_DIE_GUESTS = V(10, RULES, "Setup: 'remove the 10 Guest Cards with a white die' (Module 3 onwards)")

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

NOBLE_VP = V(10, RESEARCHED, "10 VP each (review S9, single source)")
NOBLE = V(  # one spec times NOBLE_COUNT, or a list of specs each with "copies" (and "vp")
    {"name": "Noble", "dice": [1, 2, 3, 4, 5, 6], "pay": 1},
    ESTIMATE, "pays little (S9), takes any die: tiefenthal.md §6.4 [M], the researcher's recollection",
)
NOBLE_COUNT = V(40, ESTIMATE, "enough for about 9 upgrades a player plus beer purchases")

# -- tavern tiles ------------------------------------------------------------------
# values = (basic side, upgraded side) of the tile's number; cost = base upgrade
# price; discount_card/discount = the special offer; space = its action space:
# dice it takes and how many dice it holds (None = any number).
TILES: dict[str, dict[str, V]] = {
    "tables": {
        "values": V((3, 4), RULES, "3 at the start: the Phase B example seats a Noble, then two Guests 'at the second "
                    "and third free Tables', and the last card at the drawn Table fills the tavern; upgraded: "
                    "'add another permanent Table'"),
        "cost": V(12, ESTIMATE), "discount_card": V("table", RULES), "discount": V(5, RULES),
    },
    "waitress": {
        "values": V((0, 1), RULES, "the permanent waitress brings 1 die a round"),
        "cost": V(10, ESTIMATE), "discount_card": V("waitress", RULES), "discount": V(4, RULES),
    },
    "cashbox": {
        "values": V((1, 3), RULES, "1 doubloon, 3 upgraded"),
        "cost": V(7, ESTIMATE),
        "space": V({"dice": [1, 2, 3, 4, 5, 6], "gives": "doubloons"}, RULES,
                   "Withdrawal From the Cashbox: '1 Doubloon, regardless of the value of the Die placed there'"),
        "space_limit": V(1, ESTIMATE, "one die ('1x'): the text does not say which spaces show it (tiefenthal.md §10 #13)"),
    },
    "monk": {
        "values": V((1, 2), RULES, "1 monastery step per 5, 2 upgraded"),
        "cost": V(8, ESTIMATE),
        "space": V({"dice": [5], "gives": "monastery"}, RULES, "The Monk: 'For each \"5\" Die you remove'"),
        "space_limit": V(None, RULES, "any number: 'For each \"5\" Die you remove from the Monk space'"),
    },
    "dishwasher": {
        "values": V((0, 1), RESEARCHED, "permanent dishwasher: +1 to a die like a card (review S10; the text only names "
                    "the upgrade of the Dish Washing Area)"),
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
        "space": V({"dice": [1, 2, 3, 4, 5, 6], "gives": "beer"}, RULES,
                   "The House Brew Barrel: 'exactly 1 Beer, regardless of the value of the Die' (a 3 in the Phase E example)"),
        "space_limit": V(1, ESTIMATE, "one die ('1x'): the text does not say which spaces show it (tiefenthal.md §10 #13)"),
    },
    "supplier": {
        "values": V((1, 2), RULES, "1 beer per die (+1 per Beer Supplier card), 2 upgraded"),
        "cost": V(12, ESTIMATE), "discount_card": V("supplier", RULES), "discount": V(6, RULES),
        "space": V({"dice": [1, 6], "gives": "beer"}, RULES, "Deliver Beer: 'Dice of value \"1\" and/or \"6\"'"),
        "space_limit": V(None, RULES, "any number: the Deliver Beer example puts three dice on it"),
        "per_card": V(1, RULES, "'plus 1 additional Beer for each Beer Supplier card' per die; after the upgrade: "
                      "SUPPLIER_CARDS_COUNT_WHEN_UPGRADED"),
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
    ESTIMATE, "bonus kinds from reviews S12/S14; the per-round order is the tiefenthal.md §7 placeholder [G]",
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

# -- the printed cards, accounted for (RULES_NOTES "Card count") ----------------------
# Components list 240 cards in the box and "207 Cards" for Module 1. The Module 1 setup itself
# removes the Bards and the 10 white-die guests, so this reading counts them among the 207;
# the other 33 are cards the Module 1 text never handles (later modules; Module 4's starting
# cards are one kind). Known: regulars, 3-beer guests, white-die guests and the starting
# tavern cards. Unknown: the Bard count, the five tavern stack sizes, the shuffled guests and
# the nobles; the engine's estimates for the last three leave 8 for the Bards.
BOX_CARDS = V(240, RULES, "Components: '240 Cards' (all modules)")
MODULE1_CARDS = V(207, RULES, "Components: Module 1: '207 Cards'")
BARDS = V(8, ESTIMATE, "count not printed: 207 less every other Module 1 card as counted here")
REMOVED_AT_SETUP = V(
    ("white_die_guests", "bards"), RULES,
    "Setup: 'return all Bards to the box'; 'remove the 10 Guest Cards with a white die' (both Module 3 onwards)",
)


def card_inventory() -> dict[str, int]:
    """Module 1's cards by category, from the values above; the engine's catalogue holds all but REMOVED_AT_SETUP."""
    return {
        "regulars": REGULARS_PER_COLOUR.value * len(PLAYER_COLOURS.value),
        "three_beer_guests": THREE_BEER_GUEST_COUNT.value,
        "tavern_cards": sum(rec["count"].value for rec in TAVERN_CARDS.values()),
        "shuffled_guests": sum(g.get("copies", 1) for g in GUESTS.value),
        "nobles": NOBLE_COUNT.value,
        "white_die_guests": WHITE_DIE_GUESTS.value,
        "bards": BARDS.value,
    }
