#!/usr/bin/env python3
"""Measure how the search's speed scales with threads.

Runs `cutoff bench DEPTH 1` and `cutoff bench DEPTH N` alternately, REPS times each, and
prints the median nps of each and their ratio. Alternating spreads the noise of a shared
machine over both sides. With --ceiling it also runs N one-thread benches as separate
processes at the same time: their summed nps is the most N threads could reach on this
machine (shared caches, memory bandwidth and clock boost all limit it, not the engine).

    python3 scripts/smp_scaling.py target/release/cutoff --depth 13 --threads 2 --reps 5
"""

import argparse
import re
import statistics
import subprocess

SUMMARY = re.compile(r"^(\d+) nodes (\d+) nps$", re.MULTILINE)


def start(engine, depth, threads):
    return subprocess.Popen(
        [engine, "bench", str(depth), str(threads)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def nps_of(process):
    out, _ = process.communicate()
    found = SUMMARY.findall(out)
    if process.returncode != 0 or not found:
        raise SystemExit(f"bench failed (exit {process.returncode}):\n{out}")
    return int(found[-1][1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("--depth", type=int, default=13)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--ceiling", action="store_true")
    args = parser.parse_args()

    single, multi, ceiling = [], [], []
    for rep in range(args.reps):
        single.append(nps_of(start(args.engine, args.depth, 1)))
        multi.append(nps_of(start(args.engine, args.depth, args.threads)))
        line = f"rep {rep + 1}: 1 thread {single[-1]} nps, {args.threads} threads {multi[-1]} nps"
        if args.ceiling:
            pair = [start(args.engine, args.depth, 1) for _ in range(args.threads)]
            ceiling.append(sum(nps_of(p) for p in pair))
            line += f", {args.threads} processes {ceiling[-1]} nps"
        print(line, flush=True)

    one = statistics.median(single)
    many = statistics.median(multi)
    print(f"median nps: 1 thread {one:.0f}, {args.threads} threads {many:.0f}")
    print(f"scaling: {many / one:.2f}x")
    if ceiling:
        print(f"ceiling ({args.threads} one-thread processes at once): {statistics.median(ceiling) / one:.2f}x")


if __name__ == "__main__":
    main()
