//! Another build of the engine evaluates and searches exactly as this one: the builds for
//! other CPUs (`make portable`, `make x86-64-v2` …) compile the same integer code to
//! other vector instructions, or to none, and must give the same numbers. `.ci/run`
//! builds the portable binary and names it in `CUTOFF_OTHER_BUILD`; without it there is
//! nothing to compare, so the test is `#[ignore]`d in the plain test run.

mod common;

use std::process::Command;

use common::{BINARY, Engine, Rng};
use cutoff_engine::board::{Board, STARTPOS};
use cutoff_engine::nnue::network::output_bucket;

const DEFAULT_NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/engine/nets/default.nnue");

/// Positions whose evaluations are compared, and how many of them are also searched.
const EVALUATED: usize = 2_000;
const SEARCHED: usize = 100;
/// Each search's budget: a few iterations, thousands of incremental updates.
const SEARCH_NODES: u32 = 10_000;

/// Positions from random games: every legal move equally likely, so captures come early
/// and 400 plies bring most games down to a few pieces (the test checks that every
/// output bucket has positions).
fn random_positions(count: usize) -> Vec<String> {
    let mut rng = Rng::new(0x5eed_b111d5);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut board = Board::from_fen(STARTPOS, false).unwrap();
        for _ in 0..400 {
            let moves = board.legal_moves();
            if moves.is_empty() || positions.len() == count {
                break;
            }
            board.make(moves[rng.below(moves.len())]);
            // One position in eight, so that a game gives positions of every stage.
            if rng.below(8) == 0 {
                positions.push(board.fen());
            }
        }
    }
    positions
}

/// The output bucket, of eight, of the position `fen` describes: its piece count's.
fn bucket(fen: &str) -> usize {
    let placement = fen.split(' ').next().expect("a FEN's first field");
    let pieces = placement.chars().filter(char::is_ascii_alphabetic).count();
    output_bucket(pieces, 8)
}

/// An engine of `binary` playing with the repository's network, whatever it embeds.
fn engine(binary: &str) -> Engine {
    let mut engine = Engine::spawn_command(Command::new(binary));
    engine.send(&format!("setoption name EvalFile value {DEFAULT_NET}"));
    let lines = engine.sync();
    assert!(
        lines.iter().any(|line| {
            line.starts_with(&format!("info string EvalFile {DEFAULT_NET}: network of"))
                && line.ends_with("read")
        }),
        "{binary} did not read {DEFAULT_NET}: {lines:?}"
    );
    engine
}

/// The network's evaluation of `fen` from White's view, as `eval` reports it.
fn evaluation(engine: &mut Engine, fen: &str) -> String {
    engine.send(&format!("position fen {fen}"));
    engine.send("eval");
    let lines = engine.sync();
    lines
        .into_iter()
        .find(|line| line.starts_with("Network, White's view:"))
        .unwrap_or_else(|| panic!("no network evaluation of {fen}\n{}", engine.context()))
}

/// A fixed-node search of `fen`: its last report without the clock's fields (time, nps),
/// and its `bestmove` line.
fn search(engine: &mut Engine, fen: &str) -> (String, String) {
    engine.send(&format!("position fen {fen}"));
    let mut lines = engine.go(&format!("go nodes {SEARCH_NODES}"));
    let bestmove = lines.pop().expect("a bestmove line");
    let report = lines
        .iter()
        .rfind(|line| line.contains(" pv "))
        .unwrap_or_else(|| panic!("no report for {fen}\n{}", engine.context()));
    let mut words = report.split_whitespace();
    let mut kept = Vec::new();
    while let Some(word) = words.next() {
        if word == "time" || word == "nps" {
            words.next();
        } else {
            kept.push(word);
        }
    }
    (kept.join(" "), bestmove)
}

#[test]
#[ignore = "needs another build of the engine in CUTOFF_OTHER_BUILD (.ci/run makes one)"]
fn another_build_evaluates_and_searches_as_this_one() {
    let other = std::env::var("CUTOFF_OTHER_BUILD")
        .expect("CUTOFF_OTHER_BUILD names the other build's binary");
    let (mut ours, mut theirs) = (engine(BINARY), engine(&other));
    let positions = random_positions(EVALUATED);
    let mut per_bucket = [0; 8];
    for fen in &positions {
        per_bucket[bucket(fen)] += 1;
    }
    assert!(
        per_bucket.iter().all(|&n| n > 0),
        "positions in every bucket: {per_bucket:?}"
    );
    for fen in &positions {
        assert_eq!(
            evaluation(&mut ours, fen),
            evaluation(&mut theirs, fen),
            "{other} evaluates {fen} otherwise"
        );
    }
    for fen in positions.iter().step_by(EVALUATED / SEARCHED) {
        assert_eq!(
            search(&mut ours, fen),
            search(&mut theirs, fen),
            "{other} searches {fen} otherwise"
        );
    }
    ours.quit();
    theirs.quit();
}
