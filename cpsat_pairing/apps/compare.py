"""Where two pairings of one round differ, in the rules' order of comparison.

The rules compare candidates bracket by bracket, top-down, criterion by criterion: the
first tier on which two pairings (the rules' and another, scored on the same brackets
by `evaluate`) differ is the reason one beats the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from cpsat_pairing.dutch.result import BracketTrace, Pairing, same_composition
from cpsat_pairing.records import Tier, TierKind

# The [C5] tier, compared before any bracket (2026 Art. 3.8.1).
PAB_TIER = Tier("C5", "PAB score", 0)


class DifferenceKind(str, Enum):
    PAB = "pab"  # [C5]: the PAB assignee's score
    QUALITY = "quality"  # a quality criterion
    GENERATION = "generation"  # the same on every criterion, later in the generation order
    COMPOSITION = "composition"  # the brackets themselves differ
    UNDETERMINED = "undetermined"  # other pairs, every tier equal
    UNSCORED = "unscored"  # the other pairing could not be scored
    NO_VALID_PAIRING = "no valid pairing"  # the rules find no pairing at all


@dataclass(frozen=True)
class Composition:
    """Who formed a bracket: its score, residents and MDPs."""

    score: Fraction
    residents: tuple[int, ...]
    mdps: tuple[int, ...]


@dataclass(frozen=True)
class Difference:
    """The first difference between the rules' pairing and another one.

    For QUALITY and GENERATION `tier` is the tier and `rules`/`other` its two values
    (lower is better); for PAB the two PAB scores; for COMPOSITION the two brackets'
    `Composition` (or their numbers of brackets)."""

    kind: DifferenceKind
    bracket: Fraction | None = None
    tier: Tier | None = None
    rules: Fraction | int | Composition | None = None
    other: Fraction | int | Composition | None = None
    other_better: bool = False
    reason: str = ""  # UNSCORED: why
    players: tuple[int, ...] = ()  # NO_VALID_PAIRING: who cannot be paired


def aligned(a: Sequence[Tier], b: Sequence[Tier]) -> list[tuple[Tier, int, int]]:
    """Both traces on one list of tiers, in solving order: (tier, value in a, in b).

    A tier that applies to one candidate only (e.g. [C9], asked only when the PAB falls
    in the bracket) counts as 0 for the other.
    """
    va = {t.name: t.value for t in a}
    vb = {t.name: t.value for t in b}
    tiers = list(a)
    names = [t.name for t in a]
    for i, t in enumerate(b):
        if t.name not in va:
            before = b[i - 1].name if i else None
            pos = names.index(before) + 1 if before in names else len(names)
            names.insert(pos, t.name)
            tiers.insert(pos, t)
    return [(t, va.get(t.name, 0), vb.get(t.name, 0)) for t in tiers]


def _composition(br: BracketTrace) -> Composition:
    return Composition(br.score, tuple(br.residents), tuple(br.mdps))


def first_difference(ours: Pairing, other: Pairing) -> Difference | None:
    """The first tier, bracket by bracket from the top, where `other` scores differently
    from `ours` (the rules' pairing); None when every bracket is identical."""
    if ours.pab_score != other.pab_score:
        better = ours.pab_score is not None and other.pab_score is not None and other.pab_score < ours.pab_score
        return Difference(DifferenceKind.PAB, None, PAB_TIER, ours.pab_score, other.pab_score, better)
    for a, b in zip(ours.brackets, other.brackets):
        if not same_composition(a, b):
            return Difference(DifferenceKind.COMPOSITION, a.score, None, _composition(a), _composition(b))
        for tier, rv, ov in aligned(a.tiers, b.tiers):
            if rv != ov:
                kind = DifferenceKind.QUALITY if tier.kind is TierKind.QUALITY else DifferenceKind.GENERATION
                return Difference(kind, a.score, tier, rv, ov, ov < rv)
        if {frozenset(pq) for pq in a.pairs} != {frozenset(pq) for pq in b.pairs} or set(a.downfloaters) != set(
            b.downfloaters
        ):
            return Difference(DifferenceKind.UNDETERMINED, a.score)
    if len(ours.brackets) != len(other.brackets):
        return Difference(DifferenceKind.COMPOSITION, None, None, len(ours.brackets), len(other.brackets))
    return None


def differing_tiers(ours: BracketTrace, other: BracketTrace) -> list[tuple[Tier, int, int]]:
    """Every tier of one bracket where the two differ (tier, rules, other): side by side."""
    return [(t, r, o) for t, r, o in aligned(ours.tiers, other.tiers) if r != o]


def relevant_tiers(diff: Difference, ours: BracketTrace, other: BracketTrace) -> list[tuple[Tier, int, int]]:
    """The differing tiers worth showing: only criteria when a criterion decided (the
    generation order below it no longer matters), all of them otherwise."""
    rows = differing_tiers(ours, other)
    if diff.kind is DifferenceKind.QUALITY:
        return [x for x in rows if x[0].kind is TierKind.QUALITY]
    return rows


def bracket_of(
    diff: Difference, ours: Pairing, other: Pairing, same_players: bool = True
) -> tuple[BracketTrace, BracketTrace] | None:
    """The two traces of the bracket a difference is in (with `same_players`, only when
    both hold the same players)."""
    if diff.bracket is None:
        return None
    for a, b in zip(ours.brackets, other.brackets):
        if a.score == diff.bracket and (not same_players or same_composition(a, b)):
            return a, b
    return None
