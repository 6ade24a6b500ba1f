#!/usr/bin/env python3
"""Runs OpenBench's own client code against Cutoff (a development check; CI has no
OpenBench checkout and no time for its builds).

Usage: scripts/openbench_check.py <OpenBench checkout> [--work DIR] [--network FILE]
                                  [--book FILE] [--commit REV]

With a checkout of https://github.com/AndyGrant/OpenBench (its Client/ and OpenBench/
folders are imported, nothing of it is changed), in a work folder outside the repository:

1. builds the commit (default HEAD; uncommitted changes included when REV is HEAD) with
   `utils.prepare_engine`, the worker's own build: it unzips a GitHub-style zip of the
   source (`git archive`, handed over in place of the download), runs
   `utils.makefile_command` (`make -j EXE=<name> [EVALFILE=<abs path>]`) and finds the
   binary as a worker does, once without a network and once with EVALFILE (default: the
   network embedded before the current one, from git history);
2. runs `bench.run_benchmark` on both binaries, expecting the default build's bench to be
   what `determine_bench` (OpenBench/workloads/verify_workload.py) reads from the commit
   message, the other's to differ, and checks that the EVALFILE build's `eval` is the
   default build's with that network loaded as EvalFile;
3. runs `genfens.create_genfens_opening_book` on the default binary with an EPD book
   (--book, default ../shared/epd/openings/UHO_4060_v4.epd if present, else a small one),
   a Chess960 book (`small_FRC.epd`, Chess960 start positions) and a PGN book
   (`small.pgn`), and checks every opening with python-chess (in Chess960 mode for the
   FRC book: valid, castling rights kept);
4. loads openbench/Cutoff.json with OpenBench's own `load_engine_config`;
5. with --fastchess, builds the tuning build as a tune branch does (the Makefile's
   `SPSA ?= 0` set to 1, nothing else changed), checks that its bench is the same, and
   plays two games with fastchess from the engine options OpenBench's worker writes for an
   SPSA workload (`worker.MatchRunner.engine_settings`, every `cutoff spsa-params`
   parameter moved off its default), expecting no "doesn't have option" warning; the plain
   build, given the same options, must draw that warning.

Prints what each step did and PASS or FAIL; exits non-zero on failure. Needs what
OpenBench's client imports (Client/requirements.txt: requests, psutil, py-cpuinfo) and
python-chess (`pip install chess`).
"""

import argparse
import ast
import contextlib
import importlib.util
import io
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import types
import zipfile

import chess
import chess.pgn

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))
FAILURES = []


def check(condition, what):
    print(("  ok    " if condition else "  FAIL  ") + what)
    if not condition:
        FAILURES.append(what)


def git(*args, binary=False):
    out = subprocess.run(["git", "-C", ROOT, *args], check=True, capture_output=True).stdout
    return out if binary else out.decode().strip()


def tune_branch(zipped):
    """The source as a tune branch has it: the Makefile's SPSA default flipped."""
    src, out = zipfile.ZipFile(io.BytesIO(zipped)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "cutoff-src/Makefile":
                flipped = data.replace(b"SPSA ?= 0", b"SPSA ?= 1")
                assert flipped != data, "the Makefile has no SPSA ?= 0 line"
                data = flipped
            dst.writestr(item, data)
    return out.getvalue()


def spsa_games(worker, fastchess, binary, params):
    """fastchess output for two games of `binary` against itself with the options an SPSA
    workload gives the dev and base engines."""
    spsa = {name: {"dev": [value + step], "base": [value - step]}
            for name, value, step in params}
    config = types.SimpleNamespace(workload={"test": {
        "type": "SPSA", "syzygy_wdl": "DISABLED",
        "dev": {"options": "Threads=1 Hash=16", "engine": "Cutoff", "time_control": "N=2000"},
        "base": {"options": "Threads=1 Hash=16", "engine": "Cutoff", "time_control": "N=2000"},
    }, "spsa": spsa})
    command = os.path.basename(binary)
    flags = " ".join(worker.MatchRunner.engine_settings(config, command, branch, 1.0, 0)
                     for branch in ["dev", "base"])
    cmd = "%s -recover -rounds 1 -games 2 -concurrency 1 %s" % (fastchess, flags)
    return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=600).stdout


def source_zip(rev):
    """The source as GitHub's zipball gives it: one top folder holding the tree."""
    tree = rev
    if rev == "HEAD":
        tree = git("stash", "create") or "HEAD"
    data = git("archive", "--format=zip", "--prefix=cutoff-src/", tree, binary=True)
    return data, git("rev-parse", tree)


def previous_network(work):
    """The network embedded before the current one, from git history."""
    commits = git("log", "--format=%H", "--", "engine/nets/default.nnue").split()
    if len(commits) < 2:
        sys.exit("no earlier network in git history: pass --network")
    path = os.path.join(work, "Networks", "previous-%s.nnue" % commits[1][:8])
    with open(path, "wb") as f:
        f.write(git("show", "%s:engine/nets/default.nnue" % commits[1], binary=True))
    return path


def function_from(path, name, namespace):
    """A top-level function of an OpenBench server module that cannot be imported
    without Django: its source, compiled on its own."""
    with open(path) as f:
        tree = ast.parse(f.read())
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), namespace)
    return namespace[name]


def network_eval(binary, *commands):
    """The network's evaluation of the start position (`eval`'s `Network, …` lines) after
    the commands, sent as a UCI session."""
    out = subprocess.run([binary], input="\n".join([*commands, "eval", "quit", ""]),
                         capture_output=True, text=True, timeout=120).stdout
    return [line for line in out.splitlines() if line.startswith("Network,")]


def build(utils, zipped, net_path, rev_sha):
    """utils.prepare_engine, with the download answered by the zip."""
    fake = types.SimpleNamespace(content=zipped)
    real_get = utils.requests.get
    utils.requests.get = lambda *args, **kwargs: fake
    try:
        start = time.time()
        name = utils.prepare_engine("Cutoff", net_path, "dev", "zip", "",
                                    os.path.join("Engines", utils.engine_binary_name(
                                        "Cutoff", rev_sha, net_path)),
                                    False, "cargo")
        print("  built Engines/%s in %.0f s (make command: %s)" % (
            name, time.time() - start,
            " ".join(utils.makefile_command(net_path, ".", name, "cargo"))))
        return os.path.join("Engines", name)
    except utils.OpenBenchBuildFailedException as e:
        print(e.logs[-3000:])
        raise
    finally:
        utils.requests.get = real_get


def write_books(work, epd_book):
    books = os.path.join(work, "Books")
    rng = random.Random(960)
    frc = [chess.Board.from_chess960_pos(rng.randrange(960)).fen(shredder=True)
           for _ in range(40)]
    with open(os.path.join(books, "small_FRC.epd"), "w") as f:
        f.write("\n".join(frc) + "\n")
    # Short games as a PGN book holds them; each opening is the position after the moves.
    games = ["1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", "1. d4 d5 2. c4 e6 3. Nc3 Nf6",
             "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6", "1. c4 e5 2. Nc3 Nf6 3. g3 d5",
             "1. Nf3 d5 2. g3 Nf6 3. Bg2 c6 4. O-O Bg4", "1. e4 e6 2. d4 d5 3. Nd2 c5"]
    with open(os.path.join(books, "small.pgn"), "w") as f:
        for i, moves in enumerate(games):
            f.write('[Event "book"]\n[Round "%d"]\n[Result "*"]\n\n%s *\n\n' % (i + 1, moves))
    epd_name = "small.epd"
    if epd_book and os.path.exists(epd_book):
        epd_name = os.path.basename(epd_book)
        dest = os.path.join(books, epd_name)
        if not os.path.exists(dest):
            os.symlink(os.path.abspath(epd_book), dest)
    else:
        with open(os.path.join(books, epd_name), "w") as f:
            f.write("\n".join(chess.Board(chess.STARTING_FEN).fen() for _ in range(1)) + "\n")
    return epd_name


def genfens_run(genfens, binary, book, threads=2, per=16):
    out_path = "genfens-%s.epd" % os.path.basename(book)
    with open(out_path, "w") as fout:
        args = {"N": per, "book": book, "seeds": [random.randrange(2**31) for _ in range(threads)],
                "extra": "", "engine": binary, "threads": threads, "output": fout}
        start = time.time()
        with contextlib.redirect_stdout(io.StringIO()):
            genfens.create_genfens_opening_book(args)
        took = time.time() - start
    with open(out_path) as f:
        lines = [line.strip() for line in f if line.strip()]
    print("  genfens book %s: %d openings from %d processes in %.2f s" % (
        book, len(lines), threads, took))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("openbench", help="a checkout of OpenBench's repository")
    parser.add_argument("--work", help="work folder (default: a new temporary one)")
    parser.add_argument("--network", help="the network for the EVALFILE build")
    parser.add_argument("--book", default=os.path.join(
        ROOT, os.pardir, "shared", "epd", "openings", "UHO_4060_v4.epd"))
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--fastchess", help="a fastchess binary: also check an SPSA tune")
    args = parser.parse_args()

    openbench = os.path.abspath(args.openbench)
    sys.path.insert(0, os.path.join(openbench, "Client"))
    import bench
    import genfens
    import utils

    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="cutoff-openbench-"))
    for folder in ["Engines", "Networks", "Books"]:
        os.makedirs(os.path.join(work, folder), exist_ok=True)
    network = os.path.abspath(args.network) if args.network else previous_network(work)
    sha = git("rev-parse", args.commit)
    message = git("log", "-1", "--format=%B", sha)
    zipped, tree = source_zip(args.commit)
    # Both builds share one target folder, so that the second compiles only Cutoff itself.
    os.environ["CARGO_TARGET_DIR"] = os.path.join(work, "target")
    os.chdir(work)
    print("OpenBench %s, Cutoff %s, work folder %s" % (
        subprocess.run(["git", "-C", openbench, "rev-parse", "--short", "HEAD"],
                       capture_output=True, text=True).stdout.strip() or "(not a git checkout)",
        tree[:8], work))

    print("1. builds (utils.prepare_engine)")
    plain = build(utils, zipped, None, tree)
    netted = build(utils, zipped, os.path.relpath(network), tree)
    check(os.path.isfile(plain) and os.path.isfile(netted), "both binaries where a worker looks")

    print("2. bench (bench.run_benchmark) and the commit's bench (determine_bench)")
    determine_bench = function_from(
        os.path.join(openbench, "OpenBench", "workloads", "verify_workload.py"),
        "determine_bench", {"re": re})
    expected = determine_bench(types.SimpleNamespace(POST={}), "dev", message)
    speed, nodes = bench.run_benchmark(plain, 2, 1)
    print("  default network: bench %d at %d nps; the commit message says %s" % (
        nodes, speed, expected))
    check(nodes == expected, "the commit's Bench: is what its build prints")
    net_speed, net_nodes = bench.run_benchmark(netted, 2, 1)
    print("  EVALFILE=%s: bench %d at %d nps" % (os.path.basename(network), net_nodes, net_speed))
    check(net_nodes != nodes, "the EVALFILE build searches another tree")
    embedded_eval = network_eval(netted)
    loaded_eval = network_eval(plain, "setoption name EvalFile value %s" % network)
    check(embedded_eval != [] and embedded_eval == loaded_eval,
          "the EVALFILE build's eval is the default build's with that network loaded: %s"
          % embedded_eval[-1:])
    default_eval = network_eval(plain)
    check(default_eval != embedded_eval,
          "and differs from the default network's: %s" % default_eval[-1:])

    print("3. genfens (genfens.create_genfens_opening_book, 2 processes x 16)")
    epd_name = write_books(work, args.book)
    for book, chess960 in [(epd_name, False), ("small_FRC.epd", True), ("small.pgn", False)]:
        lines = genfens_run(genfens, plain, os.path.join("Books", book))
        boards = []
        for line in lines:
            board = chess.Board(chess960=chess960)
            board.set_epd(line)
            boards.append(board)
        check(len(lines) == 32, "%s: 32 openings" % book)
        check(all(b.is_valid() for b in boards),
              "%s: python-chess%s accepts every one" % (book, " in Chess960 mode" if chess960 else ""))
        if chess960:
            kept = [b for b in boards if b.castling_rights]
            check(len(kept) == len(boards) and all(
                b.clean_castling_rights() == b.castling_rights for b in kept),
                "%s: every opening keeps castling rights on its rooks (%d of %d), e.g. %s" % (
                    book, len(kept), len(boards), lines[0]))
            castles = sum(any(b.is_castling(m) for m in b.legal_moves) for b in boards)
            print("  %d of %d have a legal castling move already" % (castles, len(boards)))
        if book.endswith(".pgn"):
            check(all(b.fullmove_number >= 4 for b in boards),
                  "%s: every opening starts after its game's moves" % book)

    print("4. openbench/Cutoff.json (OpenBench/config.py load_engine_config)")
    site = types.ModuleType("OpenSite")
    settings = types.ModuleType("OpenSite.settings")
    settings.PROJECT_PATH = os.path.join(work, "instance")
    os.makedirs(os.path.join(settings.PROJECT_PATH, "Engines"), exist_ok=True)
    with open(os.path.join(ROOT, "openbench", "Cutoff.json")) as src, open(
            os.path.join(settings.PROJECT_PATH, "Engines", "Cutoff.json"), "w") as dst:
        dst.write(src.read())
    sys.modules["OpenSite"], sys.modules["OpenSite.settings"] = site, settings
    spec = importlib.util.spec_from_file_location(
        "openbench_config", os.path.join(openbench, "OpenBench", "config.py"))
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    try:
        conf = config.load_engine_config("Cutoff")
        presets = conf["test_presets"]
        check(all("Threads=" in p.get("both_options", "Threads=") and
                  "Hash=" in p.get("both_options", "Hash=") for p in presets.values()),
              "accepted; test presets %s set Threads and Hash" % ", ".join(presets))
    except SystemExit:
        check(False, "OpenBench refuses openbench/Cutoff.json")

    if args.fastchess:
        print("5. an SPSA tune (the tune branch's build, worker.MatchRunner.engine_settings, fastchess)")
        import worker
        tuned = build(utils, tune_branch(zipped), None, "5A5A" + tree)
        _, tuned_nodes = bench.run_benchmark(tuned, 1, 1)
        check(tuned_nodes == nodes, "the tuning build's bench is the plain build's (%d)" % tuned_nodes)
        lines = subprocess.run([tuned, "spsa-params"], capture_output=True, text=True).stdout
        params = []
        for line in lines.splitlines():
            name, _, value, low, high, c_end, _ = [f.strip() for f in line.split(",")]
            step = max(1, round(float(c_end)))
            value = min(max(int(value), int(low) + step), int(high) - step)
            params.append((name, value, step))
        out = spsa_games(worker, os.path.abspath(args.fastchess), tuned, params)
        missing = [line for line in out.splitlines() if "doesn't have option" in line]
        played = re.search(r"Games: (\d+)", out)
        check(played is not None and int(played.group(1)) == 2 and not missing,
              "the tuning build takes all %d parameters as options (%s games, %d warnings)" % (
                  len(params), played.group(1) if played else "no", len(missing)))
        out = spsa_games(worker, os.path.abspath(args.fastchess), plain, params)
        missing = [line for line in out.splitlines() if "doesn't have option" in line]
        check(len(missing) > 0, "the plain build lacks them (%d warnings, e.g. %s)" % (
            len(missing), missing[0].strip() if missing else "none"))

    print("PASS" if not FAILURES else "FAIL: %d check(s)" % len(FAILURES))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
