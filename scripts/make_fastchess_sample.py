# Writes tests/data/fastchess-sample.pgn (in fastchess's PGN form) and the labels an
# independent reader (python-chess) derives from it with datagen's rule.
import chess, chess.pgn, io
games = [
  # (start fen or None, result, [(san, comment or None)])
  (None, "1-0", [("e4","book"),("e5","book")] + [(m, c) for m, c in [
     ("Nf3","+0.31/10, 0.050s"),("Nc6","-0.25/10, 0.049s"),("Bb5","+0.35/11, 0.051s"),("a6","-0.30/10, 0.047s"),
     ("Bxc6","+0.20/10, 0.044s"),("dxc6","-0.18/11, 0.052s"),("O-O","+0.28/10, 0.050s"),("f6","-0.34/9, 0.040s"),
     ("d4","+0.45/11, 0.060s"),("exd4","-0.40/10, 0.055s"),("Nxd4","+0.52/10, 0.048s"),("c5","-0.61/10, 0.050s"),
     ("Nb3","+0.70/11, 0.052s"),("Qxd1","-0.66/12, 0.051s"),("Rxd1","+0.72/12, 0.049s"),("Bd6","-0.80/11, 0.050s"),
     ("Na5","+0.95/10, 0.050s"),("b5","-1.10/10, 0.050s"),("c4","+1.20/10, 0.050s"),("Ne7","-1.35/10, 0.050s"),
  ]]),
  ("6k1/5ppp/8/8/8/8/r4PPP/1R4K1 b - - 0 30", "0-1", [
     ("Kf8","+0.10/14, 0.050s"),("Kf1","-0.05/14, 0.050s"),("Ke7","+0.12/14, 0.050s"),("Ke1","-0.08/14, 0.050s"),
     ("Kd6","+0.15/14, 0.050s"),("Kd1","-0.10/14, 0.050s"),("Kc5","+0.22/14, 0.050s"),("Kc1","-0.20/14, 0.050s"),
     ("Rxf2","+1.40/15, 0.050s"),("h3","-1.45/14, 0.050s"),("Rxg2","+1.90/15, 0.050s"),("Rb7","-1.85/14, 0.050s"),
     ("Rg1+","+2.10/15, 0.050s"),("Kd2","-2.00/14, 0.050s"),("Kd6","+2.20/15, 0.050s"),("Rxf7","-1.20/14, 0.050s"),
     ("Rg2+","+M9/20, 0.050s"),
  ]),
  (None, "*", [("d4","+0.20/9, 0.050s"),("d5","-0.20/9, 0.050s")]),
]
out = []; expected = ["# FEN | White's score | result, derived with python-chess from fastchess-sample.pgn"]
for rnd, (fen, result, moves) in enumerate(games, 1):
    board = chess.Board(fen) if fen else chess.Board()
    tags = [("Event","Fastchess Tournament"),("Site","?"),("Date","2026.11.25"),("Round",str(rnd)),
            ("White","cutoff-a"),("Black","cutoff-b"),("Result",result)]
    if fen: tags += [("FEN",fen),("SetUp","1")]
    tags += [("PlyCount",str(len(moves))),("Termination","adjudication"),("TimeControl","40/1+0.01")]
    text = "".join(f'[{k} "{v}"]\n' for k,v in tags) + "\n"
    parts = []; searches = 0
    for san, comment in moves:
        m = board.parse_san(san)
        num = f"{board.fullmove_number}. " if board.turn == chess.WHITE else (f"{board.fullmove_number}... " if not parts else "")
        parts.append(f"{num}{san} {{{comment}}}")
        score = comment.split("/")[0] if comment and comment[0] in "+-0123456789" else None
        if score is not None:
            if "M" not in score and searches >= 8 and not board.is_check() and not board.is_capture(m) and not m.promotion and result != "*":
                cp = round(float(score)*100)
                white = cp if board.turn == chess.WHITE else -cp
                res = {"1-0":"1.0","0-1":"0.0","1/2-1/2":"0.5"}[result]
                expected.append(f"{board.fen()} | {white} | {res}")
            searches += 1
        board.push(m)
    text += " ".join(parts) + f" {result}\n\n"
    out.append(text)
open("tests/data/fastchess-sample.pgn","w").write("".join(out))
open("tests/data/fastchess-sample.expected","w").write("\n".join(expected)+"\n")
