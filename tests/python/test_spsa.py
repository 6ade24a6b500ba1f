#!/usr/bin/env python3
"""Unit tests of scripts/spsa.py's arithmetic and bookkeeping, and of scripts/spsa_result.py
(no engine, no chess).

Run: python3 tests/python/test_spsa.py
"""
import importlib.util
import json
import re
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "spsa.py"
spec = importlib.util.spec_from_file_location("spsa", SCRIPT)
spsa = importlib.util.module_from_spec(spec)
spec.loader.exec_module(spsa)
result_spec = importlib.util.spec_from_file_location("spsa_result", SCRIPT.with_name("spsa_result.py"))
spsa_result = importlib.util.module_from_spec(result_spec)
result_spec.loader.exec_module(spsa_result)
PARAMS_RS = SCRIPT.parents[1] / "engine" / "src" / "params.rs"


def param(line="RFP_MARGIN, int, 75, 30, 150, 6, 0.002"):
    return spsa.Param.parse(line)


class Gains(unittest.TestCase):
    def test_the_last_pair_plays_at_c_end_and_learns_at_a_end(self):
        p = param()
        c_k, a_k = spsa.gains(p, 1000, 999)
        self.assertAlmostEqual(c_k, 6.0, places=9)
        self.assertAlmostEqual(a_k, 0.002 * 36, places=12)

    def test_the_first_pair_uses_the_largest_gains(self):
        p = param()
        c_0, a_0 = spsa.gains(p, 1000, 0)
        self.assertAlmostEqual(c_0, 6.0 * 1000**0.101, places=9)
        self.assertAlmostEqual(a_0, 0.072 * (1100 / 101) ** 0.602, places=12)


class Steps(unittest.TestCase):
    def test_perturbation_is_symmetric_rounded_and_clamped(self):
        params = [param(), param("SEE_QUIET_MARGIN, int, -60, -150, -10, 5, 0.002")]
        theta = {"RFP_MARGIN": 75.0, "SEE_QUIET_MARGIN": -12.0}
        deltas = {"RFP_MARGIN": 1, "SEE_QUIET_MARGIN": -1}
        plus, minus = spsa.perturbed(params, theta, deltas, 10, 9)  # c_k = c_end
        self.assertEqual(plus, {"RFP_MARGIN": 81, "SEE_QUIET_MARGIN": -17})
        self.assertEqual(minus, {"RFP_MARGIN": 69, "SEE_QUIET_MARGIN": -10})

    def test_a_win_for_plus_moves_theta_along_delta(self):
        params = [param(), param("NMP_DEPTH, int, 3, 1, 6, 0.5, 0.002")]
        theta = {"RFP_MARGIN": 75.0, "NMP_DEPTH": 3.0}
        deltas = {"RFP_MARGIN": -1, "NMP_DEPTH": 1}
        # At the last pair: a_k / c_k = r_end · c_end.
        new = spsa.updated(params, theta, deltas, 10, 9, score=3)
        self.assertAlmostEqual(new["RFP_MARGIN"], 75 - 3 * 0.002 * 6, places=9)
        self.assertAlmostEqual(new["NMP_DEPTH"], 3 + 3 * 0.002 * 0.5, places=9)
        self.assertEqual(spsa.updated(params, theta, deltas, 10, 9, score=0), theta)

    def test_theta_stays_in_range(self):
        p = param("X, int, 149, 30, 150, 6, 100")
        new = spsa.updated([p], {"X": 149.0}, {"X": 1}, 10, 9, score=4)
        self.assertEqual(new["X"], 150.0)

    def test_signs_repeat_for_a_resumed_iteration(self):
        params = [param(f"P{i}, int, 5, 0, 10, 1, 0.002") for i in range(32)]
        first = spsa.random_signs(params, 7, 12)
        self.assertEqual(first, spsa.random_signs(params, 7, 12))
        self.assertNotEqual(first, spsa.random_signs(params, 7, 13))
        self.assertEqual(set(first.values()), {-1, 1})


class Batches(unittest.TestCase):
    def test_a_batch_perturbs_from_one_theta_and_updates_in_order(self):
        params = [param(), param("NMP_DEPTH, int, 3, 1, 6, 0.5, 0.002")]
        setup = {"iterations": 10, "games_per_iter": 4, "seed": 3}
        theta = {"RFP_MARGIN": 75.0, "NMP_DEPTH": 3.0}
        results = {4: (3, 1, 0), 5: (0, 1, 3), 6: (2, 2, 0)}
        calls = []

        def match(args, plus, minus, seed, concurrency):
            k = next(k for k in results if seed == 3 * 1_000_003 + k)
            calls.append((k, plus, minus, concurrency))
            return results[k]

        class Args:
            concurrency = 7

        entries = spsa.play_batch(Args, params, setup, theta, 32, range(4, 7), match)
        # Each iteration of the batch played at the θ it started from, with its own Δ…
        for k, plus, minus, concurrency in calls:
            deltas = spsa.random_signs(params, 3, k)
            self.assertEqual((plus, minus), spsa.perturbed(params, theta, deltas, 20, 2 * k))
            self.assertEqual(concurrency, 2)
        # …and the updates follow one another in iteration order.
        expected, games = dict(theta), 32
        for entry, k in zip(entries, (4, 5, 6)):
            w, d, l = results[k]
            expected = spsa.updated(params, expected, spsa.random_signs(params, 3, k), 20, 2 * k, w - l)
            games += w + d + l
            self.assertEqual((entry["iteration"], entry["theta"], entry["games"]), (k, expected, games))


class Text(unittest.TestCase):
    def test_openbench_lines_round_trip(self):
        line = "SEE_QUIET_MARGIN, int, -60, -150, -10, 5, 0.002"
        self.assertEqual(param(line).line(), line)
        for bad in ("X, int, 5, 0, 10, 1", "X, bool, 5, 0, 10, 1, 0.002", "X, int, 11, 0, 10, 1, 0.002",
                    "X, int, 5, 0, 10, 0, 0.002"):
            with self.assertRaises(ValueError):
                spsa.Param.parse(bad)

    REPORT = ("Results of {} vs {} (20000 nodes, NULL, 16MB, UHO_4060_v4.epd):\n"
              "Elo: 0.00 +/- 0.00, nElo: 0.00 +/- 0.00\n"
              "LOS: 50.00 %, DrawRatio: 50.00 %, PairsRatio: 1.00\n"
              "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: 6.0 (50.00 %)\n"
              "Ptnml(0-2): [0, 1, 2, 1, 0], WL/DD Ratio: 1.00\n")

    def test_the_last_fastchess_report_counts(self):
        out = self.REPORT.format("plus", "minus", 10, 3, 3, 4) + self.REPORT.format("plus", "minus", 12, 5, 1, 6)
        self.assertEqual(spsa.parse_result("Started game 1 of 12\n" + out + "Tournament finished\n"), (5, 6, 1))
        with self.assertRaises(ValueError):
            spsa.parse_result("Traceback ...")

    def test_a_report_that_names_minus_first_counts_for_plus(self):
        self.assertEqual(spsa.parse_result(self.REPORT.format("minus", "plus", 12, 5, 1, 6)), (1, 6, 5))

    def test_the_fastchess_command_plays_plus_against_minus_from_the_openings(self):
        class Args:
            fastchess, engine, openings, nodes, tc, games_per_iter = "fc", "/e/cutoff", "/o/book.epd", 20000, None, 8
            adjudicate = True

        cmd = spsa.fastchess_command(Args, {"RFP_MARGIN": 81}, {"RFP_MARGIN": 69}, 7, 2)
        self.assertEqual(cmd[:9], ["fc", "-engine", "cmd=/e/cutoff", "name=plus", "option.RFP_MARGIN=81",
                                   "-engine", "cmd=/e/cutoff", "name=minus", "option.RFP_MARGIN=69"])
        tail = " ".join(cmd[9:])
        for part in ("nodes=20000", "file=/o/book.epd format=epd order=random", "-srand 7", "-rounds 4 -games 2 -repeat",
                     "-concurrency 2", "-resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20"):
            self.assertIn(part, tail)
        Args.tc = "5+0.05"
        self.assertIn("tc=5+0.05", spsa.fastchess_command(Args, {}, {}, 7, 2))
        Args.adjudicate = False
        tail = " ".join(spsa.fastchess_command(Args, {}, {}, 7, 2))
        self.assertNotIn("-resign", tail)
        self.assertNotIn("-draw", tail)

    def test_the_log_resumes_after_its_last_whole_line(self):
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / "log.jsonl"
            spsa.append(log, {"setup": {"iterations": 4}})
            spsa.append(log, {"iteration": 0, "theta": {"X": 5.5}, "games": 8})
            with open(log, "a") as f:
                f.write('{"iteration": 1, "the')  # killed mid-write
            setup, records = spsa.load_log(log)
            self.assertEqual(setup, {"iterations": 4})
            self.assertEqual([r["iteration"] for r in records], [0])
            lines = log.read_text().splitlines(keepends=True)
            self.assertEqual(len(lines), 2)
            self.assertTrue(lines[1].endswith("\n"))
            self.assertEqual(json.loads(lines[1])["games"], 8)

    def test_a_log_cut_to_its_last_line_resumes_at_the_same_point(self):
        records = [{"iteration": k, "theta": {"RFP_MARGIN": 75 + k}, "games": 8 * (k + 1)} for k in range(3)]
        self.assertEqual(spsa.resume_point([param()], []), ({"RFP_MARGIN": 75}, 0, 0))
        self.assertEqual(spsa.resume_point([param()], records), ({"RFP_MARGIN": 77}, 24, 3))
        self.assertEqual(spsa.resume_point([param()], records[-1:]), ({"RFP_MARGIN": 77}, 24, 3))

    def test_the_svg_has_one_line_per_parameter(self):
        svg = spsa.svg_lines({"A": [0.5, 0.6, 0.4], "B": [0.1, 0.2, 0.3]}, width=140, height=140, pad=20)
        self.assertTrue(svg.startswith("<svg "))
        self.assertEqual(svg.count("<polyline"), 2)
        self.assertIn('points="20.0,70.0 70.0,60.0 120.0,80.0"', svg)


class Result(unittest.TestCase):
    SNIPPET = ("    LMR_DEPTH: i32 = 3 (1..=6, c_end 0.5);\n"
               "    ROOT_LMR_DEPTH: i32 = 3 (1..=8, c_end 0.5);\n"
               "    SEE_QUIET_MARGIN: i32 = -60 (-150..=-10, c_end 5);\n")

    def test_the_last_theta_is_rounded(self):
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / "log.jsonl"
            spsa.append(log, {"setup": {"params": ["LMR_DEPTH, int, 3, 1, 6, 0.5, 0.002",
                                                   "SEE_QUIET_MARGIN, int, -60, -150, -10, 5, 0.002"]}})
            _, values, games = spsa_result.tuned(log)
            self.assertEqual((values, games), ({"LMR_DEPTH": 3, "SEE_QUIET_MARGIN": -60}, 0))
            spsa.append(log, {"iteration": 0, "theta": {"LMR_DEPTH": 3.6, "SEE_QUIET_MARGIN": -57.4}, "games": 8})
            _, values, games = spsa_result.tuned(log)
            self.assertEqual((values, games), ({"LMR_DEPTH": 4, "SEE_QUIET_MARGIN": -57}, 8))

    def test_baking_changes_only_the_named_defaults(self):
        text = spsa_result.baked(self.SNIPPET, {"LMR_DEPTH": 4, "SEE_QUIET_MARGIN": -45})
        self.assertEqual(text, self.SNIPPET.replace("= 3 (1..=6", "= 4 (1..=6").replace("-60 (", "-45 ("))

    def test_a_name_not_declared_once_bakes_nothing(self):
        for values in ({"NMP_DEPTH": 2}, {"LMR_DEPTH": 4, "X": 1}):
            with self.assertRaises(ValueError):
                spsa_result.baked(self.SNIPPET, values)
        with self.assertRaises(ValueError):
            spsa_result.baked(self.SNIPPET + self.SNIPPET, {"LMR_DEPTH": 4})

    def test_every_tunable_in_params_rs_bakes_in_place(self):
        text = PARAMS_RS.read_text()
        declared = dict(re.findall(r"^\s+([A-Z_]+): \w+ = (-?\d+) \(", text, re.MULTILINE))
        self.assertGreater(len(declared), 40)
        self.assertEqual(spsa_result.baked(text, {n: int(v) for n, v in declared.items()}), text)
        moved = spsa_result.baked(text, {n: int(v) + 1 for n, v in declared.items()})
        self.assertEqual(dict(re.findall(r"^\s+([A-Z_]+): \w+ = (-?\d+) \(", moved, re.MULTILINE)),
                         {n: str(int(v) + 1) for n, v in declared.items()})


if __name__ == "__main__":
    unittest.main()
