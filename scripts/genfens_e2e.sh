#!/usr/bin/env bash
# End-to-end check of the OpenBench DATAGEN path with a real fastchess (CI has none):
#   cutoff "genfens 40 seed 7 book None" quit     -> an EPD opening file
#   fastchess, cutoff vs cutoff at a node limit     -> a PGN with score comments
#   cutoff data from-pgn, then cutoff data to-text  -> FEN | score | result lines
# then python-chess checks every FEN, the sign of the scores against the results, and
# re-derives the records from the PGN on its own (datagen's filter) to compare line by line.
#
# Usage: scripts/genfens_e2e.sh   (prints PASS or FAIL; exits non-zero on failure)
#
# fastchess: $FASTCHESS (a binary) if set; otherwise $FASTCHESS_BUILD (default
# ../fastchess-build, outside the repository) is used, built there with `make -j2` if it
# holds no binary yet. Its source comes from $FASTCHESS_SRC (a source tree, or a git
# directory such as a bare mirror: its HEAD is exported) or, when unset, from
# `git clone https://github.com/Disservin/fastchess` (needs the network).
#
# Other knobs: GAMES (20), NODES (5000, datagen's default budget), CONCURRENCY (2),
# E2E_DIR (target/genfens-e2e, the work folder), CUTOFF (default: cargo build --release).
# The python checks need python-chess; if `import chess` fails, chess==1.11.2 is
# installed into a venv under target/.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GAMES=${GAMES:-20}
NODES=${NODES:-5000}
CONCURRENCY=${CONCURRENCY:-2}
WORK=${E2E_DIR:-$ROOT/target/genfens-e2e}
START=$SECONDS

stage() { echo "== [$((SECONDS - START)) s] $*"; }
fail() {
    echo "FAIL: $*"
    exit 1
}

# --- the engine -------------------------------------------------------------------
if [[ -z ${CUTOFF:-} ]]; then
    stage "cargo build --release"
    (cd "$ROOT" && cargo build --release --quiet)
    CUTOFF=$ROOT/target/release/cutoff
fi
[[ -x $CUTOFF ]] || fail "no cutoff binary at $CUTOFF"
CUTOFF=$(cd "$(dirname "$CUTOFF")" && pwd)/$(basename "$CUTOFF")

# --- fastchess --------------------------------------------------------------------
if [[ -n ${FASTCHESS:-} ]]; then
    [[ -x $FASTCHESS ]] || fail "FASTCHESS=$FASTCHESS is not an executable"
    FASTCHESS_COMMIT=${FASTCHESS_COMMIT:-unknown}
else
    BUILD=${FASTCHESS_BUILD:-$ROOT/../fastchess-build}
    if [[ ! -f $BUILD/Makefile ]]; then
        mkdir -p "$BUILD"
        if [[ -n ${FASTCHESS_SRC:-} ]] && git --git-dir="$FASTCHESS_SRC" rev-parse -q --verify HEAD >/dev/null 2>&1; then
            stage "exporting fastchess from $FASTCHESS_SRC"
            git --git-dir="$FASTCHESS_SRC" archive HEAD | tar -x -C "$BUILD"
            git --git-dir="$FASTCHESS_SRC" rev-parse HEAD >"$BUILD/COMMIT"
        elif [[ -n ${FASTCHESS_SRC:-} ]]; then
            [[ -f $FASTCHESS_SRC/Makefile ]] || fail "FASTCHESS_SRC=$FASTCHESS_SRC holds no fastchess source"
            stage "copying fastchess from $FASTCHESS_SRC"
            cp -a "$FASTCHESS_SRC/." "$BUILD/"
            git -C "$FASTCHESS_SRC" rev-parse HEAD >"$BUILD/COMMIT" 2>/dev/null || true
        else
            stage "cloning fastchess"
            git clone --quiet --depth 1 https://github.com/Disservin/fastchess "$BUILD"
            git -C "$BUILD" rev-parse HEAD >"$BUILD/COMMIT"
        fi
    fi
    FASTCHESS=$BUILD/fastchess
    if [[ ! -x $FASTCHESS ]]; then
        stage "building fastchess in $BUILD (a few minutes)"
        make -C "$BUILD" -j2 >"$BUILD/build.log" 2>&1 || fail "fastchess build failed, see $BUILD/build.log"
    fi
    FASTCHESS_COMMIT=$(cat "$BUILD/COMMIT" 2>/dev/null || git -C "$BUILD" rev-parse HEAD 2>/dev/null || echo unknown)
fi
echo "fastchess: $FASTCHESS (commit $FASTCHESS_COMMIT)"
echo "cutoff:    $CUTOFF ($(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?'))"

# --- python-chess -----------------------------------------------------------------
PYTHON=python3
if ! "$PYTHON" -c 'import chess' 2>/dev/null; then
    VENV=$ROOT/target/e2e-venv
    if [[ ! -x $VENV/bin/python ]]; then
        stage "installing python-chess into $VENV"
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install --quiet chess==1.11.2
    fi
    PYTHON=$VENV/bin/python
fi

rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

# --- 1. genfens -> EPD openings ---------------------------------------------------
stage "genfens"
"$CUTOFF" "genfens 40 seed 7 book None" quit >"$WORK/genfens.out"
sed -n 's/^info string genfens //p' "$WORK/genfens.out" >"$WORK/openings.epd"
OPENINGS=$(wc -l <"$WORK/openings.epd")
[[ $OPENINGS -eq 40 ]] || fail "genfens gave $OPENINGS openings, expected 40"

# --- 2. fastchess games -----------------------------------------------------------
# -repeat plays each opening with both colours. The PGN keeps fastchess's full comments
# (`{+0.31/12 0.050s, n=5012, sd=14, nps=…}`, `{book}`), the extra fields included, so
# the reader meets what OpenBench workers send back. Adjudication keeps the games short,
# as datagen's does. It runs in the work folder, where it leaves its config.json.
stage "fastchess: $GAMES games, $NODES nodes a move, concurrency $CONCURRENCY"
cd "$WORK"
"$FASTCHESS" \
    -engine cmd="$CUTOFF" name=cutoff-a \
    -engine cmd="$CUTOFF" name=cutoff-b \
    -each proto=uci nodes="$NODES" option.Hash=16 option.Threads=1 \
    -openings file="$WORK/openings.epd" format=epd order=random -srand 7 \
    -rounds $((GAMES / 2)) -repeat -concurrency "$CONCURRENCY" \
    -resign movecount=3 score=1000 -draw movenumber=40 movecount=8 score=10 -maxmoves 200 \
    -pgnout file="$WORK/games.pgn" notation=san nodes=true seldepth=true nps=true append=false \
    >"$WORK/fastchess.log" 2>&1 || fail "fastchess failed, see $WORK/fastchess.log"
PLAYED=$(grep -c '^\[Result ' "$WORK/games.pgn" || true)
[[ $PLAYED -eq $GAMES ]] || fail "the PGN holds $PLAYED games, expected $GAMES"
grep -E '^(Games|Total Time):' "$WORK/fastchess.log" || true
# fastchess takes a move's score from the last `info … pv` line; where the engine's
# bestmove is not that PV's first move, the comment's score belongs to another move.
echo "moves whose bestmove is not the last PV's first move: $(grep -c 'Bestmove does not match' "$WORK/fastchess.log" || true)"

# --- 3. conversion ----------------------------------------------------------------
stage "cutoff data from-pgn / to-text"
"$CUTOFF" data from-pgn "$WORK/games.pgn" --output "$WORK/games.bin"
"$CUTOFF" data to-text "$WORK/games.bin" --output "$WORK/games.txt"

# --- 4. python-chess checks -------------------------------------------------------
stage "python-chess checks"
"$PYTHON" - "$WORK/games.pgn" "$WORK/games.txt" <<'PY' || fail "python-chess checks (see above); files in $WORK"
import math
import re
import sys

import chess
import chess.pgn

pgn_path, text_path = sys.argv[1:]
failures = []

# The converted records: every FEN valid, some positions, scores that agree with results.
def valid(fen):
    try:
        return chess.Board(fen).is_valid()
    except ValueError:
        return False


with open(text_path) as f:
    lines = [line.rstrip("\n") for line in f]
records = []
for line in lines:
    fen, score, result = line.split(" | ")
    records.append((fen, int(score), float(result)))
invalid = [fen for fen, _, _ in records if not valid(fen)]
print(f"records: {len(records)}, FENs python-chess rejects: {len(invalid)}")
if invalid:
    failures.append(f"{len(invalid)} invalid FENs, first: {invalid[0]}")
if not records:
    failures.append("no positions")

# Sign agreement and Pearson correlation of White's score with White's result.
decided = [(s, r) for _, s, r in records if r != 0.5 and s != 0]
agree = sum((s > 0) == (r > 0.5) for s, r in decided)
if decided:
    print(f"score sign agrees with the result in {agree}/{len(decided)} positions of decided games "
          f"({100 * agree / len(decided):.1f} %)")
scores = [s for _, s, _ in records]
results = [r for _, _, r in records]
n = len(records)
if n > 1:
    ms, mr = sum(scores) / n, sum(results) / n
    cov = sum((s - ms) * (r - mr) for s, r in zip(scores, results))
    vs = sum((s - ms) ** 2 for s in scores)
    vr = sum((r - mr) ** 2 for r in results)
    corr = cov / math.sqrt(vs * vr) if vs > 0 and vr > 0 else float("nan")
    print(f"correlation(score, result) = {corr:.3f}")
    # A sign flip anywhere in the chain would make this negative.
    if not corr > 0.2:
        failures.append(f"score/result correlation {corr:.3f} is not clearly positive")

# An independent reading of the PGN with datagen's rule: the position before each move
# whose comment starts with a centipawn score, from the 9th scored move of the game on,
# side to move not in check, the move neither a capture nor a promotion; mate scores
# count as scored moves but are not kept, and neither are tablebase-range scores.
CP = re.compile(r"^[+-]?\d+(\.\d+)?$")
MATE = re.compile(r"^[+-]?[M#]\d+$")
SKIPPED = 8
DECISIVE = (31_743, 32_000)  # TB_WIN_BOUND..=MATE in engine/src/score.rs
RESULTS = {"1-0": "1.0", "1/2-1/2": "0.5", "0-1": "0.0"}
expected = []
games = 0
with open(pgn_path) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        games += 1
        result = RESULTS.get(game.headers.get("Result"))
        if result is None:
            continue
        board = game.board()
        scored = 0
        for node in game.mainline():
            words = node.comment.split()
            token = words[0].split("/")[0].rstrip(",") if words else ""
            if CP.match(token):
                cp = round(float(token) * 100)
                if (scored >= SKIPPED and not board.is_check() and not board.is_capture(node.move)
                        and node.move.promotion is None and not DECISIVE[0] <= abs(cp) <= DECISIVE[1]):
                    white = cp if board.turn == chess.WHITE else -cp
                    white = max(-32768, min(32767, white))
                    expected.append(f"{board.fen()} | {white} | {result}")
                scored += 1
            elif MATE.match(token):
                scored += 1
            board.push(node.move)
got = lines
print(f"python-chess over {games} games: {len(expected)} positions; cutoff data from-pgn: {len(got)}")
if len(expected) != len(got):
    failures.append(f"record count {len(got)} != independent count {len(expected)}")
else:
    differ = [(a, b) for a, b in zip(got, expected) if a != b]
    print(f"records that differ from the independent reading: {len(differ)}")
    if differ:
        failures.append(f"{len(differ)} records differ, first: {differ[0][0]!r} vs {differ[0][1]!r}")

for failure in failures:
    print(f"check failed: {failure}")
sys.exit(1 if failures else 0)
PY
echo "PASS ($GAMES games, $((SECONDS - START)) s; files in $WORK)"
