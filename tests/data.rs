//! `cutoff data` and the labels datagen writes, through the real binary: text and PGN
//! conversions, shuffling, splitting, deduplication, statistics, damaged files, and the
//! sign of the labels.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::{cutoff, ok};
use cutoff_engine::data::{Outcome, PackedPosition};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A few small games' worth of records (and their PGN).
fn generate(dir: &Path, seed: &str) -> (PathBuf, PathBuf) {
    let data = dir.join("games.bin");
    let pgn = dir.join("games.pgn");
    ok(&[
        "datagen",
        "--output",
        s(&data),
        "--pgn",
        s(&pgn),
        "--nodes",
        "400",
        "--games",
        "4",
        "--threads",
        "2",
        "--seed",
        seed,
    ]);
    (data, pgn)
}

fn counts(records: &[PackedPosition]) -> HashMap<[u8; 32], usize> {
    let mut counts = HashMap::new();
    for r in records {
        *counts.entry(r.0).or_default() += 1;
    }
    counts
}

/// The PGN datagen writes, in fastchess's comment form, converts back to exactly the
/// records datagen wrote for the same games: the labels survive the trip through PGN.
#[test]
fn pgn_of_datagen_games_gives_the_same_records() {
    let scratch = common::scratch("data", "pgn");
    let dir = scratch.path();
    let (data, pgn) = generate(dir, "21");
    let converted = dir.join("converted.bin");
    let summary = ok(&["data", "from-pgn", s(&pgn), "--output", s(&converted)]);
    assert!(
        summary.contains("4 games converted (0 skipped)"),
        "{summary}"
    );
    let original = common::read_records(&data);
    assert!(original.len() > 30);
    assert_eq!(common::read_records(&converted), original);
}

/// A small PGN as fastchess writes it (tests/data/fastchess-sample.pgn): book moves are
/// played but not kept, a capture's position is not kept, scores are from the mover's
/// view and become White's view, and the result labels every record.
#[test]
fn a_fastchess_pgn_converts_with_datagen_filters() {
    let scratch = common::scratch("data", "fastchess");
    let dir = scratch.path();
    let out = dir.join("sample.bin");
    let summary = ok(&[
        "data",
        "from-pgn",
        "tests/data/fastchess-sample.pgn",
        "--output",
        s(&out),
    ]);
    assert!(
        summary.contains("2 games converted (1 skipped)"),
        "{summary}"
    );
    let records = common::read_records(&out);
    let labels: Vec<(String, i16, Outcome)> = records
        .iter()
        .map(|r| {
            let sample = r.unpack().unwrap();
            (sample.board.fen(), sample.white_score, sample.outcome)
        })
        .collect();
    let expected: Vec<(String, i16, Outcome)> =
        std::fs::read_to_string("tests/data/fastchess-sample.expected")
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let sample = cutoff_engine::data::parse_text_line(l).unwrap();
                (sample.board.fen(), sample.white_score, sample.outcome)
            })
            .collect();
    assert_eq!(labels, expected);
}

/// A PGN that is not all UTF-8 (a player's name in Latin-1) converts as the same PGN
/// in UTF-8 does: the bad byte costs nothing (it used to refuse the whole file).
#[test]
fn a_latin1_player_name_costs_no_game() {
    let scratch = common::scratch("data", "latin1");
    let dir = scratch.path();
    let mut bytes = std::fs::read("tests/data/fastchess-sample.pgn").unwrap();
    let name = b"cutoff-a";
    let at = bytes.windows(name.len()).position(|w| w == name).unwrap();
    bytes.splice(at..at + name.len(), *b"Jos\xe9");
    let pgn = dir.join("latin1.pgn");
    std::fs::write(&pgn, &bytes).unwrap();
    let (reference, converted) = (dir.join("reference.bin"), dir.join("latin1.bin"));
    for (input, output) in [
        ("tests/data/fastchess-sample.pgn", &reference),
        (s(&pgn), &converted),
    ] {
        ok(&["data", "from-pgn", input, "--output", s(output)]);
    }
    assert_eq!(
        common::read_records(&converted),
        common::read_records(&reference)
    );
}

#[test]
fn text_round_trips_and_shuffles_are_permutations() {
    let scratch = common::scratch("data", "tools");
    let dir = scratch.path();
    let (data, _) = generate(dir, "22");
    let original = common::read_records(&data);

    let text = dir.join("data.txt");
    let back = dir.join("back.bin");
    ok(&["data", "to-text", s(&data), "--output", s(&text)]);
    ok(&["data", "from-text", s(&text), "--output", s(&back)]);
    assert_eq!(common::read_records(&back), original);
    assert_eq!(
        std::fs::read_to_string(&text).unwrap().lines().count(),
        original.len()
    );

    // In memory and in shards of ~10 records: the same records, in another order, and
    // the same order again for the same seed.
    let mut orders = Vec::new();
    for (name, memory) in [("a", "1"), ("b", "0.0003"), ("c", "0.0003")] {
        let out = dir.join(format!("shuffled-{name}.bin"));
        let summary = ok(&[
            "data",
            "shuffle",
            s(&data),
            "--output",
            s(&out),
            "--seed",
            "5",
            "--memory-mb",
            memory,
        ]);
        let shuffled = common::read_records(&out);
        assert_eq!(counts(&shuffled), counts(&original));
        assert_ne!(shuffled, original);
        orders.push((summary, shuffled));
    }
    assert!(orders[1].0.contains("shard(s)") && !orders[1].0.contains("(1 shard"));
    assert_eq!(orders[1].1, orders[2].1);
    // A shard size that is not a positive number is a usage error, not a shard a record.
    for memory in ["0", "-1", "NaN", "inf"] {
        let out = dir.join("refused.bin");
        let flag = format!("--memory-mb={memory}");
        let run = cutoff(&["data", "shuffle", s(&data), "--output", s(&out), &flag]);
        assert_eq!(run.status.code(), Some(2), "--memory-mb {memory}");
        assert!(String::from_utf8_lossy(&run.stderr).contains("expected a finite number above 0"));
        assert!(!out.exists());
    }

    // A split: the two parts make the whole.
    let (train, valid) = (dir.join("train.bin"), dir.join("valid.bin"));
    ok(&[
        "data",
        "split",
        s(&data),
        "--train",
        s(&train),
        "--validation-output",
        s(&valid),
        "--validation",
        "7",
    ]);
    let (t, v) = (common::read_records(&train), common::read_records(&valid));
    assert_eq!(v.len(), 7);
    assert_eq!(t.len() + 7, original.len());
    let mut both = t.clone();
    both.extend(v);
    assert_eq!(counts(&both), counts(&original));

    // Merging a file with itself doubles it; dedup brings it back.
    let (merged, unique) = (dir.join("merged.bin"), dir.join("unique.bin"));
    ok(&["data", "merge", s(&data), s(&data), "--output", s(&merged)]);
    assert_eq!(common::read_records(&merged).len(), 2 * original.len());
    ok(&["data", "dedup", s(&merged), "--output", s(&unique)]);
    let stats = ok(&["data", "stats", s(&merged)]);
    let duplicates = original.len() + original.len() - common::read_records(&unique).len();
    assert!(
        stats.contains(&format!("records: {}\n", 2 * original.len()))
            && stats.contains(&format!("duplicates: {duplicates} ")),
        "{stats}"
    );
}

/// A damaged file is refused with the offset of the fault, a non-zero exit, and no
/// output left behind.
#[test]
fn damaged_files_are_refused_by_offset() {
    let scratch = common::scratch("data", "damaged");
    let dir = scratch.path();
    let (data, _) = generate(dir, "23");
    let mut bytes = std::fs::read(&data).unwrap();
    bytes.truncate(bytes.len() - 3);
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes).unwrap();
    let out_path = dir.join("out.bin");
    let out = cutoff(&["data", "merge", s(&cut), "--output", s(&out_path)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = bytes.len() - 29;
    assert!(!out.status.success());
    assert!(
        stderr.contains(&format!("at byte {last}")) && stderr.contains("truncated"),
        "{stderr}"
    );
    assert!(!out_path.exists());
    assert!(
        std::fs::read_dir(dir).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains("partial"))
    );

    let text = dir.join("bad.txt");
    std::fs::write(&text, "8/8/8/8/8/8/8/8 w - - 0 1 | 3 | 1.0\n").unwrap();
    let out = cutoff(&["data", "from-text", s(&text), "--output", s(&out_path)]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.txt:1:"));
}

/// No tool writes over its own input: an output that names an input (directly or by
/// another path to it), or two outputs that name one file, are refused before anything
/// is written, and the input is left as it was. Input that holds no PGN game converts to
/// nothing and is an error, not an empty file.
#[test]
fn an_output_never_replaces_an_input() {
    let scratch = common::scratch("data", "same-file");
    let dir = scratch.path();
    let (data, pgn) = generate(dir, "29");
    let before = std::fs::read(&data).unwrap();
    let other_path = format!(
        "{}/../{}/games.bin",
        s(dir),
        dir.file_name().unwrap().to_str().unwrap()
    );
    let refused: Vec<Vec<&str>> = vec![
        vec!["data", "dedup", s(&data), "--output", s(&data)],
        vec!["data", "shuffle", s(&data), "--output", &other_path],
        vec!["data", "convert", s(&data), "--output", s(&data)],
        vec!["data", "to-text", s(&data), "--output", s(&data)],
        vec!["data", "from-pgn", s(&pgn), "--output", s(&pgn)],
        vec![
            "net",
            "scale",
            s(&data),
            "--output",
            s(&data),
            "--factor",
            "0.5",
        ],
        vec![
            "datagen",
            "--output",
            s(&data),
            "--pgn",
            s(&data),
            "--games",
            "1",
        ],
    ];
    for args in &refused {
        let out = cutoff(args);
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(e.contains("is the same file as the"), "{args:?}: {e}");
        assert_eq!(std::fs::read(&data).unwrap(), before, "{args:?}");
    }
    let (train, validation) = (dir.join("t.bin"), dir.join("v.bin"));
    let args = [
        "data",
        "split",
        s(&data),
        "--train",
        s(&train),
        "--validation-output",
    ];
    let out = cutoff(&[&args[..], &[s(&train), "--validation", "5"]].concat());
    assert!(!out.status.success());
    assert!(!train.exists());
    ok(&[&args[..], &[s(&validation), "--validation", "5"]].concat());

    let converted = dir.join("converted.bin");
    let out = cutoff(&["data", "from-pgn", s(&data), "--output", s(&converted)]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && e.contains("no game converted"),
        "{e}"
    );
    assert!(!converted.exists());
}

/// Each record's score is its search's score turned to White's view, and its result is
/// the game's, from White's side: the game's own PGN (the mover's score after each move),
/// replayed, says what every record must hold. The game starts a rook down for White, so
/// that most scores are far from zero and a sign taken from the wrong side would show;
/// who wins does not matter (a search of 3,000 nodes can lose it a rook up).
#[test]
fn labels_are_from_whites_view() {
    let scratch = common::scratch("data", "labels");
    let dir = scratch.path();
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR b Kkq -\n",
    )
    .unwrap();
    let (data, pgn) = (dir.join("labels.bin"), dir.join("labels.pgn"));
    ok(&[
        "datagen",
        "--output",
        s(&data),
        "--pgn",
        s(&pgn),
        "--book",
        s(&book),
        "--random-plies",
        "0",
        "--max-opening-score",
        "2000",
        "--nodes",
        "3000",
        "--games",
        "1",
        "--threads",
        "1",
        "--seed",
        "1",
    ]);
    let (outcome, white_scores) = replay(&std::fs::read_to_string(&pgn).unwrap());
    let records = common::read_records(&data);
    assert!(records.len() >= 10, "{} records", records.len());
    for record in &records {
        let fen = record.unpack().unwrap().board.fen();
        assert_eq!(record.outcome(), outcome, "{fen}");
        assert_eq!(
            Some(&i32::from(record.white_score())),
            white_scores.get(&fen),
            "{fen}"
        );
    }
    // Both sides to move appear, so the sign is not the mover's.
    assert!(records.iter().any(|r| r.turn() == Color::White));
    assert!(records.iter().any(|r| r.turn() == Color::Black));
}

/// One datagen game's PGN: its result, and the FEN of each position searched with that
/// search's score in centipawns from White's view (mate and tablebase scores left out).
fn replay(pgn: &str) -> (Outcome, HashMap<String, i32>) {
    let tag = |name: &str| {
        let start = format!("[{name} \"");
        let line = pgn.lines().find_map(|l| l.strip_prefix(&start)).unwrap();
        line.strip_suffix("\"]").unwrap().to_string()
    };
    let outcome = Outcome::parse(&tag("Result")).unwrap();
    let mut pos: Chess = Fen::from_ascii(tag("FEN").as_bytes())
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let movetext = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>();
    let mut scores = HashMap::new();
    let mut san = None;
    // Outside the braces: move numbers, SAN and the result; inside: "+4.72/6, cutoff".
    for (i, part) in movetext.join(" ").split(['{', '}']).enumerate() {
        if i % 2 == 0 {
            san = part.split_whitespace().rfind(|w| !w.ends_with('.'));
            continue;
        }
        let score = part.split('/').next().unwrap();
        if !score.contains('M') {
            let mover = (score.parse::<f64>().unwrap() * 100.0).round() as i32;
            let white = if pos.turn() == Color::White {
                mover
            } else {
                -mover
            };
            scores.insert(
                Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
                white,
            );
        }
        let mv = SanPlus::from_ascii(san.unwrap().as_bytes())
            .unwrap()
            .san
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(mv);
    }
    (outcome, scores)
}
