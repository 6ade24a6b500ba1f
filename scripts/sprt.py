#!/usr/bin/env python3
"""A pentanomial SPRT over the games of one or more match.py sittings.

match.py plays each opening twice, colours swapped (rounds 2k and 2k + 1), and judges its
SPRT game by game. With unbalanced openings the two games of a pair are far from
independent, so the pair is the unit: its score for the engine under test is 0, ½, 1, 1½
or 2, and the counts of those five outcomes (the pentanomial) give the variance the SPRT
needs. This reads PGNs that match.py wrote (`--pgn`), counts every pair whose two games
both finished, and prints the Elo estimate and the LLR.

A check too long for one sitting (an SPRT of a few Elo takes thousands of games at 10+0.1)
is played as several match.py runs, each with its own seed and PGN; give them all here.
Rounds are counted per file, so sittings never mix. A game cut off when a sitting was
killed has no result and is skipped with its partner. A sitting whose PGN is gone (PGNs stay
outside the repository, and a machine is not always handed on with its files) still counts
through the pentanomial this script printed for it, given with --counts.

The LLR is the usual normal approximation (as fishtest and OpenBench use for the
pentanomial): pairs × (s1 − s0)(2μ − s0 − s1) / (2σ²), with μ and σ² the mean and
variance of a pair's score per game and s0, s1 the scores of the logistic Elo bounds.

Examples
  sprt.py --a tuned ../runs/check-s71.pgn ../runs/check-s72.pgn
  sprt.py --a new --sprt -5 0 ../runs/simplify.pgn
  sprt.py --a tuned --counts 6,57,93,54,5 ../runs/check-s73.pgn
"""
import argparse
import math
import re
import sys
from pathlib import Path

HEADER = re.compile(r'^\[(\w+) "([^"]*)"\]', re.MULTILINE)
SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def game_scores(text, a):
    """{round: A's score} of every finished game of a match.py PGN in which A played."""
    scores = {}
    for game in re.split(r"^(?=\[Event )", text, flags=re.MULTILINE):
        tags = dict(HEADER.findall(game))
        result = SCORE.get(tags.get("Result"))
        if result is None or "Round" not in tags or a not in (tags.get("White"), tags.get("Black")):
            continue
        scores[int(tags["Round"])] = result if tags["White"] == a else 1 - result
    return scores


def pentanomial(scores):
    """Counts of pairs scoring 0, ½, 1, 1½ and 2 for A (rounds 2k and 2k + 1)."""
    counts = [0] * 5
    for k in {r // 2 for r in scores}:
        if 2 * k in scores and 2 * k + 1 in scores:
            counts[round(2 * (scores[2 * k] + scores[2 * k + 1]))] += 1
    return counts


def counts_arg(text):
    """--counts: five non-negative integers, not all zero: the pairs scoring 0, ½, 1, 1½ and 2."""
    try:
        counts = [int(c) for c in text.split(",")]
    except ValueError:
        counts = []
    if len(counts) != 5 or min(counts) < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not five counts, as in 6,57,93,54,5")
    if sum(counts) == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is a sitting of no pairs")
    return counts


def logistic(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


class Pentanomial:
    """Mean and variance of a pair's score per game, from the five counts."""

    def __init__(self, counts):
        self.pairs = sum(counts)
        if self.pairs == 0:
            raise ValueError("no complete pair of games")
        values = [i / 4 for i in range(5)]
        self.mean = sum(c * v for c, v in zip(counts, values)) / self.pairs
        self.var = sum(c * (v - self.mean) ** 2 for c, v in zip(counts, values)) / self.pairs

    def elo(self):
        """(Elo, half-width of its 95 % interval)."""
        se = math.sqrt(self.var / self.pairs)
        return elo(self.mean), (elo(self.mean + 1.96 * se) - elo(self.mean - 1.96 * se)) / 2

    def llr(self, elo0, elo1):
        if self.var == 0:
            return 0.0
        s0, s1 = logistic(elo0), logistic(elo1)
        return self.pairs * (s1 - s0) * (2 * self.mean - s0 - s1) / (2 * self.var)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="*", type=Path, help="match.py PGNs, one per sitting")
    ap.add_argument("--counts", action="append", type=counts_arg, default=[], metavar="LL,LD,DD,WD,WW",
                    help="the pentanomial of a sitting known only by its counts (repeatable)")
    ap.add_argument("--a", required=True, help="name of the engine under test, as in the PGN (match.py's --a-name)")
    ap.add_argument("--sprt", nargs=2, type=float, default=(0.0, 5.0), metavar=("ELO0", "ELO1"))
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    args = ap.parse_args()
    if len({p.resolve() for p in args.pgn}) != len(args.pgn):
        ap.error("a PGN is given twice; its games would count twice")
    if not args.pgn and not args.counts:
        ap.error("nothing to count: give PGNs, --counts or both")
    sittings = list(args.counts)
    for path in args.pgn:
        try:
            scores = game_scores(path.read_text(), args.a)
        except OSError as e:
            ap.error(f"{path}: {e.strerror}")
        sittings.append(pentanomial(scores))
    counts = [sum(column) for column in zip(*sittings)]
    try:
        stats = Pentanomial(counts)
    except ValueError as e:
        ap.error(f"{e}: is {args.a!r} the name the PGNs give the engine under test?")
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    llr = stats.llr(*args.sprt)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else "running"
    value, margin = stats.elo()
    elo0, elo1 = args.sprt
    print(f"{args.a}: {2 * stats.pairs} games in {stats.pairs} pairs, "
          f"pentanomial {counts}, elo {value:+.1f} +- {margin:.1f}, "
          f"LLR [{elo0:g}, {elo1:g}] {llr:+.2f} ({lower:.2f}, {upper:.2f}) {verdict}")


if __name__ == "__main__":
    sys.exit(main())
