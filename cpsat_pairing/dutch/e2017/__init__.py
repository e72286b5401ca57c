"""The 2017 edition (C.04.3, 2017-07-01 to 2026-01-31): its bracket model (bracket.py),
criteria C.4-C.19 (criteria.py) and the round procedure with the penultimate and the
collapsed last bracket of A.9 (procedure.py)."""

from cpsat_pairing.dutch.e2017 import criteria as criteria  # noqa: F401  (registers the criteria)
from cpsat_pairing.dutch.e2017.procedure import Procedure2017
from cpsat_pairing.dutch.registry import register_procedure

register_procedure("e2017", Procedure2017())
