"""What a small round's process does not pay for: the typer app on another engine's
command line (interface/cli.py), and the wrapper's camelCase aliases on each model
(solver/cpsat.Model)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ortools.sat.python import cp_model

from cpsat_pairing.solver.cpsat import Model

DOORS = Path(__file__).parent / "fixtures" / "doors"


def test_another_engines_command_line_pairs_without_the_typer_app(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from cpsat_pairing.interface.cli import main\n"
        "try:\n"
        f"    main(['--dutch', {str(DOORS / 't000002_r1-6.trf')!r}, '-p', {str(tmp_path / 'out.txt')!r}])\n"
        "except SystemExit as exc:\n"
        "    unused = ('typer', 'click', 'rich', 'jinja2', 'dask', 'cpsat_pairing.apps.checklist')\n"
        "    print(exc.code, *sorted(m for m in unused if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0"]
    assert (tmp_path / "out.txt").read_text() == (DOORS / "t000002_r7.pairs").read_text()


def test_our_own_command_line_still_has_its_app() -> None:
    from cpsat_pairing.interface.cli import app

    assert app.registered_commands and {c.name or c.callback.__name__ for c in app.registered_commands} >= {
        "pair", "check", "serve"}


def test_a_model_without_the_camel_case_aliases_solves_as_the_wrappers_own() -> None:
    plain = cp_model.CpModel()
    light = Model()
    assert isinstance(light, cp_model.CpModel)
    assert "new_bool_var" in dir(light) and "NewBoolVar" not in vars(light)
    answers = []
    for model in (plain, light):
        x = [model.new_bool_var(f"x{i}") for i in range(6)]
        model.add_exactly_one(x[:3])
        model.add(sum(x) == 3)
        model.minimize(sum((i + 1) * v for i, v in enumerate(x)))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(model) == cp_model.OPTIMAL
        answers.append([solver.value(v) for v in x])
    assert answers[0] == answers[1] == [1, 0, 0, 1, 1, 0]
