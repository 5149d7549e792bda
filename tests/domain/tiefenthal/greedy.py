"""A simple scripted player for checking that the provisional data make a sensible game."""

from __future__ import annotations

from domain.core import Command
from domain.tiefenthal import GAME
from domain.tiefenthal.actions import die_yield, space_rule
from domain.tiefenthal.cards import CARDS
from domain.tiefenthal.state import State
from domain.tiefenthal.tavern import TILE_COST

BUY_ORDER = ("waitress", "dishwasher", "supplier", "table", "merchant")


def _worth(s: State, seat: int, space: str) -> float:
    d, b, steps = die_yield(s.players[seat], space)
    return d + b * 0.8 + steps * 2


def greedy_command(s: State, seat: int) -> Command:
    legal = GAME.legal_commands(s, seat)
    by_type: dict[str, list[Command]] = {}
    for c in legal:
        by_type.setdefault(c.type, []).append(c)
    p = s.players[seat]
    if "ChooseBonus" in by_type:
        options = p.pending[0]
        best = max(range(len(options)), key=lambda i: TILE_COST.get(options[i].get("tile", ""), 0))
        return by_type["ChooseBonus"][best]
    if "KeepTavern" in by_type:
        return by_type["KeepTavern"][0]
    if "PickDie" in by_type:
        def value_score(c: Command) -> float:
            v = c.value  # type: ignore[attr-defined]
            free = [sp for sp in list(p.placed) and [] or _open_spaces(s, seat) if v in space_rule(p, sp)[0]]  # type: ignore[index]
            return max((_worth(s, seat, sp) for sp in free), default=0.0)
        return max(by_type["PickDie"], key=value_score)
    if "TakeDie" in by_type:
        return by_type["TakeDie"][0]
    if "PlaceDie" in by_type and s.phase == "E":
        return max(by_type["PlaceDie"], key=lambda c: _worth(s, seat, c.space) - 0.3 * _boost(s, seat, c))  # type: ignore[attr-defined]
    if "FinishPlanning" in by_type:
        return by_type["FinishPlanning"][0]
    if "UpgradeTile" in by_type:
        return max(by_type["UpgradeTile"], key=lambda c: (TILE_COST[c.tile], -c.returned))  # type: ignore[attr-defined]
    if "RecruitNobles" in by_type:
        return max(by_type["RecruitNobles"], key=lambda c: c.count)  # type: ignore[attr-defined]
    if "RecruitGuest" in by_type:
        return max(by_type["RecruitGuest"], key=lambda c: CARDS[c.card].vp)  # type: ignore[attr-defined]
    if "UseCounterGuest" in by_type:
        return by_type["UseCounterGuest"][0]
    if "BuyCard" in by_type and p.doubloons > p.tile("safe"):
        return min(by_type["BuyCard"], key=lambda c: BUY_ORDER.index(c.card_type))  # type: ignore[attr-defined]
    if "PlaceDie" in by_type and not p.placed:
        return by_type["PlaceDie"][0]
    return by_type["EndTurn"][0]


def _boost(s: State, seat: int, c: Command) -> int:
    from domain.tiefenthal.actions import place_boost
    return place_boost(s.players[seat], c.die, c.space)  # type: ignore[attr-defined]


def _open_spaces(s: State, seat: int) -> list[str]:
    p = s.players[seat]
    from domain.tiefenthal.actions import spaces_of
    return spaces_of(p)
