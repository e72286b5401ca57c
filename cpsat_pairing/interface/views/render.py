"""Renderings of a `Pairing`: rich table, JSON, bbpPairings pair list, TRF with the round.

Pure functions from data to text or renderables; the CLI decides where they go.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.table import Table

from cpsat_pairing.domain.state import build_state
from cpsat_pairing.domain.tournament import Tournament, history
from cpsat_pairing.dutch.edition import load_edition
from cpsat_pairing.dutch.result import Pairing
from cpsat_pairing.formats import append_round, format_points, write_trf
from cpsat_pairing.formats.pair_list import write_pair_list
from cpsat_pairing.interface.views.check import rule_text


def _pts(x: Fraction) -> str:
    return format_points(x)


def bbp_pair_list(p: Pairing) -> str:
    """bbpPairings' output: the number of lines, then `white black`, the PAB as `id 0`."""
    return write_pair_list(p.as_pairs(), p.bye)


def pairing_to_dict(t: Tournament, p: Pairing, edition_reason: str | None = None) -> dict[str, Any]:
    """Everything about the pairing as plain data (the `--format json` output)."""
    st = build_state(t, p.round)
    ed = load_edition(p.edition)
    name = {pl.id: pl.name for pl in t.players}

    def who(pid: int) -> dict[str, Any]:
        ps = st.players[pid]
        return {"id": pid, "name": name[pid], "score": float(ps.score)}

    return {
        "round": p.round,
        "edition": p.edition,
        **({"edition_reason": edition_reason} if edition_reason else {}),
        "boards": [
            {"board": i, "white": who(b.white), "black": who(b.black), "colour_rule": rule_text(b.colour_rule, ed)}
            for i, b in enumerate(p.boards, start=1)
        ],
        "bye": None if p.bye is None else who(p.bye),
        "absent": p.absent,
        "pab_score": None if p.pab_score is None else float(p.pab_score),
        "brackets": [
            {
                "score": float(br.score),
                "residents": br.residents,
                "mdps": br.mdps,
                "pairs": [list(pq) for pq in br.pairs],
                "downfloaters": br.downfloaters,
                "tiers": {tier.name: tier.value for tier in br.tiers if tier.value},
            }
            for br in p.brackets
        ],
    }


def pairing_table(t: Tournament, p: Pairing) -> Table:
    """The boards as an arbiter reads them: board, white, score, black, score."""
    st = build_state(t, p.round)
    name = {pl.id: pl.name for pl in t.players}
    table = Table(title=f"Round {p.round} — {p.edition}", title_justify="left")
    for col, justify in (("bd", "right"), ("white", "left"), ("pts", "right"), ("black", "left"), ("pts", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for i, b in enumerate(p.boards, start=1):
        table.add_row(
            str(i),
            f"{b.white} {name[b.white]}",
            _pts(st.players[b.white].score),
            f"{b.black} {name[b.black]}",
            _pts(st.players[b.black].score),
        )
    if p.bye is not None:
        table.add_row("", f"{p.bye} {name[p.bye]}", _pts(st.players[p.bye].score), "bye (PAB)", "")
    return table


def trf_with_round(t: Tournament, p: Pairing, dialect: str = "trf16") -> str:
    """The input tournament with the new round appended (results still to be played)."""
    truncated = history(t, p.round)
    return write_trf(append_round(truncated, p.as_pairs(), p.bye, p.round), dialect)
