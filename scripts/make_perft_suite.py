#!/usr/bin/env python3
"""Builds epd/perft.epd: positions from seeded random games, perft counts computed by
Cutoff (`cutoff perft`) and checked against python-chess, an independent move generator.

    python3 scripts/make_perft_suite.py target/release/cutoff > epd/perft.epd

Needs python-chess (pip install chess). Stops with an error on any disagreement.
"""
import random
import subprocess
import sys

import chess

SEED = 20261122
GAMES = 60
DEPTH = 4


def python_chess_perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def cutoff_perft(engine, fen, depth, chess960):
    args = [engine, "perft", str(depth), "--fen", fen, "--threads", "1"]
    if chess960:
        args.append("--chess960")
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("Nodes searched:"))
    return int(line.split(":")[1])


def positions(rng):
    """One position from the middle of each random game; every fourth game is Chess960."""
    for game in range(GAMES):
        chess960 = game % 4 == 3
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        board.chess960 = chess960
        plies = rng.randrange(6, 60)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            # Prefer captures, castling and promotions now and then so that the special
            # moves are well represented.
            special = [m for m in moves if board.is_capture(m) or board.is_castling(m) or m.promotion]
            board.push(rng.choice(special if special and rng.random() < 0.3 else moves))
        if board.is_game_over():
            continue
        fen = board.shredder_fen() if chess960 else board.fen()
        yield fen, chess960, board.copy()


def main():
    engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/cutoff"
    rng = random.Random(SEED)
    seen = set()
    for fen, chess960, board in positions(rng):
        if fen in seen:
            continue
        seen.add(fen)
        counts = []
        for depth in range(1, DEPTH + 1):
            ours = cutoff_perft(engine, fen, depth, chess960)
            theirs = python_chess_perft(board, depth)
            if ours != theirs:
                sys.exit(f"disagreement at {fen} depth {depth}: cutoff {ours}, python-chess {theirs}")
            counts.append(f"D{depth} {ours}")
        variant = "; variant chess960" if chess960 else ""
        print(f"{' '.join(fen.split()[:4])} ;{' ;'.join(counts)}{variant}")


if __name__ == "__main__":
    main()
