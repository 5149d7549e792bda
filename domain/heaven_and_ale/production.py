"""Player-board data: production track, start spots, brewmaster brackets, shed reward table, money.

Sources: [RB] the base rulebook text, shared/rules/heaven-and-ale-base-rules.txt (heaven-and-ale.md's
src1); as labelled in heaven-and-ale.md: [IMPL] src4, [SUM] src3, [GUESS].
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("wood", "yeast", "hops", "water", "barley")  # [RB]
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}

TRACK_MAX = 20  # [RB] numbered spots 1-20
# §2.4.1 / U3: start spots (<= 0 are the unnumbered pre-track spots worth 0) [IMPL src4; order RB-supported by src6].
START_MARKERS: tuple[int, ...] = (1, -2, -4, -6, -8)  # wood, yeast, hops, water, barley
START_BREWMASTER = -9  # [IMPL]
START_DUCATS = 25  # [RB]

# §3.6 [RB]: a resource marker on 20 pays 1 ducat per step beyond.
MARKER_OVERFLOW_DUCATS = 1
# U8 [GUESS]: brewmaster steps beyond 20 are lost.
BREWMASTER_OVERFLOW_DUCATS = 0

# §2.4.2: (lowest brewmaster spot, exchange rate R for R:1, VP value per spot of the least marker).
# Row <=0 [RB]; 1-14 [IMPL, consistent with RB glyphs]; 9-11 [SUM src3]; 15-20 [IMPL only].
BRACKETS: tuple[tuple[int, int, int], ...] = (
    (-99, 5, 2),
    (1, 4, 3),
    (5, 3, 3),
    (9, 3, 4),
    (12, 2, 4),
    (15, 2, 5),
    (18, 2, 6),
    (20, 1, 6),
)

# §3.7: (lowest fertility sum, brewmaster steps, shed type). Ranges/types [RB]; 12-17 row [RB example];
# steps 6/3/1/0 [IMPL] (U6).
SHED_REWARDS: tuple[tuple[int, int, int], ...] = (
    (0, 6, 0),
    (8, 3, 1),
    (12, 1, 2),
    (18, 1, 3),
    (24, 0, 4),
)

EMERGENCY_COIN_DUCATS = 3  # [RB] §3.10
FINAL_DUCATS_PER_STEP = 10  # [RB] §3.14 B


def bracket(brewmaster: int) -> tuple[int, int]:
    """(exchange rate, VP value) for a brewmaster spot (§2.4.2)."""
    rate, value = BRACKETS[0][1], BRACKETS[0][2]
    for low, r, v in BRACKETS:
        if brewmaster >= low:
            rate, value = r, v
    return rate, value


def shed_reward(fertility: int) -> tuple[int, int]:
    """(brewmaster steps, shed type) for a shed fertility sum (§3.7)."""
    steps, kind = SHED_REWARDS[0][1], SHED_REWARDS[0][2]
    for low, s, k in SHED_REWARDS:
        if fertility >= low:
            steps, kind = s, k
    return steps, kind
