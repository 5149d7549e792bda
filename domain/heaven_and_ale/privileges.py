"""Tile-scoring spots, privilege pairs and the five privilege cards (heaven-and-ale.md §2.4, §3.9).

Scoring spots: 0 = the x-tile spot, 1..5 = resource colours (COLOURS order),
6..9 = monk types 1..4.
"""

from __future__ import annotations

from .production import COLOURS

SCORING_SPOTS: tuple[str, ...] = ("x",) + COLOURS + ("monk1", "monk2", "monk3", "monk4")  # [RB] 10 spots
SCORING_INDEX: dict[str, int] = {n: i for i, n in enumerate(SCORING_SPOTS)}
X_SPOT = 0
COLOUR_SPOTS: tuple[int, ...] = (1, 2, 3, 4, 5)
MONK_SPOTS: tuple[int, ...] = (6, 7, 8, 9)

# U4 [IMPL src4 drawing order, unverified]: the five privilege pairs.
PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (2, 3), (4, 5), (6, 7), (8, 9))
PAIR_OF: tuple[int, ...] = tuple(next(p for p, pair in enumerate(PAIRS) if s in pair) for s in range(len(SCORING_SPOTS)))

CARD_DUCATS = "ducats"  # take 12 ducats [RB]
CARD_BREWMASTER = "brewmaster"  # brewmaster 5 steps [RB]
CARD_BARRELS = "barrels"  # +1 VP per barrel at the end [RB]
CARD_RESOURCE = "resource"  # one colour's marker: +1 step per tile of that colour [RB]
CARD_DISCS = "discs"  # least advanced marker: +1 step per disc on the scoring spots [RB]
CARDS: tuple[str, ...] = (CARD_DUCATS, CARD_BREWMASTER, CARD_BARRELS, CARD_RESOURCE, CARD_DISCS)
CARD_DUCATS_AMOUNT = 12  # [RB]
CARD_BREWMASTER_STEPS = 5  # [RB]
CARD_BARRELS_VP = 1  # [RB]
DECLINED = "declined"
