"""The 2026 edition (C.04.3, in force since 2026-02-01): criteria [C6]-[C21]
(criteria.py) and the round procedure ([C5] first, every bracket completing the round:
procedure.py).  A bracket is paired by scoring its candidates where that proves the
answer (direct.py, with scoring.py, candidates.py and next_bracket.py), else on its
models (modelled.py, with the bracket-alone solve in local.py)."""

from cpsat_pairing.dutch.e2026 import criteria as criteria  # noqa: F401  (registers the criteria)
from cpsat_pairing.dutch.e2026.procedure import Procedure2026
from cpsat_pairing.dutch.registry import register_procedure

register_procedure("e2026", Procedure2026())
