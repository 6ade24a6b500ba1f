#!/usr/bin/env python3
"""Unit tests of scripts/sprt.py: pairs read from match.py PGNs, the pentanomial, the LLR.

Run: python3 tests/python/test_sprt.py
"""
import importlib.util
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "sprt.py"
spec = importlib.util.spec_from_file_location("sprt", SCRIPT)
sprt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sprt)


def game(round_no, white, black, result):
    """One game as match.py writes it (headers, a blank line, the moves)."""
    return (f'[Event "match"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "{round_no}"]\n'
            f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n1. e4 e5 {result}\n\n')


# Pairs for "new" against "old": 2 (won both), 1 (won as white, lost as black),
# 1½ (won, drew) and ½ (drew, lost); finished in a shuffled order, as with concurrency.
SITTING = (game(2, "new", "old", "1-0") + game(0, "new", "old", "1-0")
           + game(1, "old", "new", "0-1") + game(3, "old", "new", "1-0")
           + game(5, "old", "new", "1/2-1/2") + game(4, "new", "old", "1-0")
           + game(6, "new", "old", "1/2-1/2") + game(7, "old", "new", "1-0"))


class Pairs(unittest.TestCase):
    def test_each_pair_is_scored_for_the_engine_under_test(self):
        scores = sprt.game_scores(SITTING, "new")
        self.assertEqual(scores, {0: 1.0, 1: 1.0, 2: 1.0, 3: 0.0, 4: 1.0, 5: 0.5, 6: 0.5, 7: 0.0})
        self.assertEqual(sprt.pentanomial(scores), [0, 1, 1, 1, 1])
        self.assertEqual(sprt.pentanomial(sprt.game_scores(SITTING, "old")), [1, 1, 1, 1, 0])

    def test_a_game_cut_off_by_a_kill_drops_its_pair(self):
        cut = SITTING + game(8, "new", "old", "1-0") + '[Event "match"]\n[Round "9"]\n[White "old"]\n'
        self.assertEqual(sprt.pentanomial(sprt.game_scores(cut, "new")), [0, 1, 1, 1, 1])
        unfinished = SITTING + game(8, "new", "old", "1-0") + game(9, "old", "new", "*")
        self.assertEqual(sprt.pentanomial(sprt.game_scores(unfinished, "new")), [0, 1, 1, 1, 1])

    def test_games_without_the_engine_under_test_are_not_counted(self):
        self.assertEqual(sprt.game_scores(SITTING, "other"), {})


class Statistics(unittest.TestCase):
    def test_an_even_match_reads_zero_elo_and_a_small_negative_llr(self):
        stats = sprt.Pentanomial([1, 0, 2, 0, 1])
        self.assertEqual((stats.mean, stats.var), (0.5, 0.125))
        self.assertEqual(stats.elo()[0], 0.0)
        # 4 pairs × (s1 − s0)(−(s1 − s0)) / (2 × 0.125), s1 − s0 = 0.0071950817…
        self.assertAlmostEqual(stats.llr(0, 5), -0.0008283072127988082, places=15)

    def test_a_winning_match_reads_a_positive_llr(self):
        stats = sprt.Pentanomial([0, 1, 1, 2, 0])
        self.assertEqual((stats.mean, stats.var), (0.5625, 0.04296875))
        self.assertAlmostEqual(stats.llr(0, 5), 0.03945267259724777, places=15)
        self.assertAlmostEqual(stats.elo()[0], 43.66, places=2)

    def test_no_pair_is_an_error(self):
        with self.assertRaises(ValueError):
            sprt.Pentanomial([0, 0, 0, 0, 0])


class CommandLine(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)

    def test_sittings_are_added_and_their_rounds_kept_apart(self):
        with tempfile.TemporaryDirectory() as tmp:
            first, second = Path(tmp, "s1.pgn"), Path(tmp, "s2.pgn")
            first.write_text(SITTING)
            second.write_text(game(0, "old", "new", "1/2-1/2") + game(1, "new", "old", "1/2-1/2"))
            done = self.run_script("--a", "new", str(first), str(second))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertRegex(done.stdout, r"^new: 10 games in 5 pairs, pentanomial \[0, 1, 2, 1, 1\], "
                                          r"elo \+\d+\.\d \+- \d+\.\d, LLR \[0, 5\] \+\d\.\d\d "
                                          r"\(-2\.94, 2\.94\) running\n$")

    def test_a_sitting_known_by_its_counts_adds_to_the_pgns(self):
        with tempfile.TemporaryDirectory() as tmp:
            pgn = Path(tmp, "s1.pgn")
            pgn.write_text(SITTING)
            done = self.run_script("--a", "new", "--counts", "1,0,1,0,0", "--counts", "0,0,0,0,2", str(pgn))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("16 games in 8 pairs, pentanomial [1, 1, 2, 1, 3]", done.stdout)
        alone = self.run_script("--a", "new", "--counts", "6,57,93,54,5")
        self.assertEqual(alone.returncode, 0, alone.stderr)
        self.assertIn("430 games in 215 pairs, pentanomial [6, 57, 93, 54, 5], elo -4.0 +- 19.7, "
                      "LLR [0, 5] -0.32", alone.stdout)

    def test_counts_that_are_not_five_negative_or_empty_are_refused(self):
        for bad in ("6,57,93,54", "6,57,93,54,5,1", "6,57,x,54,5", "6,-1,93,54,5"):
            done = self.run_script("--a", "new", "--counts", bad)
            self.assertEqual(done.returncode, 2, bad)
            self.assertIn("is not five counts", done.stderr)
        empty = self.run_script("--a", "new", "--counts", "0,0,0,0,0")
        self.assertEqual(empty.returncode, 2)
        self.assertIn("is a sitting of no pairs", empty.stderr)
        nothing = self.run_script("--a", "new")
        self.assertEqual(nothing.returncode, 2)
        self.assertIn("nothing to count", nothing.stderr)

    def test_a_file_given_twice_or_missing_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            pgn = Path(tmp, "s1.pgn")
            pgn.write_text(SITTING)
            twice = self.run_script("--a", "new", str(pgn), str(pgn))
            self.assertEqual(twice.returncode, 2)
            self.assertIn("given twice", twice.stderr)
            missing = self.run_script("--a", "new", str(Path(tmp, "none.pgn")))
            self.assertEqual(missing.returncode, 2)
            self.assertIn("No such file", missing.stderr)
            misnamed = self.run_script("--a", "neww", str(pgn))
            self.assertEqual(misnamed.returncode, 2)
            self.assertIn("no complete pair", misnamed.stderr)


if __name__ == "__main__":
    unittest.main()
