"""Importing CP-SAT without importing pandas, which it needs only for its Series helpers.

`ortools.sat.python.cp_model` imports pandas at its top for its pandas helpers
(`new_bool_var_series`, `CpSolver.values` and the like), which this package never calls.
That import is about 0.17 s and 40 MB of a fresh process's 0.4 s and 95 MB of start-up:
the cost every command-line pairing of a small round pays, and every server that starts
the engine once per round.

`install()` puts a finder before the others that wraps the loading of `cp_model`: while
its module body runs, `pandas` names a placeholder (the body only names `pd.Index` and
`pd.Series` in type hints); afterwards the placeholder is gone from `sys.modules`, and
the module's `pd` is a proxy that imports the real pandas on first use.  So a program
that imports pandas, before or after, gets the real one, and the helpers that need it
still work.  When pandas is already loaded, or the module body needs more of pandas than
names (a future OR-Tools), the module is loaded as usual.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importlib.abc alone would cost a tenth of what this saves
    from collections.abc import Sequence
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec

TARGET = "ortools.sat.python.cp_model"


class Placeholder(types.ModuleType):
    """What `import pandas as pd` binds while `cp_model`'s body runs: the names its type
    hints use, as classes nothing is an instance of.  Any other name fails, and the body
    is then run again with the real pandas."""

    NAMES = frozenset({"DataFrame", "Index", "Series"})

    def __getattr__(self, name: str) -> type:
        if name not in self.NAMES:
            raise AttributeError(name)
        return type(name, (), {})


class OnFirstUse(types.ModuleType):
    """`cp_model.pd` after loading: the real pandas, imported when a helper first needs it."""

    def __getattr__(self, name: str) -> object:
        return getattr(importlib.import_module("pandas"), name)


class PandasFreeLoader:
    """A module's usual loader, with the placeholder in place while its body runs."""

    def __init__(self, usual: Loader) -> None:
        self.usual = usual

    def create_module(self, spec: ModuleSpec) -> types.ModuleType | None:
        return self.usual.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        if "pandas" in sys.modules:
            self.usual.exec_module(module)
            return
        before = set(sys.modules)
        sys.modules["pandas"] = Placeholder("pandas")
        try:
            self.usual.exec_module(module)
        except (AttributeError, ImportError):  # all a placeholder raises: a missing name or submodule
            # More of pandas than those names was needed: run the body again, as usual.
            _drop_placeholder()
            self.usual.exec_module(module)
        finally:  # also when the body fails on its own: no placeholder is left behind
            _drop_placeholder()
        # The body, and whatever it imported, binds the real pandas from now on.
        for name in {module.__name__, *(set(sys.modules) - before)}:
            loaded = sys.modules.get(name)
            for attr, value in list(vars(loaded).items()) if loaded is not None else ():
                if isinstance(value, Placeholder):
                    setattr(loaded, attr, OnFirstUse("pandas"))


def _drop_placeholder() -> None:
    """Take the placeholder out of `sys.modules`: the next `import pandas` is the real one."""
    if isinstance(sys.modules.get("pandas"), Placeholder):
        del sys.modules["pandas"]


class PandasFreeFinder:
    """Finds the modules `names` as the other finders do, and gives them `PandasFreeLoader`."""

    def __init__(self, names: frozenset[str] = frozenset({TARGET})) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.names or "pandas" in sys.modules:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = PandasFreeLoader(spec.loader)  # type: ignore[assignment]  # a loader by protocol
                return spec
        return None


def install() -> None:
    """Load `cp_model` without pandas from now on (a no-op once it is loaded)."""
    if TARGET in sys.modules or any(isinstance(f, PandasFreeFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, PandasFreeFinder())
