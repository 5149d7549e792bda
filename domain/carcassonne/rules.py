"""Every rule choice on an open or edition-dependent question, one named constant each.

See RULES_NOTES.md for the reasoning; carcassonne.md §9 lists the open questions.
"""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 5
"""Five colours of meeples in the C2 box; the sixth shepherd colour needs Inns & Cathedrals followers (§2)."""

FOLLOWERS_PER_PLAYER = 7
"""Eight meeples per colour, one is the score marker (§5.1)."""

ROAD_POINTS_PER_TILE = 1
CITY_POINTS_PER_TILE = 2
CITY_POINTS_PER_PENNANT = 2
CITY_END_POINTS_PER_TILE = 1
CITY_END_POINTS_PER_PENNANT = 1
TINY_CITY_SCORING = False
"""C1 scored a completed two-tile city 2; C2 scores it 4 like any city (§5.4)."""

MONASTERY_COMPLETE_POINTS = 9
FARM_POINTS_PER_CITY = 3
"""Each completed city adjacent to a field, counted once per field (§5.5)."""

VINEYARD_BONUS = 3
"""Per vineyard among the 8 neighbours of a monastery scored as completed, never at game end (H&S, §7.2)."""

HILL_TIEBREAK = "presence"
"""Tied players with at least one follower on a hill tile of the feature win (§9.3); "count" = variant, "none" = off."""

SHEPHERD_WOLF_ENDS_FIGURE_STEP = True
"""A wolf drawn on placing the shepherd uses up the figure step (§9.5); the engine has no second figure step."""

CLOSED_FIELD_GATHERS = True
"""A field with shepherds that becomes closed gathers at once, whoever closed it (H&S footnotes 1-2, §7.3 C)."""

TEND_BEFORE_CLOSED_GATHER = True
"""The active player tends (may Grow) before a forced gather of a closed field (§9.2)."""

FLOCK_POINTS_AT_GAME_END = 0
"""Shepherds and sheep left on the board at game end score nothing (H&S final scoring)."""

RIVER_ALTERNATE_CURVES = True
"""River U-turn rule: a river curve may not turn the same way as the previous curve (§6, §9.10)."""
