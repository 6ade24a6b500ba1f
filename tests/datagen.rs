//! `cutoff datagen` end to end: the record format, determinism, filters, appending and
//! resuming, targets, interrupts and bad arguments. Tiny node budgets keep each run a
//! fraction of a second.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::BINARY;
use cutoff_engine::data::{HEADER_BYTES, PackedPosition, RECORD_BYTES, Reader};
use cutoff_engine::score::MATE_BOUND;

/// `cutoff datagen --output OUTPUT ARGS…`, not yet started.
fn datagen_command(output: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(BINARY);
    command
        .arg("datagen")
        .arg("--output")
        .arg(output)
        .args(args);
    command
}

fn datagen(output: &Path, args: &[&str]) -> Output {
    datagen_command(output, args).output().unwrap()
}

/// Runs datagen into a new file and returns the file's records.
fn generate(dir: &Path, file: &str, args: &[&str]) -> Vec<PackedPosition> {
    let path = dir.join(file);
    let out = datagen(&path, args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    common::read_records(&path)
}

const SMALL: &[&str] = &["--nodes", "300", "--games", "3", "--threads", "2"];

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

#[test]
fn records_unpack_and_pass_the_filters() {
    let scratch = common::scratch("datagen", "format");
    let dir = scratch.path();
    let path = dir.join("data.bin");
    let out = datagen(&path, &with(SMALL, &["--seed", "11"]));
    assert!(out.status.success());
    let bytes = std::fs::read(&path).unwrap();
    let header = Reader::new(&bytes[..]).unwrap().header().clone();
    assert!(header.generator.starts_with("cutoff "), "{header:?}");
    let records = common::read_records(&path);
    assert_eq!(bytes.len(), HEADER_BYTES + RECORD_BYTES * records.len());
    for record in &records {
        let sample = record.unpack().unwrap();
        assert!(!sample.board.in_check(), "{record:?}");
        assert!(
            i32::from(sample.white_score).abs() < MATE_BOUND,
            "{record:?}"
        );
    }
    assert!(records.len() > 20, "only {} records", records.len());
}

/// A reader that has gone (`cutoff datagen … | head -1`) stops neither the run nor its
/// file: the report goes nowhere, and the file is the one a run with a reader writes.
#[test]
fn a_closed_stdout_does_not_stop_a_run() {
    let scratch = common::scratch("datagen", "closed-stdout");
    let dir = scratch.path();
    let path = dir.join("unread.bin");
    let mut child = datagen_command(&path, &with(SMALL, &["--seed", "11"]))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let read = generate(dir, "read.bin", &with(SMALL, &["--seed", "11"]));
    assert_eq!(common::read_records(&path), read);
}

#[test]
fn same_seed_same_file_whatever_the_threads() {
    let scratch = common::scratch("datagen", "determinism");
    let dir = scratch.path();
    let two = generate(dir, "a.bin", &with(SMALL, &["--seed", "5"]));
    let again = generate(dir, "b.bin", &with(SMALL, &["--seed", "5"]));
    let one_thread = generate(
        dir,
        "c.bin",
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
    let other_seed = generate(dir, "d.bin", &with(SMALL, &["--seed", "6"]));
    assert!(!two.is_empty());
    assert_eq!(two, again);
    assert_eq!(two, one_thread);
    assert_ne!(two, other_seed);
}

/// The embedded network plays the games unless told otherwise, `--eval-file` a network
/// file and `--hce` the hand-crafted evaluation: the same network gives the same games,
/// and they are not the hand-crafted evaluation's.
#[test]
fn a_network_plays_its_own_games() {
    let scratch = common::scratch("datagen", "network");
    let dir = scratch.path();
    let committed = concat!(env!("CARGO_MANIFEST_DIR"), "/engine/nets/default.nnue");
    let hand_crafted = generate(dir, "hce.bin", &with(SMALL, &["--seed", "5", "--hce"]));
    let embedded = generate(dir, "nnue.bin", &with(SMALL, &["--seed", "5"]));
    let file = generate(
        dir,
        "file.bin",
        &with(SMALL, &["--seed", "5", "--eval-file", committed]),
    );
    assert!(!embedded.is_empty());
    assert_eq!(embedded, file);
    assert_ne!(embedded, hand_crafted);
}

/// A second run on the same file appends new games (the seed is mixed with the records
/// already there), and cuts off a partial record a killed write left.
#[test]
fn resuming_appends_new_games() {
    let scratch = common::scratch("datagen", "append");
    let dir = scratch.path();
    let path = dir.join("data.bin");
    let first = generate(dir, "data.bin", &with(SMALL, &["--seed", "3"]));
    // A write killed half-way through a record.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(&[1, 2, 3]);
    std::fs::write(&path, &bytes).unwrap();
    let out = datagen(&path, &with(SMALL, &["--seed", "3"]));
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("partial record"));
    let both = common::read_records(&path);
    assert!(both.len() > first.len());
    assert_eq!(both[..first.len()], first[..]);
    // The new games are not the old ones again.
    let new = &both[first.len()..];
    let n = new.len().min(first.len());
    assert_ne!(new[..n], first[..n]);

    // A file that is not ours is refused, untouched.
    let foreign = dir.join("foreign.bin");
    std::fs::write(&foreign, b"earlier line\n").unwrap();
    let out = datagen(&foreign, &with(SMALL, &["--seed", "3"]));
    assert!(!out.status.success());
    assert_eq!(std::fs::read(&foreign).unwrap(), b"earlier line\n");
}

#[test]
fn a_positions_target_stops_after_the_game_that_reaches_it() {
    let scratch = common::scratch("datagen", "positions");
    let dir = scratch.path();
    let games = generate(
        dir,
        "games.bin",
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
        dir,
        "positions.bin",
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
    assert!(positions.len() >= target);
    assert!(games.len() > positions.len());
}

/// Games from a book position start with random plies (two by default): games are a
/// function of their opening, and without them every game here would be the same.
#[test]
fn a_book_supplies_the_openings() {
    let scratch = common::scratch("datagen", "book");
    let dir = scratch.path();
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "# one quiet opening\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"e4 e5\";\n",
    )
    .unwrap();
    let records = generate(
        dir,
        "data.bin",
        &with(SMALL, &["--book", book.to_str().unwrap(), "--seed", "2"]),
    );
    assert!(records.len() > 20);
    let distinct: std::collections::HashSet<_> = records.iter().map(|r| r.0).collect();
    assert_eq!(distinct.len(), records.len());
}

#[test]
fn bad_arguments_are_refused() {
    let scratch = common::scratch("datagen", "errors");
    let dir = scratch.path();
    let output = dir.join("data.bin");
    let missing = dir.join("no-such-book.epd");
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "# nothing\n").unwrap();
    let mated = dir.join("mated.epd");
    std::fs::write(
        &mated,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq -\n",
    )
    .unwrap();
    let no_folder = dir.join("no-such-folder/games.pgn");
    for (args, message) in [
        (
            vec!["--games", "1", "--book", missing.to_str().unwrap()],
            "cannot read book",
        ),
        (
            vec!["--games", "1", "--book", empty.to_str().unwrap()],
            "holds no position",
        ),
        (
            vec!["--games", "1", "--syzygy", "/no/such/folder"],
            "cannot read",
        ),
        (
            vec!["--games", "1", "--positions", "5"],
            "cannot be used with",
        ),
        (vec!["--games", "1", "--threads", "0"], "--threads"),
        (
            vec!["--games", "1", "--eval-file", missing.to_str().unwrap()],
            "no-such-book.epd",
        ),
        (
            vec!["--games", "1", "--eval-file", empty.to_str().unwrap()],
            "empty.epd",
        ),
        (
            vec![
                "--games",
                "1",
                "--hce",
                "--eval-file",
                empty.to_str().unwrap(),
            ],
            "cannot be used with",
        ),
        (
            vec!["--games", "1", "--pgn", no_folder.to_str().unwrap()],
            "cannot open",
        ),
        (
            vec!["--games", "1", "--book", mated.to_str().unwrap()],
            "no playable opening",
        ),
        (
            vec!["--games", "1", "--pgn", output.to_str().unwrap()],
            "is the same file as the output",
        ),
    ] {
        let out = datagen(&output, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    // Nothing was written by the refused runs, not even a header: the file a failed run
    // created is removed.
    assert!(!output.exists());
}

/// SIGINT lets the games in flight finish: the file holds whole games, the first ones of
/// the run, and the exit is clean.
#[test]
fn an_interrupt_leaves_whole_games() {
    let scratch = common::scratch("datagen", "interrupt");
    let dir = scratch.path();
    let path = dir.join("data.bin");
    let mut child = datagen_command(
        &path,
        &[
            "--nodes",
            "300",
            "--games",
            "100000",
            "--threads",
            "2",
            "--seed",
            "4",
        ],
    )
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let start = Instant::now();
    while std::fs::metadata(&path).map_or(0, |m| m.len()) <= HEADER_BYTES as u64 {
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
    let records = common::read_records(&path);
    // The same games, played without interruption, begin the same way.
    let reference = generate(
        dir,
        "reference.bin",
        &[
            "--nodes",
            "300",
            "--positions",
            &records.len().to_string(),
            "--seed",
            "4",
        ],
    );
    assert_eq!(records, reference);
}

/// OpenBench's genfens hands each opening out as it is found: a count too large to hold
/// (it used to reserve memory for all of them and abort) starts answering at once.
#[test]
fn genfens_streams_any_count() {
    let mut command = Command::new(BINARY);
    command.args(["genfens 1000000000000 seed 1 book None", "quit"]);
    let mut e = common::Engine::spawn_command(command);
    for _ in 0..3 {
        let line = e.recv(common::LONG).expect("an opening");
        let fen = line
            .strip_prefix("info string genfens ")
            .unwrap_or_else(|| panic!("{line}"));
        cutoff_engine::board::Board::from_fen(fen, false).unwrap();
    }
}

/// The FENs `cutoff "genfens N seed 1 book <book>" quit` answers.
fn genfens(book: &Path, count: usize) -> Vec<String> {
    let out = Command::new(BINARY)
        .arg(format!("genfens {count} seed 1 book {}", book.display()))
        .arg("quit")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    text.lines()
        .filter_map(|line| line.strip_prefix("info string genfens "))
        .map(str::to_string)
        .collect()
}

/// OpenBench plays a book named for Chess960 (FRC, 960) as Chess960: genfens keeps the
/// castling rights of such a book, as a Shredder-FEN naming the rooks' files.
#[test]
fn genfens_keeps_a_chess960_books_castling_rights() {
    let scratch = common::scratch("datagen", "genfens-frc");
    let dir = scratch.path();
    let book = dir.join("3moves_FRC.epd");
    std::fs::write(
        &book,
        "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1\n",
    )
    .unwrap();
    let fens = genfens(&book, 4);
    assert_eq!(fens.len(), 4);
    // Two random plies cannot move a king or rook here: every right stays.
    for fen in &fens {
        assert_eq!(fen.split(' ').nth(2), Some("GBgb"), "{fen}");
        cutoff_engine::board::Board::from_fen(fen, true).unwrap();
    }
}

/// A PGN book (OpenBench ships Pohl.pgn): each opening is a game's final position, then
/// random plies, so every answer is two plies past one of the games' ends.
#[test]
fn genfens_reads_a_pgn_book() {
    let scratch = common::scratch("datagen", "genfens-pgn");
    let dir = scratch.path();
    let book = dir.join("Pohl.pgn");
    std::fs::write(
        &book,
        "[Event \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
         [Event \"?\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 *\n",
    )
    .unwrap();
    let fens = genfens(&book, 6);
    assert_eq!(fens.len(), 6);
    for fen in &fens {
        assert!(fen.ends_with(" 4"), "two plies after move 3: {fen}");
        cutoff_engine::board::Board::from_fen(fen, false).unwrap();
    }
}
