"""File formats: TRF16 (with JaVaFo's XX* and bbpPairings' BB* records) and TRF-2026,
read and written; the tournament as JSON; the pair lists other engines write."""

from cpsat_pairing.formats.json import tournament_to_dict
from cpsat_pairing.formats.layout import DIALECTS, format_points, points_text
from cpsat_pairing.formats.trf_read import parse_trf, read_trf
from cpsat_pairing.formats.trf_write import append_round, round_trip_view, write_trf

__all__ = ["DIALECTS", "append_round", "format_points", "points_text", "parse_trf", "read_trf", "round_trip_view",
           "tournament_to_dict", "write_trf"]
