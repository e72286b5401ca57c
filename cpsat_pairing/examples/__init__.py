"""Example tournaments shipped inside the package.

`example.trf` is corpus file dutch-2026/dev/t000002.trf (bbpPairings 6.0, Dutch 2026
rules; 14 players with late entries, withdrawals and forfeits) with its last round
removed, so round 9 of 9 is the one to pair. Points and ranks were recomputed for
rounds 1-8.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

EXAMPLE = "example.trf"


def names() -> list[str]:
    """The bundled tournament files."""
    return sorted(r.name for r in files(__name__).iterdir() if r.name.endswith(".trf"))


def read_bytes(name: str = EXAMPLE) -> bytes:
    """The raw contents of a bundled tournament (works from wheels and zips)."""
    return files(__name__).joinpath(name).read_bytes()


def path(name: str = EXAMPLE) -> Path:
    """Filesystem path of a bundled tournament (the package is installed as files)."""
    resource = files(__name__).joinpath(name)
    if not resource.is_file():
        raise FileNotFoundError(f"no bundled example {name!r}; have {', '.join(names())}")
    return Path(str(resource))
