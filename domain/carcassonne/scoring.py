"""Feature scoring: majority, the hill tie-break, values during play and at game end (§5.3-5.5, §7.1-7.2)."""

from __future__ import annotations

from .board import describe, feature_pennants, feature_tiles, field_cities, neighbours8, rotated_at, tile_nodes
from .messages import FeatureScored
from .rules import (
    CITY_END_POINTS_PER_PENNANT,
    CITY_END_POINTS_PER_TILE,
    CITY_POINTS_PER_PENNANT,
    CITY_POINTS_PER_TILE,
    FARM_POINTS_PER_CITY,
    HILL_TIEBREAK,
    MONASTERY_COMPLETE_POINTS,
    ROAD_POINTS_PER_TILE,
    TINY_CITY_SCORING,
    VINEYARD_BONUS,
    VINEYARDS_FOR_ABBOT,
    VINEYARDS_FOR_GARDENS,
)
from .state import CarcassonneState
from .tiles import CITY, FIELD, GARDEN, KIND_NAMES, MONASTERY, ROAD, TILES


def followers_in(state: CarcassonneState, root: int) -> list[tuple[int, int]]:
    """(node, seat) of every follower in the feature with this root, in node order."""
    r = state.root
    return sorted((n, s) for n, s in state.followers.items() if r[n] == root)


def abbots_in(state: CarcassonneState, root: int) -> list[tuple[int, int]]:
    """(node, seat) of the abbot on this monastery or garden, if any (the Abbot, §5.6)."""
    return sorted((n, s) for s, n in state.abbots.items() if state.root[n] == root)


def _on_hill(state: CarcassonneState, node: int) -> bool:
    return TILES[state.placements[state.node_tile[node]][2]].spec.hill


def winners(state: CarcassonneState, figures: list[tuple[int, int]]) -> list[int]:
    """Seats with the most followers; a tie goes to tied seats with a follower on a hill tile (§5.3, §7.1)."""
    counts: dict[int, int] = {}
    for _, seat in figures:
        counts[seat] = counts.get(seat, 0) + 1
    if not counts:
        return []
    best = max(counts.values())
    tied = sorted(s for s, c in counts.items() if c == best)
    if len(tied) < 2 or not state.hills_and_sheep or HILL_TIEBREAK == "none":
        return tied
    return _hill_tiebreak(state, figures, tied)


def _hill_tiebreak(state: CarcassonneState, figures: list[tuple[int, int]], tied: list[int]) -> list[int]:
    """Of the tied seats, those the hills favour (RULES_NOTES: ``HILL_TIEBREAK``); all of them when none is."""
    hills: dict[int, int] = {s: 0 for s in tied}
    for node, seat in figures:
        if seat in hills and _on_hill(state, node):
            hills[seat] += 1
    if HILL_TIEBREAK == "count":
        top = max(hills.values())
        return tied if top == 0 else [s for s in tied if hills[s] == top]
    with_hill = [s for s in tied if hills[s]]
    return with_hill if with_hill else tied


def monastery_value(state: CarcassonneState, placement: int, completed: bool) -> tuple[int, int]:
    """(points, vineyard bonus) of the monastery on ``placement`` (§5.4; vineyards §7.2)."""
    x, y, _, _ = state.placements[placement]
    around = neighbours8(state, x, y)
    if not completed:
        return 1 + len(around), 0
    bonus = VINEYARD_BONUS * sum(1 for j in around if TILES[state.placements[j][2]].spec.vineyard)
    return MONASTERY_COMPLETE_POINTS + bonus, bonus


def feature_value(state: CarcassonneState, root: int, completed: bool) -> tuple[int, int, int]:
    """(points, bonus, tiles) of a road, city, monastery or field."""
    kind = state.kind[root]
    if kind == MONASTERY:
        points, bonus = monastery_value(state, state.node_tile[root], completed)
        return points, bonus, 1
    if kind == GARDEN:
        x, y, _, _ = state.placements[state.node_tile[root]]
        around = len(neighbours8(state, x, y))
        if not completed:
            return 1 + around, 0, 1
        bonus = monastery_value(state, state.node_tile[root], True)[1] if VINEYARDS_FOR_GARDENS else 0
        return MONASTERY_COMPLETE_POINTS + bonus, bonus, 1
    if kind == FIELD:
        cities = sum(1 for c in field_cities(state, root) if state.open[c] == 0)
        return FARM_POINTS_PER_CITY * cities, 0, feature_tiles(state, root)
    tiles = feature_tiles(state, root)
    if kind == ROAD:
        return ROAD_POINTS_PER_TILE * tiles, 0, tiles
    pennants = feature_pennants(state, root)
    if not completed:
        return CITY_END_POINTS_PER_TILE * tiles + CITY_END_POINTS_PER_PENNANT * pennants, 0, tiles
    if TINY_CITY_SCORING and tiles == 2:
        return 2, 0, tiles
    return CITY_POINTS_PER_TILE * tiles + CITY_POINTS_PER_PENNANT * pennants, 0, tiles


def score_event(state: CarcassonneState, root: int, completed: bool) -> FeatureScored:
    figures = followers_in(state, root)
    abbots = abbots_in(state, root) if state.abbots else []
    points, bonus, tiles = feature_value(state, root, completed)
    if bonus and abbots and not VINEYARDS_FOR_ABBOT:
        points, bonus = points - bonus, 0
    x, y, local = describe(state, figures[0][0] if figures else root)
    return FeatureScored(kind=KIND_NAMES[state.kind[root]], completed=completed, x=x, y=y, feature=local,
                         tiles=tiles, points=points, bonus=bonus, winners=winners(state, figures + abbots),
                         returned=[(seat, *describe(state, n)) for n, seat in figures],
                         abbots=[(seat, *describe(state, n)) for n, seat in abbots])


def completed_by(state: CarcassonneState, placement: int) -> list[FeatureScored]:
    """Occupied roads, cities and monasteries completed by the tile just placed (§5.2 step 3)."""
    events: list[FeatureScored] = []
    seen: set[int] = set()
    for n in tile_nodes(state, placement):
        r = state.root[n]
        if state.kind[n] in (CITY, ROAD) and r not in seen and state.open[r] == 0 and state.occupied[r]:
            seen.add(r)
            events.append(score_event(state, r, True))
    x, y, _, _ = state.placements[placement]
    for j in [placement, *neighbours8(state, x, y)]:
        rt = rotated_at(state, j)
        for i in range(len(rt.features) - 1, -1, -1):
            if rt.features[i].kind < MONASTERY:
                break
            n = state.tile_base[j] + i  # a monastery or a garden: complete with all 8 neighbours (§5.4)
            mx, my, _, _ = state.placements[j]
            if state.occupied[n] and len(neighbours8(state, mx, my)) == 8:
                events.append(score_event(state, n, True))
    return events


def final_scoring(state: CarcassonneState) -> list[FeatureScored]:
    """Every occupied feature at game end: incomplete roads, cities, monasteries, then fields (§5.5)."""
    roots = sorted({state.root[n] for n in state.followers} | {state.root[n] for n in state.abbots.values()})
    events = [score_event(state, r, False) for r in roots if state.kind[r] != FIELD]
    events += [score_event(state, r, False) for r in roots if state.kind[r] == FIELD]
    return events
