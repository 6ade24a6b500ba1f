//! Integration tests of the search through the library API: mates found at the right
//! distance, draws (stalemate, repetition, perpetual check, fifty-move rule, insufficient
//! material) scored as draws, every `go` limit honoured, bench determinism (library and
//! binary), MultiPV, legal moves out of a tiny transposition table shared by several
//! threads, and the weakened engine's choices.

mod common;
mod suites;

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::timing_lock;
use cutoff_engine::bench;
use cutoff_engine::board::{Board, STARTPOS};
use cutoff_engine::eval::evaluate;
use cutoff_engine::limits::Limits;
use cutoff_engine::nnue;
use cutoff_engine::params::TIME_HARD_MAX_PERCENT;
use cutoff_engine::score::{self, Bound, MATE, is_mate, mate_moves};
use cutoff_engine::search::{Report, SearchInfo, SearchOptions, SearchResult, Searcher};
use cutoff_engine::skill::Strength;
use cutoff_engine::tt::TranspositionTable;
use shakmaty::{Move, Position};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn board(fen: &str) -> Board {
    Board::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays `moves` (UCI) from `fen`, each one committed as a game move, so that the board's
/// key history holds every position on the way (as after `position fen … moves …`).
fn board_after(fen: &str, moves: &[&str]) -> Board {
    let mut b = board(fen);
    for text in moves {
        let m = b
            .parse_uci(text)
            .unwrap_or_else(|e| panic!("{text} after {}: {e}", b.fen()));
        b.make(m);
        b.commit();
    }
    b
}

/// Runs one search and returns its result with every `Report::Iteration` it sent.
fn search_with(
    searcher: &mut Searcher,
    board: &Board,
    limits: &Limits,
    options: &SearchOptions,
) -> (SearchResult, Vec<SearchInfo>) {
    let mut infos = Vec::new();
    let result = searcher.search(board, limits, options, &mut |r| {
        if let Report::Iteration(info) = r {
            infos.push(info);
        }
    });
    (result, infos)
}

/// What a loaded 2-core machine may add to a time limit the search kept: the scheduler
/// can leave a ready thread waiting for tens of milliseconds.
const SCHEDULER_SLACK: Duration = Duration::from_millis(40);

/// Each timing check keeps the fastest of this many runs: a burst of load elsewhere may
/// slow one run, while a search that overruns its limit overruns every time.
const TIMING_RUNS: usize = 3;

/// The fastest of `TIMING_RUNS` searches of `b`, each from a searcher set up (table,
/// threads) before its clock starts, so that the search is timed and not the set-up.
/// Every run must give a legal move.
fn timed_search(
    b: &Board,
    limits: &Limits,
    options: &SearchOptions,
    what: &str,
) -> (SearchResult, Duration) {
    (0..TIMING_RUNS)
        .map(|_| {
            let mut searcher = Searcher::new(16).expect("16 MB table");
            searcher.set_threads(options.threads);
            let start = Instant::now();
            let limits = Limits {
                started: Some(start),
                ..limits.clone()
            };
            let (result, _) = search_with(&mut searcher, b, &limits, options);
            let elapsed = start.elapsed();
            assert_legal(b, result.best, what);
            (result, elapsed)
        })
        .min_by_key(|(_, elapsed)| *elapsed)
        .expect("at least one run")
}

/// A search from a fresh 16 MB searcher.
fn search(
    board: &Board,
    limits: &Limits,
    options: &SearchOptions,
) -> (SearchResult, Vec<SearchInfo>) {
    let mut searcher = Searcher::new(16).expect("16 MB table");
    search_with(&mut searcher, board, limits, options)
}

fn search_depth(board: &Board, depth: i32) -> SearchResult {
    search(board, &Limits::depth(depth), &SearchOptions::default()).0
}

/// A score as UCI would print it, for messages.
fn show(score: i32) -> String {
    if is_mate(score) {
        format!("mate {}", mate_moves(score))
    } else {
        format!("cp {score}")
    }
}

fn uci(board: &Board, m: Option<Move>) -> String {
    m.map_or_else(|| "(none)".to_string(), |m| board.uci(m))
}

/// The best move must be one of the legal moves of the root.
fn assert_legal(board: &Board, m: Option<Move>, what: &str) -> Move {
    let m = m.unwrap_or_else(|| panic!("{what}: no best move in {}", board.fen()));
    assert!(
        board.legal_moves().contains(&m),
        "{what}: illegal best move {m:?} in {}",
        board.fen()
    );
    // And it survives a round trip through UCI notation.
    assert_eq!(board.parse_uci(&board.uci(m)).as_ref(), Ok(&m), "{what}");
    m
}

/// Every move of `pv` must be legal in turn from `board`.
fn assert_pv_legal(board: &Board, pv: &[Move], what: &str) {
    let mut pos = board.pos().clone();
    for (i, m) in pv.iter().enumerate() {
        assert!(
            pos.is_legal(*m),
            "{what}: PV move {i} ({m:?}) illegal in {} (PV {pv:?})",
            board.fen()
        );
        pos.play_unchecked(*m);
    }
}

/// The `Report::Iteration`s of the last depth reached: from the last report of line 1 on
/// (searches longer than a few seconds also report the lines found so far after each
/// MultiPV line, so a depth may report line 1 more than once).
/// A weakened engine that plays another line than its first shows the line it plays
/// last, as `multipv 1` after the other lines: the reports without it, and it.
fn split_choice(infos: &[SearchInfo]) -> (&[SearchInfo], Option<&SearchInfo>) {
    match infos {
        [.., before, last] if last.multipv == 1 && before.multipv > 1 => {
            (&infos[..infos.len() - 1], Some(last))
        }
        _ => (infos, None),
    }
}

fn final_iteration(infos: &[SearchInfo]) -> Vec<&SearchInfo> {
    let last = infos.last().expect("at least one iteration reported");
    let start = infos
        .iter()
        .rposition(|i| i.multipv == 1)
        .expect("line 1 reported");
    let lines: Vec<&SearchInfo> = infos[start..].iter().collect();
    assert!(
        lines.iter().all(|i| i.depth == last.depth),
        "lines of the last iteration at different depths"
    );
    lines
}

// ---------------------------------------------------------------------------------------
// 1. Mates
// ---------------------------------------------------------------------------------------

/// From matetrack.epd (`bm #1`): all four mate-in-one entries there mate by en passant,
/// which also exercises the en-passant square of a FEN.
const MATE_IN_1: &[&str] = &[
    "5K2/8/2qk4/2nPp3/3r4/6B1/B7/3R4 w - e6 0 1",
    "7n/BBP2P1P/8/P1PpK3/P5RR/5k2/Pn2NPN1/3Q2b1 w - d6 0 1",
    "8/2N3p1/5b2/k1B2P2/pP4R1/8/K1nn4/8 b - b3 0 1",
    "rb6/k1p4R/P1P5/PpK5/8/8/8/5B2 w - b6 0 1",
];

/// From matetrack.epd (`bm #2`); Cutoff finds them from depth 1, 3 and 8 respectively.
/// (Several other `#2` entries are quiet-key zugzwang problems where null-move pruning
/// hides the shortest mate until depth 11–13, first reporting a longer one.)
const MATE_IN_2: &[&str] = &[
    "6rk/PP1PPPnp/1N1BN2P/7R/4B3/2Q5/P3KP2/6R1 w - - 0 1",
    "8/8/8/2p1R3/1p3p2/1p1k1p2/1B5p/1K2Q3 w - - 0 1",
    "2brrb2/8/p7/7Q/1p1kpPp1/1P1pN1K1/3P4/8 w - - 0 1",
];

/// From matetrack.epd (`bm #3`); found from depth 6, 9 and 11.
const MATE_IN_3: &[&str] = &[
    "1r4k1/8/5PP1/K7/6NR/7B/1r6/7R w - - 0 1",
    "2rB4/1b1n1pp1/pn4Rp/1Q2NB2/2pK1k1r/3RN1pr/4P3/8 w - - 0 1",
    "2k5/2N5/1PKP4/2P5/8/8/8/8 w - - 0 1",
];

fn assert_mate(fen: &str, depth: i32, moves: i32) -> SearchResult {
    let b = board(fen);
    let result = search_depth(&b, depth);
    assert_legal(&b, result.best, fen);
    assert!(
        is_mate(result.score) && mate_moves(result.score) == moves,
        "{fen}: depth {depth} gave {} ({}) best {}, expected mate {moves}",
        show(result.score),
        result.score,
        uci(&b, result.best)
    );
    result
}

#[test]
fn finds_mate_in_one_and_plays_it() {
    for fen in MATE_IN_1 {
        let result = assert_mate(fen, 6, 1);
        assert_eq!(result.score, MATE - 1, "{fen}");
        let b = board(fen);
        let best = result.best.unwrap();
        let after = b.pos().clone().play(best).expect("legal best move");
        assert!(
            after.is_checkmate(),
            "{fen}: best move {} does not mate",
            b.uci(best)
        );
    }
}

#[test]
fn finds_mate_in_two() {
    for fen in MATE_IN_2 {
        assert_mate(fen, 10, 2);
    }
}

#[test]
fn finds_mate_in_three() {
    for fen in MATE_IN_3 {
        assert_mate(fen, 14, 3);
    }
}

#[test]
fn sees_being_mated_in_two() {
    // matetrack.epd has no `#-2` entry (its shortest defence is `#-5`), so these are the
    // `#3` positions "1r4k1/8/5PP1/K7/6NR/7B/1r6/7R w" after 1.Nh6 and
    // "2k5/2N5/1PKP4/2P5/8/8/8/8 w" after 1.Ne6: every black reply is mated in at most
    // two more white moves, and some reply is not mated in one (checked by brute force).
    for fen in [
        "1r4k1/8/5PPN/K7/7R/7B/1r6/7R b - - 1 1",
        "2k5/8/1PKPN3/2P5/8/8/8/8 b - - 1 1",
    ] {
        let result = assert_mate(fen, 10, -2);
        assert_eq!(result.score, -MATE + 4, "{fen}");
    }
}

// ---------------------------------------------------------------------------------------
// 2. Stalemate and draws
// ---------------------------------------------------------------------------------------

#[test]
fn stalemate_and_checkmate_at_the_root() {
    // Black to move: Kh8 has no square (Qf7 covers g8, g7, h7; Kg6 covers g7, h7), and
    // is not in check.
    let stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stalemate.legal_moves().is_empty() && !stalemate.in_check());
    let (result, infos) = search(&stalemate, &Limits::depth(5), &SearchOptions::default());
    assert_eq!(result.best, None);
    assert_eq!(result.ponder, None);
    assert_eq!(result.score, score::DRAW);
    assert_eq!(infos.last().map(|i| i.score), Some(score::DRAW));

    // Same, checkmated (Qg7#, protected by the king): mated at the root.
    let mated = board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert!(mated.legal_moves().is_empty() && mated.in_check());
    let result = search_depth(&mated, 5);
    assert_eq!(result.best, None);
    assert_eq!(result.score, -MATE);
    assert_eq!(mate_moves(result.score), 0);
}

/// White is a queen and a rook down; Black's king and White's king shuffle so that the
/// position after White's Kh1 (W Kh1, B Kh8, Black to move) has occurred twice already.
const SHUFFLE_START: &str = "7k/4q3/3r4/8/8/8/8/7K b - - 0 1";
/// P Kg8 Kg1 Kh8 Kh1 (P again) Kg8 Kh2 Kh8: the root R (W Kh2, B Kh8, White to move)
/// is new, but Kh1 from R reaches P a third time.
const SHUFFLE_MOVES: &[&str] = &["h8g8", "h1g1", "g8h8", "g1h1", "h8g8", "h1h2", "g8h8"];

#[test]
fn losing_side_claims_threefold_repetition() {
    let with_history = board_after(SHUFFLE_START, SHUFFLE_MOVES);
    assert_eq!(with_history.fen(), "7k/4q3/3r4/8/8/8/7K/8 w - - 7 5");
    let result = search_depth(&with_history, 8);
    assert_eq!(
        result.score,
        0,
        "Kh1 repeats a position for the third time, got {} with {}",
        show(result.score),
        uci(&with_history, result.best)
    );
    assert_eq!(uci(&with_history, result.best), "h2h1");

    // The same position without the history is simply lost: the draw came from the
    // repetition, not from the position.
    let fresh = board(&with_history.fen());
    let result = search_depth(&fresh, 8);
    assert!(
        result.score < -500,
        "without history expected a lost score, got {}",
        show(result.score)
    );
}

#[test]
fn winning_side_avoids_threefold_repetition() {
    // X = (B Qe7 Kh8, W Kh1, White to move) occurs at the start and after move 4; the root
    // R (Qd7, Black to move) is new, and Qe7 would make X a third time.
    let b = board_after(
        "7k/4q3/3r4/8/8/8/8/7K w - - 0 1",
        &["h1g1", "e7e6", "g1h1", "e6e7", "h1g1", "e7d7", "g1h1"],
    );
    assert_eq!(b.turn(), shakmaty::Color::Black);
    let result = search_depth(&b, 8);
    assert_ne!(uci(&b, result.best), "d7e7", "Black repeats a won position");
    assert!(
        result.score > 500,
        "Black (queen and rook up) got {} with {}",
        show(result.score),
        uci(&b, result.best)
    );
    // Forced to play it, the search scores it a draw.
    let limits = Limits {
        depth: Some(8),
        searchmoves: vec![b.parse_uci("d7e7").unwrap()],
        ..Limits::default()
    };
    let (result, _) = search(&b, &limits, &SearchOptions::default());
    assert_eq!(uci(&b, result.best), "d7e7");
    assert_eq!(result.score, 0, "got {}", show(result.score));
}

/// A game of main's against `720c1d5` at 10+0.1, where fastchess warned "PV continues
/// after threefold repetition": with Black to move, …Rb1+ Kd2 makes a position for the
/// third time, and at depth 1 Kd2, an evasion, is a move of quiescence.
const REPEATING_START: &str =
    "r1bqk1nr/pp2ppb1/2np4/2p5/2P3p1/2N3P1/PP1PPPBP/R1BQK1NR w KQkq - 2 9";
const REPEATING_MOVES: &str = "d2d3 g8f6 c1d2 d8b6 h2h3 c8f5 d1b3 b6c7 e1c1 a8b8 d1f1 c6d4 b3a4 \
    b7b5 c3b5 d4b5 c4b5 f5d7 d2a5 c7c8 a5c3 g4h3 g2c6 b8b6 c6d7 c8d7 g3g4 h8h4 g1h3 h4g4 f2f4 \
    f6d5 h3f2 d5c3 b2c3 b6b5 a4e4 d6d5 e4h7 g4g6 h7g7 b5b1 c1d2 b1b2 d2e1 b2b1 e1d2 b1b2 d2e1";

/// The position as FEN without its move counters: equal for repeated positions.
fn placement(board: &Board) -> String {
    let fen = board.fen();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn no_pv_continues_past_a_threefold_repetition() {
    let moves: Vec<&str> = REPEATING_MOVES.split_whitespace().collect();
    let root = board_after(REPEATING_START, &moves);
    // The game's positions, read from its moves and FENs alone.
    let mut game = board(REPEATING_START);
    let mut seen = vec![placement(&game)];
    for text in &moves {
        let m = game.parse_uci(text).unwrap();
        game.make(m);
        seen.push(placement(&game));
    }
    let limits = Limits {
        depth: Some(3),
        searchmoves: vec![root.parse_uci("b2b1").unwrap()],
        ..Limits::default()
    };
    let (result, infos) = search(&root, &limits, &SearchOptions::default());
    assert_eq!(
        result.score,
        0,
        "…Rb1+ Kd2 is a draw, got {}",
        show(result.score)
    );
    assert_eq!(infos[0].depth, 1);
    assert_eq!(infos[0].score, 0, "depth 1 scored {}", show(infos[0].score));
    for info in &infos {
        let mut line = root.clone();
        let mut positions = seen.clone();
        for (i, &m) in info.pv.iter().enumerate() {
            line.make(m);
            let here = placement(&line);
            let count = positions.iter().filter(|p| **p == here).count() + 1;
            positions.push(here);
            assert!(
                count < 3 || i + 1 == info.pv.len(),
                "depth {}: the PV {:?} goes on after its move {} repeats a position a third time",
                info.depth,
                info.pv,
                i + 1
            );
        }
    }
}

#[test]
fn perpetual_check_saves_a_lost_position() {
    // White is a rook and a knight down and Black threatens mate (…Qxf2+ / …Qa1+), but
    // Qh5+ Kg8 Qe8+ Kh7 Qh5+ is a forced perpetual: after Qh5+ only Kg8 (h8, g6, h6 are
    // covered and nothing can interpose on h6), after Qe8+ only Kh7 (f8, h8, f7 covered,
    // nothing reaches f8). Cutoff sees it from depth 11 on (depth 10: cp −625 with Qd3+;
    // with Qh5 as the only root move, from depth 8): quiet checks are subject to late-move
    // and futility pruning, so the second check is pruned at shallow remaining depths.
    let b = board("8/6pk/8/8/n7/8/qr3PPP/3Q2K1 w - - 0 1");
    assert!(
        evaluate(b.pos()) < -300,
        "White should be clearly behind statically: {}",
        evaluate(b.pos())
    );
    let result = search_depth(&b, 12);
    let best = assert_legal(&b, result.best, "perpetual");
    assert!(
        result.score.abs() <= 10,
        "expected a draw by perpetual check, got {} with {}",
        show(result.score),
        b.uci(best)
    );
    let mut after = b.clone();
    after.make(best);
    assert!(after.in_check(), "{} is not a check", b.uci(best));
}

#[test]
fn fifty_move_rule() {
    // Halfmove clock 99, White to move with K+Q against a lone king in the centre: White
    // has no capture and no pawn move, so every move makes the clock 100, and none of
    // them mates (the black king on d5 has free squares whatever the queen does), so
    // every move draws. Without the clock White is winning by a queen.
    let fen = "8/8/8/3k4/8/8/8/Q6K w - - 99 120";
    let result = search_depth(&board(fen), 6);
    assert_eq!(result.score, 0, "{fen}: got {}", show(result.score));
    let result = search_depth(&board("8/8/8/3k4/8/8/8/Q6K w - - 0 120"), 6);
    assert!(result.score > 500, "clock 0: got {}", show(result.score));

    // A pawn move resets the clock: with a2 added White keeps the win by pushing it.
    let b = board("8/8/8/3k4/8/8/P7/Q6K w - - 99 120");
    let result = search_depth(&b, 6);
    assert!(
        result.score > 500,
        "a pawn move escapes the fifty-move draw, got {} with {}",
        show(result.score),
        uci(&b, result.best)
    );
    assert!(
        matches!(uci(&b, result.best).as_str(), "a2a3" | "a2a4"),
        "expected a pawn move, got {}",
        uci(&b, result.best)
    );

    // A checkmate on the hundredth half-move is still mate: Qb8# (Kg6 covers g7, h7).
    let b = board("7k/8/6K1/8/8/8/8/1Q6 w - - 99 120");
    let result = search_depth(&b, 6);
    assert_eq!(result.score, MATE - 1, "got {}", show(result.score));
    let best = assert_legal(&b, result.best, "mate on the 100th half-move");
    assert!(b.pos().clone().play(best).unwrap().is_checkmate());
}

#[test]
fn insufficient_material_is_a_draw() {
    for fen in [
        "8/8/8/3k4/8/8/8/B6K w - - 0 1",
        "8/8/8/3k4/8/8/8/B6K b - - 0 1",
        "8/8/8/3k4/8/8/8/6NK w - - 0 1",
    ] {
        let b = board(fen);
        let result = search_depth(&b, 8);
        assert_legal(&b, result.best, fen);
        assert_eq!(result.score, 0, "{fen}: got {}", show(result.score));
    }
}

// ---------------------------------------------------------------------------------------
// 3. Limits
// ---------------------------------------------------------------------------------------

const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

#[test]
fn node_limit() {
    // One thread: every node is counted and checked against the limit (not only every
    // `CHECK_INTERVAL` = 1024 nodes), so the search stops at the limit plus the few nodes
    // its unwinding re-enters (how many: docs/testing.md).
    let b = board(MIDDLEGAME);
    for n in [1, 5_000, 100_000, 400_000] {
        let limits = Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        let (result, infos) = search(&b, &limits, &SearchOptions::default());
        assert_legal(&b, result.best, "go nodes");
        assert!(
            (n..=n + 2048).contains(&result.nodes),
            "go nodes {n} searched {}",
            result.nodes
        );
        assert!(infos.iter().all(|i| i.nodes <= result.nodes));
    }
}

#[test]
fn node_limit_with_helpers() {
    // With helpers, the main thread sees their nodes only when flushed (every 1024) and
    // the helpers stop only once the main thread has unwound and set `helpers_stop`, then
    // at their next check: about 2×1024 over when nothing else runs, but the gap between
    // the main thread stopping and telling the helpers is scheduling-dependent (56 920 for
    // 50 000 was seen once on this loaded 2-core machine). So only a loose bound here.
    let _lock = timing_lock();
    let b = board(MIDDLEGAME);
    for threads in [2, 3] {
        let n = 50_000;
        let limits = Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        let options = SearchOptions {
            threads,
            ..SearchOptions::default()
        };
        let (result, _) = search(&b, &limits, &options);
        assert_legal(&b, result.best, "go nodes");
        assert!(
            (n..2 * n).contains(&result.nodes),
            "go nodes {n} with {threads} threads searched {}",
            result.nodes
        );
    }
}

#[test]
fn node_limit_too_small_for_one_iteration_still_gives_a_valid_score() {
    // `go nodes 1`: the first child node reaches the limit, so no root move gets a score
    // and `iterate` returns the `-INFINITY` sentinel (best_score's initial value) as the
    // result's score, outside [-MATE, MATE] (`mate_moves` reads it as "mated now"). The
    // move returned (the first legal move) is fine; the score should be a real one (e.g.
    // the static evaluation or 0), as it is with a slightly larger limit (nodes 30).
    let b = board(MIDDLEGAME);
    for n in [1, 2] {
        let limits = Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        let (result, _) = search(&b, &limits, &SearchOptions::default());
        assert_legal(&b, result.best, "go nodes");
        assert!(
            result.score.abs() <= MATE,
            "go nodes {n}: score {} (depth {})",
            result.score,
            result.depth
        );
    }
}

#[test]
fn depth_limit() {
    let b = board(MIDDLEGAME);
    for depth in [1, 5, 9] {
        let (result, infos) = search(&b, &Limits::depth(depth), &SearchOptions::default());
        assert_legal(&b, result.best, "go depth");
        assert_eq!(result.depth, depth);
        let last = infos.last().expect("reports");
        assert_eq!(last.depth, depth, "last iteration");
        assert_eq!(last.bound, Bound::Exact);
        assert!(infos.iter().all(|i| i.depth <= depth), "deeper than asked");
        assert!(
            infos.windows(2).all(|w| w[0].depth <= w[1].depth),
            "depths must not decrease"
        );
        assert_eq!(last.pv.first().copied(), result.best);
        assert_eq!(last.score, result.score);
        assert_pv_legal(&b, &last.pv, "go depth");
    }
}

#[test]
fn mate_limit_stops_when_the_mate_is_found() {
    // Found as mate 2 from depth 8. Without `mate`, a mate is confirmed by iterating on to
    // depth 2·(4 + 3) = 14 before stopping, so stopping below that proves `go mate` did it.
    let _lock = timing_lock();
    let b = board(MATE_IN_2[2]);
    let limits = Limits {
        mate: Some(2),
        ..Limits::default()
    };
    assert!(!limits.is_infinite());
    let start = Instant::now();
    let (result, infos) = search(&b, &limits, &SearchOptions::default());
    let elapsed = start.elapsed();
    assert_eq!(mate_moves(result.score), 2, "got {}", show(result.score));
    assert!(result.score > 0 && is_mate(result.score));
    assert!(result.depth < 14, "searched on to depth {}", result.depth);
    assert_eq!(infos.last().unwrap().depth, result.depth);
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
    // The line found really mates.
    let pv = &infos.last().unwrap().pv;
    assert_pv_legal(&b, pv, "go mate");
    let mut pos = b.pos().clone();
    for m in pv.iter().take(3) {
        pos.play_unchecked(*m);
    }
    assert!(pos.is_checkmate(), "PV {pv:?} does not mate in 2");
}

#[test]
fn searchmoves_restricts_the_root() {
    let b = board(STARTPOS);
    let allowed: Vec<Move> = ["g1h3", "b1a3", "a2a3"]
        .iter()
        .map(|m| b.parse_uci(m).unwrap())
        .collect();
    let limits = Limits {
        depth: Some(8),
        searchmoves: allowed.clone(),
        ..Limits::default()
    };
    let (result, infos) = search(&b, &limits, &SearchOptions::default());
    let best = assert_legal(&b, result.best, "searchmoves");
    assert!(allowed.contains(&best), "best {} not allowed", b.uci(best));
    for info in &infos {
        assert!(allowed.contains(&info.pv[0]), "reported {:?}", info.pv);
    }

    // The mating move excluded: the search must not play it nor report mate in 1.
    let b = board(MATE_IN_1[0]);
    let mate = search_depth(&b, 4).best.unwrap();
    let others: Vec<Move> = b.legal_moves().into_iter().filter(|m| *m != mate).collect();
    let limits = Limits {
        depth: Some(4),
        searchmoves: others,
        ..Limits::default()
    };
    let (result, _) = search(&b, &limits, &SearchOptions::default());
    assert_ne!(result.best, Some(mate));
    assert!(
        !(is_mate(result.score) && mate_moves(result.score) == 1),
        "mate in 1 without the mating move: {}",
        show(result.score)
    );

    // A single allowed move is returned even when it loses.
    let b = board(MIDDLEGAME);
    let only = b.parse_uci("c4f7").unwrap(); // Bxf7+ Kxf7: a bishop for a pawn
    let limits = Limits {
        depth: Some(6),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let (result, _) = search(&b, &limits, &SearchOptions::default());
    assert_eq!(result.best, Some(only));
}

#[test]
fn movetime_limit() {
    let _lock = timing_lock();
    let b = board(MIDDLEGAME);
    let limits = Limits {
        movetime: Some(Duration::from_millis(200)),
        ..Limits::default()
    };
    let (result, elapsed) = timed_search(&b, &limits, &SearchOptions::default(), "movetime");
    assert!(
        elapsed < Duration::from_millis(400),
        "movetime 200 took {elapsed:?}"
    );
    assert!(result.depth >= 3, "only depth {} in 200 ms", result.depth);
}

#[test]
fn clock_limit() {
    let _lock = timing_lock();
    let b = board(MIDDLEGAME);
    for threads in [1, 2] {
        let limits = Limits {
            time: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        let options = SearchOptions {
            threads,
            ..SearchOptions::default()
        };
        let (result, elapsed) = timed_search(&b, &limits, &options, "wtime 1000");
        // Sudden death with 1 s left: a move must take a small share of it.
        assert!(
            elapsed < Duration::from_millis(500),
            "1 s on the clock, {threads} thread(s): took {elapsed:?}"
        );
        assert!(result.depth >= 1);
    }
}

const ENDGAME: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const SINGLE_REPLY: &str = "7k/8/6K1/8/8/8/8/7R b - - 0 1";

/// How long a search of `b` with `clock` left on our side's clock (sudden death,
/// default options) took: the fastest of `timed_search`'s runs.
fn search_on_clock(b: &Board, clock: Duration) -> Duration {
    let limits = Limits {
        time: Some(clock),
        ..Limits::default()
    };
    timed_search(b, &limits, &SearchOptions::default(), "search on a clock").1
}

#[test]
fn tiny_clock_stays_inside_the_hard_limit() {
    let _lock = timing_lock();
    // 300 ms on the clock less the Move Overhead: whatever the best-move stability and node
    // share make of the soft limit, the hard limit is at most TIME_HARD_MAX_PERCENT of
    // that, and the search must end by then (with slack for the scheduler), well inside
    // the clock. With 100 ms on the clock the bound (54 + 40 ms) measured the scheduler:
    // the best of three runs took 107 ms beside two CI builds (load average 17 on 2 cores).
    const CLOCK: Duration = Duration::from_millis(300);
    let left = CLOCK - SearchOptions::default().move_overhead;
    let hard_limit = left.mul_f64(f64::from(TIME_HARD_MAX_PERCENT()) / 100.0);
    assert!(hard_limit + SCHEDULER_SLACK < CLOCK);
    for fen in [MIDDLEGAME, STARTPOS, ENDGAME] {
        let elapsed = search_on_clock(&board(fen), CLOCK);
        assert!(
            elapsed < hard_limit + SCHEDULER_SLACK,
            "{fen}: {CLOCK:?} on the clock, took {elapsed:?}"
        );
    }
}

#[test]
fn a_single_legal_move_is_played_at_once() {
    let _lock = timing_lock();
    // Black's king on h8, checked by the rook on h1, has only Kg8 (the king on g6 covers
    // g7 and h7); with a minute on the clock the move must not take seconds.
    let b = board(SINGLE_REPLY);
    assert_eq!(b.legal_moves().len(), 1);
    let elapsed = search_on_clock(&b, Duration::from_secs(60));
    assert!(
        elapsed < Duration::from_millis(500),
        "one legal move, 60 s on the clock: took {elapsed:?}"
    );
}

// ---------------------------------------------------------------------------------------
// 4. Determinism
// ---------------------------------------------------------------------------------------

#[test]
fn bench_is_deterministic() {
    // Default depth (11) takes under a second on one thread here.
    // The engine's default evaluation, the embedded network, as `cutoff bench` uses it.
    let depth = bench::DEFAULT_DEPTH;
    let network = Arc::new(nnue::embedded());
    let run = || {
        let mut lines = Vec::new();
        let (nodes, _) = bench::run(
            depth,
            1,
            bench::DEFAULT_HASH_MB,
            Some(network.clone()),
            |l| {
                lines.push(l.nodes);
            },
        )
        .expect("bench");
        assert_eq!(lines.len(), bench::POSITIONS.len());
        assert_eq!(lines.iter().sum::<u64>(), nodes);
        (nodes, lines)
    };
    let first = run();
    let second = run();
    assert!(first.0 > 0);
    assert_eq!(
        first, second,
        "bench {depth} node counts differ between runs"
    );

    // The binary prints the same signature as the library, with either evaluation.
    let bench_binary = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .arg("bench")
            .args(args)
            .output()
            .expect("run cutoff bench");
        assert!(out.status.success(), "cutoff bench failed: {out:?}");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        let last = text.lines().last().expect("output").trim().to_string();
        let fields: Vec<&str> = last.split(' ').collect();
        assert!(
            fields.len() == 4
                && fields[1] == "nodes"
                && fields[3] == "nps"
                && [fields[0], fields[2]]
                    .iter()
                    .all(|f| !f.is_empty() && f.bytes().all(|c| c.is_ascii_digit())),
            "last line {last:?} does not match ^\\d+ nodes \\d+ nps$"
        );
        fields[0].parse::<u64>().unwrap()
    };
    let a = bench_binary(&[]);
    let b = bench_binary(&[]);
    assert_eq!(a, b, "cutoff bench node counts differ between runs");
    assert_eq!(a, first.0, "cutoff bench disagrees with bench::run");
    let hand_crafted = bench::run(depth, 1, bench::DEFAULT_HASH_MB, None, |_| {}).expect("bench");
    assert_eq!(
        bench_binary(&["--hce"]),
        hand_crafted.0,
        "cutoff bench --hce disagrees with bench::run"
    );
}

// ---------------------------------------------------------------------------------------
// 5. MultiPV
// ---------------------------------------------------------------------------------------

#[test]
fn multipv_reports_distinct_ordered_lines() {
    let b = board(MIDDLEGAME);
    let options = SearchOptions {
        multipv: 3,
        ..SearchOptions::default()
    };
    let (result, infos) = search(&b, &Limits::depth(8), &options);
    let lines = final_iteration(&infos);
    assert_eq!(
        lines.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert!(
        lines
            .iter()
            .all(|i| i.depth == 8 && i.bound == Bound::Exact)
    );
    assert!(
        lines.windows(2).all(|w| w[0].score >= w[1].score),
        "scores increase: {:?}",
        lines.iter().map(|i| i.score).collect::<Vec<_>>()
    );
    let firsts: Vec<Move> = lines.iter().map(|i| i.pv[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[0] != firsts[2] && firsts[1] != firsts[2],
        "first moves repeat: {firsts:?}"
    );
    for line in &lines {
        assert_pv_legal(&b, &line.pv, "multipv");
    }
    assert_eq!(result.best, Some(firsts[0]));
    assert_eq!(result.score, lines[0].score);

    // More lines asked than legal moves: as many lines as moves (Kh8: only Kg8, Kh7;
    // Kf6 covers g7).
    let b = board("7k/8/5K2/8/8/8/P7/8 b - - 0 1");
    assert_eq!(b.legal_moves().len(), 2);
    let (_, infos) = search(&b, &Limits::depth(6), &options);
    let lines = final_iteration(&infos);
    assert_eq!(lines.iter().map(|i| i.multipv).collect::<Vec<_>>(), [1, 2]);
    assert_ne!(lines[0].pv[0], lines[1].pv[0]);

    // In a mate-in-one the mate is line 1 and the other lines are not mates in one.
    let b = board(MATE_IN_1[0]);
    let (_, infos) = search(&b, &Limits::depth(4), &options);
    let lines = final_iteration(&infos);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].score, MATE - 1);
    assert!(lines[1..].iter().all(|i| i.score < MATE - 1));
}

// ---------------------------------------------------------------------------------------
// 6. A tiny table shared by several threads
// ---------------------------------------------------------------------------------------

#[test]
fn tiny_shared_table_gives_legal_moves() {
    let _lock = timing_lock();
    let path = suites::public("tactical/ECM-300.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let boards: Vec<Board> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(300)
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().take(4).collect();
            board(&format!("{} 0 1", fields.join(" ")))
        })
        .collect();
    assert_eq!(boards.len(), 300);
    for threads in [2, 4] {
        // One searcher for all positions: entries of earlier positions stay in the 64
        // buckets, so almost every probe lands on a foreign or overwritten entry.
        let mut searcher = Searcher::with_table(TranspositionTable::with_buckets(64));
        let options = SearchOptions {
            threads,
            ..SearchOptions::default()
        };
        for b in &boards {
            let what = format!("{threads} threads, {}", b.fen());
            let (result, infos) = search_with(&mut searcher, b, &Limits::depth(5), &options);
            let best = assert_legal(b, result.best, &what);
            assert_eq!(result.depth, 5, "{what}");
            assert!(result.score.abs() <= MATE, "{what}: score {}", result.score);
            if let Some(ponder) = result.ponder {
                assert_pv_legal(b, &[best, ponder], &what);
            }
            let last = infos.last().expect("reports");
            assert_eq!(last.pv.first(), Some(&best), "{what}");
            assert_pv_legal(b, &last.pv, &what);
        }
    }
}

// ---------------------------------------------------------------------------------------
// 7. Strength limiting
// ---------------------------------------------------------------------------------------

fn weakened(skill: i64) -> SearchOptions {
    SearchOptions {
        strength: Strength::from_skill_level(skill),
        ..SearchOptions::default()
    }
}

/// At the lowest level, over the bench positions, each from a fresh searcher (so the seed
/// is the position key): every move is legal, is one of the reported lines, throws away
/// less than the level's noise, and is not line 1 an exact number of times.
#[test]
fn lowest_level_plays_legal_moves_and_sometimes_not_the_best() {
    let options = weakened(0);
    let strength = options.strength.expect("level 0 is weakened");
    let mut not_best = 0;
    for fen in bench::POSITIONS {
        let b = board(fen);
        let (result, infos) = search(&b, &Limits::depth(60), &options);
        let best = assert_legal(&b, result.best, fen);
        let (infos, shown) = split_choice(&infos);
        let lines = final_iteration(infos);
        assert_eq!(
            lines.len(),
            strength.lines().min(b.legal_moves().len()),
            "{fen}: lines searched"
        );
        let chosen = lines
            .iter()
            .find(|i| i.pv[0] == best)
            .unwrap_or_else(|| panic!("{fen}: {} is none of the lines", b.uci(best)));
        assert_eq!(result.score, chosen.score, "{fen}");
        assert_eq!(result.ponder, chosen.pv.get(1).copied(), "{fen}");
        // The line played is shown last: it was line 1 already, or it follows.
        match shown {
            Some(line) => assert_eq!(
                (line.pv.as_slice(), line.score),
                (chosen.pv.as_slice(), chosen.score),
                "{fen}"
            ),
            None => assert_eq!(chosen.multipv, 1, "{fen}"),
        }
        assert!(
            lines[0].score - chosen.score < strength.noise(),
            "{fen}: {} gives up {} cp",
            b.uci(best),
            lines[0].score - chosen.score
        );
        // The node budget, not the depth limit, ended the search.
        assert!(result.depth < 12, "{fen}: depth {}", result.depth);
        not_best += usize::from(chosen.multipv != 1);
    }
    assert_eq!((bench::POSITIONS.len(), not_best), (50, 20));
}

/// The stated mate policy: a mate the search has seen is played, at every level; mate in
/// one is always seen (depth 1 completes before the budget is checked).
#[test]
fn weakened_engine_never_misses_a_mate_in_one() {
    let mut searcher = Searcher::new(16).expect("16 MB table");
    for skill in [0, 7, 19] {
        for fen in MATE_IN_1 {
            let b = board(fen);
            // Repeated searches draw different seeds (the search count is part of it).
            for _ in 0..5 {
                let (result, _) =
                    search_with(&mut searcher, &b, &Limits::depth(60), &weakened(skill));
                let best = assert_legal(&b, result.best, fen);
                assert_eq!(result.score, MATE - 1, "{fen} at level {skill}");
                let after = b.pos().clone().play(best).expect("legal");
                assert!(
                    after.is_checkmate(),
                    "{fen}: {} at level {skill}",
                    b.uci(best)
                );
            }
        }
    }
}

/// Every level, 0 to 19, plays a legal move that is one of its reported lines, in
/// quiet, tactical and endgame positions.
#[test]
fn every_level_plays_legal_moves() {
    for skill in 0..20 {
        for fen in [
            MIDDLEGAME,
            STARTPOS,
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let b = board(fen);
            let (result, infos) = search(&b, &Limits::depth(60), &weakened(skill));
            let best = assert_legal(&b, result.best, &format!("level {skill}"));
            let last = infos.last().expect("a weakened search reports its lines");
            assert!(
                infos
                    .iter()
                    .any(|i| i.depth == last.depth && i.pv.first() == Some(&best)),
                "level {skill}, {fen}: {} is not a reported line",
                b.uci(best)
            );
        }
    }
}

/// White's material lead (pawn 1, minor 3, rook 5, queen 9): the adjudication of an
/// unfinished game below.
fn white_material_lead(b: &Board) -> i32 {
    let board = b.pos().board();
    let value = |color| {
        let side = board.by_color(color);
        let count = |role| (board.by_role(role) & side).count() as i32;
        count(shakmaty::Role::Pawn)
            + 3 * (count(shakmaty::Role::Knight) + count(shakmaty::Role::Bishop))
            + 5 * count(shakmaty::Role::Rook)
            + 9 * count(shakmaty::Role::Queen)
    };
    value(shakmaty::Color::White) - value(shakmaty::Color::Black)
}

/// Plies after which a game of the match below is adjudicated by material.
const MATCH_PLIES: usize = 160;

/// Plays one game from `fen` between two levels (`white`, `black`), each at its own node
/// budget; returns White's points. Checkmate wins; stalemate, insufficient material and
/// the fifty-move rule draw; after MATCH_PLIES plies a side a pawn or more ahead wins.
fn play_game(fen: &str, white: i64, black: i64) -> f64 {
    let mut searchers = [
        Searcher::new(16).expect("16 MB table"),
        Searcher::new(16).expect("16 MB table"),
    ];
    let mut b = board(fen);
    for _ in 0..MATCH_PLIES {
        let pos = b.pos();
        if pos.is_checkmate() {
            return if pos.turn().is_white() { 0.0 } else { 1.0 };
        }
        if pos.is_stalemate() || pos.is_insufficient_material() || pos.halfmoves() >= 100 {
            return 0.5;
        }
        let (index, skill) = if pos.turn().is_white() {
            (0, white)
        } else {
            (1, black)
        };
        let (result, _) = search_with(
            &mut searchers[index],
            &b,
            &Limits::depth(60),
            &weakened(skill),
        );
        let m = assert_legal(&b, result.best, &format!("level {skill} in a game"));
        b.make(m);
        b.commit();
    }
    match white_material_lead(&b).signum() {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    }
}

/// A short match between level 0 and level 10 (about 400 Elo apart on the calibrated
/// scale, docs/strength.md), each opening played with both colours: the lower level
/// scores lower. Node budgets make it the same match on any machine.
#[test]
fn a_lower_level_scores_lower_in_a_short_match() {
    let openings = [
        STARTPOS,
        MIDDLEGAME,
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
        "rnbqk2r/ppp1ppbp/3p1np1/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 0 5",
    ];
    let (low, high) = (0, 10);
    let mut low_points = 0.0;
    for fen in openings {
        low_points += play_game(fen, low, high);
        low_points += 1.0 - play_game(fen, high, low);
    }
    let games = 2.0 * openings.len() as f64;
    assert!(
        low_points < games / 2.0,
        "level {low} scored {low_points} of {games} against level {high}"
    );
}

/// Each level down spends fewer nodes (the budget halves every two levels).
#[test]
fn lower_levels_search_fewer_nodes() {
    let b = board(MIDDLEGAME);
    let nodes: Vec<u64> = [0, 6, 12, 18]
        .iter()
        .map(|&skill| search(&b, &Limits::depth(60), &weakened(skill)).0.nodes)
        .collect();
    assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{nodes:?}");
    assert_eq!(nodes, [1464, 8935, 76139, 656767]);
}

// ---------------------------------------------------------------------------------------
// 8. Defects found in review (issue 28)
// ---------------------------------------------------------------------------------------

/// A null-move test position (Black to move): Nxd5 wins, but after it White is in
/// zugzwang, which a search that may pass cannot see. A null move that fails high at a
/// deep node is verified by a search without null moves; when that verification kept them
/// off at its own node only, White passed again two plies on and Nxd5 was first chosen at
/// depth 21, and with null moves off for most of the verification's depth at 18. Later
/// searches moved those depths (20 against 23, then 22 against 26), and with the
/// SPSA-tuned constants the order turned: Nxd5 at depth 27 (11.9 M nodes) with the span,
/// at 20 with the verifying node alone. A search's depth for one position is too chaotic
/// to judge the span by, so the span has its own test
/// (`null_moves_stay_off_for_most_of_a_verification`, in `alphabeta.rs`); this one keeps
/// the zugzwang found, at depth 28 (15.3 M nodes: too long for the default run, so
/// `.ci/run` runs it alone).
#[test]
#[ignore = "a 15 M-node search: .ci/run runs it alone, with --ignored"]
fn null_move_verification_sees_the_zugzwang() {
    let fen = "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1";
    let b = board(fen);
    let result = search_depth(&b, 28);
    assert_eq!(
        uci(&b, result.best),
        "f4d5",
        "{fen}: {}",
        show(result.score)
    );
}
