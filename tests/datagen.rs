//! `cutoff datagen` end to end: the line format, determinism, filters, appending, targets,
//! interrupts and bad arguments. Tiny node budgets keep each run a fraction of a second.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::BINARY;
use cutoff_engine::datagen::parse_line;
use cutoff_engine::score::MATE_BOUND;

/// A scratch folder for one test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn datagen(output: &Path, args: &[&str]) -> Output {
    Command::new(BINARY)
        .arg("datagen")
        .arg("--output")
        .arg(output)
        .args(args)
        .output()
        .unwrap()
}

/// Runs datagen into a new file and returns the file's text.
fn generate(dir: &Path, file: &str, args: &[&str]) -> String {
    let path = dir.join(file);
    let out = datagen(&path, args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(path).unwrap()
}

const SMALL: &[&str] = &["--nodes", "300", "--games", "3", "--threads", "2"];

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

#[test]
fn lines_parse_and_pass_the_filters() {
    let dir = scratch("format");
    let text = generate(&dir, "data.txt", &with(SMALL, &["--seed", "11"]));
    let mut lines = 0;
    for line in text.lines() {
        let entry = parse_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!entry.board.in_check(), "{line}");
        assert!(entry.score.abs() < MATE_BOUND, "{line}");
        assert!([0.0, 0.5, 1.0].contains(&entry.outcome.white_points()));
        // The FEN is written in full: it reads back to the same text.
        assert_eq!(
            entry.board.fen(),
            line.split(" | ").next().unwrap(),
            "{line}"
        );
        lines += 1;
    }
    assert!(lines > 20, "only {lines} lines");
}

#[test]
fn same_seed_same_file_whatever_the_threads() {
    let dir = scratch("determinism");
    let two = generate(&dir, "a.txt", &with(SMALL, &["--seed", "5"]));
    let again = generate(&dir, "b.txt", &with(SMALL, &["--seed", "5"]));
    let one_thread = generate(
        &dir,
        "c.txt",
        &[
            "--nodes",
            "300",
            "--games",
            "3",
            "--threads",
            "1",
            "--seed",
            "5",
        ],
    );
    let other_seed = generate(&dir, "d.txt", &with(SMALL, &["--seed", "6"]));
    assert!(!two.is_empty());
    assert_eq!(two, again);
    assert_eq!(two, one_thread);
    assert_ne!(two, other_seed);
}

#[test]
fn appending_keeps_what_was_there() {
    let dir = scratch("append");
    let fresh = generate(&dir, "fresh.txt", &with(SMALL, &["--seed", "3"]));
    let path = dir.join("old.txt");
    std::fs::write(&path, "earlier line\n").unwrap();
    let out = datagen(&path, &with(SMALL, &["--seed", "3"]));
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, format!("earlier line\n{fresh}"));
}

#[test]
fn a_positions_target_stops_after_the_game_that_reaches_it() {
    let dir = scratch("positions");
    let games = generate(
        &dir,
        "games.txt",
        &[
            "--nodes",
            "300",
            "--games",
            "5",
            "--threads",
            "2",
            "--seed",
            "9",
        ],
    );
    let target = 50;
    let positions = generate(
        &dir,
        "positions.txt",
        &[
            "--nodes",
            "300",
            "--positions",
            "50",
            "--threads",
            "2",
            "--seed",
            "9",
        ],
    );
    // Whole games in index order: a prefix of the longer run, at least the target long.
    assert!(games.starts_with(&positions));
    assert!(positions.lines().count() >= target);
    assert!(games.lines().count() > positions.lines().count());
}

/// Games from a book position start with random plies (two by default): games are a
/// function of their opening, and without them every game here would be the same.
#[test]
fn a_book_supplies_the_openings() {
    let dir = scratch("book");
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "# one quiet opening\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"e4 e5\";\n",
    )
    .unwrap();
    let text = generate(
        &dir,
        "data.txt",
        &with(SMALL, &["--book", book.to_str().unwrap()]),
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 20);
    for line in &lines {
        parse_line(line).unwrap();
    }
    let distinct: std::collections::HashSet<&str> = lines.iter().copied().collect();
    assert_eq!(distinct.len(), lines.len());
}

#[test]
fn bad_arguments_are_refused() {
    let dir = scratch("errors");
    let output = dir.join("data.txt");
    let missing = dir.join("no-such-book.epd");
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "# nothing\n").unwrap();
    for (args, message) in [
        (
            vec!["--games", "1", "--book", missing.to_str().unwrap()],
            "cannot read book",
        ),
        (
            vec!["--games", "1", "--book", empty.to_str().unwrap()],
            "holds no position",
        ),
        (vec!["--nodes", "300"], "--games"),
        (
            vec!["--games", "1", "--positions", "5"],
            "cannot be used with",
        ),
        (vec!["--games", "1", "--threads", "0"], "--threads"),
    ] {
        let out = datagen(&output, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    // Nothing was written by the refused runs.
    assert!(
        std::fs::read_to_string(&output)
            .unwrap_or_default()
            .is_empty()
    );
}

/// SIGINT lets the games in flight finish: the file holds whole games, the first ones of
/// the run, and the exit is clean.
#[test]
fn an_interrupt_leaves_whole_games() {
    let dir = scratch("interrupt");
    let path = dir.join("data.txt");
    let mut child = Command::new(BINARY)
        .arg("datagen")
        .arg("--output")
        .arg(&path)
        .args(["--nodes", "300", "--games", "100000", "--threads", "2"])
        .args(["--seed", "4"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::metadata(&path).map_or(0, |m| m.len()) == 0 {
        assert!(start.elapsed() < common::LONG, "no game written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines = text.lines().count();
    // The same games, played without interruption, begin the same way.
    let reference = generate(
        &dir,
        "reference.txt",
        &[
            "--nodes",
            "300",
            "--positions",
            &lines.to_string(),
            "--seed",
            "4",
        ],
    );
    assert_eq!(text, reference);
}
