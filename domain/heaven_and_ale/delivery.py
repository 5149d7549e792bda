"""Kegs & More data: delivery road, gates, keg areas, storage, storage tiles, components.

Sources (kegs-and-more.md): [RT] expansion rule text, [INF] deduced, [GUESS]
placeholder. Every GUESS is a value here: replacing it needs no code change.
"""

from __future__ import annotations

KEGS = 32  # [RT]
BALES = 20  # [RT]
GOODS_PER_ROUND = 4  # [RT] 4 kegs and 4 bales per round, all player counts (K11)
START_KEGS = 1  # [RT]
START_BALES = 1  # [RT]
DIE_FACES = 6  # [RT] a d6

ROAD_MONASTERY = "monastery"
ROAD_PLAIN = "road"
ROAD_WOOD = "wood"
ROAD_TAVERN = "tavern"

# §3.2.2 [structure INF, numbers GUESS] (K1-K4): (kind, points per loaded keg at game end).
ROAD: tuple[tuple[str, int], ...] = (
    (ROAD_MONASTERY, 0),  # 0, monastery gate after it
    (ROAD_PLAIN, 1),
    (ROAD_WOOD, 0),
    (ROAD_PLAIN, 1),
    (ROAD_PLAIN, 2),
    (ROAD_WOOD, 0),
    (ROAD_PLAIN, 3),
    (ROAD_TAVERN, 0),  # 7: tavern 1, 1st tavern gate after it
    (ROAD_PLAIN, 0),
    (ROAD_TAVERN, 0),  # 9: tavern 2, 2nd tavern gate after it
    (ROAD_WOOD, 0),
    (ROAD_TAVERN, 0),  # 11: tavern 3, 3rd tavern gate after it
    (ROAD_PLAIN, 0),
    (ROAD_PLAIN, 0),
)
ROAD_LEN = len(ROAD)
MONASTERY = 0
# Gate after a location (crossed when stepping from it to the next) [INF K2: gates after taverns].
MONASTERY_GATE_AT = 0
TAVERN_GATES_AT: tuple[int, int, int] = (7, 9, 11)
# Kegs delivered at each tavern gate: exactly 1, exactly 1, then all the rest [RT]. None = all.
TAVERN_GATE_DELIVERS: tuple[int | None, int | None, int | None] = (1, 1, None)

KEG_AREA_VALUES: tuple[int, int, int] = (6, 4, 2)  # areas 1, 2 [RT example]; area 3 [GUESS K5]
UPGRADABLE_AREAS: tuple[int, ...] = (1, 2)  # [RT] a point tile covers area 1 or 2
ONE_POINT_TILE_PER_AREA = True  # [INF K12] "the empty point space"

REGULAR_SPOTS = 4  # [GUESS K9]
RENTAL_COST = 4  # [RT] ducats per piece placed on the rental spot
STORED_KEG_VP_HALVES = 1  # [RT] half a point per stored keg (in half points)

TILE_KEGBALE = "kegbale"
TILE_CARTER2 = "carter2"
TILE_CARTER3 = "carter3"
TILE_POINTS7 = "points7"
TILE_POINTS8 = "points8"
TILE_MOVE3 = "move3"
TILE_MOVE4 = "move4"
# §3.4: the 7 storage-tile fronts of every colour [kinds RT; split INF K8; values GUESS K6/K7; carter RT].
STORAGE_TILES: tuple[str, ...] = (TILE_KEGBALE, TILE_CARTER2, TILE_CARTER3, TILE_POINTS7, TILE_POINTS8, TILE_MOVE3, TILE_MOVE4)
CARTER_BONUS: dict[str, int] = {TILE_CARTER2: 2, TILE_CARTER3: 3}
POINT_TILES: dict[str, int] = {TILE_POINTS7: 7, TILE_POINTS8: 8}
MOVE_TILES: dict[str, int] = {TILE_MOVE3: 3, TILE_MOVE4: 4}
BACK_STORAGE_SPOTS = 1  # [RT] every back is one storage spot

NEW_BARREL_KEGS = 3  # [RT] goal: at least 3 kegs delivered in total
