#!/usr/bin/env python3
"""Builds epd/mate.epd: mate problems from matetrack whose mate Cutoff proves.

    python3 scripts/make_mate_suite.py target/release/cutoff /path/to/matetrack.epd > epd/mate.epd

Takes the first positions of each mate length 1..5 (both signs) from matetrack, runs
`cutoff epd` on them at a fixed node budget, and keeps those where Cutoff reports the
exact mate distance (`score mate N` with N the announced length). Each kept line records
the depth at which the mate was found (`acd`) and where it came from (`c0`). Stdlib only.
"""
import json
import os
import subprocess
import sys
import tempfile

PER_LENGTH = 12
LENGTHS = [1, 2, 3, 4, 5, -5, -6]
NODES = 3_000_000


def main():
    engine, source = sys.argv[1], sys.argv[2]
    wanted = {n: [] for n in LENGTHS}
    with open(source) as f:
        for number, line in enumerate(f, 1):
            if "bm #" not in line:
                continue
            n = int(line.split("bm #")[1].split(";")[0])
            if n in wanted and len(wanted[n]) < PER_LENGTH:
                fen = " ".join(line.split()[:4])
                wanted[n].append((fen, n, number))
    records = [r for n in LENGTHS for r in wanted[n]]
    with tempfile.TemporaryDirectory() as tmp:
        epd = os.path.join(tmp, "in.epd")
        out = os.path.join(tmp, "out.json")
        with open(epd, "w") as f:
            for fen, n, number in records:
                f.write(f'{fen} bm #{n}; id "matetrack line {number}";\n')
        subprocess.run(
            [engine, "epd", epd, "--nodes", str(NODES), "--jobs", "1", "--json", out],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        with open(out) as f:
            results = json.load(f)["files"][0]["results"]
    for (fen, n, number), r in zip(records, results):
        exact = r["score"] == f"mate {n}"
        if exact:
            found = r["solved_at"]["depth"] if r["solved_at"] else r["depth"]
            print(f'{fen} bm #{n}; acd {found}; id "mate.{number}"; c0 "matetrack.epd line {number}";')


if __name__ == "__main__":
    main()
