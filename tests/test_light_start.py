"""What a small round's process does not pay for: the typer app on another engine's
command line (interface/cli.py), importlib.resources (the editions' files are found
from the package's own path), the diagnosis of a round without a pairing, the near
models of big brackets and the tie-break codes of 202/212 records (each imported
where it is needed), and numpy and the wrapper's camelCase aliases, which `CpModel`
brings and our own model (solver/cpsat.Model) does not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from ortools.sat.python import cp_model

from cpsat_pairing.solver.cpsat import Model, solve

DOORS = Path(__file__).parent / "fixtures" / "doors"


def test_another_engines_command_line_pairs_without_the_typer_app(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)  # what the interpreter's start-up loaded (site's .pth files)\n"
        "from cpsat_pairing.interface.cli import main\n"
        "try:\n"
        f"    main(['--dutch', {str(DOORS / 't000002_r1-6.trf')!r}, '-p', {str(tmp_path / 'out.txt')!r}])\n"
        "except SystemExit as exc:\n"
        "    unused = ('typer', 'click', 'rich', 'jinja2', 'dask', 'cpsat_pairing.apps.checklist', 'numpy', 'pandas',\n"
        "              'importlib.resources', 'cpsat_pairing.dutch.unpairable', 'cpsat_pairing.dutch.near',\n"
        "              'cpsat_pairing.formats.tiebreak_codes')\n"
        "    print(exc.code, *sorted(m for m in unused if m in sys.modules and m not in before))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0"]
    assert (tmp_path / "out.txt").read_text() == (DOORS / "t000002_r7.pairs").read_text()


def test_our_own_command_line_still_has_its_app() -> None:
    from cpsat_pairing.interface.cli import app

    assert app.registered_commands and {c.name or c.callback.__name__ for c in app.registered_commands} >= {
        "pair", "check", "serve"}


def _build(model: Any) -> str:
    """Every call the package makes on a model, in each form it makes it."""
    a, b = model.new_bool_var("a"), model.new_bool_var("b")
    c = model.new_int_var(0, 5, "c")
    model.add(a + b <= 1).only_enforce_if(b.Not())
    model.add(a == 1).only_enforce_if([a, b])
    model.add(c + 2 <= 4).only_enforce_if(a, b.Not())
    model.add(3 * c - 2 * a + 4 >= 2)
    model.add(sum([a, b, c]) == 2)
    model.add(sum([]) <= c)
    model.add(c != 3)
    model.add(True)
    model.add(False)
    model.add_implication(a, b.Not())
    model.add_bool_or([a, b.Not()])
    model.add_bool_or(a, b)
    model.add_bool_or([True, a])
    model.add_exactly_one([a, b])
    model.add_at_most_one([a, b.Not()])
    model.minimize(2 * a + 3 * b.Not() + c + 1)
    model.clear_objective()
    model.minimize(sum([a, b]))
    model.add_assumptions([a, b.Not()])
    return str(model.proto)


def test_our_model_writes_the_proto_the_wrappers_own_writes() -> None:
    """The same proto, so CP-SAT answers each solve the same (and the pairings are the
    same): what OR-Tools' own `CpModel` writes for each call is what ours writes."""
    assert _build(Model()) == _build(cp_model.CpModel())
    model = Model()
    x = model.new_bool_var("x")
    model.add_assumptions([x])
    model.clear_assumptions()
    model.clear_hints()
    assert not len(model.proto.assumptions)


def test_our_model_solves_as_the_wrappers_own() -> None:
    answers = []
    for model in (cp_model.CpModel(), Model()):
        x = [model.new_bool_var(f"x{i}") for i in range(6)]
        model.add_exactly_one(x[:3])
        model.add(sum(x) == 3)
        model.minimize(sum((i + 1) * v for i, v in enumerate(x)))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solve(solver, model) == cp_model.OPTIMAL  # type: ignore[arg-type]
        answers.append([solver.value(v) for v in x])
    assert answers[0] == answers[1] == [1, 0, 0, 1, 1, 0]
