"""Fitted weights of the Heaven & Ale evaluation, one per ``heuristics.FEATURES``. Written by
``bench/tune_heaven_and_ale.py --write``; empty: the bots use the hand-made estimate (``hand_evaluate``).

Empty on purpose: no fit so far beats the hand-made estimate (``--compare``/``--then-compare``, greedy
against greedy, 20 seeded games each, seats alternating, machine under load 20+):
- ``--generations 1 --games 200 --every 2 --no-follow-up --seed tune`` (held-out R2 0.33): the fit won
  32.5% (95% Wilson interval 16-54%), mean score 11.4 against 17.2;
- ``--generations 1 --games 120 --every 2 --no-follow-up --from-hand --ridge 0.01 --seed tune`` (R2 0.26):
  40.0% (22-61%), 14.2 against 15.3.
A game gives one final score per seat, so 120-200 games are few targets for 13 weights; more games, or
targets bootstrapped from later positions (temporal differences), are the next things to try.
"""

WEIGHTS: tuple[float, ...] = ()
