"""Other engines' command lines, translated to ours: bbpPairings' (`--dutch`)."""

from __future__ import annotations

import sys

PROG = "cpsat-pairing"


def bbp_argv(argv: list[str]) -> list[str] | None:
    """Translate bbpPairings' argv (`--dutch FILE -p [OUT]`, `-c`, `-g [CONFIG] -o OUT -s SEED`)
    to ours, else None."""
    if "--dutch" not in argv:
        return None
    rest = [a for a in argv if a != "--dutch"]
    if "-p" in rest:
        i = rest.index("-p")
        files = [a for a in rest[:i] if not a.startswith("-")]
        out = rest[i + 1 : i + 2]
        args = ["pair", *files, "--format", "bbp"]
        if out:
            args += ["--output", out[0]]
        return args
    if "-c" in rest:
        files = [a for a in rest if not a.startswith("-")]
        return ["check", *files]
    if "-g" in rest:  # the random tournament generator: -g [CONFIG] -o OUT [-s SEED]
        args = ["generate"]
        values: dict[str, str | None] = {"-g": None, "-o": None, "-s": None}
        i = 0
        while i < len(rest):
            flag = rest[i]
            if flag in values and i + 1 < len(rest) and not rest[i + 1].startswith("-"):
                values[flag] = rest[i + 1]
                i += 2
                continue
            i += 1
        if values["-g"] is not None:
            args += ["--bbp-config", values["-g"]]
        if values["-o"] is not None:
            args += ["--output", values["-o"]]
        if values["-s"] is None:
            import secrets

            values["-s"] = str(secrets.randbelow(2**32))
            print(f"{PROG}: seed {values['-s']}", file=sys.stderr)
        return args + ["--seed", str(values["-s"])]
    return None
