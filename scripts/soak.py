#!/usr/bin/env python3
"""Soak test: many fast games through match.py, counting every fault of Cutoff.

Usage: scripts/soak.py [--games 2000] [--engine target/release/cutoff]
                       [--reference "CMD" | --reference none] [--tc 1+0.01] [--out DIR]

Plays --games games (default 2000) at --tc (default 1+0.01) in four batches:
  self      40%  Cutoff against itself
  self-smp  10%  Cutoff with Threads 2 and MultiPV 3 against Cutoff
  ref       40%  Cutoff against the reference engine
  ref-smp   10%  Cutoff with Threads 2 and MultiPV 3 against the reference engine
Without a reference engine (none installed, or --reference none) the two self batches
take 80% and 20%. The default reference is Phalanx (xboard), when /usr/games/phalanx
exists (../shared/tools/reference-engines.sh installs it).

Counts, for Cutoff's side only (both sides in self-play):
  crashes      the engine exited or broke the protocol
  illegal      an illegal or missing move
  time losses  a move past the clock (match.py counts a move that hangs more than 5 s
               past the clock here too)
  stalls       a batch that did not finish within its wall-clock bound (a game that
               hung in a way match.py could not end), killed by this script
  batches without result  match.py ended without a summary (its log says why)
The reference engine's faults are shown but do not fail the soak. Exits 1 if Cutoff had
any fault, 2 on a usage or setup error. Every batch's log and PGN go to --out (a fresh
temporary folder by default); a batch's files are complete once its line is printed.
Needs python-chess (match.py's only dependency).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(REPO), "shared")
DEFAULT_MATCH = os.path.join(SHARED, "tools", "match.py")
DEFAULT_OPENINGS = os.path.join(SHARED, "epd", "openings", "8moves_v3.epd")
PHALANX = "/usr/games/phalanx"

# Options of the Cutoff side in the "-smp" batches. python-chess refuses to set MultiPV
# (it manages it per search), so that one is sent by a relay in front of the engine.
SMP_OPTIONS = ["Threads=2"]
SMP_SETOPTIONS = "setoption name MultiPV value 3"
# A game at 1+0.01 lasts a few seconds; a batch may take this long per game before it
# counts as stalled (generous: the machine may be loaded), plus a fixed allowance.
SECONDS_PER_GAME = 60
BATCH_SLACK_S = 120

SUMMARY = re.compile(
    r"A: timeouts (\d+) crashes (\d+) illegal (\d+)\s+B: timeouts (\d+) crashes (\d+) illegal (\d+)"
)


def parse_args():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=2000, help="games in all (default 2000)")
    ap.add_argument("--engine", default=os.path.join(REPO, "target", "release", "cutoff"))
    ap.add_argument("--reference", help='command of the reference engine, or "none"')
    ap.add_argument("--reference-proto", choices=["uci", "xboard"], default="xboard")
    ap.add_argument("--tc", default="1+0.01", help="time control BASE+INC (default 1+0.01)")
    ap.add_argument("--margin", type=float, default=20, help="ms of clock overrun tolerated")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--match", default=DEFAULT_MATCH, help="path of match.py")
    ap.add_argument("--openings", default=DEFAULT_OPENINGS)
    ap.add_argument("--out", help="folder for logs and PGNs (default: a new temporary one)")
    return ap.parse_args()


def fail_setup(message):
    print(f"soak: {message}", file=sys.stderr)
    sys.exit(2)


def reference(args):
    """(command, protocol) of the reference engine, or None."""
    if args.reference == "none":
        return None
    if args.reference:
        return args.reference, args.reference_proto
    if os.access(PHALANX, os.X_OK):
        return f"{PHALANX} -b- -l-", "xboard"
    return None


def batches(args, ref):
    """(label, games, Cutoff's options, opponent command, protocol, is_self) per batch."""
    engine = args.engine
    if ref:
        plan = [("self", 0.4, False), ("self-smp", 0.1, False), ("ref", 0.4, True), ("ref-smp", 0.1, True)]
    else:
        plan = [("self", 0.8, False), ("self-smp", 0.2, False)]
    out = []
    left = args.games
    for i, (label, share, vs_ref) in enumerate(plan):
        # Whole pairs (each opening is played with both colours); the last batch takes
        # what is left so the total is exact.
        games = left if i == len(plan) - 1 else 2 * round(args.games * share / 2)
        games = max(0, min(games, left))
        left -= games
        opts = SMP_OPTIONS if label.endswith("-smp") else []
        cmd, proto = ref if vs_ref else (shlex.quote(engine), "uci")
        out.append((label, games, opts, cmd, proto, not vs_ref))
    return [b for b in out if b[1] > 0]


def with_setoptions(engine, line):
    """A command that runs `engine` behind this script's relay, which sends `line` ahead of
    everything match.py sends (see `relay`)."""
    return shlex.join([sys.executable, os.path.abspath(__file__), "--relay", line, engine])


def relay(line, engine):
    """Runs `engine` with its output going straight to ours, sends it `line`, then copies
    our input to it line by line. Exits the moment the engine exits, with its status, so
    that match.py sees a crash or a quit exactly as it would without the relay."""
    import threading

    proc = subprocess.Popen([engine], stdin=subprocess.PIPE)

    def watch():
        os._exit(proc.wait() & 0xFF)

    threading.Thread(target=watch, daemon=True).start()
    try:
        proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()
        for text in sys.stdin.buffer:
            proc.stdin.write(text)
            proc.stdin.flush()
        proc.stdin.close()
    except BrokenPipeError:
        pass
    os._exit(proc.wait() & 0xFF)


def run_batch(args, out_dir, label, games, opts, cmd, proto):
    """Runs one match; returns (summary line or None, seconds, stalled)."""
    log = os.path.join(out_dir, f"{label}.log")
    pgn = os.path.join(out_dir, f"{label}.pgn")
    smp = label.endswith("-smp")
    engine = with_setoptions(args.engine, SMP_SETOPTIONS) if smp else shlex.quote(args.engine)
    argv = [sys.executable, args.match, "--a", engine, "--a-name", f"cutoff-{label}",
            "--b", cmd, "--b-proto", proto, "--tc", args.tc, "--games", str(games),
            "--margin", str(args.margin), "--concurrency", str(args.concurrency),
            "--openings", args.openings, "--quiet", "--pgn", pgn]
    for o in opts:
        argv += ["--a-opt", o]
    bound = games * SECONDS_PER_GAME + BATCH_SLACK_S
    start = time.monotonic()
    stalled = False
    with open(log, "w") as f:
        # A new session, so that a stalled batch is killed with its engines.
        proc = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            proc.wait(timeout=bound)
        except subprocess.TimeoutExpired:
            stalled = True
            os.killpg(proc.pid, 9)
            proc.wait()
    seconds = time.monotonic() - start
    with open(log) as f:
        lines = [l.strip() for l in f if SUMMARY.search(l)]
    return (lines[-1] if lines else None), seconds, stalled


def main():
    if sys.argv[1:2] == ["--relay"] and len(sys.argv) == 4:
        relay(sys.argv[2], sys.argv[3])
    args = parse_args()
    if args.games < 2:
        fail_setup("--games must be at least 2")
    for path, what in [(args.engine, "engine"), (args.match, "match.py"), (args.openings, "openings")]:
        if not os.path.isfile(path):
            fail_setup(f"{what} not found: {path}")
    ref = reference(args)
    if ref and not shutil.which(shlex.split(ref[0])[0]):
        fail_setup(f"reference engine not found: {ref[0]}")
    out_dir = args.out or tempfile.mkdtemp(prefix="cutoff-soak-")
    os.makedirs(out_dir, exist_ok=True)
    print(f"soak: {args.games} games at {args.tc}, reference: {ref[0] if ref else 'none'}; logs in {out_dir}")

    totals = {"crashes": 0, "illegal": 0, "time losses": 0, "stalls": 0, "batches without result": 0}
    ref_faults = 0
    for label, games, opts, cmd, proto, is_self in batches(args, ref):
        summary, seconds, stalled = run_batch(args, out_dir, label, games, opts, cmd, proto)
        if stalled:
            totals["stalls"] += 1
        m = SUMMARY.search(summary or "")
        if not m:
            # No summary at all: match.py itself failed (its log says why), so nothing
            # can be vouched for.
            totals["batches without result"] += 1
            print(f"{label:9} {games:5} games  {seconds:7.0f} s  no result (see {label}.log)")
            continue
        a_time, a_crash, a_illegal, b_time, b_crash, b_illegal = map(int, m.groups())
        if is_self:
            a_time, a_crash, a_illegal = a_time + b_time, a_crash + b_crash, a_illegal + b_illegal
        else:
            ref_faults += b_time + b_crash + b_illegal
        totals["time losses"] += a_time
        totals["crashes"] += a_crash
        totals["illegal"] += a_illegal
        note = "  STALLED, killed" if stalled else ""
        print(f"{label:9} {games:5} games  {seconds:7.0f} s  {summary}{note}", flush=True)

    faults = sum(totals.values())
    counts = "  ".join(f"{k} {v}" for k, v in totals.items())
    print(f"soak: Cutoff faults: {counts}  (reference engine faults: {ref_faults})")
    print("soak: PASS" if faults == 0 else "soak: FAIL")
    sys.exit(0 if faults == 0 else 1)


if __name__ == "__main__":
    main()
