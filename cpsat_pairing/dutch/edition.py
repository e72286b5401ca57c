"""Rule editions as data: `models/<name>.toml` says which criteria apply, in which order.

Keeping the edition out of the code is what lets the 2017 and 2013 texts be added as
data plus a few criteria.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from cpsat_pairing.domain.state import StateRules

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
    # Colour allocation switches where the edition's reference engine decides what the
    # text leaves open (`[colours]` in the model).
    colours: dict[str, str] = field(default_factory=dict)
    # How the text numbers the generation order and the colour rules: "2026" (Art. 4,
    # Art. 5.2) or "sections" (the 2017 and 2013 texts: D.1-D.3, E.1-E.5).
    numbering: str = "2026"

    def in_its_terms(self, text: str) -> str:
        """`text` (written with the 2026 article numbers) in this edition's numbering."""
        if self.numbering == "2026":
            return text
        for pattern, repl in _SECTIONS:
            text = pattern.sub(repl, text)
        return text


# The 2026 articles and what the 2017 and 2013 texts call them.
_SECTIONS = (
    (re.compile(r"Art\. 4\.2\b"), "D.1"),
    (re.compile(r"Art\. 4\.3\b"), "D.2"),
    (re.compile(r"Art\. 4\.4\b"), "D.3"),
    (re.compile(r"(?:Art\. )?\b5\.2\.(\d)\b"), r"E.\1"),
    (re.compile(r"Art\. 5\.2\b"), "E"),
)


def _models_dir() -> Path:
    """models/ ships inside the wheel as cpsat_pairing/models; in a checkout it is top-level."""
    packaged = resources.files("cpsat_pairing") / "models"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "models"


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
        colours=dict(data.get("colours", {})),
        numbering=str(data.get("numbering", "2026")),
    )


# -- which edition a file names ---------------------------------------------------------

# TRF-2026 `192` tournament-type codes (ETT26) that name one edition of the Dutch rules.
_CODES_192 = {
    "FIDE_DUTCH_2017": "dutch-2017",
    "FIDE_DUTCH_2025": "dutch-2026",  # the draft's name of the 2026 rules (bbpPairings 6.0)
    "FIDE_DUTCH_2026": "dutch-2026",
}
# Free text (`092` tournament type, `012` name): a year next to "Dutch" or "rules".
_TEXT = re.compile(r"\b(dutch|rules?|system)\b", re.IGNORECASE)
_YEARS = (
    (re.compile(r"\b(istanbul\s*2012|2012|2013)\b", re.IGNORECASE), "dutch-2013"),
    (re.compile(r"\b(baku\s*2016|2017|goynuk)\b", re.IGNORECASE), "dutch-2017"),
    (re.compile(r"\b(2025|2026)\b"), "dutch-2026"),
)


def edition_named(*texts: str | None) -> str | None:
    """The edition a file names in its `192` code or its `092`/`012` text, if any.

    "FIDE_DUTCH_2017", "Swiss Dutch 2017 rules" and "Dutch (Istanbul 2012 rules)" name
    an edition; a bare year in a tournament's name ("Open 2017") does not.
    """
    for text in texts:
        if not text:
            continue
        code = text.strip().upper()
        code = code.removesuffix("_BAKU")
        if code in _CODES_192:
            return _CODES_192[code]
        if not _TEXT.search(text):
            continue
        for pattern, name in _YEARS:
            if pattern.search(text):
                return name
    return None


def resolve_edition(requested: str | None, *texts: str | None) -> tuple[str, list[str]]:
    """The edition to pair with, and notes for stderr.

    Without `--edition` the edition the file names is used when its model exists (else
    the default, with a warning); with `--edition`, a file naming another edition only
    gets a warning: the option wins.
    """
    named = edition_named(*texts)
    notes: list[str] = []
    if requested is not None:
        if named is not None and named != requested:
            notes.append(f"warning: the file names the {named} rules but --edition {requested} was given; "
                         f"pairing by {requested}")
        return requested, notes
    if named is None:
        return DEFAULT_EDITION, notes
    if named not in available():
        notes.append(f"warning: the file names the {named} rules, which have no model here; "
                     f"pairing by {DEFAULT_EDITION}")
        return DEFAULT_EDITION, notes
    if named != DEFAULT_EDITION:
        notes.append(f"note: the file names the {named} rules: pairing by {named} (--edition to override)")
    return named, notes
