"""Rule editions as data: `models/<name>.toml` says which criteria apply, in which order.

Keeping the edition out of the code is what lets the 2017 and 2013 texts be added as
data plus a few criteria.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from .state import StateRules

DEFAULT_EDITION = "dutch-2026"


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    quality: tuple[str, ...]
    state_rules: StateRules
    completion: str = "every-bracket"
    pab_score: str = "minimise-first"
    order: dict[str, str] = field(default_factory=dict)
    # Which pairing procedure the criteria belong to: "2026" (also 2017) or "2013"
    # (the Istanbul 2012 text: engine2013.py).
    procedure: str = "2026"


def _models_dir() -> Path:
    """models/ ships inside the wheel as cpsat_pairing/models; in a checkout it is top-level."""
    packaged = resources.files("cpsat_pairing") / "models"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "models"


def available() -> list[str]:
    return sorted(p.stem for p in _models_dir().glob("*.toml"))


@cache
def load_edition(name: str = DEFAULT_EDITION) -> Edition:
    path = _models_dir() / f"{name}.toml"
    if not path.is_file():
        raise ValueError(f"unknown edition {name!r} (available: {', '.join(available())})")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    st = data.get("state", {})
    return Edition(
        name=data["name"],
        title=data.get("title", data["name"]),
        quality=tuple(data["quality"]),
        state_rules=StateRules(**st),
        completion=data.get("completion", "every-bracket"),
        pab_score=data.get("pab_score", "minimise-first"),
        order=dict(data.get("order", {})),
        procedure=str(data.get("procedure", "2026")),
    )
