#!/usr/bin/env python3
"""Datagen's labels against labels python-chess derives from the same games.

Usage: check_labels.py path/to/cutoff

Cutoff plays a few short games with `datagen --pgn` from openings where one side is a rook
down, and `cutoff data to-text` prints the records. python-chess (pinned chess==1.11.2)
replays the PGN and derives each label on its own, from the rules and the board, not from
Cutoff's code:
- the score of a position, from White's side: the mover's score in the move's comment
  (fastchess's form), negated when python-chess says Black is to move;
- the result, from White's side: from the final position when a rule ended the game
  (checkmate, stalemate, insufficient material, fifty moves, repetition), otherwise from
  the adjudication rules of docs/data.md applied to those White-side scores;
- the sign a score must mostly have: that of the material balance, where a side is at
  least a minor piece up.
Every record must be a position of the games with the derived score and result, and the
PGN's Result tag must be the derived result. A sign taken from the wrong side, in the
records or in the scores themselves, fails here even if datagen's own PGN repeats it.

Prints one line per check ("ok: ..." or "FAIL: ...") and exits non-zero if any fails.
"""

import io
import subprocess
import sys
import tempfile
from pathlib import Path

import chess
import chess.pgn

from checks import check, summary

# One opening a rook down for each side, each the book of its own run, so that both signs
# of the material balance (and of most scores) appear; a tune may move the scores, not
# the material.
OPENINGS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq -",
    "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk -",
)
GAMES_EACH = 3
GAMES = GAMES_EACH * len(OPENINGS)
SEED = 3

# docs/data.md, "Games": won once 4 searches in a row score at least 1000 cp for the same
# side; drawn once 10 in a row score within 10 cp.
WIN_SCORE, WIN_PLIES = 1000, 4
DRAW_SCORE, DRAW_PLIES = 10, 10

PIECE_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
# A balance this large (pawns) should decide the sign of almost every score…
LOPSIDED = 3
# …of at least this share of the lopsided positions (a wrong sign gives the complement).
SIGN_AGREEMENT = 0.8
# And there must be this many of them for the share to mean something.
MIN_LOPSIDED = 20

RESULT_TEXT = {"1-0": "1.0", "1/2-1/2": "0.5", "0-1": "0.0"}

def run(args):
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        sys.exit(f"{' '.join(map(str, args))} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def material(board):
    """White's material minus Black's, in pawns."""
    return sum(
        value * (len(board.pieces(piece, chess.WHITE)) - len(board.pieces(piece, chess.BLACK)))
        for piece, value in PIECE_VALUES.items()
    )


def white_score(comment, board):
    """The comment's score (`+0.31/12, cutoff`: the mover's, in pawns) in centipawns from
    White's side, or None for a mate or tablebase score (`+M3`, `-M0`) or no comment."""
    score = comment.split("/")[0].strip()
    if not score or "M" in score:
        return None
    mover = round(float(score) * 100)
    return mover if board.turn == chess.WHITE else -mover


def derived_result(board, scores):
    """The game's result from its final position and its White-side scores in order."""
    outcome = board.outcome(claim_draw=True)
    if outcome is not None:
        return outcome.result()
    if board.is_repetition(2):
        return "1/2-1/2"
    last = scores[-WIN_PLIES:]
    if len(last) == WIN_PLIES and all(s >= WIN_SCORE for s in last):
        return "1-0"
    if len(last) == WIN_PLIES and all(s <= -WIN_SCORE for s in last):
        return "0-1"
    last = scores[-DRAW_PLIES:]
    if len(last) == DRAW_PLIES and all(abs(s) <= DRAW_SCORE for s in last):
        return "1/2-1/2"
    return None


def derive(pgn_text):
    """Every searched position's FEN with its (White-side score, result) pairs, and the
    material balance of each FEN."""
    labels, balance = {}, {}
    pgn = io.StringIO(pgn_text)
    games = 0
    while (game := chess.pgn.read_game(pgn)) is not None:
        games += 1
        board = game.board()
        searched = []
        scores = []
        for node in game.mainline():
            score = white_score(node.comment, board)
            if score is not None:
                fen = board.fen()
                searched.append((fen, score))
                scores.append(score)
                balance[fen] = material(board)
            board.push(node.move)
        result = derived_result(board, scores)
        check(
            f"game {games}: a rule or an adjudication ends it",
            result is not None,
            f"final position {board.fen()}, last scores {scores[-DRAW_PLIES:]}",
        )
        check(
            f"game {games}: the PGN's Result is the derived {result}",
            game.headers["Result"] == result,
            game.headers["Result"],
        )
        for fen, score in searched:
            labels.setdefault(fen, set()).add((score, RESULT_TEXT.get(result)))
    check(f"the PGN holds the {GAMES} games", games == GAMES, f"{games} games")
    return labels, balance


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cutoff = sys.argv[1]
    records = []
    with tempfile.TemporaryDirectory(prefix="cutoff-labels-") as tmp:
        tmp = Path(tmp)
        for i, opening in enumerate(OPENINGS):
            book, data, text = tmp / f"book{i}.epd", tmp / f"games{i}.bin", tmp / f"games{i}.txt"
            book.write_text(opening + "\n")
            run([
                cutoff, "datagen", "--output", data, "--pgn", tmp / "games.pgn",
                "--book", book, "--random-plies", "2", "--max-opening-score", "2000",
                "--nodes", "3000", "--games", str(GAMES_EACH), "--threads", "1",
                "--seed", str(SEED),
            ])
            run([cutoff, "data", "to-text", data, "--output", text])
            records += text.read_text().splitlines()
        pgn = (tmp / "games.pgn").read_text()
    labels, balance = derive(pgn)

    check("datagen kept records", len(records) >= 2 * GAMES, f"{len(records)} records")
    strays, wrong = [], []
    lopsided = agreeing = 0
    signs = set()
    for line in records:
        fen, score, result = line.split(" | ")
        score = int(score)
        if fen not in labels:
            strays.append(line)
            continue
        if (score, result) not in labels[fen]:
            wrong.append(f"{line} (derived: {sorted(labels[fen])})")
        if abs(balance[fen]) >= LOPSIDED:
            lopsided += 1
            signs.add(balance[fen] > 0)
            agreeing += (score > 0) == (balance[fen] > 0)
    check("every record is a searched position of the games", not strays, strays[:3])
    check("every record holds the derived score and result", not wrong, wrong[:3])
    check(
        f"at least {MIN_LOPSIDED} records a minor piece or more apart, for either side",
        lopsided >= MIN_LOPSIDED and signs == {True, False},
        f"{lopsided} records, White ahead in: {sorted(signs)}",
    )
    check(
        f"scores take the material's sign in {SIGN_AGREEMENT:.0%} of those",
        agreeing >= SIGN_AGREEMENT * max(lopsided, 1),
        f"{agreeing} of {lopsided}",
    )
    return summary(f"({len(records)} records)")


if __name__ == "__main__":
    sys.exit(main())
