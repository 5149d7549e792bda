"""Tile supply data: resource tiles by back, monk tiles, discs (heaven-and-ale.md §2.1, U1).

Tile codes: a resource tile is ``colour * 5 + (fertility - 1)`` (0..24); a monk
of type t (1..4) is ``24 + t`` (25..28). Names: ``"hops-4"``, ``"monk-2"``.
"""

from __future__ import annotations

from .production import COLOURS

FERTILITIES: tuple[int, ...] = (1, 2, 3, 4, 5)  # [RB]
MONK_TYPES = 4  # [RB]
N_RESOURCE_CODES = len(COLOURS) * len(FERTILITIES)
MONK_BASE = N_RESOURCE_CODES
N_CODES = N_RESOURCE_CODES + MONK_TYPES

# U1 [GUESS, as src4]: 4 tiles of each (colour, fertility) [RB], 2 with back I and 2 with back II.
RESOURCE_TILES_PER_BACK: tuple[int, int] = (2, 2)
# [RB] 12 monks with back I, 12 with back II; mix per type [IMPL src4]: 3 of each type per back.
MONKS_PER_TYPE_PER_BACK: tuple[int, int] = (3, 3)
MONKS_PER_PILE = 4  # [RB] one per monk space
PILES_PER_BACK = 3  # [RB] 3 "I" and 3 "II" pile spaces
DISCS = 36  # [RB]


def is_monk(code: int) -> bool:
    return code >= MONK_BASE


def colour_of(code: int) -> int:
    return code // 5


def fertility_of(code: int) -> int:
    """Fertility number of a resource tile (monks count 0, §3.7)."""
    return 0 if code >= MONK_BASE else code % 5 + 1


def monk_type(code: int) -> int:
    """Monk type 1..4."""
    return code - MONK_BASE + 1


def tile_name(code: int) -> str:
    if code >= MONK_BASE:
        return f"monk-{code - MONK_BASE + 1}"
    return f"{COLOURS[code // 5]}-{code % 5 + 1}"


TILE_CODES: dict[str, int] = {tile_name(c): c for c in range(N_CODES)}


def initial_resource_piles() -> list[list[int]]:
    """Counts per resource code for pile I and pile II."""
    return [[RESOURCE_TILES_PER_BACK[b]] * N_RESOURCE_CODES for b in (0, 1)]


def initial_monk_piles() -> list[list[int]]:
    """Counts per monk type (index type-1) for back I and back II."""
    return [[MONKS_PER_TYPE_PER_BACK[b]] * MONK_TYPES for b in (0, 1)]


def pile_back_for_round(round_no: int) -> int:
    """Which monk back (0 = I, 1 = II) supplies the pile of a round (§3.2 step 4: I piles first)."""
    return 0 if round_no <= PILES_PER_BACK else 1
