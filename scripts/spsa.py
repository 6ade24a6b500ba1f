#!/usr/bin/env python3
"""Tune Cutoff's search constants by SPSA, locally, with fastchess playing the games.

Each iteration perturbs every constant by ±c_k at once (a random sign per constant), plays
a small match of the tuning binary against itself, θ+cΔ against θ−cΔ, and moves θ along
Δ by a_k · (wins − losses) / c_k. The gains follow OpenBench's SPSA, so a parameter's
c_end and r_end mean here what they mean there: counting one game pair as one OpenBench
iteration, N pairs in all and j pairs played so far,

    c_k = c / (j+1)^γ,   c = c_end · N^γ                    (γ = 0.101)
    a_k = a / (A+j+1)^α, a = r_end · c_end² · (A+N)^α       (α = 0.602, A = N / 10)

so that the last pair is played at ±c_end and learns at a_end = r_end · c_end².

The tuning binary is `cargo build --release --features spsa`; its search constants
are UCI spin options, and `cutoff spsa-params` lists them as OpenBench input lines
(`name, int, value, min, max, c_end, r_end`), the form --params reads too.

Every iteration is appended to --log as one JSON line (θ after the update, the two
engines' values, the result, the game count); a run with the same --log resumes after
its last complete iteration. After each iteration --plot is redrawn: each parameter's
path, normalised to its range. --batch K plays K iterations at once from the same θ and
applies their updates in order, so that a run planned for 8 games an iteration on 2 cores
can go on at concurrency 16 on a larger machine with the same gains (a killed batch is
replayed whole).

Each iteration's games are one fastchess run (--fastchess, default `fastchess` on the
PATH; docs/testing.md says how to build it) in a temporary folder, so its autosaved state
goes nowhere; --openings names the opening book (an EPD file), drawn in random order from
a seed that follows from --seed and the iteration.

Examples (build the engine with `cargo build --release --features spsa
--target-dir target/spsa`)
  cutoff spsa-params | grep -v '^TIME_' > search.spsa     # time management needs a clock
  spsa.py --engine target/spsa/release/cutoff --params search.spsa --nodes 20000 \
      --openings UHO_4060_v4.epd --iterations 2500 --games-per-iter 8 \
      --concurrency 2                                       # 20,000 games on 2 cores
  (the same, resumed on 16 cores: --concurrency 16 --batch 2)
  spsa.py --engine target/spsa/release/cutoff --openings UHO_4060_v4.epd --tc 5+0.05 \
      --concurrency 15 --games-per-iter 30 --iterations 700  # everything, under a clock
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ALPHA = 0.602
GAMMA = 0.101
# A = A_RATIO · N, OpenBench's default: the step shrinks little over the first tenth.
A_RATIO = 0.1

# Games decided or drawn beyond doubt end early, as in the SPRTs of docs/testing.md (and in
# OpenBench's tunes): three moves in a row at 6 pawns or more for one side, or from move 34
# eight moves within 0.2 pawns of a draw. The moves cut teach the tune little, and an hour
# plays more games.
ADJUDICATION = ["-resign", "movecount=3", "score=600", "-draw", "movenumber=34", "movecount=8", "score=20"]

# fastchess's head-to-head report: a header naming the two engines, then the totals.
HEADER = re.compile(r"^Results of (\S+) vs (\S+) ", re.MULTILINE)
TOTALS = re.compile(r"Games: \d+, Wins: (\d+), Losses: (\d+), Draws: (\d+)")


class Param:
    """One tunable: an OpenBench SPSA input line."""

    def __init__(self, name, value, lo, hi, c_end, r_end):
        self.name, self.value, self.min, self.max = name, float(value), float(lo), float(hi)
        self.c_end, self.r_end = float(c_end), float(r_end)

    @classmethod
    def parse(cls, line):
        """'NAME, int, value, min, max, c_end, r_end' -> Param."""
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] not in ("int", "float"):
            raise ValueError(f"not an OpenBench SPSA line: {line!r}")
        p = cls(fields[0], *map(float, fields[2:]))
        if not (p.min <= p.value <= p.max) or p.c_end <= 0 or p.r_end <= 0:
            raise ValueError(f"bad range or step in: {line!r}")
        return p

    def line(self):
        return f"{self.name}, int, {self.value:g}, {self.min:g}, {self.max:g}, {self.c_end:g}, {self.r_end:g}"

    def clamp(self, x):
        return min(self.max, max(self.min, x))


def gains(p, pairs_total, j):
    """(c_k, a_k) of parameter p for game pair j of pairs_total (0-based)."""
    big_a = A_RATIO * pairs_total
    c = p.c_end * pairs_total**GAMMA
    a = p.r_end * p.c_end**2 * (big_a + pairs_total) ** ALPHA
    return c / (j + 1) ** GAMMA, a / (big_a + j + 1) ** ALPHA


def perturbed(params, theta, deltas, pairs_total, j):
    """The two engines' integer values: round(θ ± c_k·Δ), within range."""
    plus, minus = {}, {}
    for p in params:
        c_k, _ = gains(p, pairs_total, j)
        step = c_k * deltas[p.name]
        plus[p.name] = round(p.clamp(theta[p.name] + step))
        minus[p.name] = round(p.clamp(theta[p.name] - step))
    return plus, minus


def updated(params, theta, deltas, pairs_total, j, score):
    """θ after a match that θ+cΔ won by `score` = wins − losses (OpenBench's update)."""
    new = {}
    for p in params:
        c_k, a_k = gains(p, pairs_total, j)
        new[p.name] = p.clamp(theta[p.name] + a_k * score / c_k * deltas[p.name])
    return new


def random_signs(params, seed, iteration):
    """Δ for an iteration: ±1 per parameter, the same on a resumed run."""
    rng = random.Random(f"{seed}:{iteration}")
    return {p.name: rng.choice((-1, 1)) for p in params}


def parse_result(text):
    """(wins, draws, losses) of `plus` from fastchess's last head-to-head report."""
    headers = list(HEADER.finditer(text))
    totals = TOTALS.search(text, headers[-1].end()) if headers else None
    if totals is None:
        raise ValueError("no result in fastchess's output")
    wins, losses, draws = (int(x) for x in totals.groups())
    if headers[-1].group(1) == "minus":
        wins, losses = losses, wins
    return wins, draws, losses


def load_log(path):
    """(setup, iterations) from a JSON-lines log. A torn last line (a run killed while
    writing) is cut off the file, so that the next iteration starts a line of its own."""
    setup, records, whole = None, [], 0
    if not path.exists():
        return setup, records
    with open(path, "rb") as f:
        for line in f:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                break
            if not line.endswith(b"\n"):
                break
            whole += len(line)
            if setup is None:
                setup = entry["setup"]
            else:
                records.append(entry)
    if whole < path.stat().st_size:
        with open(path, "r+b") as f:
            f.truncate(whole)
    return setup, records


def append(path, entry):
    with open(path, "a") as f:
        f.write(json.dumps(entry) + "\n")
        f.flush()
        os.fsync(f.fileno())


def resume_point(params, records):
    """(θ, games played, next iteration) of a run from its log's records. The last record
    alone carries the run on, so a log cut down to its setup line and last line (small
    enough to keep in a note) resumes where the run stopped."""
    if not records:
        return {p.name: p.value for p in params}, 0, 0
    last = records[-1]
    return last["theta"], last["games"], last["iteration"] + 1


def fastchess_command(args, plus, minus, seed, concurrency):
    """The fastchess command line of one iteration: `plus` against `minus`, each opening
    played with both colours."""
    engine = str(Path(args.engine).resolve())
    cmd = [args.fastchess]
    for name, values in (("plus", plus), ("minus", minus)):
        cmd += ["-engine", f"cmd={engine}", f"name={name}"]
        cmd += [f"option.{n}={v}" for n, v in values.items()]
    limit = f"nodes={args.nodes}" if args.tc is None else f"tc={args.tc}"
    cmd += ["-each", "proto=uci", limit, "option.Hash=16",
            "-openings", f"file={Path(args.openings).resolve()}", "format=epd", "order=random",
            "-srand", str(seed), "-rounds", str(args.games_per_iter // 2), "-games", "2", "-repeat",
            "-concurrency", str(concurrency)]
    if args.adjudicate:
        cmd += ADJUDICATION
    return cmd


def run_match(args, plus, minus, seed, concurrency):
    with tempfile.TemporaryDirectory(prefix="spsa-") as folder:
        cmd = fastchess_command(args, plus, minus, seed, concurrency)
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=folder)
    if done.returncode != 0:
        sys.exit(f"spsa: fastchess failed ({done.returncode}):\n{(done.stdout + done.stderr)[-2000:]}")
    try:
        return parse_result(done.stdout)
    except ValueError as e:
        sys.exit(f"spsa: {e}:\n{done.stdout[-2000:]}")


def plot(path, params, records):
    """Each parameter's path, as a share of its range, against iterations (SVG)."""
    series = {p.name: [(p.value - p.min) / (p.max - p.min)] for p in params}
    for r in records:
        for p in params:
            series[p.name].append((r["theta"][p.name] - p.min) / (p.max - p.min))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        path.write_text(svg_lines(series))
        return
    fig, ax = plt.subplots(figsize=(10, 6))
    for name, ys in series.items():
        ax.plot(range(len(ys)), ys, linewidth=0.8, label=name)
    ax.set(xlabel="iteration", ylabel="(θ − min) / (max − min)", ylim=(0, 1))
    ax.legend(fontsize=5, ncol=3, loc="upper left", bbox_to_anchor=(1, 1))
    fig.tight_layout()
    fig.savefig(path, format="svg")
    plt.close(fig)


def svg_lines(series, width=900, height=500, pad=40):
    """A bare SVG line chart of {name: [y in 0..1]}, one colour per series, named on hover."""
    longest = max(len(ys) for ys in series.values())
    sx = (width - 2 * pad) / max(1, longest - 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-size="11">',
           f'<rect x="{pad}" y="{pad}" width="{width - 2 * pad}" height="{height - 2 * pad}" fill="none" stroke="#888"/>',
           f'<text x="{pad}" y="{pad - 8}">θ normalised to each range (0 = min, 1 = max) over {longest - 1} iterations</text>']
    for i, (name, ys) in enumerate(series.items()):
        colour = f"hsl({i * 360 // len(series)},70%,40%)"
        points = " ".join(f"{pad + k * sx:.1f},{height - pad - y * (height - 2 * pad):.1f}" for k, y in enumerate(ys))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1" points="{points}"><title>{name}</title></polyline>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def engine_params(engine):
    done = subprocess.run([engine, "spsa-params"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"spsa: '{engine} spsa-params' failed:\n{done.stderr}")
    return done.stdout.splitlines()


def play_batch(args, params, setup, theta, games, batch, match):
    """Plays the iterations in `batch` at once, every one perturbed from the same θ (as
    OpenBench's workers play from the θ they were handed), splitting --concurrency
    between them; then applies their updates in order. Returns their log entries."""
    pairs_per_iter = setup["games_per_iter"] // 2
    pairs_total = setup["iterations"] * pairs_per_iter
    jobs = []
    for k in batch:
        deltas = random_signs(params, setup["seed"], k)
        plus, minus = perturbed(params, theta, deltas, pairs_total, k * pairs_per_iter)
        jobs.append((k, deltas, plus, minus))
    each = max(1, args.concurrency // len(jobs))
    with ThreadPoolExecutor(len(jobs)) as pool:
        results = list(pool.map(lambda job: match(args, job[2], job[3], setup["seed"] * 1_000_003 + job[0], each),
                                jobs))
    entries = []
    for (k, deltas, plus, minus), (w, d, l) in zip(jobs, results):
        theta = updated(params, theta, deltas, pairs_total, k * pairs_per_iter, w - l)
        games += w + d + l
        entries.append({"iteration": k, "theta": theta, "plus": plus, "minus": minus, "delta": deltas,
                        "result": [w, d, l], "games": games})
    return entries


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="a tuning build (--features spsa)")
    ap.add_argument("--params", type=Path, help="OpenBench SPSA lines to tune (default: all of `ENGINE spsa-params`)")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--games-per-iter", type=int, help="games per iteration, even (default: 2 × concurrency)")
    limit = ap.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int, default=10000, help="nodes per move (default 10000)")
    limit.add_argument("--tc", help="BASE+INC seconds instead of fixed nodes (leave a core free)")
    ap.add_argument("--concurrency", type=int, default=os.cpu_count(), help="games at once (default: all cores)")
    ap.add_argument("--batch", type=int, default=1,
                    help="iterations played at once from the same θ, sharing --concurrency (default 1): "
                         "keeps many cores busy when an iteration has fewer games than cores")
    ap.add_argument("--openings", type=Path, required=True,
                    help="an EPD opening book (fixed-node games from one position repeat)")
    ap.add_argument("--seed", type=int, default=1, help="Δ and the openings follow from it")
    ap.add_argument("--log", type=Path, default=Path("spsa.jsonl"))
    ap.add_argument("--plot", type=Path, default=Path("spsa.svg"))
    ap.add_argument("--fastchess", default="fastchess", help="the fastchess binary (default: on the PATH)")
    ap.add_argument("--no-adjudication", dest="adjudicate", action="store_false",
                    help="play every game to its end (default: the SPRTs' resign and draw adjudication)")
    args = ap.parse_args(argv)
    args.games_per_iter = args.games_per_iter or 2 * args.concurrency
    if args.games_per_iter < 2 or args.games_per_iter % 2 or min(args.iterations, args.concurrency, args.batch) < 1:
        ap.error("--games-per-iter must be even and ≥ 2; --iterations, --concurrency and --batch ≥ 1")
    if not args.openings.exists():
        ap.error(f"no openings at {args.openings}")

    setup, records = load_log(args.log)
    if setup is None:
        lines = args.params.read_text().splitlines() if args.params else engine_params(args.engine)
        params = [Param.parse(line) for line in lines if line.strip() and not line.startswith("#")]
        setup = {"iterations": args.iterations, "games_per_iter": args.games_per_iter, "seed": args.seed,
                 "limit": f"nodes {args.nodes}" if args.tc is None else f"tc {args.tc}",
                 "params": [p.line() for p in params]}
        append(args.log, {"setup": setup})
    else:
        # The gains depend on the planned length and batch: a resumed run keeps them.
        for key in ("iterations", "games_per_iter", "seed"):
            if setup[key] != getattr(args, key):
                sys.exit(f"spsa: {args.log} was started with --{key.replace('_', '-')} {setup[key]}")
        params = [Param.parse(line) for line in setup["params"]]
    theta, games, k = resume_point(params, records)
    print(f"spsa: {len(params)} parameters, {setup['iterations']} iterations of {setup['games_per_iter']} games "
          f"at {setup['limit']}, from iteration {k}", flush=True)

    while k < setup["iterations"]:
        batch = range(k, min(k + args.batch, setup["iterations"]))
        entries = play_batch(args, params, setup, theta, games, batch, run_match)
        for entry in entries:
            append(args.log, entry)
            records.append(entry)
            w, d, l = entry["result"]
            print(f"iteration {entry['iteration'] + 1}/{setup['iterations']}: plus +{w} ={d} -{l}, "
                  f"{entry['games']} games", flush=True)
        theta, games, k = entries[-1]["theta"], entries[-1]["games"], batch.stop
        plot(args.plot, params, records)

    print("θ after the tune (name, value, default):")
    for p in params:
        print(f"{p.name}, {round(theta[p.name])}, {p.value:g}")


if __name__ == "__main__":
    main()
