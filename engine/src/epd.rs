//! EPD test suites (PGN standard §16.2): parsing records and judging a search's answer.
//!
//! A record is four FEN fields followed by operations `opcode operand…;`. Operands are
//! bare tokens or quoted strings. What this module understands: `bm`/`am` (SAN, possibly
//! decorated with `+ # ! ?`), `dm N`, matetrack's `bm #N` (N < 0: the side to move is
//! mated), `id`, `pm`, `ce`, `acd`, STS points in `c0` (`"Qf4=10, Re2=3"`), `hmvc`/`fmvn`.
//! Anything else (perft `D1 …`, matetrack's `00:01;`, free text after the last `;`) is
//! kept or ignored, never fatal.

use shakmaty::{CastlingMode, Chess, Move, fen::Fen, san::San};

use std::time::{Duration, Instant};

use crate::board::{Board, BoardError, position_from_fen};
use crate::limits::Limits;
use crate::score::{Bound, is_mate, mate_moves};
use crate::search::{Report, SearchOptions, Searcher};

/// What a record asks of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Play one of these moves.
    Best(Vec<Move>),
    /// Play none of these moves.
    Avoid(Vec<Move>),
    /// Announce a mate in at most N moves (N > 0), or being mated in exactly −N (N < 0).
    Mate(i32),
    /// Only report the engine's choice (a bare FEN, or a record without a goal).
    None,
}

/// One EPD record.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based line number in its file.
    pub line: usize,
    /// The `id` operation, when given.
    pub id: Option<String>,
    /// The position.
    pub board: Board,
    /// What a search of the position should find (`bm`, `am`, `dm`).
    pub goal: Goal,
    /// STS-style points per move from `c0` (`"Qf4=10, Re2=3"`).
    pub points: Vec<(Move, u32)>,
    /// Predicted move (`pm`), when given.
    pub pm: Option<Move>,
    /// Centipawn evaluation (`ce`), when given.
    pub ce: Option<i32>,
    /// Analysis depth (`acd`), when given.
    pub acd: Option<u32>,
    /// Notes about repairs made while loading (e.g. an impossible castling right dropped).
    pub notes: Vec<String>,
}

/// A line that could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// 1-based line number in its file.
    pub line: usize,
    /// Why it was skipped.
    pub message: String,
}

/// Everything a file yielded: the records and the lines skipped.
#[derive(Debug, Default)]
pub struct Suite {
    /// The records loaded, in file order.
    pub records: Vec<Record>,
    /// The lines skipped, in file order.
    pub errors: Vec<LineError>,
}

/// Parses a whole file. Blank lines and `#` comments are skipped; a bad line is
/// reported with its number and the rest still loads.
pub fn parse_suite(text: &str, chess960: bool) -> Suite {
    let mut suite = Suite::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_record(line, i + 1, chess960) {
            Ok(r) => suite.records.push(r),
            Err(message) => suite.errors.push(LineError {
                line: i + 1,
                message,
            }),
        }
    }
    suite
}

/// An operation: opcode and operands (quotes removed).
type Operation = (String, Vec<String>);

/// Splits the text after the FEN into operations. An operation counts only once its `;`
/// is seen, so free text after the last `;` is dropped; an unterminated quoted string
/// runs to the end of the line.
fn operations(text: &str) -> Vec<Operation> {
    let mut ops = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            ';' => {
                chars.next();
                if !tokens.is_empty() {
                    let opcode = tokens.remove(0);
                    ops.push((opcode, std::mem::take(&mut tokens)));
                }
            }
            '"' => {
                chars.next();
                let mut s = String::new();
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    s.push(c);
                }
                tokens.push(s);
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            _ => {
                let mut s = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || c == ';' || c == '"' {
                        break;
                    }
                    s.push(c);
                    chars.next();
                }
                tokens.push(s);
            }
        }
    }
    ops
}

/// The N of `dm N` or `bm #N`: moves to mate, negative when the side to move gets mated.
/// A mate in 0 is a position already mated, with nothing to search for: refused.
fn mate_count(text: &str) -> Option<i32> {
    text.parse().ok().filter(|&n| n != 0)
}

/// Parses one record (a line without its newline).
fn parse_record(line: &str, line_number: usize, chess960: bool) -> Result<Record, String> {
    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
    if fields.len() < 4 {
        return Err("fewer than four FEN fields".to_string());
    }
    // The rest of the line after the fourth field.
    let mut rest = line;
    for f in &fields {
        (_, rest) = rest.split_once(f).expect("field comes from this line");
    }
    // Some suites append the halfmove clock and move number, as in a full FEN.
    let mut clocks = String::from("0 1");
    let trailing: Vec<&str> = rest.split_whitespace().take(2).collect();
    if trailing.len() == 2 && trailing.iter().all(|t| t.parse::<u32>().is_ok()) {
        clocks = trailing.join(" ");
        for t in &trailing {
            (_, rest) = rest.split_once(t).expect("token comes from this line");
        }
    }
    let ops = operations(rest);
    let mut hmvc = None;
    let mut fmvn = None;
    for (opcode, operands) in &ops {
        match (opcode.as_str(), operands.first()) {
            ("hmvc", Some(v)) => hmvc = Some(v.clone()),
            ("fmvn", Some(v)) => fmvn = Some(v.clone()),
            _ => {}
        }
    }
    if hmvc.is_some() || fmvn.is_some() {
        clocks = format!(
            "{} {}",
            hmvc.as_deref().unwrap_or("0"),
            fmvn.as_deref().unwrap_or("1")
        );
    }
    let fen_text = format!("{} {clocks}", fields.join(" "));
    let fen: Fen = fen_text.parse().map_err(|e| format!("bad FEN: {e}"))?;
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut notes = Vec::new();
    let pos = match position_from_fen(fen.clone(), mode, false) {
        Ok(pos) => pos,
        Err(_) => {
            let pos = position_from_fen(fen, mode, true).map_err(|BoardError(e)| e)?;
            notes.push("invalid castling rights dropped".to_string());
            pos
        }
    };

    let mut record = Record {
        line: line_number,
        id: None,
        goal: Goal::None,
        points: Vec::new(),
        pm: None,
        ce: None,
        acd: None,
        notes,
        board: Board::from_position(pos.clone(), Vec::new()),
    };
    for (opcode, operands) in ops {
        match opcode.as_str() {
            "id" => record.id = operands.first().cloned(),
            "bm" if operands.first().is_some_and(|o| o.starts_with('#')) => {
                let count = &operands[0];
                let n = count
                    .strip_prefix('#')
                    .and_then(mate_count)
                    .ok_or_else(|| format!("bad mate count '{count}'"))?;
                record.goal = Goal::Mate(n);
            }
            "bm" => record.goal = Goal::Best(moves(&pos, &operands)?),
            "am" => record.goal = Goal::Avoid(moves(&pos, &operands)?),
            "dm" => {
                let n = operands
                    .first()
                    .and_then(|o| mate_count(o))
                    .ok_or_else(|| "dm needs a number other than 0".to_string())?;
                record.goal = Goal::Mate(n);
            }
            "pm" => record.pm = operands.first().and_then(|m| parse_move(&pos, m).ok()),
            "ce" => record.ce = operands.first().and_then(|v| v.parse().ok()),
            "acd" => record.acd = operands.first().and_then(|v| v.parse().ok()),
            "c0" => {
                if let Some(points) = operands.first().and_then(|t| sts_points(&pos, t)) {
                    record.points = points;
                }
            }
            _ => {}
        }
    }
    Ok(record)
}

/// A move in SAN (decorations `+ # ! ?` and castling with zeros accepted) or, failing
/// that, in UCI notation.
fn parse_move(pos: &Chess, text: &str) -> Result<Move, String> {
    let clean: String = text
        .trim_end_matches(['+', '#', '!', '?'])
        .replace('0', "O");
    if let Ok(m) = clean
        .parse::<San>()
        .map_err(|_| ())
        .and_then(|san| san.to_move(pos).map_err(|_| ()))
    {
        return Ok(m);
    }
    let board = Board::from_position(pos.clone(), Vec::new());
    board
        .parse_uci(text)
        .map_err(|_| format!("move '{text}' is not legal here"))
}

fn moves(pos: &Chess, operands: &[String]) -> Result<Vec<Move>, String> {
    if operands.is_empty() {
        return Err("bm/am without a move".to_string());
    }
    operands.iter().map(|o| parse_move(pos, o)).collect()
}

/// STS points: `"Qf4=10, Re2=3, a3=1"`. None if the comment is not of that form.
fn sts_points(pos: &Chess, text: &str) -> Option<Vec<(Move, u32)>> {
    text.split(',')
        .map(|item| {
            let (m, p) = item.trim().split_once('=')?;
            Some((parse_move(pos, m.trim()).ok()?, p.trim().parse().ok()?))
        })
        .collect()
}

/// How a search's final answer fares against a record.
pub fn solved(goal: &Goal, best: Option<Move>, score: i32) -> Option<bool> {
    match goal {
        Goal::Best(ms) => Some(best.is_some_and(|b| ms.contains(&b))),
        Goal::Avoid(ms) => Some(best.is_some_and(|b| !ms.contains(&b))),
        Goal::Mate(n) if *n > 0 => Some(is_mate(score) && score > 0 && mate_moves(score) <= *n),
        Goal::Mate(n) => Some(is_mate(score) && mate_moves(score) == *n),
        Goal::None => None,
    }
}

/// Points for the played move (STS), or None when the record has no points.
pub fn points(record: &Record, best: Option<Move>) -> Option<(u32, u32)> {
    if record.points.is_empty() {
        return None;
    }
    let max = record.points.iter().map(|&(_, p)| p).max().unwrap_or(0);
    let got = record
        .points
        .iter()
        .find(|&&(m, _)| Some(m) == best)
        .map_or(0, |&(_, p)| p);
    Some((got, max))
}

/// SAN of a move in a record's position.
pub fn san(record: &Record, m: Move) -> String {
    San::from_move(record.board.pos(), m).to_string()
}

/// The expected answer, as text for reports.
pub fn describe_goal(record: &Record) -> String {
    let list = |ms: &[Move]| {
        ms.iter()
            .map(|&m| san(record, m))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match &record.goal {
        Goal::Best(ms) => format!("bm {}", list(ms)),
        Goal::Avoid(ms) => format!("am {}", list(ms)),
        Goal::Mate(n) => format!("mate {n}"),
        Goal::None => String::new(),
    }
}

/// The outcome of searching one record.
#[derive(Clone, Debug)]
pub struct RecordResult {
    /// The move the search chose (None without a legal move).
    pub best: Option<Move>,
    /// Its score, from the side to move.
    pub score: i32,
    /// The last depth completed.
    pub depth: i32,
    /// Nodes visited.
    pub nodes: u64,
    /// How long the search took.
    pub time: Duration,
    /// Whether the goal was met (None for records without a goal).
    pub solved: Option<bool>,
    /// When the final, correct answer was first found and then kept to the end:
    /// (depth, time, nodes) of that iteration.
    pub solved_at: Option<(i32, Duration, u64)>,
    /// STS points earned and available.
    pub points: Option<(u32, u32)>,
}

/// Searches a record and judges the answer. The searcher's table and histories are
/// cleared first, so results do not depend on the order of records.
pub fn search_record(
    searcher: &mut Searcher,
    record: &Record,
    limits: &Limits,
    options: &SearchOptions,
) -> RecordResult {
    searcher.clear();
    let start = Instant::now();
    // (depth, time, nodes, best move, score) of every completed iteration.
    let mut iterations: Vec<(i32, Duration, u64, Option<Move>, i32)> = Vec::new();
    let result = searcher.search(&record.board, limits, options, &mut |report| {
        if let Report::Iteration(info) = report
            && info.multipv == 1
            && info.bound == Bound::Exact
        {
            iterations.push((
                info.depth,
                info.time,
                info.nodes,
                info.pv.first().copied(),
                info.score,
            ));
        }
    });
    let solved = solved(&record.goal, result.best, result.score);
    let solved_at = if solved == Some(true) {
        // The earliest iteration from which every later one also met the goal.
        let kept = iterations
            .iter()
            .rev()
            .take_while(|&&(_, _, _, best, score)| {
                self::solved(&record.goal, best, score) == Some(true)
            })
            .last();
        // Found only in the last, unfinished iteration: that is when.
        Some(kept.map_or(
            (result.depth + 1, start.elapsed(), result.nodes),
            |&(depth, time, nodes, _, _)| (depth, time, nodes),
        ))
    } else {
        None
    };
    RecordResult {
        best: result.best,
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        time: start.elapsed(),
        solved,
        solved_at,
        points: points(record, result.best),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tricky_lines() {
        let r = parse_record(
            r#"6k1/5p2/P3p1p1/2Qp4/5q2/2K5/8/8 b - - am Qc1+ Qe5+; id "E_E_T 011 - D vs D";"#,
            1,
            false,
        )
        .unwrap();
        assert_eq!(r.id.as_deref(), Some("E_E_T 011 - D vs D"));
        assert!(matches!(&r.goal, Goal::Avoid(ms) if ms.len() == 2));

        let r = parse_record(
            "5K2/8/2qk4/2nPp3/3r4/6B1/B7/3R4 w - e6 bm #1; ep; 00:00;",
            2,
            false,
        )
        .unwrap();
        assert_eq!(r.goal, Goal::Mate(1));
        let r = parse_record(
            "3r4/3N2kr/1p6/pBpn1p2/Q2PR1p1/P7/1P4P1/2q3K1 w - - bm #-5; Defence; 00:00;",
            3,
            false,
        )
        .unwrap();
        assert_eq!(r.goal, Goal::Mate(-5));
        // A mate in 0, either way, is refused: nothing can be searched for.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        assert!(parse_record(&format!("{start} dm 0;"), 3, false).is_err());
        assert!(parse_record(&format!("{start} bm #0;"), 3, false).is_err());
        assert_eq!(
            parse_record(&format!("{start} dm 3;"), 3, false)
                .unwrap()
                .goal,
            Goal::Mate(3)
        );

        // Free text after the last ';' (zugts) is ignored.
        let r = parse_record(
            "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - bm Nxd5; id \"ZPTS.01\"; CCC post 27.4.2004 by Gerd Isenberg",
            4,
            false,
        )
        .unwrap();
        assert_eq!(r.id.as_deref(), Some("ZPTS.01"));

        // STS points.
        let r = parse_record(
            r#"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "STS(v1.0) Test.001"; c0 "Bb5=10, Bc4=7, d4=5";"#,
            5,
            false,
        )
        .unwrap();
        assert_eq!(r.points.len(), 3);
        let bc4 = parse_move(r.board.pos(), "Bc4").unwrap();
        assert_eq!(points(&r, Some(bc4)), Some((7, 10)));

        // A bare FEN, a bad FEN, an impossible castling right repaired.
        assert_eq!(
            parse_record("8/8/8/8/8/8/8/K6k w - -", 6, false)
                .unwrap()
                .goal,
            Goal::None
        );
        assert!(parse_record("a8/Q e1/Q 4 Qd5+ Kb4", 7, false).is_err());
        let r = parse_record(
            "r3kb1r/3n1pp1/p6p/2pPp2q/Pp2N3/3B2PP/1PQ2P2/R3K3 w Qq - bm d6;",
            8,
            false,
        )
        .unwrap();
        assert!(r.notes.is_empty());
        let r = parse_record(
            "4kb1r/3n1pp1/p6p/2pPp2q/Pp2N3/3B2PP/1PQ2P2/R3K3 w Qq - bm d6;",
            9,
            false,
        )
        .unwrap();
        assert_eq!(r.notes.len(), 1);
    }

    #[test]
    fn judging() {
        let r = parse_record("8/8/8/8/8/8/8/K6k w - - bm Kb2;", 1, false).unwrap();
        let kb2 = parse_move(r.board.pos(), "Kb2").unwrap();
        let ka2 = parse_move(r.board.pos(), "Ka2").unwrap();
        assert_eq!(solved(&r.goal, Some(kb2), 0), Some(true));
        assert_eq!(solved(&r.goal, Some(ka2), 0), Some(false));
        use crate::score::MATE;
        assert_eq!(solved(&Goal::Mate(2), None, MATE - 3), Some(true));
        assert_eq!(solved(&Goal::Mate(1), None, MATE - 3), Some(false));
        assert_eq!(solved(&Goal::Mate(-2), None, -(MATE - 4)), Some(true));
        assert_eq!(solved(&Goal::Mate(-2), None, -(MATE - 2)), Some(false));
    }
}
