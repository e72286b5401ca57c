"""Rule editions as data: `models/<name>.toml`, validated when it is loaded.

An edition is its TOML file plus one module of hooks and criteria (the `procedure` it
names: e2026.py, e2017/, e2013/).  The file lists the quality criteria in priority
order by the names that module registered, the edition's switches of the definitions
(`[state]`), of the generation order (`[order]`) and of colour allocation
(`[colours]`), and how its text numbers the generation order and the colour rules
(`[articles]`), so that every sentence and table of a report uses one numbering.

Every key is checked when the file is loaded: an unknown key, a value of the wrong
type or outside its choices, or a criterion the procedure does not define is an
`EditionError` naming the file and the key.
"""

from __future__ import annotations

import dataclasses
import datetime
import importlib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from cpsat_pairing.domain.state import StateRules
from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.dutch.registry import CRITERIA, PROCEDURES
from cpsat_pairing.errors import EditionError, UnsupportedFeature

DEFAULT_EDITION = "dutch-2026"

# What `[articles]` may name: the generation order's steps (tier criteria), the colour
# rules (domain.colours.ColourRule articles), and the rules an explanation cites about
# the PAB and completing the round, with the 2026 numbering as the default.
ARTICLES_2026: dict[str, str] = {
    "MDP set": "Art. 4.4", "MDP-pairing": "Art. 4.2", "exchange": "Art. 4.3", "transposition": "Art. 4.2",
    "colours": "Art. 5.2",
    "5.2.1": "5.2.1", "5.2.2": "5.2.2", "5.2.3": "5.2.3", "5.2.4": "5.2.4", "5.2.5": "5.2.5",
    "pab-eligibility": "[C2]", "pab-assignee": "[C5]", "completion": "[C4]", "no-valid-pairing": "Art. 1.9.3",
}

# Each table's keys and their allowed values (a tuple: choices; a type: any value of it).
_SCHEMA: dict[str, Any] = {
    "name": str,
    "title": str,
    "procedure": str,
    "quality": list,
    "state": {"unplayed_downfloat": ("points", "always"), "bye_rule": ("win_points", "pab_or_forfeit_win", "any_points")},
    "order": {"s1_size": ("pairs", "p0")},
    "colours": {"no_preference_after_round_1": ("odd-tpn-initial", "even-tpn-initial"), "wider_colour_difference": bool},
    "articles": {key: str for key in ARTICLES_2026},
}
_REQUIRED = ("name", "procedure", "quality")


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    procedure: str  # the module of hooks and criteria: cpsat_pairing.dutch.<procedure>
    quality: tuple[str, ...]  # criteria names, highest priority first
    state_rules: StateRules = StateRules()
    # 2013 (C.14.b2): S1 keeps the top P0 players when fewer pairs are made ("p0").
    s1_size: str = "pairs"
    # Which TPN parity takes the initial colour when neither player of a pair has a
    # colour preference after round 1 (Art. 5.2.5 says odd).
    no_preference_after_round_1: str = "odd-tpn-initial"
    # Whether two absolute preferences for the same colour (topscorers) are settled by
    # the wider colour difference (Art. 5.2.2 and 2017 E.2 say so; the 2013 text's E.2
    # stops at "the stronger preference", so E.3's alternation decides there).
    wider_colour_difference: bool = True
    articles: Mapping[str, str] = field(default_factory=lambda: dict(ARTICLES_2026))
    path: str = ""

    def article(self, key: str) -> str:
        """What this edition's text calls a generation-order step or a colour rule
        ("exchange" -> "Art. 4.3" or "D.2"; "5.2.1" -> "5.2.1" or "E.1")."""
        return self.articles.get(key, key)

    @property
    def hooks(self) -> Any:
        """The procedure that pairs a round under this edition (dutch.rounds.Procedure)."""
        return PROCEDURES[self.procedure]


def _models_dir() -> Path:
    """models/ ships inside the wheel as cpsat_pairing/models; in a checkout it is
    top-level.  Found from this file, not through importlib.resources: its import
    (tempfile, shutil, zipfile) is a tenth of a fresh process's pairing of a small
    round, and an installed package is a directory (the path is read as one)."""
    package = Path(__file__).resolve().parents[1]
    packaged = package / "models"
    if packaged.is_dir():
        return packaged
    return package.parent / "models"


def available() -> list[str]:
    return sorted(p.stem for p in _models_dir().glob("*.toml"))


def _fail(path: Path, key: str, message: str) -> EditionError:
    return EditionError(f"{path}: {key}: {message}")


def _check_table(path: Path, prefix: str, data: Mapping[str, Any], schema: Mapping[str, Any]) -> None:
    for key, value in data.items():
        where = f"{prefix}{key}"
        if key not in schema:
            known = ", ".join(sorted(schema))
            raise _fail(path, where, f"unknown key (known: {known})")
        rule = schema[key]
        if isinstance(rule, dict):
            if not isinstance(value, dict):
                raise _fail(path, where, "expected a table")
            _check_table(path, f"{where}.", value, rule)
        elif isinstance(rule, tuple):
            if value not in rule:
                raise _fail(path, where, f"expected one of {', '.join(map(repr, rule))}, got {value!r}")
        elif not isinstance(value, rule):
            raise _fail(path, where, f"expected a {rule.__name__}, got {type(value).__name__}")


def read_edition(path: Path) -> Edition:
    """Load and validate an edition file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise EditionError(f"{path}: cannot read: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise EditionError(f"{path}: not valid TOML: {exc}") from exc
    _check_table(path, "", data, _SCHEMA)
    for key in _REQUIRED:
        if key not in data:
            raise _fail(path, key, "missing")
    procedure = data["procedure"]
    if not re.fullmatch(r"e\d{4}", procedure):
        raise _fail(path, "procedure", f"expected a module name such as 'e2026', got {procedure!r}")
    try:
        importlib.import_module(f"cpsat_pairing.dutch.{procedure}")  # registers its criteria and hooks
    except ModuleNotFoundError:
        raise _fail(path, "procedure", f"no such procedure {procedure!r}") from None
    quality = data["quality"]
    for i, name in enumerate(quality):
        if not isinstance(name, str) or name not in CRITERIA:
            raise _fail(path, f"quality[{i}]", f"unknown criterion {name!r}")
    state = data.get("state", {})
    return Edition(
        name=data["name"],
        title=data.get("title", data["name"]),
        procedure=procedure,
        quality=tuple(quality),
        state_rules=StateRules(**state),
        s1_size=data.get("order", {}).get("s1_size", "pairs"),
        no_preference_after_round_1=data.get("colours", {}).get("no_preference_after_round_1", "odd-tpn-initial"),
        wider_colour_difference=data.get("colours", {}).get("wider_colour_difference", True),
        articles={**ARTICLES_2026, **data.get("articles", {})},
        path=str(path),
    )


@cache
def load_edition(name: str = DEFAULT_EDITION) -> Edition:
    """The edition of that name (models/<name>.toml), or of that file (a path ending in .toml).

    Raises:
        EditionError: no such edition, or the file is malformed.
    """
    path = Path(name) if name.endswith(".toml") else _models_dir() / f"{name}.toml"
    if not path.is_file():
        raise EditionError(f"unknown edition {name!r} (available: {', '.join(available())})")
    return read_edition(path)


def as_edition(edition: str | Edition) -> Edition:
    return load_edition(edition) if isinstance(edition, str) else edition


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


# When each edition came into force (C.04.3: the 2017 text from 1 July 2017, the 2026
# text from 1 February 2026); before the first, the 2013 (Istanbul 2012) text.
IN_FORCE = ((datetime.date(2026, 2, 1), "dutch-2026"), (datetime.date(2017, 7, 1), "dutch-2017"))
_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}


def in_force(day: datetime.date) -> str:
    """The edition of the Dutch rules in force on `day`."""
    for since, name in IN_FORCE:
        if day >= since:
            return name
    return "dutch-2013"


def parse_date(text: str, year_first: bool = False) -> set[datetime.date]:
    """Every date `text` can be read as, in the forms TRF files use: 2018/05/12,
    2018-05-12, 12/05/2018, 12.05.18, 18/05/12 (132's YY/MM/DD), May 12, 2018 ...
    Two-digit years are 20YY.  Several readings when the order is ambiguous, unless
    `year_first` (the `132` record's YY/MM/DD) gives a valid one."""
    words = re.findall(r"[A-Za-z]+|\d+", text)
    month_word = next((_MONTHS[w[:3].lower()] for w in words if w.isalpha() and w[:3].lower() in _MONTHS), None)
    numbers = [int(w) for w in words if w.isdigit()]
    orders: list[tuple[int, int, int]] = []  # (year, month, day)
    if month_word is not None and len(numbers) == 2:
        a, b = numbers
        orders = [(b, month_word, a), (a, month_word, b)]
    elif len(numbers) == 3:
        a, b, c = numbers
        orders = [(a, b, c), (c, b, a), (c, a, b)]  # Y M D, D M Y, M D Y
        if len(words[0]) == 4 or (year_first and 1 <= b <= 12 and _valid(a, b, c)):
            orders = [(a, b, c)]
        elif len(words[2]) == 4:
            orders = [(c, b, a), (c, a, b)]
    out = set()
    for y, m, d in orders:
        y = 2000 + y if y < 100 else y
        try:
            out.add(datetime.date(y, m, d))
        except ValueError:
            continue
    return out


def _valid(y: int, m: int, d: int) -> bool:
    try:
        datetime.date(2000 + y if y < 100 else y, m, d)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class EditionChoice:
    """The edition a file is paired by, and why (for the notes and the JSON)."""

    name: str
    reason: str
    notes: tuple[str, ...] = ()


def edition_for(t: Tournament, requested: str | None = None) -> EditionChoice:
    """`choose_edition` for a tournament.

    Raises:
        UnsupportedFeature: a team tournament without `requested`: team Swiss pairing
            (C.04.6) pairs teams, not players, and is not implemented; an explicit
            edition reads the file as an individual tournament of its players.
    """
    team = t.team_system
    if team is None:
        return choose_edition(requested, t.edition_hint, t.name, t.start_date, t.round_dates)
    if requested is None:
        raise UnsupportedFeature(f"{t.source or 'input'}: {team_note(team)}; team Swiss pairing (C.04.6) is not "
                                 f"implemented (--edition {DEFAULT_EDITION} pairs its players individually)")
    choice = choose_edition(requested, None, None)
    note = f"warning: {team_note(team)}; pairing its players individually by {requested} (--edition)"
    return dataclasses.replace(choice, notes=(*choice.notes, note))


def team_note(team: str) -> str:
    """What a team tournament's file says it is."""
    return f"a team tournament: {team}"


def choose_edition(
    requested: str | None, hint: str | None = None, name: str | None = None, start_date: str | None = None,
    round_dates: tuple[str, ...] = (),
) -> EditionChoice:
    """--edition; else the edition the file names (`192`, `092`, `012`); else the one in
    force when the tournament started (`042`, else the first round's date in `132`);
    else the default."""
    edition, notes = resolve_edition(requested, hint, name)
    if requested is not None:
        return EditionChoice(edition, "given (--edition)", tuple(notes))
    named = edition_named(hint, name)
    if named is not None:
        return EditionChoice(edition, f"named by the file ({hint or name})", tuple(notes))
    first_round = next((d for d in round_dates if d), None)
    for record, text in (("042", start_date), ("132", first_round)):
        if not text:
            continue
        editions = {in_force(day) for day in parse_date(text, year_first=record == "132")}
        if len(editions) == 1:
            (dated,) = editions
            what = "start date" if record == "042" else "first round's date"
            reason = f"in force on the tournament's {what} {text} ({record})"
            chosen = dated if dated in available() else DEFAULT_EDITION
            notes.append(f"note: the file names no rules; pairing by {chosen}, {reason} (--edition to override)")
            return EditionChoice(chosen, reason, tuple(notes))
    return EditionChoice(edition, "the default: the file names no rules and no dates", tuple(notes))


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
