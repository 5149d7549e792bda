"""The card catalogue: every physical card of Module 1 gets an integer id (Components, Setup).

Built once from ``data.py``; states hold only ids. The catalogue does not depend on
the player count: the regulars of unused colours simply stay in the box.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import data

TAVERN_TYPES: tuple[str, ...] = tuple(data.TAVERN_CARDS)
"""Tavern card types in display order (ascending cost)."""

GUEST_KINDS = frozenset({"regular", "guest", "noble"})
"""Kinds of card that sit at a table and take a die."""


@dataclass(frozen=True)
class CardSpec:
    """What is printed on one card."""

    id: int
    kind: str  # regular | guest | noble | one of TAVERN_TYPES
    name: str
    vp: int = 0
    cost: int = 0  # doubloons for tavern cards, beer for guests
    dice: frozenset[int] = frozenset()  # values its action space takes (guests)
    pay: int = 0  # doubloons when served
    bonus: dict[str, Any] | None = None
    colour: int | None = None  # owner seat of a regular
    three_beer: bool = False
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def public(self) -> dict[str, Any]:
        """The card as a client sees it (all printed values are public)."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "name": self.name, "vp": self.vp}
        if self.kind in GUEST_KINDS:
            out["dice"] = sorted(self.dice)
            out["pay"] = self.pay
        if self.cost:
            out["cost"] = self.cost
        if self.bonus:
            out["bonus"] = self.bonus
        return out


def _build() -> tuple[list[CardSpec], dict[str, list[int]]]:
    cards: list[CardSpec] = []
    groups: dict[str, list[int]] = {}

    def add(group: str, **kw: Any) -> None:
        spec = CardSpec(id=len(cards), **kw)
        cards.append(spec)
        groups.setdefault(group, []).append(spec.id)

    for kind, rec in data.TAVERN_CARDS.items():
        for _ in range(rec["count"].value):
            add(kind, kind=kind, name=rec["name"].value, vp=rec["vp"].value, cost=rec["cost"].value)
    regulars = data.REGULARS.value
    for colour, colour_name in enumerate(data.PLAYER_COLOURS.value):
        # one list for every colour, or a dict of lists by colour name when the printed sets differ
        own = regulars[colour_name] if isinstance(regulars, dict) else regulars
        for n, reg in enumerate(own):
            add(f"regular:{colour}", kind="regular", name=f"Regular ({colour_name}) {n + 1}", vp=reg["vp"],
                dice=frozenset(reg["dice"]), pay=reg["pay"], colour=colour)
    g = data.THREE_BEER_GUEST.value
    for _ in range(data.THREE_BEER_GUEST_COUNT.value):
        add("three_beer", kind="guest", name=g["name"], vp=g["vp"], cost=data.THREE_BEER_GUEST_COST.value,
            dice=frozenset(g["dice"]), pay=g["pay"], bonus=g.get("bonus"), three_beer=True)
    for g in data.GUESTS.value:
        for _ in range(g.get("copies", 1)):
            add("guest", kind="guest", name=g["name"], vp=g["vp"], cost=g["cost"], dice=frozenset(g["dice"]),
                pay=g["pay"], bonus=g.get("bonus"))
    # one spec times NOBLE_COUNT, or a list of specs each with its "copies" when nobles differ
    nobles = data.NOBLE.value
    for noble in nobles if isinstance(nobles, list) else [dict(nobles, copies=data.NOBLE_COUNT.value)]:
        for _ in range(noble.get("copies", 1)):
            add("noble", kind="noble", name=noble["name"], vp=noble.get("vp", data.NOBLE_VP.value),
                dice=frozenset(noble["dice"]), pay=noble["pay"])
    return cards, groups


CARDS, GROUPS = _build()
"""``CARDS[id]`` is the spec of card ``id``; ``GROUPS`` lists ids by origin (type, regulars per colour, ...)."""

KIND: list[str] = [c.kind for c in CARDS]
VP: list[int] = [c.vp for c in CARDS]
