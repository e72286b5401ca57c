"""A player's pairing told in sentences (and as JSON), in the edition's own numbering."""

from __future__ import annotations

from typing import Any

from cpsat_pairing.apps.compare import DifferenceKind
from cpsat_pairing.apps.story import Candidate, PlayerStory, Role, Ruled
from cpsat_pairing.domain.state import PrefKind
from cpsat_pairing.domain.tournament import Colour, Tournament
from cpsat_pairing.formats import points_text
from cpsat_pairing.interface.views.check import reference, shown

_ABSENCE = {"H": "a half-point bye", "=": "a half-point bye", "F": "a full-point bye", "+": "a full-point bye",
            "Z": "absent (zero points)", "-": "absent (zero points)"}
_STRENGTH = {PrefKind.ABSOLUTE: "absolutely", PrefKind.STRONG: "strongly", PrefKind.MILD: "mildly"}


class Names:
    """How a sentence names a player: his name and number, and his rating and score the
    first time."""

    def __init__(self, t: Tournament) -> None:
        self.players = {p.id: p for p in t.players}

    def short(self, pid: int) -> str:
        p = self.players.get(pid)
        return f"{p.name} ({pid})" if p is not None and p.name else f"player {pid}"

    def full(self, pid: int, score: Any = None) -> str:
        p = self.players.get(pid)
        extra = [str(pid)] + ([f"rating {p.rating}"] if p is not None and p.rating else [])
        if score is not None:
            extra.append(points_phrase(score))
        return f"{p.name} ({', '.join(extra)})" if p is not None and p.name else f"player {', '.join(extra)}"


def points_phrase(x: Any) -> str:
    text = points_text(x)
    return f"{text} point" if text == "1" else f"{text} points"


def _colour(c: Colour | None) -> str:
    return "White" if c is Colour.WHITE else "Black" if c is Colour.BLACK else "no colour"


def candidate_sentence(s: PlayerStory, c: Candidate, names: Names) -> str:
    ed = s.edition
    other = names.short(c.player)
    if c.ruled is Ruled.ABSOLUTE:
        return f"Not {other}: {'; '.join(c.illegalities)}."
    if c.ruled is Ruled.ABSENT:
        return f"Not {other}: not paired in this round."
    if c.ruled is Ruled.IMPOSSIBLE:
        return (f"Not {other}: no complete pairing of the round pairs them together; the rest of the round "
                f"could not then be paired ({ed.article('completion')}).")
    d = c.difference
    if d is None:
        return f"Not {other}: the rules' pairing is not worse with them together; the order decides."
    if d.kind is DifferenceKind.PAB:
        return (f"Not {other}: the PAB would then go to a player with more points "
                f"({ed.article('pab-assignee')}: {_value(d.other)} instead of {_value(d.rules)}).")
    if d.kind is DifferenceKind.COMPOSITION:
        return f"Not {other}: the brackets above would have to change (other players moving down)."
    if d.tier is not None and isinstance(d.rules, int) and isinstance(d.other, int):
        label, rules, with_pair, note = shown(d.tier, d.rules, d.other, ed)
        where = f" in the bracket of {points_text(d.bracket)}" if d.bracket is not None else ""
        if d.kind is DifferenceKind.GENERATION:
            return (f"Not {other}: as good on every criterion, but the rules' order reaches the pairing with "
                    f"{names.short(s.opponent) if s.opponent else 'his opponent'} first{where} ({label}).")
        return f"Not {other}: the round would be worse{where} on {label}: {with_pair} instead of {rules}{note}."
    return f"Not {other}: the pairing with them is worse on {d.kind.value}."


def _why_left(passage: Any) -> str:
    """How many the bracket could not pair: the reason someone floats."""
    if not passage.players:
        return ""
    if passage.players == 1:
        return " (he is alone in it)"
    made = f"{passage.pairs} pair{'s' if passage.pairs != 1 else ''}"
    return f" ({passage.players} players, {made}: {passage.floating} left over)"


def _terms_2013(s: PlayerStory, passage: Any) -> str:
    """The 2013 text's own counters for the bracket as C.2 sets them before pairing it
    (P0, M0, X1, Z1), then what the pairing made of P and X (Z) where C.10 had to move
    them: the reader sees which requirement was relaxed and by how much."""
    legacy = passage.legacy
    if s.edition.procedure != "e2013" or legacy is None:
        return ""
    value = {t.criterion: t.value for t in passage.tiers}
    parts = [f"P0 = {legacy.p0}", f"M0 = {passage.mdps}", f"X1 = {legacy.x1}"]
    if legacy.z1 is not None:
        parts.append(f"Z1 = {legacy.z1}")
    made = []
    if passage.pairs != legacy.p0:
        made.append(f"P = {passage.pairs}")
    if value.get("X", 0) != legacy.x1:
        made.append(f"X = {value.get('X', 0)}")
    if legacy.z1 is not None and value.get("Z", 0) != legacy.z1:
        made.append(f"Z = {value.get('Z', 0)}")
    return " (" + ", ".join(parts) + ("; paired with " + ", ".join(made) if made else "") + ")"


def _value(x: Any) -> str:
    return points_text(x) if x is not None and not isinstance(x, int) else str(x)


def sentences(s: PlayerStory, names: Names) -> list[str]:
    """The story in the order a player asks: where he was, whom he meets and why, his colour."""
    ed = s.edition
    me = names.full(s.player, s.score if s.role is not Role.ABSENT else None)
    if s.role is Role.ABSENT:
        what = _ABSENCE.get(s.absence or "Z", f"left out ({s.absence})")
        return [f"{me} is not paired in round {s.round}: {what}, as the file enters it."]
    out = []
    acc = s.pairing_score - s.score
    me = names.full(s.player)
    group = (f"pairs in the score group of {points_text(s.pairing_score)} with {points_text(acc)} acceleration points"
             if acc else "that is his score group")
    out.append(f"{me} starts round {s.round} with {points_phrase(s.score)}; {group}.")
    for i, passage in enumerate(s.passages):
        bracket = f"the bracket of {points_text(passage.score)}"
        if passage.paired:
            how = f"as an MDP (moved down from {points_text(s.pairing_score)})" if passage.as_mdp else "as a resident"
            half = f", in {s.half}" if s.half else ""
            out.append(f"He is paired in {bracket} {how}{half}{_terms_2013(s, passage)}.")
        elif i == len(s.passages) - 1 and s.bye:
            out.append(f"{bracket.capitalize()} leaves him unpaired: he is the player left over for the PAB.")
        else:
            if passage.as_mdp:
                out.append(f"In {bracket}{_why_left(passage)} he is an MDP that is not paired (Limbo): he moves "
                           "down again.")
            else:
                out.append(f"His own bracket, {points_text(passage.score)}{_why_left(passage)}, does not pair him: "
                           "he floats down.")
    if s.bye:
        out.append(
            f"He receives the pairing-allocated bye: he may ({ed.article('pab-eligibility')}: no PAB before and no "
            f"win's points without playing), and the PAB goes to "
            + (f"a player of the lowest score that still lets the round be completed, {points_text(s.pab_score)} "
               f"({ed.article('pab-assignee')})." if s.pab_score is not None and ed.procedure == "e2026" else
               f"the player the last bracket leaves unpaired ({ed.article('pab-assignee')}).")
        )
        return out
    if s.opponent is None:
        return out
    opp = names.full(s.opponent, s.opponent_score)
    float_text = {"down": " That is a downfloat for him: his opponent has fewer points.",
                  "up": " That is an upfloat for him: his opponent has more points."}.get(s.float or "", "")
    out.append(f"He plays {opp}.{float_text}")
    if s.candidates_checked:
        if s.candidates:
            out.append("The opponents the rules' order tries before " + names.short(s.opponent) + ":")
            out += ["  " + candidate_sentence(s, c, names) for c in s.candidates]
        else:
            out.append(f"{names.short(s.opponent)} is the first opponent the rules' order tries for him.")
    if s.colour_rule is not None:
        wanted = f"{_wants('he', s.preference)}, {_wants(names.short(s.opponent), s.opponent_preference)}"
        out.append(f"He has {_colour(s.colour)} ({wanted}): {reference(ed.article(s.colour_rule.article))}, "
                   f"{s.colour_rule.text}.")
    return out


def _wants(who: str, preference: tuple[Colour | None, PrefKind]) -> str:
    colour, kind = preference
    if colour is None or kind not in _STRENGTH:
        return f"{who} has no colour preference"
    return f"{who} prefers {_colour(colour)} {_STRENGTH[kind]}"


def story_json(s: PlayerStory, names: Names) -> dict[str, Any]:
    """The same facts as structured fields, and the sentences."""
    ed = s.edition

    def person(pid: int | None) -> dict[str, Any] | None:
        if pid is None:
            return None
        p = names.players.get(pid)
        return {"id": pid, "name": p.name if p else "", "rating": p.rating if p else 0}

    return {
        "player": person(s.player),
        "round": s.round,
        "edition": ed.name,
        "role": s.role.value,
        "absence": s.absence,
        "score": points_text(s.score),
        "pairing_score": points_text(s.pairing_score),
        "brackets": [{"score": points_text(b.score), "as_mdp": b.as_mdp, "paired": b.paired} for b in s.passages],
        "half": s.half,
        "opponent": person(s.opponent),
        "opponent_score": None if s.opponent_score is None else points_text(s.opponent_score),
        "float": s.float,
        "colour": None if s.colour is None else _colour(s.colour).lower(),
        "colour_rule": None if s.colour_rule is None else {
            "article": ed.article(s.colour_rule.article), "rule": s.colour_rule.text},
        "preference": {"colour": None if s.preference[0] is None else _colour(s.preference[0]).lower(),
                       "strength": s.preference[1].name.lower()},
        "bye": s.bye,
        "pab_score": None if s.pab_score is None else points_text(s.pab_score),
        "candidates": [_candidate_json(s, c, names) for c in s.candidates],
        "candidates_checked": s.candidates_checked,
        "sentences": sentences(s, names),
    }


def _candidate_json(s: PlayerStory, c: Candidate, names: Names) -> dict[str, Any]:
    out: dict[str, Any] = {"player": c.player, "name": names.players[c.player].name if c.player in names.players
                           else "", "ruled_out": c.ruled.value, "sentence": candidate_sentence(s, c, names).strip()}
    if c.illegalities:
        out["absolute"] = list(c.illegalities)
    d = c.difference
    if d is not None:
        out["difference"] = {"kind": d.kind.value, "bracket": None if d.bracket is None else points_text(d.bracket),
                             "criterion": None if d.tier is None else d.tier.criterion,
                             "tier": None if d.tier is None else d.tier.name,
                             "rules": _value(d.rules), "with_pair": _value(d.other)}
    return out
