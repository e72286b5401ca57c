"""The tournament as JSON-ready data (`convert --to json`, `info --json`)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from cpsat_pairing.domain.tournament import PENDING_RESULT, Player, Scoring, Tournament, player_points

JSON_SCHEMA = 1


def _num(value: Fraction) -> float | int:
    return int(value) if value.denominator == 1 else float(value)


def tournament_to_dict(t: Tournament) -> dict[str, Any]:
    """A JSON-ready view of the tournament (stable keys, points as numbers)."""
    scoring = {f.name: _num(getattr(t.scoring, f.name)) for f in dataclasses.fields(Scoring)}
    return {
        "schema": JSON_SCHEMA,
        "name": t.name,
        "dialect": t.dialect,
        "edition_hint": t.edition_hint,
        "total_rounds": t.total_rounds,
        "rounds_played": t.rounds_played,
        "initial_colour": t.initial_colour.name.lower() if t.initial_colour else None,
        "rank_mode": t.rank_mode,
        "scoring": scoring,
        "players": [_player_dict(p, t.scoring) for p in t.players],
        "forbidden": [
            {"ids": list(fp.ids), "first_round": fp.first_round, "last_round": fp.last_round}
            for fp in t.forbidden
        ],
        "acceleration": [
            {"player": a.player_id, "points_by_round": [_num(v) for v in a.points_by_round]}
            for a in t.acceleration
        ],
        "byes": {str(r): {str(pid): code for pid, code in m.items()} for r, m in t.byes.items()},
        "absent_next": list(t.absent_next),
        "header_lines": list(t.header_lines),
        "warnings": list(t.warnings),
    }


def _player_dict(p: Player, scoring: Scoring) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "rating": p.rating,
        "sex": p.sex,
        "title": p.title,
        "federation": p.federation,
        "fide_id": p.fide_id,
        "birth_date": p.birth_date,
        "declared_points": None if p.declared_points is None else _num(p.declared_points),
        "points": _num(player_points(p, scoring)),
        "rank": p.rank,
        "rounds": [
            None if e is None else {
                "opponent": e.opponent,
                "colour": e.colour.name.lower() if e.colour else None,
                "result": None if e.result == PENDING_RESULT else e.result,
            }
            for e in p.rounds
        ],
    }
