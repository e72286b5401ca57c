"""What pairing a round produces: boards, the PAB, and per bracket the solved tiers."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from cpsat_pairing.domain.colours import ColourRule
from cpsat_pairing.records import Tier, TierKind

Pair = tuple[int, int]

__all__ = ["Board", "BracketTrace", "Pair", "Pairing", "Tier", "TierKind", "alike", "same_composition"]


@dataclass(frozen=True)
class Board:
    """One board: who has White, who has Black, and the colour rule that decided."""

    white: int
    black: int
    colour_rule: ColourRule


@dataclass
class BracketTrace:
    """What the solver did in one bracket: who was in it and the value of every tier."""

    score: Fraction
    residents: list[int]
    mdps: list[int]
    pairs: list[Pair]
    downfloaters: list[int]
    tiers: list[Tier] = field(default_factory=list)
    kind: str = ""  # 2017 editions: "PPB" or "CLB" (A.9) for the collapsed last brackets


@dataclass
class Pairing:
    """A round's pairing (or a given pairing scored on the same tiers, `evaluate`)."""

    round: int
    edition: str
    boards: list[Board]
    bye: int | None
    absent: list[int]
    brackets: list[BracketTrace] = field(default_factory=list)
    pab_score: Fraction | None = None

    def as_pairs(self) -> list[Pair]:
        return [(b.white, b.black) for b in self.boards]

    def renumbered(self, ids: dict[int, int]) -> Pairing:
        """The same pairing with every player number mapped through `ids` (`XXC rank`:
        paired by position in the file, reported by the file's ids)."""
        def pairs(ps: list[Pair]) -> list[Pair]:
            return [(ids[a], ids[b]) for a, b in ps]

        return replace(
            self,
            boards=[replace(b, white=ids[b.white], black=ids[b.black]) for b in self.boards],
            bye=None if self.bye is None else ids[self.bye],
            absent=sorted(ids[i] for i in self.absent),
            brackets=[replace(tr, residents=[ids[i] for i in tr.residents], mdps=[ids[i] for i in tr.mdps],
                              pairs=pairs(tr.pairs), downfloaters=[ids[i] for i in tr.downfloaters])
                      for tr in self.brackets],
        )


def same_composition(a: BracketTrace, b: BracketTrace) -> bool:
    """The same bracket: its score, residents and MDPs."""
    return a.score == b.score and set(a.residents) == set(b.residents) and set(a.mdps) == set(b.mdps)


def alike(a: BracketTrace, b: BracketTrace) -> bool:
    """Two pairings of one bracket that the rules' comparison cannot tell apart: the same
    bracket, every tier of the same value (a tier only one of them has counting 0, as
    apps/compare.py aligns them), the same pairs and downfloaters.  Below the first
    bracket that is not alike, nothing changes where two round-pairings first differ."""
    return (
        same_composition(a, b)
        and {t.name: t.value for t in a.tiers if t.value} == {t.name: t.value for t in b.tiers if t.value}
        and {frozenset(pq) for pq in a.pairs} == {frozenset(pq) for pq in b.pairs}
        and set(a.downfloaters) == set(b.downfloaters)
    )
