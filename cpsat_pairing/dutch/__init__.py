"""The Dutch system: the one round loop (loop.py) and the edition hooks it calls
(e2026/, e2017/, e2013/), bracket models (bracket.py, aggregate.py, e2017/bracket.py),
the generation order (order.py), editions as data (edition.py), colours and board
order (boards.py), and why a round cannot be paired (unpairable.py)."""

from cpsat_pairing.dutch.rounds import evaluate, illegalities, pair

__all__ = ["evaluate", "illegalities", "pair"]
