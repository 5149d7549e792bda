"""The data module: every value carries its provenance; the catalogue is consistent with it."""

from __future__ import annotations

from domain.tiefenthal import data
from domain.tiefenthal.cards import CARDS, GROUPS
from domain.tiefenthal.tavern import UPGRADABLE, upgrade_price

SOURCES = {data.RULES, data.RESEARCHED, data.ESTIMATE, data.READING}


def _values():
    for name in dir(data):
        if name.isupper() and len(name) > 1 and name not in ("RULES", "RESEARCHED", "ESTIMATE", "READING"):
            obj = getattr(data, name)
            if isinstance(obj, dict):
                for key, rec in obj.items():
                    for field, v in rec.items():
                        yield f"{name}.{key}.{field}", v
            else:
                yield name, obj


def test_every_value_names_its_source() -> None:
    seen = 0
    for name, v in _values():
        assert isinstance(v, data.V), name
        assert v.source in SOURCES, name
        seen += 1
    assert seen > 40


def test_catalogue_matches_the_data() -> None:
    assert len(GROUPS["three_beer"]) == data.THREE_BEER_GUEST_COUNT.value == 8  # rules text: 8 guests costing 3 beer
    assert all(CARDS[c].cost == 3 for c in GROUPS["three_beer"])
    assert len(GROUPS["regular:0"]) == len(data.REGULARS.value) == data.REGULARS_PER_COLOUR.value == 7
    assert len(GROUPS["noble"]) == data.NOBLE_COUNT.value
    assert all(CARDS[c].vp == 10 for c in GROUPS["noble"])
    assert sum(len(GROUPS[t]) for t in data.TAVERN_CARDS) == sum(r["count"].value for r in data.TAVERN_CARDS.values())
    assert "host" not in UPGRADABLE and len(UPGRADABLE) == 9
    assert upgrade_price("supplier", 2) == 0 and upgrade_price("tables", 3) == 0 and upgrade_price("waitress", 1) == 6


def test_the_printed_card_counts_add_up() -> None:
    """Components: 240 cards in the box, 207 for Module 1 (which include the Bards and white-die guests its
    setup removes); the engine's catalogue is exactly Module 1 less those (RULES_NOTES "Card count")."""
    inventory = data.card_inventory()
    assert sum(inventory.values()) == data.MODULE1_CARDS.value == 207
    assert data.BOX_CARDS.value - data.MODULE1_CARDS.value == 33  # cards the Module 1 text never handles
    assert inventory["regulars"] == 28 and inventory["three_beer_guests"] == 8 and inventory["white_die_guests"] == 10
    in_play = sum(n for k, n in inventory.items() if k not in data.REMOVED_AT_SETUP.value)
    assert len(CARDS) == in_play == 207 - 10 - data.BARDS.value
    assert inventory["tavern_cards"] == sum(len(GROUPS[t]) for t in data.TAVERN_CARDS)
    assert inventory["shuffled_guests"] == len(GROUPS["guest"]) and inventory["nobles"] == len(GROUPS["noble"])
    # the starting decks' Waitress, Table and Beer Supplier come out of the tavern stacks, as the setup says
    assert data.STARTING_TAVERN_CARDS.value == ["waitress", "table", "supplier"]


def test_values_the_rules_text_states_are_labelled_rules_text() -> None:
    """Issue 21: the cashbox's and barrel's 'any die' and the 3 starting tables come from the rules text; only
    the one-die limit of those spaces is an estimate."""
    for tile in ("cashbox", "barrel"):
        assert data.TILES[tile]["space"].source == data.RULES
        assert data.TILES[tile]["space"].value["dice"] == [1, 2, 3, 4, 5, 6]
        assert data.TILES[tile]["space_limit"] == data.V(1, data.ESTIMATE, data.TILES[tile]["space_limit"].note)
    assert data.TILES["tables"]["values"].source == data.RULES and data.TILES["tables"]["values"].value == (3, 4)
    for tile in ("monk", "supplier"):
        assert data.TILES[tile]["space_limit"].value is None and data.TILES[tile]["space_limit"].source == data.RULES
    # placeholders the research notes mark as guesses are estimates, not research
    assert data.REGULARS.source == data.ESTIMATE and data.ROUND_TRACK.source == data.ESTIMATE
