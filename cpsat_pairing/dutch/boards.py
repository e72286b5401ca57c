"""From pairs to boards: colours by Art. 5.2 (2017 and 2013: E.1-E.5) and the board
order of C.04.2 Art. 3.6; the initial colour and the TPNs they use."""

from __future__ import annotations

from cpsat_pairing.domain.colours import allocate
from cpsat_pairing.domain.state import RoundState
from cpsat_pairing.domain.tournament import Colour, RoundEntry, Tournament
from cpsat_pairing.dutch.edition import Edition
from cpsat_pairing.dutch.result import Board, Pair


def _participated(e: RoundEntry | None) -> bool:
    """Took part in the pairing of that round: had an opponent, the PAB or a forfeit win."""
    return e is not None and (e.opponent is not None or e.result in "U+")


def read_initial_colour(t: Tournament) -> tuple[Colour, int] | None:
    """The initial colour (Art. 5.1) as the file's rounds show it, and the round it was
    read off: in the earliest round where anybody has a colour, walk the players in TPN
    order counting those who had taken part by then; the first with a colour decides:
    his colour if an even number of such players precede him, else the other one (the
    convention of both reference engines).  None when no round shows a colour."""
    last = max((len(p.rounds) for p in t.players), default=0)
    for r in range(1, last + 1):
        if not any((e := p.entry(r)) is not None and e.colour is not None for p in t.players):
            continue
        count = 0
        for p in sorted(t.players, key=lambda p: p.id):
            if not any(_participated(p.entry(k)) for k in range(1, r + 1)):
                continue
            e = p.entry(r)
            if e is not None and e.colour is not None:
                return (e.colour if count % 2 == 0 else e.colour.opposite), r
            count += 1
    return None


def infer_initial_colour(t: Tournament) -> Colour:
    """The initial colour: `XXC`/`152`, else read off the file's rounds, else White."""
    if t.initial_colour is not None:
        return t.initial_colour
    found = read_initial_colour(t)
    return Colour.WHITE if found is None else found[0]


def initial_colour_note(t: Tournament) -> str | None:
    """What a user should be told about the initial colour when the file states none."""
    if t.initial_colour is not None:
        return None
    found = read_initial_colour(t)
    if found is None:
        return "note: the file states no initial colour and no round shows one: White assumed (XXC white1)"
    colour, rnd = found
    return (f"note: the file states no initial colour; round {rnd} shows it: "
            f"{colour.name.lower()} (XXC {colour.name.lower()}1)")


def pairing_numbers(st: RoundState) -> dict[int, int]:
    """TPNs for Art. 5.2.5: players who never took part and are absent now do not count."""
    t = st.tournament
    out: dict[int, int] = {}
    n = 0
    for p in sorted(t.players, key=lambda p: p.id):
        took_part = any(_participated(p.entry(k)) for k in range(1, st.round))
        if took_part or p.id not in st.absent:
            n += 1
            out[p.id] = n
    return out


def make_boards(t: Tournament, st: RoundState, pairs: list[Pair], ed: Edition | None = None) -> list[Board]:
    """Colours by Art. 5.2 and board order by C.04.2 Art. 3.6 (the same in every edition,
    except for the edition's `[colours]` data: which TPN parity takes the initial colour
    in a pair without preferences after round 1, and whether E.2 has the wider colour
    difference)."""
    initial = infer_initial_colour(t)
    tpn = pairing_numbers(st)
    parity = 1
    if ed is not None and st.round > 1 and ed.no_preference_after_round_1 == "even-tpn-initial":
        parity = 0
    wider = ed is None or ed.wider_colour_difference
    boards = [Board(*allocate(st, p, q, initial, tpn, parity, wider)) for p, q in pairs]
    boards.sort(key=lambda bd: board_key(st, (bd.white, bd.black)))
    return boards


def board_key(st: RoundState, pair: Pair) -> tuple[object, ...]:
    """Board order (C.04.2 Art. 3.6): the higher player's score, then the lower player's
    score (same as the sum), then the higher player's TPN; real scores, no acceleration."""
    units = st.score_units  # the scores as integers: every board of every round sorts by them
    a, b = pair
    hi, lo = (a, b) if (-units[a], a) < (-units[b], b) else (b, a)
    return (-units[hi], -units[lo], hi)
