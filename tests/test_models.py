"""The relaxed bracket models give the exact model's answer (`SolverSettings.models`).

The engine tries the aggregate model first (next scoregroup as counts), then the lazy
pair model (whose tiers after [C8] are solved on the bracket alone), then the exact
model.  Relaxing only adds candidates, so whichever model completes first must agree
with the exact model -- checked here round by round, not assumed.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from cpsat_pairing import SolverSettings, load_edition, pair, read_trf
from cpsat_pairing.domain.compat import Compatibility, absolute_colour_clash
from cpsat_pairing.domain.state import build_state, round_exists
from cpsat_pairing.dutch.e2026 import modelled
from cpsat_pairing.dutch.model import window_restrictions
from cpsat_pairing.testing.corpus import recorded

from helpers import CORPUS

DEV = CORPUS / "dutch-2026" / "dev"
SAMPLE = [DEV / "t000031.trf", DEV / "t000158.trf", DEV / "t000182.trf"]


def _rounds(path: Path):
    t = read_trf(path)
    last = max(len(p.rounds) for p in t.players)
    return t, [r for r in range(1, last + 1) if round_exists(t, r)]


@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.stem)
def test_relaxed_models_agree_with_the_exact_model(path: Path) -> None:
    t, rounds = _rounds(path)
    # Every bracket on its models (the small ones are paired by their candidates otherwise).
    default = [pair(t, r, settings=SolverSettings(direct_brackets=0)) for r in rounds]
    exact_only = SolverSettings(models=("exact",), bracket_alone=False, direct_brackets=0)
    exact = [pair(t, r, settings=exact_only) for r in rounds]
    for r, a, b in zip(rounds, default, exact):
        assert (a.as_pairs(), a.bye) == (b.as_pairs(), b.bye), f"round {r}"
        assert [tr.tiers for tr in a.brackets] == [tr.tiers for tr in b.brackets], f"round {r}"


@pytest.mark.parametrize("path", SAMPLE[:2], ids=lambda p: p.stem)
def test_lazy_model_solved_on_the_bracket_alone_matches_the_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the aggregate model the lazy model runs, with its local phase."""
    calls = []
    real = modelled.solve_locally
    monkeypatch.setattr(modelled, "solve_locally", lambda *a: calls.append(1) or real(*a))
    t, rounds = _rounds(path)
    for r in rounds:
        got = pair(t, r, settings=SolverSettings(models=("lazy", "exact"), direct_brackets=0))
        assert (set(got.as_pairs()), got.bye) == recorded(t, r), f"round {r}"
    assert calls, "the local phase was never used"


def test_neighbour_sets_are_the_absolute_criteria() -> None:
    t = read_trf(SAMPLE[1])
    st = build_state(t, 5, load_edition("dutch-2026").state_rules)
    ok = Compatibility(st, t)
    players = st.present
    for p in players:
        for q in players:
            if p == q:
                continue
            a, b = st.players[p], st.players[q]
            expected = q not in a.opponents and not absolute_colour_clash(a, b)
            assert ok(p, q) == expected == (q in ok.neighbours(p)), (p, q)


def test_a_neighbour_view_behaves_as_the_set_it_stands_for() -> None:
    """`neighbours(p)` keeps only who p may not meet; every set operation the engine
    uses must answer as the explicit set of the others would."""
    t = read_trf(SAMPLE[1])
    st = build_state(t, 6, load_edition("dutch-2026").state_rules)
    ok = Compatibility(st, t)
    pool = frozenset(st.present)
    outsiders = frozenset({10**6, -1})
    probes = [frozenset(list(pool)[i::7]) | outsiders for i in range(3)] + [frozenset(), outsiders]
    for p in st.present:
        view = ok.neighbours(p)
        explicit = frozenset(q for q in pool if ok(p, q))
        assert len(view) == len(explicit) and frozenset(view) == explicit
        assert list(view) == [q for q in pool if q in explicit]  # the pool's order
        assert ok.excluded(p) >= pool - explicit
        crowd = frozenset(range(10**6, 10**6 + 50))  # outsiders: a scan past the first few members
        mixed = [crowd | ok.excluded(p) & pool, crowd | {next(iter(explicit), -1)}]
        for probe in [*probes, *mixed, ok.excluded(p) & pool]:  # the last: disjoint unless empty
            assert view & probe == explicit & probe == probe & view
            assert view.isdisjoint(probe) == explicit.isdisjoint(probe) == view.isdisjoint(list(probe))
        assert all((q in view) == (q in explicit) for q in [*pool, *outsiders])


@pytest.mark.parametrize("edition", ["dutch-2026", "dutch-2017", "dutch-2013"])
def test_a_finished_bracket_model_is_freed_without_a_garbage_collection(edition: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A bracket model and the callbacks its solver keeps (bounds, repair, acceptance)
    must not form a reference cycle: at thousands of players each model is hundreds
    of MB, and a cycle keeps it alive until a full collection, after the next one is
    built.  Restrictions are forced on (as in big models) so that their callbacks exist."""
    import gc
    import weakref

    from cpsat_pairing.dutch.aggregate import AggregateBracketModel
    from cpsat_pairing.dutch.bracket import BracketModel
    from cpsat_pairing.dutch.e2017.bracket import BracketModel2017

    made: list[weakref.ref] = []
    for cls in (BracketModel, AggregateBracketModel, BracketModel2017):
        real = cls.__post_init__
        monkeypatch.setattr(cls, "__post_init__", lambda self, real=real: (real(self), made.append(weakref.ref(self))))
    t = read_trf(CORPUS / "dutch-2017" / "shortcuts" / "j000003.trf")
    restricted = SolverSettings(sparse_from=20, windows=(2, 4))
    gc.disable()
    try:
        gc.collect()
        for r in (4, 6):
            pair(t, r, edition, settings=restricted)
        alive = [type(ref()).__name__ for ref in made if ref() is not None]
    finally:
        gc.enable()
    assert made, "no bracket model was built"
    assert not alive, f"{len(alive)} of {len(made)} bracket models outlived their round: {alive[:3]}"


def test_progress_names_each_bracket() -> None:
    t, rounds = _rounds(SAMPLE[0])
    seen: list[str] = []
    pair(t, rounds[-1], progress=seen.append)
    assert any(s.startswith("bracket 1/") for s in seen)
    assert len({s.split(" ▸ ")[0] for s in seen}) >= 2


# --- editions as data, validated when loaded ----------------------------------------------


def _edition_file(tmp_path: Path, text: str) -> Path:
    src = (Path(__file__).resolve().parents[1] / "models" / "dutch-2026.toml").read_text()
    path = tmp_path / "edition.toml"
    path.write_text(src + text if text.startswith("\n") else text)
    return path


@pytest.mark.parametrize(("text", "message"), [
    ("\nspeed = 3\n", "speed: unknown key"),
    ('\n[order]\ns1_size = "all"\n', "order.s1_size: expected one of 'pairs', 'p0', got 'all'"),
    ('name = "x"\nprocedure = "e2026"\nquality = ["C6", "C99"]\n', "quality[1]: unknown criterion 'C99'"),
    ('name = "x"\nprocedure = "e1999"\nquality = []\n', "procedure: no such procedure 'e1999'"),
    ('name = "x"\nquality = ["C6"]\n', "procedure: missing"),
    ('name = 5\nprocedure = "e2026"\nquality = []\n', "name: expected a str, got int"),
    ("name = [\n", "not valid TOML"),
])
def test_a_malformed_edition_is_an_error_naming_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    from cpsat_pairing import EditionError
    from cpsat_pairing.dutch.edition import read_edition

    path = _edition_file(tmp_path, text)
    with pytest.raises(EditionError) as info:
        read_edition(path)
    assert str(info.value).startswith(f"{path}: ") and message in str(info.value)


def test_a_malformed_edition_exits_3_from_the_command_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cpsat_pairing.interface.cli import app

    path = _edition_file(tmp_path, 'name = "x"\nprocedure = "e2026"\nquality = ["C6", "C99"]\n')
    result = CliRunner().invoke(app, ["pair", "example", "--edition", str(path)])
    assert result.exit_code == 3 and "quality[1]: unknown criterion 'C99'" in result.stderr
    assert "Traceback" not in result.output


def test_every_key_of_the_shipped_editions_is_read() -> None:
    """The shipped files load, name their procedure and use every criterion it registers."""
    from cpsat_pairing.dutch.edition import available
    from cpsat_pairing.dutch.registry import CRITERIA

    for name in available():
        ed = load_edition(name)
        assert ed.name == name and ed.procedure in ("e2026", "e2017", "e2013")
        assert all(c in CRITERIA for c in ed.quality)
    assert load_edition("dutch-2017").article("exchange") == "D.2"
    assert load_edition("dutch-2026").article("5.2.4") == "5.2.4"


def _windows_by_definition(
    players: list[int], score: dict[int, Fraction], mdps: frozenset[int], pairs: list[tuple[tuple[int, int], int]],
    windows: list[int],
) -> list[list[int]]:
    """The window rule pair by pair: a pair of one scoregroup (no MDP) is left out of a
    window when its places are farther than the window from each other and from
    "S1 place i against S2 place i + g/2"."""
    place: dict[int, int] = {}
    members: dict[Fraction, list[int]] = {}
    for p in players:
        members.setdefault(score[p], []).append(p)
        place[p] = len(members[score[p]]) - 1
    out: list[list[int]] = [[] for _ in windows]
    for (p, q), index in pairs:
        if p in mdps or q in mdps or score[p] != score[q]:
            continue
        d = abs(place[p] - place[q])
        off = min(d, abs(d - len(members[score[p]]) // 2))
        for level, window in enumerate(windows):
            if off > window:
                out[level].append(index)
    return [level for level in out if level]


@pytest.mark.parametrize("seed", range(30))
def test_window_restrictions_follow_the_rule_pair_by_pair(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.sample(range(1, 400), rng.randint(0, 60))
    score = {p: Fraction(rng.randint(0, 4), 2) for p in players}
    players.sort(key=lambda p: -score[p])
    mdps = frozenset(p for p in players if rng.random() < 0.1)
    pairs = [((p, q), 1000 + k) for k, (p, q) in enumerate(
        (p, q) for i, p in enumerate(players) for q in players[i + 1:] if rng.random() < 0.6)]
    windows = sorted(rng.sample(range(12), rng.randint(1, 3)))
    got = window_restrictions(players, score, mdps, iter(pairs), windows)
    assert got == _windows_by_definition(players, score, mdps, pairs, windows)
    assert all(isinstance(i, int) for level in got for i in level)
