"""The data module: every value carries its provenance; the catalogue is consistent with it."""

from __future__ import annotations

from domain.tiefenthal import data
from domain.tiefenthal.cards import CARDS, GROUPS
from domain.tiefenthal.tavern import UPGRADABLE, upgrade_price

SOURCES = {data.RULES, data.RESEARCHED, data.ESTIMATE}


def _values():
    for name in dir(data):
        if name.isupper() and len(name) > 1 and name not in ("RULES", "RESEARCHED", "ESTIMATE"):
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
    assert len(GROUPS["three_beer"]) == 8  # rules text: 8 guests costing 3 beer
    assert all(CARDS[c].cost == 3 for c in GROUPS["three_beer"])
    assert len(GROUPS["regular:0"]) == 7
    assert len(GROUPS["noble"]) == data.NOBLE_COUNT.value
    assert all(CARDS[c].vp == 10 for c in GROUPS["noble"])
    assert sum(len(GROUPS[t]) for t in data.TAVERN_CARDS) == sum(r["count"].value for r in data.TAVERN_CARDS.values())
    assert "host" not in UPGRADABLE and len(UPGRADABLE) == 9
    assert upgrade_price("supplier", 2) == 0 and upgrade_price("tables", 3) == 0 and upgrade_price("waitress", 1) == 6
