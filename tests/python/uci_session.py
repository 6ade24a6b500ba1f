#!/usr/bin/env python3
"""A real UCI client (python-chess, pinned chess==1.11.2) driving Cutoff.

Usage: uci_session.py path/to/cutoff

Prints one line per check ("ok: ..." or "FAIL: ...") and exits non-zero if any check
fails. A watchdog ends the session (and fails it) if it runs for more than 55 seconds,
since python-chess waits without a timeout for searches limited by depth or mate.
"""

import logging
import os
import subprocess
import sys
import threading
import time

import chess
import chess.engine

from checks import check, summary

DEADLINE_SECONDS = 55.0

MATE_IN_TWO = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"
# Chess960: king g1, rooks b1 and h1; both castlings are legal (g1h1 and g1b1).
CHESS960 = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1"


# Every "info string error" line the engine sends unasked (bad input is sent only inside
# expecting_errors()).
engine_errors = []
# The error lines sent while bad input was expected.
expected_errors = []
expecting = {"on": False}


class ErrorWatch(logging.Handler):
    """Sees every line python-chess reads from the engine (logged at DEBUG level)."""

    def emit(self, record):
        message = record.getMessage()
        if ">> info string error" in message:
            line = message.split(">> ", 1)[1]
            if expecting["on"]:
                expected_errors.append(line)
            else:
                engine_errors.append((time.monotonic(), line))


def play_expecting_errors(engine, board, limit, **kwargs):
    """engine.play(...) for a command the engine must answer with errors and a move:
    returns the result and the error lines it sent."""
    expected_errors.clear()
    expecting["on"] = True
    try:
        result = engine.play(board, limit, **kwargs)
        engine.ping()
    finally:
        expecting["on"] = False
    return result, list(expected_errors)


def pv_is_legal(board, pv):
    b = board.copy()
    for move in pv:
        if move not in b.legal_moves:
            return False
        b.push(move)
    return True


def watchdog(engine_holder, start):
    while True:
        time.sleep(0.5)
        now = time.monotonic()
        stuck = engine_errors and now - engine_errors[0][0] > 3.0
        if stuck:
            print(f"FAIL: the engine refused a command: {engine_errors[0][1]}", flush=True)
        if now - start > DEADLINE_SECONDS:
            print(f"FAIL: session took more than {DEADLINE_SECONDS:.0f} s", flush=True)
        if stuck or now - start > DEADLINE_SECONDS:
            engine = engine_holder.get("engine")
            if engine is not None:
                try:
                    engine.protocol.transport.kill()
                except Exception:
                    pass
            os._exit(1)


def check_pondering(engine):
    """play(..., ponder=True) for a few plies; the next play either hits or stops the ponder."""
    board = chess.Board()
    ok = True
    for ply in range(6):
        result = engine.play(board, chess.engine.Limit(time=0.15), ponder=True)
        if result.move not in board.legal_moves:
            ok = check(f"ponder ply {ply + 1}: legal move", False, result.move)
            break
        board.push(result.move)
        # The replies below are not chosen to be good: the engine may mate them in a few plies.
        if board.is_game_over():
            break
        if result.ponder is not None:
            if result.ponder not in board.legal_moves:
                ok = check(f"ponder ply {ply + 1}: legal ponder move", False, result.ponder)
                break
            # Half the time the opponent plays the expected move (ponderhit), else not.
            reply = result.ponder if ply % 2 == 0 else next(
                (m for m in board.legal_moves if m != result.ponder), result.ponder
            )
        else:
            reply = next(iter(board.legal_moves))
        time.sleep(0.1)
        board.push(reply)
        if board.is_game_over():
            break
    engine.ping()
    if ok:
        check("ponder: play with ponder=True, ponderhit and ponder misses", True)


def check_every_go_answered(engine):
    """Root moves that are no legal moves are reported and left out: a move all the same."""
    board = chess.Board()
    for root_moves, bad in [
        ([chess.Move.from_uci("e2e5")], ["e2e5"]),
        # python-chess sends `searchmoves 0000` for an empty list.
        ([], ["0000"]),
        ([chess.Move.from_uci("e7e5"), chess.Move.from_uci("g1f3")], ["e7e5"]),
    ]:
        result, errors = play_expecting_errors(
            engine, board, chess.engine.Limit(depth=2), root_moves=root_moves
        )
        wanted = [
            f"info string error: go searchmoves {m}: illegal move '{m}' in {board.fen()}; ignored"
            for m in bad
        ]
        legal = [m for m in root_moves if m in board.legal_moves] or list(board.legal_moves)
        check(
            f"searchmoves {' '.join(m.uci() for m in root_moves) or '(none)'}: errors, legal move",
            errors == wanted and result.move in legal,
            (errors, result.move),
        )


def check_last_line_is_the_move(engine):
    """However a search ends, its last pv starts with the move played, then the ponder move."""
    bad = []
    for fen in [chess.STARTING_FEN, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"]:
        board = chess.Board(fen)
        for nodes in list(range(1, 30)) + list(range(100, 20000, 1999)):
            result = engine.play(board, chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_ALL)
            pv = result.info.get("pv", [])
            shown = (pv[0] if pv else None, pv[1] if len(pv) > 1 else None)
            if shown != (result.move, result.ponder):
                bad.append((fen, nodes, [m.uci() for m in pv], result.move, result.ponder))
    check("go nodes N: the last pv starts with bestmove, then ponder", not bad, bad[:3])


def run(path, holder):
    engine = chess.engine.SimpleEngine.popen_uci(path, timeout=10.0)
    holder["engine"] = engine

    # Identification and options: the name carries what `cutoff --version` says.
    name = engine.id.get("name", "")
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=True)
    version = version.stdout.strip().removeprefix("cutoff ")
    check("id name is Cutoff and the --version text", name == f"Cutoff {version}", name)
    check("id author present", bool(engine.id.get("author")), engine.id)
    declared = {k.lower(): v for k, v in engine.options.items()}
    for option, kind, default in [
        ("Hash", "spin", 16),
        ("Threads", "spin", 1),
        ("MultiPV", "spin", 1),
        ("Move Overhead", "spin", 10),
        ("Ponder", "check", False),
        ("UCI_Chess960", "check", False),
        ("UCI_ShowWDL", "check", False),
        ("Clear Hash", "button", None),
    ]:
        o = declared.get(option.lower())
        check(
            f"option {option} declared as {kind}",
            o is not None and o.type == kind and (default is None or o.default == default),
            o,
        )
    engine.configure({"Hash": 32, "Threads": 1, "Move Overhead": 30})
    engine.ping()
    check("configure Hash/Threads/Move Overhead, then isready", True)

    # Analyse the initial position.
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(depth=8))
    check("analyse depth 8: score present", "score" in info, info)
    check("analyse depth 8: depth reached", info.get("depth") == 8, info.get("depth"))
    pv = info.get("pv", [])
    check("analyse depth 8: pv present and legal", bool(pv) and pv_is_legal(board, pv), pv)

    # A game of ten plies at 0.2 s per move.
    board = chess.Board()
    engine.configure({"Clear Hash": None})
    ok = True
    for ply in range(10):
        started = time.monotonic()
        result = engine.play(board, chess.engine.Limit(time=0.2))
        took = time.monotonic() - started
        if result.move is None or result.move not in board.legal_moves:
            ok = check(f"play ply {ply + 1}: legal move", False, result.move)
            break
        if took > 1.0:
            ok = check(f"play ply {ply + 1}: move within 1 s", False, f"{took:.2f} s")
            break
        board.push(result.move)
    if ok:
        check("play 10 plies at 0.2 s: every move legal and in time", True)
    print(f"   game: {board.fen()}", flush=True)

    # Mate in two.
    board = chess.Board(MATE_IN_TWO)
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    score = info.get("score")
    check(
        "mate in 2: score is Mate(2)",
        score is not None and score.relative == chess.engine.Mate(2),
        score,
    )
    result = engine.play(board, chess.engine.Limit(mate=2))
    legal = result.move in board.legal_moves
    check("mate in 2: move legal", legal, result.move)
    if legal:
        after = board.copy()
        after.push(result.move)
        replies = list(after.legal_moves)
        forced = bool(replies) and all(mates_in_one(reply_board(after, r)) for r in replies)
        check("mate in 2: every reply allows mate in one", forced, result.move)

    # MultiPV 3 through analysis().
    board = chess.Board()
    with engine.analysis(board, chess.engine.Limit(depth=8), multipv=3) as analysis:
        analysis.wait()
        lines = analysis.multipv
    firsts = [line["pv"][0] for line in lines if line.get("pv")]
    check("analysis multipv=3: three lines", len(lines) == 3, len(lines))
    check("analysis multipv=3: distinct first moves", len(set(firsts)) == 3, firsts)
    check(
        "analysis multipv=3: pvs legal",
        all(pv_is_legal(board, line.get("pv", [])) for line in lines),
    )
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    check("analyse multipv=3: three lines", len(infos) == 3, len(infos))

    # Pondering: play with ponder=True; the next play either hits or stops the ponder.
    check_pondering(engine)

    check_every_go_answered(engine)
    check_last_line_is_the_move(engine)

    # Chess960: python-chess sets UCI_Chess960 itself for a chess960 board.
    board = chess.Board(CHESS960, chess960=True)
    castles = {board.uci(m, chess960=True) for m in board.generate_castling_moves()}
    check("chess960: castling moves available", castles == {"g1h1", "g1b1"}, castles)
    result = engine.play(board, chess.engine.Limit(depth=6))
    check("chess960: engine move legal", result.move in board.legal_moves, result.move)
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    check(
        "chess960: pv legal",
        bool(info.get("pv")) and pv_is_legal(board, info["pv"]),
        info.get("pv"),
    )
    # A castling move in Chess960 notation, given by position moves.
    board.push(board.parse_uci("g1h1"))
    result = engine.play(board, chess.engine.Limit(depth=4))
    check("chess960: reply after king-takes-rook castling legal", result.move in board.legal_moves)

    engine.quit()
    check("quit", True)


def reply_board(board, move):
    b = board.copy()
    b.push(move)
    return b


def mates_in_one(board):
    return any(reply_board(board, m).is_checkmate() for m in board.legal_moves)


def main():
    args = sys.argv[1:]
    if len(args) != 1:
        print("usage: uci_session.py path/to/cutoff", file=sys.stderr)
        return 2
    # python-chess logs every line exchanged at DEBUG level, and lines it cannot parse as
    # errors. Watch all of them; print those at UCI_LOG level (default ERROR) and above.
    log = logging.getLogger("chess.engine")
    log.setLevel(logging.DEBUG)
    log.propagate = False
    log.addHandler(ErrorWatch())
    printer = logging.StreamHandler(sys.stdout)
    printer.setLevel(getattr(logging, os.environ.get("UCI_LOG", "ERROR")))
    printer.setFormatter(logging.Formatter("   log: %(levelname)s %(message)s"))
    log.addHandler(printer)
    start = time.monotonic()
    holder = {}
    threading.Thread(target=watchdog, args=(holder, start), daemon=True).start()
    try:
        run(args[0], holder)
    except Exception as e:
        check("session ran without exception", False, f"{type(e).__name__}: {e}")
        engine = holder.get("engine")
        if engine is not None:
            try:
                engine.close()
            except Exception:
                pass
    check("no 'info string error' from the engine", not engine_errors, engine_errors)
    elapsed = time.monotonic() - start
    return summary(f"in {elapsed:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
