"""Every rule choice on an open or edition-dependent question, one named constant each.

See RULES_NOTES.md for the reasoning; carcassonne.md §9 lists the open questions.
"""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 5
"""Five colours of meeples in the C2 box; a sixth player needs Inns & Cathedrals followers (§2)."""

FOLLOWERS_PER_PLAYER = 7
"""Eight meeples per colour, one is the score marker (§5.1)."""

FARMERS = True
"""C2 prints farmers as a supplement; they are played as standard (§9.15)."""

ROAD_POINTS_PER_TILE = 1
CITY_POINTS_PER_TILE = 2
CITY_POINTS_PER_PENNANT = 2
CITY_END_POINTS_PER_TILE = 1
CITY_END_POINTS_PER_PENNANT = 1
TINY_CITY_SCORING = False
"""C1 scored a completed two-tile city 2; C2 scores it 4 like any city (§5.4)."""

MONASTERY_COMPLETE_POINTS = 9
"""A completed monastery (and, with the Abbot, a completed garden) (§5.4)."""
FARM_POINTS_PER_CITY = 3
"""Each completed city adjacent to a field, counted once per field (§5.5)."""

VINEYARD_BONUS = 3
"""Per vineyard among the 8 neighbours of a monastery scored as completed, never at game end (H&S, §7.2)."""
VINEYARDS_FOR_ABBOT = True
"""An abbot on a monastery completed during play gets the vineyard bonus (§9.6)."""
VINEYARDS_FOR_GARDENS = False
"""Gardens never get the vineyard bonus (§9.6)."""

HILL_TIEBREAK = "presence"
"""Tied players with at least one follower on a hill tile of the feature win (§9.3); "count" = variant, "none" = off."""

SHEPHERD_WOLF_ENDS_FIGURE_STEP = True
"""A wolf drawn on placing the shepherd uses up the figure step (§9.5); False lets the seat place another figure."""

MULTIPLE_SHEPHERDS_SHARE_TOTAL = True
"""Gathering a field with several shepherds pays every owner the field's total (§9.1); False = own flock only."""

CLOSED_FIELD_GATHERS = True
"""A field with shepherds that becomes closed gathers at once, whoever closed it (H&S footnotes 1-2, §7.3 C)."""

TEND_BEFORE_CLOSED_GATHER = True
"""The active player tends (may Grow) before a forced gather of a closed field (§9.2); False = gather only."""

RIVER_ALTERNATE_CURVES = True
"""River U-turn rule: a river curve may not turn the same way as the previous curve (§6, §9.10)."""

RIVER_START_TILE_IN_STACK = True
"""With the River the usual start tile is shuffled into the land tiles (§9.11); False = left out of the game."""

DRAWN_TILE_PRIVATE = False
"""False (default): the drawn tile is shown to all players and spectators, as at the table and in every online
implementation. True is an option kept for a possible "hidden draw" house rule: only the seat that drew it sees
which tile it is until it is placed (the others get ``"hidden"`` and count it among their unseen tiles).
Discarded tiles stay public either way. Read at call time (``messages``, ``view``), so tests can flip it."""
