"""The 2013 edition (C.04.3.1, Istanbul 2012 text, until 2017-06-30): the requirements
of C.3 as tiers (criteria.py) and the round procedure with C.12 backtracking and the
brackets joined at the bottom by C.13 (procedure.py)."""

from cpsat_pairing.dutch.e2013 import criteria as criteria  # noqa: F401  (registers the criteria)
from cpsat_pairing.dutch.e2013.procedure import Procedure2013
from cpsat_pairing.dutch.registry import register_procedure

register_procedure("e2013", Procedure2013())
