"""Importing CP-SAT without importing pandas or numpy, which its wrapper needs only for
helpers and type checks this package does not use.

`ortools.sat.python.cp_model` imports pandas (for `new_bool_var_series`,
`CpSolver.values` and the like) and numpy (its integer types, in `isinstance` checks and
type hints) at its top.  Those two imports are about 0.3 s and 60 MB of a fresh process:
the cost every command-line pairing of a small round pays, and every server that starts
the engine once per round.  The C++ core the wrapper is built on needs neither.

`install()` puts a finder before the others that wraps the loading of `cp_model`: while
its module body runs, `pandas` and `numpy` (those not loaded yet) name placeholders.  A
placeholder's attributes are the names the body uses, each a class that nothing is an
instance of while the real module is not loaded, and afterwards answers `isinstance`
as the real module's class does (nothing can be an `np.int64` before numpy is loaded).
Afterwards the placeholders are gone from `sys.modules`, and the module's `pd` and `np`
are proxies that import the real module on first use.  So a program that imports pandas
or numpy, before or after, gets the real one, the helpers that need it still work, and
numpy's integers are still integers to the wrapper.  When the module body needs more
than those names (a future OR-Tools), it is loaded as usual.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # importlib.abc alone would cost a tenth of what this saves
    from collections.abc import Sequence
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec

TARGET = "ortools.sat.python.cp_model"

# The modules deferred, and the names `cp_model`'s body reads of each (classes only).
DEFERRED: dict[str, frozenset[str]] = {
    "pandas": frozenset({"DataFrame", "Index", "Series"}),
    "numpy": frozenset({
        "bool_", "double", "float64", "floating", "int8", "int32", "int64", "integer", "ndarray", "number",
        "uint8", "uint32", "uint64",
    }),
}


class DeferredType(type):
    """The class of a placeholder's names: `isinstance` and `issubclass` ask the real
    module's class once that module is loaded, and say no before (nothing can be an
    instance of a class not loaded).  Calling one is a missing name: the body that
    does so is run again with the real module."""

    home: str

    def _real(cls) -> type | None:
        module = sys.modules.get(cls.home)
        if module is None or isinstance(module, Placeholder):
            return None
        real = getattr(module, cls.__name__, None)
        return real if isinstance(real, type) else None

    def __instancecheck__(cls, obj: object) -> bool:
        real = cls._real()
        return real is not None and isinstance(obj, real)

    def __subclasscheck__(cls, sub: type) -> bool:
        real = cls._real()
        return real is not None and issubclass(sub, real)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        raise AttributeError(f"{cls.home}.{cls.__name__} is a placeholder")


class Placeholder(types.ModuleType):
    """What `import pandas as pd` (or numpy) binds while `cp_model`'s body runs: the names
    it uses, as `DeferredType` classes.  Any other name fails, and the body is then run
    again with the real modules."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._types: dict[str, type] = {}

    def __getattr__(self, name: str) -> type:
        if name.startswith("_") or name not in DEFERRED.get(self.__name__, frozenset()):
            raise AttributeError(name)
        made = self._types.get(name)
        if made is None:
            made = self._types[name] = DeferredType(name, (), {"home": self.__name__})
        return made


class OnFirstUse(types.ModuleType):
    """`cp_model.pd` (or `np`) after loading: the real module, imported when a helper
    first needs it."""

    def __getattr__(self, name: str) -> object:
        return getattr(importlib.import_module(self.__name__), name)


class DeferringLoader:
    """A module's usual loader, with placeholders in place while its body runs."""

    def __init__(self, usual: Loader) -> None:
        self.usual = usual

    def create_module(self, spec: ModuleSpec) -> types.ModuleType | None:
        return self.usual.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        missing = [name for name in DEFERRED if name not in sys.modules]
        if not missing:
            self.usual.exec_module(module)
            return
        before = set(sys.modules)
        for name in missing:
            sys.modules[name] = Placeholder(name)
        try:
            self.usual.exec_module(module)
        except (AttributeError, ImportError):  # all a placeholder raises: a missing name or submodule
            # More of a deferred module than those names was needed: run the body again, as usual.
            _drop_placeholders()
            self.usual.exec_module(module)
        finally:  # also when the body fails on its own: no placeholder is left behind
            _drop_placeholders()
        # The body, and whatever it imported, binds the real modules from now on.
        for name in {module.__name__, *(set(sys.modules) - before)}:
            loaded = sys.modules.get(name)
            for attr, value in list(vars(loaded).items()) if loaded is not None else ():
                if isinstance(value, Placeholder):
                    setattr(loaded, attr, OnFirstUse(value.__name__))


def _drop_placeholders() -> None:
    """Take the placeholders out of `sys.modules`: the next import is the real one."""
    for name in DEFERRED:
        if isinstance(sys.modules.get(name), Placeholder):
            del sys.modules[name]


class DeferringFinder:
    """Finds the modules `names` as the other finders do, and gives them `DeferringLoader`."""

    def __init__(self, names: frozenset[str] = frozenset({TARGET})) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.names or all(name in sys.modules for name in DEFERRED):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = DeferringLoader(spec.loader)  # type: ignore[assignment]  # a loader by protocol
                return spec
        return None


def install() -> None:
    """Load `cp_model` without pandas and numpy from now on (a no-op once it is loaded)."""
    if TARGET in sys.modules or any(isinstance(f, DeferringFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, DeferringFinder())
