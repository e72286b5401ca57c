"""Names a package exports but imports on first use (PEP 562 module `__getattr__`), so
that a command line needing one part of the package does not load the rest."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, where: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The `__getattr__` of `package`: `name` from its submodule `where[name]`, kept in
    `namespace` (the package's globals) so that it is imported once."""

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{where[name]}"), name)
        namespace[name] = value
        return value

    return __getattr__
