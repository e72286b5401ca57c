"""CP-SAT loaded without pandas and numpy (solver/startup.py): the engine pairs without
pandas, imports numpy only when it builds a model, and a program that wants either,
before or after, gets the real one with working helpers and numpy's integers taken as
integers."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cpsat_pairing.solver.startup import DeferringFinder


def _run(code: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], check=False, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_a_round_is_paired_without_loading_pandas() -> None:
    out = _run("""
        import sys
        from importlib.resources import files
        import cpsat_pairing as cp
        from ortools.sat.python import cp_model
        t = cp.parse_trf((files("cpsat_pairing.examples") / "example.trf").read_text())
        p = cp.pair(t)
        print(len(p.boards) > 0, "pandas" in sys.modules, type(cp_model.pd).__name__)
    """)
    assert out == ["True", "False", "OnFirstUse"]


def test_cp_model_is_imported_without_numpy_and_takes_its_integers_afterwards() -> None:
    out = _run("""
        import sys
        import cpsat_pairing
        from ortools.sat.python import cp_model
        print("numpy" in sys.modules, isinstance(3, cp_model.IntegralTypes))
        import numpy as np
        print(isinstance(np.int64(3), cp_model.IntegralTypes), isinstance(np.float64(3), cp_model.IntegralTypes))
        model = cp_model.CpModel()
        x = model.new_int_var(np.int32(0), np.int64(9), "x")
        model.add(x >= np.int64(4))
        model.minimize(x)
        solver = cp_model.CpSolver()
        solver.solve(model)
        print(solver.value(x), type(cp_model.np).__name__, cp_model.np.int64 is np.int64)
    """)
    assert out == ["False", "True", "True", "False", "4", "OnFirstUse", "True"]


def test_numpy_imported_first_is_left_alone() -> None:
    out = _run("""
        import numpy
        import cpsat_pairing
        from ortools.sat.python import cp_model
        print(cp_model.np is numpy, cp_model.IntegralTypes[-1] is numpy.uint64, "pandas" in __import__("sys").modules)
    """)
    assert out == ["True", "True", "False"]


def test_pandas_imported_afterwards_is_the_real_one_and_the_helpers_work() -> None:
    out = _run("""
        import cpsat_pairing
        from ortools.sat.python import cp_model
        import pandas as pd
        model = cp_model.CpModel()
        xs = model.new_bool_var_series(name="x", index=pd.Index(range(4)))
        model.add(xs.sum() == 3)
        model.maximize(xs[0] * 0 + xs[3])
        solver = cp_model.CpSolver()
        solver.solve(model)
        values = solver.boolean_values(xs)
        print(type(values).__module__.split(".")[0], int(values.sum()), bool(values[3]), pd.DataFrame is not None)
    """)
    assert out == ["pandas", "3", "True", "True"]


def test_pandas_imported_first_is_left_alone() -> None:
    out = _run("""
        import pandas
        import cpsat_pairing
        from ortools.sat.python import cp_model
        print(cp_model.pd is pandas)
    """)
    assert out == ["True"]


@pytest.mark.parametrize(
    ("body", "pandas_loaded"),
    [
        ("import pandas as pd\ndef f(x: pd.Series) -> pd.Index: ...\ndef g():\n    return pd.Series([1, 2]).sum()\n", False),
        # A body that needs more of pandas than the hints' names is run again with it.
        ("import pandas as pd\nKIND = pd.api.types.is_integer_dtype\ndef g():\n    return pd.Series([1, 2]).sum()\n", True),
        # A name or a submodule imported from the placeholder: an ImportError, run again too.
        ("from pandas import api\nimport pandas as pd\ndef g():\n    return pd.Series([1, 2]).sum()\n", True),
        ("import pandas.api.types\nimport pandas as pd\ndef g():\n    return pd.Series([1, 2]).sum()\n", True),
    ],
)
def test_the_loader_on_other_module_bodies(tmp_path: Path, body: str, pandas_loaded: bool) -> None:
    """In a fresh interpreter: the finder on a module of our own with that body."""
    (tmp_path / "uses_pandas.py").write_text(body)
    out = _run(f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        from cpsat_pairing.solver.startup import DeferringFinder
        sys.meta_path.insert(0, DeferringFinder(frozenset({{"uses_pandas"}})))
        import uses_pandas
        print("pandas" in sys.modules)
        print(uses_pandas.g())
        print(type(sys.modules["pandas"]).__name__)
    """)
    assert out == [str(pandas_loaded), "3", "module"]


def test_the_finder_ignores_other_modules() -> None:
    finder = DeferringFinder()
    assert finder.find_spec("json", None) is None
    assert importlib.import_module("json") is sys.modules["json"]


def test_an_error_of_the_module_itself_is_raised_once(tmp_path: Path) -> None:
    """Only what the placeholder can raise runs the body again: the module's own error
    propagates from its one run."""
    (tmp_path / "fails.py").write_text("import pandas as pd\nprint('ran')\nraise ValueError('its own error')\n")
    out = _run(f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        from cpsat_pairing.solver.startup import DeferringFinder
        sys.meta_path.insert(0, DeferringFinder(frozenset({{"fails"}})))
        try:
            import fails
        except ValueError as exc:
            print(exc.args[0].replace(" ", "_"), "pandas" in sys.modules)
    """)
    assert out == ["ran", "its_own_error", "False"]
