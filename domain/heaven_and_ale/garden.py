"""Garden geometry: sunny/shady spots, shed spots and their neighbours (heaven-and-ale.md §2.5).

Hex layout [IMPL src4, two adjacency typos fixed from its own coordinates] in
double-width coordinates (row, column); neighbours of (r, c) are (r, c±2) and
(r±1, c±1). Spot indices: S0..S14 = 0..14 (sunny), H0..H14 = 15..29 (shady).
"""

from __future__ import annotations

from itertools import combinations

# [IMPL] coordinates of the sunny spots; shady spot Hi mirrors Si at (r, 12 - c).
SUNNY_COORDS: tuple[tuple[int, int], ...] = (
    (0, 5), (1, 4), (2, 1), (2, 3), (2, 5), (3, 0), (3, 4), (4, 1),
    (4, 3), (4, 5), (5, 0), (5, 4), (6, 1), (6, 3), (6, 5),
)
SHED_NAMES: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G")
SHED_COORDS: tuple[tuple[int, int], ...] = ((1, 6), (3, 6), (5, 6), (3, 2), (5, 2), (3, 10), (5, 10))  # [IMPL]

N_SIDE = 15
N_SPOTS = 2 * N_SIDE
SPOT_NAMES: tuple[str, ...] = tuple(f"S{i}" for i in range(N_SIDE)) + tuple(f"H{i}" for i in range(N_SIDE))
SPOT_INDEX: dict[str, int] = {n: i for i, n in enumerate(SPOT_NAMES)}
SHED_INDEX: dict[str, int] = {n: i for i, n in enumerate(SHED_NAMES)}
SPOT_COORDS: tuple[tuple[int, int], ...] = SUNNY_COORDS + tuple((r, 12 - c) for r, c in SUNNY_COORDS)

# Edge directions of a hex, in order; opposite of d is (d + 3) % 6.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))  # E NE NW W SW SE


def is_sunny(spot: int) -> bool:
    return spot < N_SIDE


_AT = {rc: i for i, rc in enumerate(SPOT_COORDS)}

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_AT[(r + dr, c + dc)] for dr, dc in DIRECTIONS if (r + dr, c + dc) in _AT) for r, c in SPOT_COORDS
)
# The six neighbours of each shed spot, by direction (all are garden spots).
SHED_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_AT[(r + dr, c + dc)] for dr, dc in DIRECTIONS) for r, c in SHED_COORDS
)
SPOT_SHEDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s, ns in enumerate(SHED_NEIGHBOURS) if spot in ns) for spot in range(N_SPOTS)
)

# §3.7 [RB]: which neighbour directions each shed type activates (rotation free [SUM src3]).
SHED_PATTERNS: dict[int, tuple[tuple[int, ...], ...]] = {
    0: ((),),
    1: tuple((d,) for d in range(6)),
    2: ((0, 3), (1, 4), (2, 5)),  # opposite edges
    3: ((0, 2, 4), (1, 3, 5)),  # alternate edges
    4: tuple(combinations(range(6), 4)),  # any four
}


def shed_options(shed: int, kind: int) -> list[tuple[int, ...]]:
    """The spot sets a shed of ``kind`` on ``shed`` may activate, each sorted."""
    ns = SHED_NEIGHBOURS[shed]
    return [tuple(sorted(ns[d] for d in pattern)) for pattern in SHED_PATTERNS[kind]]
