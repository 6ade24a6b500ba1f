//! Reading games in PGN with engine scores in the move comments, as fastchess,
//! cutechess-cli and OpenBench write them (`1. e4 {+0.31/12 0.105s} e5 {-0.20/11 0.098s}`),
//! and turning them into games of the games format (every ply, its score, and whether
//! `cutoff datagen`'s filters keep its position) and so into training records.
//!
//! The reader takes what those tools write: tag pairs, SAN moves, move numbers, comments,
//! NAGs, variations (skipped) and the result. Moves without a score (`{book}`, or none) are
//! opening moves: they are played but neither kept nor counted as searches.

use cutoff_engine::board::{Board, STARTPOS};
use cutoff_engine::data::Outcome;
use cutoff_engine::datagen::{self, Game as DatagenGame};
use cutoff_engine::games::{GameRecord, Ply, ply_score};
use cutoff_engine::score::{MATE, is_decisive, is_mate, mate_moves};
use shakmaty::san::SanPlus;
use shakmaty::{Color, Move, Position};

/// One game as read: its tags and its moves, each with the first comment after it.
#[derive(Debug, Default)]
pub struct Game {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<(String, Option<String>)>,
}

impl Game {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty()
    }
}

/// A score from a comment: centipawns, or a mate (which no record keeps) with its
/// distance as the comment gives it (negative: the mover is mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentScore {
    Centipawns(i32),
    Mate(i32),
}

impl CommentScore {
    /// The score in the engine's units: a mate as far from [`MATE`] as its distance.
    fn value(self) -> i32 {
        match self {
            CommentScore::Centipawns(cp) => cp,
            CommentScore::Mate(n) if n < 0 => n.max(-MATE) - MATE,
            CommentScore::Mate(n) => MATE - n.min(MATE),
        }
    }
}

/// The score at the start of a comment (`+0.31/12 …`, `-1.05/9`, `+M5/20`, `-M3/7`),
/// from the view of the side that made the move; None for comments without one.
pub fn comment_score(comment: &str) -> Option<CommentScore> {
    let first = comment.split_whitespace().next()?;
    let value = first.split('/').next()?.trim_end_matches(',');
    let unsigned = value.trim_start_matches(['+', '-']);
    if let Some(moves) = unsigned.strip_prefix(['M', '#']) {
        let sign = if value.starts_with('-') { -1 } else { 1 };
        return moves
            .parse::<u16>()
            .ok()
            .map(|n| CommentScore::Mate(sign * i32::from(n)));
    }
    if !unsigned.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let pawns: f64 = value.parse().ok()?;
    pawns
        .is_finite()
        .then(|| CommentScore::Centipawns((pawns * 100.0).round() as i32))
}

/// Splits PGN text into games.
pub fn games(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut game = Game::default();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    // Reads up to (not including) the first char for which `end` holds.
    let take_until = |i: &mut usize, end: &dyn Fn(char) -> bool| -> String {
        let start = *i;
        while *i < chars.len() && !end(chars[*i]) {
            *i += 1;
        }
        chars[start..*i].iter().collect()
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            _ if c.is_whitespace() => i += 1,
            '[' => {
                if !game.moves.is_empty() {
                    games.push(std::mem::take(&mut game));
                }
                i += 1;
                let name = take_until(&mut i, &|c| c.is_whitespace() || c == ']');
                take_until(&mut i, &|c| c == '"' || c == ']');
                let mut value = String::new();
                if i < chars.len() && chars[i] == '"' {
                    i += 1;
                    while i < chars.len() && chars[i] != '"' {
                        if chars[i] == '\\' && i + 1 < chars.len() {
                            i += 1;
                        }
                        value.push(chars[i]);
                        i += 1;
                    }
                }
                take_until(&mut i, &|c| c == ']');
                i += 1;
                game.tags.push((name, value));
            }
            '{' => {
                i += 1;
                let comment = take_until(&mut i, &|c| c == '}');
                i += 1;
                if let Some((_, slot @ None)) = game.moves.last_mut() {
                    *slot = Some(comment.trim().to_string());
                }
            }
            ';' => {
                take_until(&mut i, &|c| c == '\n');
            }
            '(' => {
                // A variation, possibly nested, with comments that may hold parentheses.
                let mut depth = 0;
                while i < chars.len() {
                    match chars[i] {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        '{' => {
                            take_until(&mut i, &|c| c == '}');
                        }
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                let token = take_until(&mut i, &|c| c.is_whitespace() || "{}()[];".contains(c));
                if token.is_empty() {
                    i += 1;
                    continue;
                }
                let is_result = matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*");
                let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if !token.is_empty() && !token.starts_with('$') && !is_result {
                    game.moves.push((token.to_string(), None));
                }
            }
        }
    }
    if !game.is_empty() {
        games.push(game);
    }
    games
}

/// Whether a `Variant` tag names Chess960: "Chess960" (python-chess, Lichess),
/// "fischerandom" (cutechess-cli and fastchess), "Fischer Random", "FRC", any case.
fn is_chess960(variant: &str) -> bool {
    let name: String = variant
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    ["960", "fischerrandom", "fischerandom"]
        .iter()
        .any(|n| name.contains(n))
        || name == "frc"
}

/// The game in the games format: every move, scored where its comment has a score, and
/// flagged kept where datagen would keep its position (its records are
/// [`GameRecord::samples`]).
pub fn game_record(game: &Game) -> Result<GameRecord, String> {
    let outcome = game
        .tag("Result")
        .and_then(Outcome::parse)
        .ok_or("no decided result (Result tag missing or '*')")?;
    let mut plies = Vec::with_capacity(game.moves.len());
    let mut searches = 0;
    let mut start = None;
    let end = replay(game, false, &mut |board, m, comment| {
        if start.is_none() {
            start = Some(board.pos().clone());
        }
        let score = comment.and_then(comment_score);
        let kept = matches!(score, Some(CommentScore::Centipawns(cp))
            if datagen::keeps(board, m, cp, searches));
        searches += usize::from(score.is_some());
        plies.push(Ply {
            mv: m,
            score: score.map(|s| ply_score(s.value())),
            kept,
        });
    })?;
    Ok(GameRecord {
        // A game without moves starts where it ends.
        start: start.unwrap_or_else(|| end.pos().clone()),
        outcome,
        plies,
    })
}

/// Plays a game's moves from its start (the FEN tag, or the start position), showing
/// `visit` each position before its move with the move and its comment, and returns the
/// position after the last move. Castling follows Chess960 rules when the Variant tag
/// says so or the caller does (a book named for Chess960).
pub fn replay(
    game: &Game,
    chess960: bool,
    visit: &mut dyn FnMut(&Board, Move, Option<&str>),
) -> Result<Board, String> {
    let chess960 = chess960 || game.tag("Variant").is_some_and(is_chess960);
    let fen = game.tag("FEN").unwrap_or(STARTPOS);
    let mut board = Board::from_fen(fen, chess960).map_err(|e| format!("FEN tag: {e}"))?;
    for (number, (text, comment)) in game.moves.iter().enumerate() {
        let san: SanPlus = text
            .trim_end_matches(['!', '?'])
            .parse()
            .map_err(|e| format!("move {}: '{text}': {e}", number + 1))?;
        let m = san
            .san
            .to_move(board.pos())
            .map_err(|e| format!("move {}: '{text}': {e}", number + 1))?;
        visit(&board, m, comment.as_deref());
        board.make(m);
        board.commit();
    }
    Ok(board)
}

/// A datagen game as fastchess writes a game (`{+0.31/12, …}` after each move), so that
/// a game can be checked against its own conversion, and read by any PGN tool.
pub fn write_game(game: &DatagenGame, round: u64) -> String {
    let result = match game.outcome {
        Outcome::WhiteWins => "1-0",
        Outcome::Draw => "1/2-1/2",
        Outcome::BlackWins => "0-1",
    };
    let mut text = format!(
        "[Event \"cutoff datagen\"]\n[Site \"?\"]\n[Round \"{round}\"]\n[White \"cutoff\"]\n\
         [Black \"cutoff\"]\n[Result \"{result}\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n\n",
        game.start.fen()
    );
    let mut board = game.start.clone();
    let mut line = String::new();
    for played in &game.moves {
        let pos = board.pos();
        if pos.turn() == Color::White || line.is_empty() {
            let dots = if pos.turn() == Color::White {
                "."
            } else {
                "..."
            };
            line.push_str(&format!("{}{dots} ", pos.fullmoves()));
        }
        let san = SanPlus::from_move(pos.clone(), played.mv);
        let score = if is_mate(played.score) {
            let sign = if played.score > 0 { '+' } else { '-' };
            format!("{sign}M{}", mate_moves(played.score).abs())
        } else if is_decisive(played.score) {
            // A tablebase score: no centipawn value a PGN reader should keep.
            let sign = if played.score > 0 { '+' } else { '-' };
            format!("{sign}M0")
        } else {
            format!("{:+.2}", f64::from(played.score) / 100.0)
        };
        line.push_str(&format!("{san} {{{score}/{}, cutoff}} ", played.depth));
        board.make(played.mv);
        board.commit();
    }
    text.push_str(line.trim_end());
    text.push(' ');
    text.push_str(result);
    text.push_str("\n\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_scores() {
        for (comment, score) in [
            ("+0.31/12 0.105s", Some(CommentScore::Centipawns(31))),
            ("-1.05/9 0.2s, n=5000", Some(CommentScore::Centipawns(-105))),
            ("0.00/1 0s", Some(CommentScore::Centipawns(0))),
            ("+M5/20 0.1s", Some(CommentScore::Mate(5))),
            ("-M3/7", Some(CommentScore::Mate(-3))),
            ("book", None),
            ("White wins by adjudication", None),
            ("", None),
            // As fastchess 74deac2 wrote them with `-pgnout nodes=true seldepth=true
            // nps=true` (scripts/genfens_e2e.sh): its mate scores count plies, the last
            // move's comment ends with the termination, and a move the engine sent no
            // score for gets an empty score.
            (
                "+0.88/6 0.300s, n=3491, sd=9, nps=11636",
                Some(CommentScore::Centipawns(88)),
            ),
            (
                "-0.63/7 0.034s, n=2706, sd=8, nps=180400, Black wins by adjudication",
                Some(CommentScore::Centipawns(-63)),
            ),
            (
                "0.00/7 0.002s, n=3650, sd=12, nps=3650000",
                Some(CommentScore::Centipawns(0)),
            ),
            (
                "-M8/13 0.000s, n=4409, sd=13, nps=4409000, White wins by adjudication",
                Some(CommentScore::Mate(-8)),
            ),
            ("/0 0.000s, n=0, sd=0, nps=0", None),
        ] {
            assert_eq!(comment_score(comment), score, "{comment}");
        }
    }

    #[test]
    fn games_split_and_skip_what_is_not_a_move() {
        let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 {+0.30/10 0.1s} e5 $1 (1... c5 {x (y)} 2. Nf3) \
                    2.Nf3 {book} ; rest of line\nNc6 1-0\n\n[Event \"b\"]\n[Result \"*\"]\n1. d4 *\n";
        let games = games(text);
        assert_eq!(games.len(), 2);
        let moves: Vec<_> = games[0].moves.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(moves, ["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(games[0].moves[0].1.as_deref(), Some("+0.30/10 0.1s"));
        assert_eq!(games[0].moves[2].1.as_deref(), Some("book"));
        assert_eq!(games[0].tag("result"), Some("1-0"));
        assert!(game_record(&games[1]).is_err());
    }

    /// cutechess-cli and fastchess name Chess960 "fischerandom"; such a game's FEN (here
    /// with Shredder castling rights) is read in Chess960 mode, as "Chess960" is.
    #[test]
    fn every_name_of_chess960_reads_its_fen() {
        let game = |variant: &str| {
            format!(
                "[Variant \"{variant}\"]\n[SetUp \"1\"]\n\
                 [FEN \"nrbbqknr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKNR w HBhb - 0 1\"]\n\
                 [Result \"1-0\"]\n\n1. e4 {{+0.30/10 0.1s}} e5 {{-0.20/10 0.1s}} 1-0\n"
            )
        };
        for variant in [
            "Chess960",
            "fischerandom",
            "Fischer Random",
            "FRC",
            "chess 960",
        ] {
            let games = games(&game(variant));
            assert!(game_record(&games[0]).is_ok(), "{variant}");
        }
        for variant in ["Standard", "From Position"] {
            let games = games(&game(variant));
            assert!(game_record(&games[0]).is_err(), "{variant}");
        }
    }
}
