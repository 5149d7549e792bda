"""Main-board data: the common track, monk costs, disc spaces and starting spaces.

Sources: [RB] the base rulebook text, shared/rules/heaven-and-ale-base-rules.txt
(heaven-and-ale.md's src1); as labelled in heaven-and-ale.md: [IMPL] wusui/gameRoom
(src4), [SUM] summaries/reviews, [INF]/[GUESS] our reading. Replace a value here and
nothing else changes.
"""

from __future__ import annotations

START = "start"
RESOURCE = "resource"
MONK = "monk"
DISC_A = "A"
DISC_B = "B"
DISC_C = "C"
DISC_ABC = "ABC"
BARREL = "barrel"

# §2.2: order clockwise from the starting area (index 0). Counts [RB+SUM]; order [IMPL src4].
TRACK: tuple[str, ...] = (
    START,  # 0
    RESOURCE, RESOURCE, MONK, DISC_A, RESOURCE, RESOURCE, DISC_B,  # 1-7
    RESOURCE, RESOURCE, MONK, RESOURCE, DISC_C, RESOURCE, BARREL,  # 8-14
    RESOURCE, DISC_ABC, RESOURCE, MONK, RESOURCE, DISC_ABC, RESOURCE,  # 15-21
    RESOURCE, RESOURCE, DISC_ABC, MONK, BARREL, RESOURCE,  # 22-27
)
TRACK_LEN = len(TRACK)  # 28 [SUM src7]

# §2.2 / U2: the monk cost number printed on each monk space [IMPL src4: 4 - idx // 7].
MONK_COST: dict[int, int] = {3: 4, 10: 3, 18: 2, 25: 1}

RESOURCE_SPACES: tuple[int, ...] = tuple(i for i, k in enumerate(TRACK) if k == RESOURCE)
MONK_SPACES: tuple[int, ...] = tuple(i for i, k in enumerate(TRACK) if k == MONK)
DISC_SPACES: tuple[int, ...] = tuple(i for i, k in enumerate(TRACK) if k in (DISC_A, DISC_B, DISC_C, DISC_ABC))

# §3.12 step 4 [RB]: in the last round of a 2p/3p game these disc spaces get a 2nd disc
# (B, C; and for 3p the first A/B/C space).
LAST_ROUND_EXTRA_DISCS: dict[int, tuple[int, ...]] = {2: (7, 12), 3: (7, 12, 16)}

# §2.3 [RB]: the four starting spaces and their immediate rewards.
SLOT_FIRST = "first"
SLOT_DUCATS = "ducats"
SLOT_BREWMASTER = "brewmaster"
SLOT_RESOURCE = "resource"
START_SLOTS: tuple[str, ...] = (SLOT_FIRST, SLOT_DUCATS, SLOT_BREWMASTER, SLOT_RESOURCE)
SLOT_DUCATS_AMOUNT = 2  # [RB]
SLOT_BREWMASTER_STEPS = 1  # [RB]
SLOT_RESOURCE_STEPS = 2  # [RB] all on one marker
FIRST_PLAYER_VP = 1  # [RB] §3.14 step 5

# §3.1 [RB]: rounds by player count (= monk piles in use).
ROUNDS_BY_PLAYERS: dict[int, int] = {2: 3, 3: 4, 4: 6}
