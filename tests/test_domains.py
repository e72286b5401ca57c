"""The Python-side record of fixed domains and the proto agree through fixes, restores
and restrictions, also for variables added after some domains were written."""

from __future__ import annotations

import random

from ortools.sat.python import cp_model

from cpsat_pairing.solver.domains import Domains
from helpers import domains_agree


def test_domains_follow_fixes_restrictions_and_growth() -> None:
    rng = random.Random(7)
    model = cp_model.CpModel()
    for _ in range(50):
        model.new_bool_var("")
    domains = Domains(model)
    saved = domains.fix([(i, rng.randint(0, 1)) for i in range(0, 50, 3)])
    domains.restrict({1, 4, 7, 10})
    for _ in range(20_000):  # added after some domains were written
        model.new_bool_var("")
    assert domains_agree(domains)
    domains.restrict({4, 10, 20_010})
    inner = domains.fix([(1, 1), (20_010, 1), (30, 0)])
    assert domains_agree(domains)
    domains.restore(inner)
    domains.restore(saved)
    domains.restrict(set())
    assert domains.fixed == {} and domains_agree(domains)
