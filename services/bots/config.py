"""Knobs of the search bot. Each game's adapter (:mod:`services.bots.games`) carries its own
:class:`SearchConfig`, chosen by arena runs (``bench/arena.py --set``)."""

from __future__ import annotations

from dataclasses import dataclass

PLAYOUT_SAMPLE = 4
"""Playout policy: the best of this many random legal commands by one-step evaluation."""
ROOT_WIDTH = 6
"""Search considers only this many best root commands by greedy value (plus ties, at most twice as many)."""
PRIOR_VISITS = 2
"""Each root command starts with this many virtual visits worth its greedy value (a progressive bias)."""
DETERMINIZATIONS = 12
UCB_C = 0.7


@dataclass(frozen=True)
class SearchConfig:
    """Search knobs: the module constants are the defaults, a game's adapter sets its own."""

    root_width: int = ROOT_WIDTH
    prior_visits: int = PRIOR_VISITS
    determinizations: int = DETERMINIZATIONS
    ucb_c: float = UCB_C
    playout_sample: int = PLAYOUT_SAMPLE
    playout_turns: int = 0
    """Stop a playout when the turn has changed hands this many times (2: after the opponents' replies,
    back at the searching seat); 0 counts commands only (the game's ``playout_depth``)."""
    playout_depth: int = 4
    """Commands simulated after the candidate before the heuristic judges the position (a cap)."""
    paired: bool = False
    """Compare the root commands on common random numbers: each round of simulations takes one
    determinization and one chance seed and plays every candidate under both, so the comparison sees
    the commands' difference, not the luck of the draw; the best mean margin over whole rounds wins."""
