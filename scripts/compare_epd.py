#!/usr/bin/env python3
"""Compare two `cutoff epd --json` runs of the same suite (say one thread against two).

Prints the solved count of each, the positions only one of them solved, and the median
ratio of time to solution (A's time over B's, so above 1 means B is faster) over the
positions both solved: over all of them, and over those that took A at least --slow ms,
where the ratio is not drowned by answers found in the first milliseconds.

    cutoff epd ECM.epd --movetime 2000 --threads 1 --json one.json
    cutoff epd ECM.epd --movetime 2000 --threads 2 --json two.json
    python3 scripts/compare_epd.py one.json two.json
"""

import argparse
import json
import statistics


def load(path):
    with open(path) as f:
        data = json.load(f)
    return {
        (file["file"], result["line"]): result
        for file in data["files"]
        for result in file["results"]
    }


def time_to_solution(result):
    # A millisecond floor keeps ratios finite for answers found at once.
    return max(result["solved_at"]["time_ms"], 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--slow", type=int, default=100)
    args = parser.parse_args()

    a, b = load(args.a), load(args.b)
    common = sorted(a.keys() & b.keys())
    if not common:
        raise SystemExit("the two runs share no position")
    solved_a = [k for k in common if a[k]["solved"]]
    solved_b = [k for k in common if b[k]["solved"]]
    both = [k for k in solved_a if b[k]["solved"]]
    print(f"positions: {len(common)}")
    print(f"solved: A {len(solved_a)}, B {len(solved_b)}, both {len(both)}")
    for name, only in (("A", set(solved_a) - set(solved_b)), ("B", set(solved_b) - set(solved_a))):
        ids = ", ".join(a[k]["id"] or f"line {k[1]}" for k in sorted(only))
        print(f"only {name}: {len(only)}{': ' + ids if ids else ''}")

    ratio = {k: time_to_solution(a[k]) / time_to_solution(b[k]) for k in both}
    if ratio:
        print(f"median time ratio A/B, all {len(ratio)} solved by both: {statistics.median(ratio.values()):.2f}")
    slow = [r for k, r in ratio.items() if a[k]["solved_at"]["time_ms"] >= args.slow]
    if slow:
        print(
            f"median time ratio A/B, {len(slow)} that took A at least {args.slow} ms: "
            f"{statistics.median(slow):.2f}"
        )

if __name__ == "__main__":
    main()
