#!/usr/bin/env python3
"""What an SPSA run of scripts/spsa.py found, and how to use it.

Reads the run's log (its setup line names every parameter with its starting value) and
prints, for each parameter, the starting value, θ after the last iteration rounded to the
integer the engine takes, and the move in units of c_end (a move under about one c_end
is within the tune's own noise). Then the tuned values as fastchess options
(option.NAME=V) for a match of the tuning build against itself, which is how the tuned
values are checked at a longer time control before anything is changed.

--bake PATH writes the rounded θ into engine/src/params.rs as the new defaults (the
`NAME: type = value (` literal of each tunable), atomically; a parameter the file does not
declare exactly once stops it without writing anything.

Examples
  spsa_result.py spsa.jsonl
  spsa_result.py spsa.jsonl --bake engine/src/params.rs
"""
import argparse
import importlib.util
import os
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("spsa", HERE / "spsa.py")
spsa = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(spsa)


def tuned(log):
    """(params, θ rounded, games) of a log; θ is the starting values if nothing was played."""
    if not log.is_file():
        raise ValueError(f"{log}: no such file")
    setup, records = spsa.load_log(log)
    if setup is None:
        raise ValueError(f"{log}: no setup line")
    params = [spsa.Param.parse(line) for line in setup["params"]]
    theta, games, _ = spsa.resume_point(params, records)
    return params, {p.name: round(theta[p.name]) for p in params}, games


def declaration(name):
    """The `NAME: type = value (` of a tunable in params.rs; group 2 is the value."""
    return re.compile(rf"(\b{re.escape(name)}: \w+ = )(-?\d+)( \()")


def baked(text, values):
    """params.rs with each named tunable's default replaced by its value."""
    for name, value in values.items():
        pattern = declaration(name)
        found = len(pattern.findall(text))
        if found != 1:
            raise ValueError(f"{name} is declared {found} times in params.rs, not once")
        text = pattern.sub(lambda m: f"{m.group(1)}{value}{m.group(3)}", text)
    return text


def write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log", type=Path, help="the JSON-lines log of scripts/spsa.py")
    ap.add_argument("--bake", type=Path, metavar="PARAMS_RS", help="write the tuned values into this params.rs")
    args = ap.parse_args(argv)
    try:
        params, values, games = tuned(args.log)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"spsa_result: {e}")

    print(f"{games} games; name, start, tuned, move in c_end")
    for p in params:
        print(f"{p.name}, {p.value:g}, {values[p.name]}, {(values[p.name] - p.value) / p.c_end:+.2f}")
    changed = {p.name: values[p.name] for p in params if values[p.name] != p.value}
    print(f"\n{len(changed)} of {len(params)} changed. The tuned side of a check match:")
    print("fastchess: " + " ".join(f"option.{n}={v}" for n, v in changed.items()))

    if args.bake:
        try:
            text = baked(args.bake.read_text(), changed)
        except (OSError, ValueError) as e:
            sys.exit(f"spsa_result: {e}; {args.bake} left as it was")
        write_atomically(args.bake, text)
        print(f"\n{len(changed)} defaults written to {args.bake}")


if __name__ == "__main__":
    main()
