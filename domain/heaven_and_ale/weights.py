"""Fitted weights of the Heaven & Ale evaluation (``heuristics.FEATURES``, then the same times the share of
the game left). Written by ``bench/tune_heaven_and_ale.py``; empty: the hand-made estimate is used."""

WEIGHTS: tuple[float, ...] = ()
