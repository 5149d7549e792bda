"""How fast a newcomer's rating settles (the figures behind PROVISIONAL_GAMES = 10, README "Fair play").

A newcomer plays two-player games against established equals (sigma 2, the newcomer's own mu), winning or losing
at random (seeded); per game: sigma after it and how far it moved the display rating (1000 + 40 (mu - 3 sigma)).
Prints the table and the means over 200 newcomers for games 1-3 and 9-11.

    .venv/bin/python bench/rating_settle.py
"""

from __future__ import annotations

import random
import statistics

from openskill.models import PlackettLuce

from projections.ratings import DISPLAY_SCALE

MODEL = PlackettLuce()
GAMES = 12


def newcomer(seed: int) -> list[tuple[float, float]]:
    rng = random.Random(seed)
    me = MODEL.rating()
    out = []
    for _ in range(GAMES):
        opponent = MODEL.rating(mu=me.mu, sigma=2.0)
        before = me.mu - 3 * me.sigma
        [[me], _] = MODEL.rate([[me], [opponent]], ranks=[1, 2] if rng.random() < 0.5 else [2, 1])
        out.append((me.sigma, DISPLAY_SCALE * abs(me.mu - 3 * me.sigma - before)))
    return out


def main() -> None:
    runs = [newcomer(seed) for seed in range(200)]
    print("game  sigma  display points moved (mean of 200 newcomers)")
    for g in range(GAMES):
        print(f"{g + 1:>4}  {statistics.mean(r[g][0] for r in runs):5.2f}  {statistics.mean(r[g][1] for r in runs):6.1f}")
    early = statistics.mean(r[g][1] for r in runs for g in range(3))
    settled = statistics.mean(r[g][1] for r in runs for g in range(8, 11))
    print(f"games 1-3: {early:.0f} points a game; games 9-11: {settled:.0f} points a game")


if __name__ == "__main__":
    main()
