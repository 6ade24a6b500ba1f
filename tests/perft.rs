//! Exact perft counts from public suites, walked through Cutoff's own `Board`, and the
//! incremental Zobrist key checked against a from-scratch hash at every node.
//!
//! The tests read `epd/public/perft/` (copies, sources in `epd/README.md`); the
//! `#[ignore]`d ones read the full suites in the folder `CUTOFF_FULL_SUITES` names
//! (see `tests/suites`), which `.ci/run` sets where the suites exist. Each suite check
//! counts the counts it compared, so that a line that stops parsing fails.

mod common;
mod suites;

use std::path::{Path, PathBuf};

use cutoff_engine::board::Board;
use cutoff_engine::perft::{divide, perft};
use rayon::prelude::*;
use shakmaty::{Position, Role};
use suites::{full, public};

/// The FEN and `(depth, count)` pairs of each line of a perft suite. A line without a
/// count fails: a format the reader no longer understands must not compare nothing.
fn suite(path: &Path) -> Vec<(String, Vec<(u32, u64)>)> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap().trim().to_string();
            let counts: Vec<(u32, u64)> = fields
                .filter_map(|f| {
                    let f = f.trim();
                    let (d, n) = f.strip_prefix('D')?.split_once(' ')?;
                    Some((d.parse().unwrap(), n.trim().parse().unwrap()))
                })
                .collect();
            assert!(
                !counts.is_empty(),
                "{}: no count in {line:?}",
                path.display()
            );
            (fen, counts)
        })
        .collect()
}

/// Checks every count of the suite at `path` up to `max_depth`, and that there were
/// exactly `compared` of them.
fn check_suite(path: &Path, max_depth: u32, chess960: bool, compared: usize) {
    let entries = suite(path);
    let counted = entries
        .iter()
        .flat_map(|(_, counts)| counts)
        .filter(|(d, _)| *d <= max_depth)
        .count();
    assert_eq!(counted, compared, "{}: counts compared", path.display());
    let failures: Vec<String> = entries
        .par_iter()
        .flat_map_iter(|(fen, counts)| {
            let mut board = Board::from_fen(fen, chess960).expect(fen);
            counts
                .iter()
                .filter(|(d, _)| *d <= max_depth)
                .filter_map(|&(d, expected)| {
                    let got = perft(&mut board, d);
                    (got != expected).then(|| format!("{fen} D{d}: got {got}, expected {expected}"))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn standard_suite_depth_4() {
    check_suite(&public("perft/standard.epd"), 4, false, 505);
}

#[test]
fn whittington_suite_depth_4() {
    check_suite(&public("perft/perft-whittington.epd"), 4, false, 518);
}

#[test]
fn fischer_first_120_depth_4() {
    check_suite(&public("perft/fischer-120.epd"), 4, true, 480);
}

/// 395 million leaves: seconds in release, and only repository files, so it runs with
/// every `cargo test` (not behind the full-suite switch).
#[test]
fn standard_suite_depth_5() {
    check_suite(&public("perft/standard.epd"), 5, false, 633);
}

#[test]
#[ignore = "needs the full suites: set CUTOFF_FULL_SUITES, run with --ignored"]
fn full_fischer_suite_depth_4() {
    check_suite(&full("perft/fischer.epd"), 4, true, 3840);
}

#[test]
#[ignore = "needs the full suites: set CUTOFF_FULL_SUITES, run with --ignored"]
fn full_marcel_suite_depth_3() {
    check_suite(&full("perft/perft-marcel.epd"), 3, false, 20_514);
}

fn check_keys(board: &mut Board, depth: u32) -> u64 {
    assert_eq!(
        board.key(),
        board.full_key(),
        "key mismatch at {}",
        board.fen()
    );
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for m in board.legal_moves() {
        let hint = board.key_after_hint(m);
        let rights = board.pos().castles().castling_rights();
        let double_push = m.role() == Role::Pawn
            && m.from()
                .is_some_and(|from| from.rank().distance(m.to().rank()) == 2);
        board.make(m);
        // The hint is the key itself unless the move takes a castling right or may
        // allow an en-passant capture.
        if rights == board.pos().castles().castling_rights() && !double_push {
            assert_eq!(hint, board.key(), "key hint for {m} in {}", board.fen());
        }
        nodes += check_keys(board, depth - 1);
        board.unmake();
    }
    nodes
}

#[test]
fn incremental_key_matches_full_hash_at_every_node() {
    for (name, depth, chess960) in [
        ("perft/standard.epd", 3, false),
        ("perft/perft-whittington.epd", 3, false),
        ("perft/fischer-120.epd", 3, true),
    ] {
        suite(&public(name)).par_iter().for_each(|(fen, _)| {
            let mut board = Board::from_fen(fen, chess960).unwrap();
            check_keys(&mut board, depth);
        });
    }
}

#[test]
fn null_move_key_matches_full_hash() {
    for (fen, _) in suite(&public("perft/standard.epd")) {
        let mut board = Board::from_fen(&fen, false).unwrap();
        for m in board.legal_moves() {
            board.make(m);
            if !board.in_check() {
                board.make_null();
                assert_eq!(
                    board.key(),
                    board.full_key(),
                    "after null in {}",
                    board.fen()
                );
                board.unmake();
            }
            board.unmake();
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let mut board = Board::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    )
    .unwrap();
    let parts = divide(&board, 3);
    assert_eq!(parts.len(), 48);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 97862);
    assert_eq!(perft(&mut board, 3), 97862);
}

/// `cutoff perft` counts with a thread count in range and refuses more than 256 threads
/// with a usage error (it once took any number, and 10,000 threads ran for minutes).
#[test]
fn the_perft_tool_bounds_its_threads() {
    let out = common::cutoff(&["perft", "3", "--threads", "2"]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 8902"),
        "{out:?}"
    );
    let out = common::cutoff(&["perft", "3", "--threads", "257"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("error:"),
        "{out:?}"
    );
}

/// Cutoff's own suite (`epd/perft.epd`, made by `scripts/make_perft_suite.py` and checked
/// there against python-chess), Chess960 lines marked `variant chess960`.
#[test]
fn own_suite_matches() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("epd/perft.epd");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let chess960 = line.contains("variant chess960");
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim();
        let mut board = Board::from_fen(fen, chess960).expect(fen);
        for field in fields {
            if let Some((d, n)) = field
                .trim()
                .strip_prefix('D')
                .and_then(|f| f.split_once(' '))
            {
                let (d, n): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
                assert_eq!(perft(&mut board, d), n, "{fen} D{d}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 240);
}
