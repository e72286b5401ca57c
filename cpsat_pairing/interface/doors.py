"""The command lines of the engines other programs already call: bbpPairings' and
JaVaFo's, so that the engine drops in where either is used.

    bbpPairings  [-r] --dutch INPUT -p [OUTPUT] [-l [CHECKLIST]]
                 [-r] --dutch INPUT -c [-l [CHECKLIST]]
                 [-r] --dutch (MODEL -g | -g [CONFIG]) -o TRF [-s SEED] [-l [CHECKLIST]]
    JaVaFo       [-r] INPUT [-b] -p [OUTPUT] [-l [CHECKLIST]] [-q N] [-w]
                 [-r] INPUT -c [ROUND]
                 [-r] [MODEL] -g [CONFIG | SEED] [-b] -o TRF [-s SEED]

As both engines do: an output or checklist name without a directory goes next to the
input; with no output name the pair list goes to stdout; the checklist's default name
is the input's with `.list` for its extension; `-r` prints the banner first.  The pair
list is the number of lines, then `white black` per board and `id 0` for the PAB.  The
checker (`-c`) prints `NAME: Round #N` per round and, where a round differs, the rules'
pairs beside the file's; like bbpPairings it exits 0 whatever it finds.  JaVaFo's own
search options (`-q N`, `-w`) are accepted and have no effect here: the pairing is
exact.  Exit codes are bbpPairings' (JaVaFo documents none): 0 ok, 1 no valid pairing,
2 unexpected error, 3 invalid input or command line, 4 size limit, 5 file access.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.errors import (
    ExitCode,
    FileAccessError,
    InputError,
    NoValidPairing,
    PairingError,
)
from cpsat_pairing.version import __version__

PROG = "cpsat-pairing"
BANNER = f"{PROG} {__version__} (FIDE Dutch system on OR-Tools CP-SAT)"
COMMANDS = frozenset({"info", "convert", "pair", "check", "explain", "generate", "serve"})

BBP_USAGE = f"""Usage:
{PROG} [-r]
{PROG} [-r] --dutch input-file -c [-l [check-list-file]]
{PROG} [-r] --dutch input-file -p [output-file] [-l [check-list-file]]
{PROG} [-r] --dutch (model-file -g | -g [config-file]) -o trf_file [-s random_seed] [-l [check-list-file]]"""

JAVAFO_USAGE = f"""Usage (JaVaFo's command line):
{PROG} [-r] input-file -c [round-number]
{PROG} [-r] input-file [-b] -p [output-file] [-l [check-list-file]]
{PROG} [-r] [model-file] -g [config-file | seed] [-b] -o trf-file [-s seed]"""


class Usage(Exception):
    """The command line does not follow the door's grammar."""


def which_door(argv: Sequence[str]) -> str | None:
    """"bbp", "javafo" or None (our own command line)."""
    args = list(argv[1:] if argv[:1] == ["-r"] else argv)
    if args[:1] and args[0] in ("--dutch", "--burstein"):
        return "bbp"
    if argv[:1] == ["-r"] and not args:
        return "javafo"
    if args and args[0] not in COMMANDS and not args[0].startswith("--") and any(a in ("-p", "-c", "-g") for a in args):
        return "javafo"
    return None


def main(argv: Sequence[str], door: str) -> int:
    """Run one of the doors; the exit code."""
    args = list(argv)
    if args[:1] == ["-r"]:
        print(BANNER, flush=True)
        args = args[1:]
        if not args:
            return 0
    try:
        return _bbp(args) if door == "bbp" else _javafo(args)
    except Usage as exc:
        if str(exc):
            print(str(exc), file=sys.stderr)
        print(BBP_USAGE if door == "bbp" else JAVAFO_USAGE, file=sys.stderr)
        return int(ExitCode.INVALID_INPUT)


# --- the command lines ------------------------------------------------------------------


def _take_checklist(args: list[str]) -> tuple[list[str], str | None, bool]:
    """(the rest, the checklist name or None, whether -l was given) with -l last."""
    if "-l" not in args:
        return args, None, False
    i = args.index("-l")
    rest, tail = args[:i], args[i + 1 :]
    if len(tail) > 1:
        raise Usage("-l takes at most one file name and comes last")
    return rest, (tail[0] if tail else None), True


def _bbp(args: list[str]) -> int:
    if not args or args[0] not in ("--dutch", "--burstein"):
        raise Usage("")
    if args[0] == "--burstein":
        print("The Burstein system is not supported: this engine pairs by the Dutch system (--dutch).",
              file=sys.stderr)
        return int(ExitCode.INVALID_INPUT)
    rest, checklist, wants = _take_checklist(args[1:])
    if "-g" in rest:
        return _generate(rest, checklist, wants, style="bbp")
    if len(rest) < 2 or rest[1] not in ("-p", "-c"):
        raise Usage("")
    source, op, extra = rest[0], rest[1], rest[2:]
    if op == "-c":
        if extra:
            raise Usage("")
        return _check(source, None, checklist, wants, style="bbp")
    if len(extra) > 1:
        raise Usage("")
    return _pair(source, extra[0] if extra else None, checklist, wants, style="bbp", baku=False)


def _javafo(args: list[str]) -> int:
    # JaVaFo's own search options: accepted, no effect (the pairing here is exact).
    clean: list[str] = []
    i = 0
    while i < len(args):
        if args[i] == "-q":
            if i + 1 >= len(args) or not args[i + 1].isdigit():
                raise Usage("-q takes a number")
            i += 2
            continue
        if args[i] != "-w":
            clean.append(args[i])
        i += 1
    baku = "-b" in clean
    clean = [a for a in clean if a != "-b"]
    rest, checklist, wants = _take_checklist(clean)
    if "-g" in rest:
        return _generate(rest, checklist, wants, style="javafo", baku=baku)
    if len(rest) < 2 or rest[1] not in ("-p", "-c"):
        raise Usage("")
    source, op, extra = rest[0], rest[1], rest[2:]
    if op == "-c":
        if len(extra) > 1 or (extra and not extra[0].isdigit()) or wants:
            raise Usage("")
        return _check(source, int(extra[0]) if extra else None, None, False, style="javafo")
    if len(extra) > 1:
        raise Usage("")
    return _pair(source, extra[0] if extra else None, checklist, wants, style="javafo", baku=baku)


# --- the operations -----------------------------------------------------------------------


def beside(name: str, anchor: str) -> Path:
    """A file name as both engines read it: without a directory, next to `anchor`."""
    path = Path(name)
    if os.sep in name or (os.altsep and os.altsep in name):
        return path
    return Path(anchor).parent / path


def _checklist_path(checklist: str | None, source: str) -> Path:
    if checklist is None:
        return Path(source).with_suffix(".list")
    return beside(checklist, source)


def _read(source: str) -> Tournament | int:
    from cpsat_pairing.formats import read_trf

    try:
        return read_trf(source)
    except FileAccessError as exc:
        print(f"Error reading file {source}: {exc.reason}", file=sys.stderr)
        return int(ExitCode.FILE_ACCESS)
    except InputError as exc:
        print(f"Error parsing file {source}: line {exc.line}, column {exc.column}: {exc.message}", file=sys.stderr)
        return int(ExitCode.INVALID_INPUT)


def _write(path: Path, text: str) -> int:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError:
        print(f"The output file ({path}) could not be opened.", file=sys.stderr)
        return int(ExitCode.FILE_ACCESS)
    return 0


def _write_checklist(path: Path, text: str) -> None:
    """A checklist that cannot be written is said, and changes no exit code (as in bbpPairings)."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError:
        print(f"The checklist file ({path}) could not be opened.", file=sys.stderr)


def _baku(t: Tournament) -> Tournament:
    """JaVaFo's -b: Baku acceleration (C.04.7) when the file gives no acceleration of its own."""
    from cpsat_pairing.apps.generate import baku_acceleration

    if t.acceleration or t.total_rounds is None:
        return t
    return dataclasses.replace(t, acceleration=baku_acceleration(sorted(p.id for p in t.players), t.total_rounds))


def _pair(source: str, output: str | None, checklist: str | None, wants: bool, style: str, baku: bool) -> int:
    from cpsat_pairing.dutch.boards import initial_colour_note, read_initial_colour
    from cpsat_pairing.dutch.edition import edition_for
    from cpsat_pairing.dutch.rounds import pair
    from cpsat_pairing.formats.pair_list import write_pair_list

    t = _read(source)
    if isinstance(t, int):
        return t
    if t.total_rounds is None:
        print(f"Error parsing file {source}: The total number of rounds in the tournament must be specified.",
              file=sys.stderr)
        return int(ExitCode.INVALID_INPUT)
    if t.rounds_played >= t.total_rounds:
        print(f"Error while pairing {source}: all {t.total_rounds} rounds are paired.", file=sys.stderr)
        return int(ExitCode.INVALID_INPUT)
    if style == "bbp" and t.initial_colour is None and read_initial_colour(t) is None:
        print(f"Error while parsing {source}: Please configure the initial piece colors.", file=sys.stderr)
        return int(ExitCode.INVALID_INPUT)
    if baku:
        t = _baku(t)
    try:
        choice = edition_for(t)
    except PairingError as exc:
        print(f"Error while pairing {source}: {exc}", file=sys.stderr)
        return int(exc.exit_code)
    colour_note = initial_colour_note(t)
    for note in (*choice.notes, *([colour_note] if colour_note else [])):
        print(f"{source}: {note}", file=sys.stderr)
    try:
        result = pair(t, None, choice.name)
    except NoValidPairing as exc:
        if wants:
            from cpsat_pairing.apps.checklist import checklist as checklist_text

            _write_checklist(_checklist_path(checklist, source),
                             checklist_text(t, t.rounds_played + 1, None, choice.name, style))
        print(f"Error while pairing {source}: No valid pairing exists: {exc}", file=sys.stderr)
        return int(ExitCode.NO_PAIRING)
    except PairingError as exc:
        print(f"Error while pairing {source}: {exc}", file=sys.stderr)
        return int(exc.exit_code)
    text = write_pair_list(result.as_pairs(), result.bye)
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        code = 0
    else:
        code = _write(beside(output, source), text)
    if wants:  # the checklist's module only when one is asked for: most calls pair only
        from cpsat_pairing.apps.checklist import checklist as checklist_text

        _write_checklist(_checklist_path(checklist, source),
                         checklist_text(t, result.round, result.as_pairs(), choice.name, style))
    return code


def _check(source: str, only: int | None, checklist: str | None, wants: bool, style: str) -> int:
    from cpsat_pairing.apps.check import check_round, with_rounds_in_file
    from cpsat_pairing.apps.checklist import checklist as checklist_text
    from cpsat_pairing.domain.state import round_exists
    from cpsat_pairing.dutch.boards import infer_initial_colour
    from cpsat_pairing.dutch.edition import edition_for
    from cpsat_pairing.interface.views.check import checker_lines

    t = _read(source)
    if isinstance(t, int):
        return t
    if only is not None and not 1 <= only <= t.rounds_played:
        print(f"Error while checking {source}: round {only} is not paired in the file "
              f"(the rounds that can be checked are 1-{t.rounds_played})", file=sys.stderr)
        return int(ExitCode.INVALID_INPUT)
    last = max((len(p.rounds) for p in t.players), default=0)
    t = with_rounds_in_file(t, last)
    if t.initial_colour is None:
        t = dataclasses.replace(t, initial_colour=infer_initial_colour(t))
    try:
        choice = edition_for(t)
    except PairingError as exc:
        print(f"Error while checking {source}: {exc}", file=sys.stderr)
        return int(exc.exit_code)
    stem = Path(source).stem
    lists = []
    for rnd in range(1, last + 1):
        if not round_exists(t, rnd) or (only is not None and rnd != only):
            continue
        result = check_round(t, rnd, choice.name)
        print("\n".join(checker_lines(t, stem, result)), flush=True)
        if wants:
            pairs = None if result.rules is None else result.rules.as_pairs()
            lists.append(f"Round #{rnd}\n" + checklist_text(t, rnd, pairs, choice.name, style))
    print(flush=True)  # both checkers end with a blank line
    if wants:
        _write_checklist(_checklist_path(checklist, source), "\n".join(lists))
    return 0


def _generate(rest: list[str], checklist: str | None, wants: bool, style: str, baku: bool = False) -> int:
    from cpsat_pairing.apps.generate import GenConfig, bbp_config, generate
    from cpsat_pairing.formats import write_trf

    i = rest.index("-g")
    model_name = rest[0] if i == 1 else None
    if i > 1:
        raise Usage("")
    tail = rest[i + 1 :]
    config_name = tail.pop(0) if tail and not tail[0].startswith("-") else None
    values: dict[str, str | None] = {"-o": None, "-s": None}
    while tail:
        flag = tail.pop(0)
        if flag not in values or not tail:
            raise Usage("")
        values[flag] = tail.pop(0)
    if values["-o"] is None:
        raise Usage("-g needs -o trf-file")
    seed_text = values["-s"]
    if config_name is not None and config_name.isdigit() and style == "javafo":
        seed_text, config_name = config_name, None  # JaVaFo: a number in place of the config is the seed
    cfg = GenConfig()
    try:
        if model_name is not None:
            model = _read(model_name)
            if isinstance(model, int):
                return model
            cfg = dataclasses.replace(cfg, model=model)
        if config_name is not None:
            cfg = bbp_config(Path(config_name).read_text(encoding="utf-8"), cfg)
        if baku:
            cfg = dataclasses.replace(cfg, acceleration="baku")
    except OSError as exc:
        print(f"Error reading file {config_name}: {exc.strerror or exc}", file=sys.stderr)
        return int(ExitCode.FILE_ACCESS)
    except ValueError as exc:
        print(f"Error parsing file {config_name}: {exc}", file=sys.stderr)
        return int(ExitCode.INVALID_INPUT)
    if seed_text is None:
        import secrets

        seed_text = str(secrets.randbelow(2**32))
        print(f"{PROG}: seed {seed_text}", file=sys.stderr)
    if not seed_text.isdigit() or int(seed_text) >= 2**63:
        print(f"The seed must be between 0 and {2**63 - 1}.", file=sys.stderr)
        return int(ExitCode.SIZE_LIMIT)
    anchor = model_name or config_name or "./"
    out = beside(values["-o"], anchor)
    try:
        t = generate(int(seed_text), cfg)
    except PairingError as exc:
        print(f"Error while generating: {exc}", file=sys.stderr)
        return int(exc.exit_code)
    code = _write(out, write_trf(t, cfg.format))
    if wants and code == 0:
        _write_checklist(_checklist_path(checklist, str(out)), _generated_checklists(t, cfg.edition, style))
    return code


def _generated_checklists(t: Tournament, edition: str, style: str) -> str:
    """Each generated round's checklist, as bbpPairings writes them for -g."""
    from cpsat_pairing.apps.check import file_round
    from cpsat_pairing.apps.checklist import checklist as checklist_text

    out = []
    for rnd in range(1, t.rounds_played + 1):
        out.append(f"Round #{rnd}.\n" + checklist_text(t, rnd, list(file_round(t, rnd).pairs), edition, style))
    return "\n".join(out)
