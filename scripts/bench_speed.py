#!/usr/bin/env python3
"""Compare the speed of two or more builds of the engine.

Runs `ENGINE bench DEPTH` for each engine in turn, REPS rounds, and prints for each the
node count, the median nps the bench reports (wall clock) and the median nps counted from
the process's own user CPU time, with their ratios to the first engine. Alternating
spreads the noise of a shared machine over every side; the CPU-time figure also leaves out
the time the machine's other tenants take (steal time), which moves the wall clock by
several per cent between identical runs. Nodes differ between builds that search different
trees: compare nps, not times.

    python3 scripts/bench_speed.py ../cutoff-r1 target/release/cutoff --reps 21
"""

import argparse
import os
import re
import statistics
import sys
import tempfile

SUMMARY = re.compile(r"^(\d+) nodes (\d+) nps$", re.MULTILINE)


def run_bench(engine, depth):
    """(nodes, wall nps, user-CPU nps) of one `bench` run."""
    with tempfile.TemporaryFile(mode="w+") as out:
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
            try:
                os.execv(engine, [engine, "bench", str(depth)])
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        out.seek(0)
        match = SUMMARY.findall(out.read())
    if status != 0 or not match:
        sys.exit(f"{engine} bench {depth} failed (status {status})")
    nodes, wall_nps = (int(x) for x in match[-1])
    return nodes, wall_nps, nodes / usage.ru_utime


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engines", nargs="+", help="engine binaries; the first is the base")
    parser.add_argument("--reps", type=int, default=11, help="rounds (default 11)")
    parser.add_argument("--depth", type=int, default=11, help="bench depth (default 11)")
    args = parser.parse_args()

    runs = [[] for _ in args.engines]
    for _ in range(args.reps):
        for i, engine in enumerate(args.engines):
            runs[i].append(run_bench(engine, args.depth))

    base_wall = statistics.median(r[1] for r in runs[0])
    base_cpu = statistics.median(r[2] for r in runs[0])
    for engine, results in zip(args.engines, runs):
        wall = statistics.median(r[1] for r in results)
        cpu = statistics.median(r[2] for r in results)
        print(
            f"{engine}: {results[0][0]} nodes, median {wall:.0f} nps ({wall / base_wall:.3f}x),"
            f" user CPU {cpu:.0f} nps ({cpu / base_cpu:.3f}x)"
        )


if __name__ == "__main__":
    main()
