"""What pairing a round produces: boards, the PAB, and per bracket the solved tiers."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from cpsat_pairing.domain.colours import ColourRule
from cpsat_pairing.solver.terms import Tier, TierKind

Pair = tuple[int, int]

__all__ = ["Board", "BracketTrace", "Pair", "Pairing", "Tier", "TierKind"]


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
