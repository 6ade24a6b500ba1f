#!/usr/bin/env python3
"""Measures how fast Cutoff answers the UCI commands that must not wait for a search.

Usage: scripts/latency.py [path/to/cutoff] [--reps N] [--threads T]

Over N repetitions (default 20) each, it measures:
  isready -> readyok      in the middle of a `go infinite` search
  stop    -> bestmove     after `go infinite` has run 300 ms
  quit    -> exit         in the middle of a `go infinite` search (a fresh engine each time)
  go movetime 500 -> bestmove, the whole search
and prints the median and maximum of each, in milliseconds. Standard library only; times
are taken when the reader thread receives a line, so the script's own work is not counted.
"""

import argparse
import os
import queue
import statistics
import subprocess
import sys
import threading
import time

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"
TIMEOUT = 20.0


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        """Sends a line; returns the time just before the write. A time taken after it
        could come later than the reply's arrival, if the reader thread runs first."""
        sent = time.perf_counter()
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        return sent

    def until(self, prefix, timeout=TIMEOUT):
        """Waits for a line starting with prefix; returns (arrival time, line)."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no {prefix!r} within {timeout} s")
            try:
                at, line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError("the engine closed its output")
            if line.startswith("info string error"):
                raise RuntimeError(f"engine error: {line}")
            if line.startswith(prefix):
                return at, line

    def sync(self):
        self.send("isready")
        self.until("readyok")

    def go(self, command):
        """Starts a search and returns the send time; a refusal is an error."""
        sent = self.send(command)
        self._pending = self._first_line()
        return sent

    def _first_line(self):
        at, line = self.lines.get(timeout=TIMEOUT)
        if line is None:
            raise SystemExit("the engine closed its output")
        if line.startswith("info string error"):
            raise RuntimeError(line)
        return at, line

    def bestmove_after(self):
        """Arrival time of the bestmove of the search started by go()."""
        at, line = self._pending
        if line.startswith("bestmove"):
            return at
        return self.until("bestmove")[0]

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def ms(seconds):
    return seconds * 1000.0


def summary(name, samples):
    samples = sorted(samples)
    return (
        f"{name:<34} n={len(samples):<3} median {statistics.median(samples):8.2f} ms"
        f"   max {samples[-1]:8.2f} ms   min {samples[0]:8.2f} ms"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument(
        "engine",
        nargs="?",
        default=os.path.join(here, "..", "target", "release", "cutoff"),
    )
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1, help="search threads (UCI Threads)")
    args = parser.parse_args()

    isready, stop, quit_, movetime = [], [], [], []

    e = Engine(args.engine)
    e.send("uci")
    e.until("uciok")
    e.send(f"setoption name Threads value {args.threads}")
    e.send(f"position fen {MIDDLEGAME}")
    e.sync()
    for _ in range(args.reps):
        start = e.go("go infinite")
        time.sleep(0.15)
        sent = e.send("isready")
        at, _ = e.until("readyok")
        isready.append(ms(at - sent))
        time.sleep(max(0.0, 0.3 - (time.perf_counter() - start)))
        sent = e.send("stop")
        at = e.bestmove_after()
        stop.append(ms(at - sent))
    for _ in range(args.reps):
        time.sleep(0.02)
        sent = e.go("go movetime 500")
        at = e.bestmove_after()
        movetime.append(ms(at - sent))
    e.close()

    for _ in range(args.reps):
        q = Engine(args.engine)
        q.send(f"setoption name Threads value {args.threads}")
        q.send(f"position fen {MIDDLEGAME}")
        q.go("go infinite")
        time.sleep(0.3)
        sent = q.send("quit")
        q.proc.wait(timeout=TIMEOUT)
        quit_.append(ms(time.perf_counter() - sent))

    print(f"engine: {os.path.abspath(args.engine)}, Threads {args.threads}")
    print(summary("isready -> readyok (mid-search)", isready))
    print(summary("stop -> bestmove (after 300 ms)", stop))
    print(summary("quit -> exit (mid-search)", quit_))
    print(summary("go movetime 500 -> bestmove", movetime))
    return 0


if __name__ == "__main__":
    sys.exit(main())
