//! EPD loading with exact counts and an end-to-end run of the `cutoff epd` command with a
//! fixed node budget.
//!
//! The tests read the copies in `epd/public/` (subsets of public suites with their awkward
//! lines, sources in `epd/README.md`). The `#[ignore]`d tests check the full public suites
//! in the folder `CUTOFF_FULL_SUITES` names (see `tests/suites`); `.ci/run` runs them.

mod common;
mod suites;

use std::path::{Path, PathBuf};
use std::process::Command;

use cutoff_engine::epd::{Goal, parse_suite};
use suites::{full, public};

fn load(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Every line of `path` loads as a record whose goal passes `goal_ok`, none as an error.
fn assert_loads(path: &Path, records: usize, goal_ok: fn(&Goal) -> bool) {
    let suite = parse_suite(&load(path), false);
    assert_eq!((suite.records.len(), suite.errors.len()), (records, 0));
    assert!(suite.records.iter().all(|r| goal_ok(&r.goal)));
}

fn is_best(goal: &Goal) -> bool {
    matches!(goal, Goal::Best(_))
}

/// Matetrack's `bm #N`: a mate for (N > 0) or against (N < 0) the side to move.
fn is_mate_goal(goal: &Goal) -> bool {
    matches!(goal, Goal::Mate(n) if *n != 0)
}

#[test]
fn ecm_first_300_load() {
    assert_loads(&public("tactical/ECM-300.epd"), 300, is_best);
}

#[test]
#[ignore = "needs the full suites: set CUTOFF_FULL_SUITES, run with --ignored"]
fn full_ecm_loads() {
    assert_loads(&full("tactical/ECM.epd"), 879, is_best);
}

#[test]
fn matetrack_first_500_load() {
    assert_loads(&public("mate/matetrack-500.epd"), 500, is_mate_goal);
}

#[test]
#[ignore = "needs the full suites: set CUTOFF_FULL_SUITES, run with --ignored"]
fn full_matetrack_loads() {
    assert_loads(&full("mate/matetrack.epd"), 6554, is_mate_goal);
}

#[test]
fn zugts_loads_despite_trailing_text() {
    let suite = parse_suite(&load(&public("tactical/zugts.epd")), false);
    assert_eq!((suite.records.len(), suite.errors.len()), (30, 0));
    assert!(suite.records.iter().all(|r| r.id.is_some()));
}

#[test]
fn zugzwang_allgeuer_reports_its_split_line() {
    let suite = parse_suite(&load(&public("tactical/Zugzwang-Allgeuer.epd")), false);
    assert_eq!(suite.records.len(), 37);
    assert_eq!(suite.errors.len(), 1);
    assert_eq!(suite.errors[0].line, 7);
}

/// Every line of every file in `dir` is either a record or a reported error, only
/// Zugzwang-Allgeuer's split line is an error, and there are exactly `files` files
/// holding `records` records: a suite whose lines stop loading fails here.
fn assert_every_suite_loads(dir: &Path, files_expected: usize, records_expected: usize) {
    let mut files = 0;
    let mut records = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let suite = parse_suite(&text, false);
        let lines = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .count();
        assert_eq!(
            suite.records.len() + suite.errors.len(),
            lines,
            "{}",
            path.display()
        );
        let expected_errors = usize::from(path.ends_with("Zugzwang-Allgeuer.epd"));
        assert_eq!(
            suite.errors.len(),
            expected_errors,
            "{}: {:?}",
            path.display(),
            suite.errors
        );
        files += 1;
        records += suite.records.len();
    }
    assert_eq!(
        (files, records),
        (files_expected, records_expected),
        "files and records in {}",
        dir.display()
    );
}

#[test]
fn every_public_copy_loads() {
    assert_every_suite_loads(&public("tactical"), 5, 426);
}

#[test]
#[ignore = "needs the full suites: set CUTOFF_FULL_SUITES, run with --ignored"]
fn every_full_tactical_suite_loads() {
    assert_every_suite_loads(&full("tactical"), 13, 1720);
}

#[test]
fn lct2_impossible_castling_right_is_repaired() {
    let suite = parse_suite(&load(&public("tactical/lct2.epd")), false);
    let repaired: Vec<_> = suite
        .records
        .iter()
        .filter(|r| !r.notes.is_empty())
        .collect();
    assert_eq!(repaired.len(), 1);
    assert_eq!(repaired[0].id.as_deref(), Some("LCTII.CMB.06"));
}

/// Runs `cutoff epd` on the BK suite at 200,000 nodes a position with `extra` flags and
/// returns how many it solved, checked against the JSON report.
fn bk_solved_at_200k_nodes(extra: &[&str]) -> usize {
    let scratch = common::scratch("epd", "bk");
    let json = scratch.path().join("bk.json");
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["epd", "--nodes", "200000", "--jobs", "2", "--json"])
        .arg(&json)
        .args(extra)
        .arg(public("tactical/bk.epd"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let summary = stdout.lines().last().unwrap();
    assert!(summary.contains("24 positions"), "{summary}");
    let solved: usize = summary
        .split("solved ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(doc["files"][0]["positions"], 24);
    assert_eq!(doc["files"][0]["solved"], solved);
    solved
}

/// Fixed node budgets make the run deterministic: any change to search or evaluation
/// may move these figures, which are then updated deliberately. The run evaluates as the
/// engine does (the embedded network) unless told `--hce`.
#[test]
fn end_to_end_run_with_fixed_nodes() {
    assert_eq!(
        bk_solved_at_200k_nodes(&[]),
        EXPECTED_BK_SOLVED_WITH_THE_NETWORK
    );
    assert_eq!(
        bk_solved_at_200k_nodes(&["--hce"]),
        EXPECTED_BK_SOLVED_HAND_CRAFTED
    );
}

const EXPECTED_BK_SOLVED_WITH_THE_NETWORK: usize = 17;
const EXPECTED_BK_SOLVED_HAND_CRAFTED: usize = 17;

#[test]
fn unreadable_files_fail_the_run() {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["epd", "--nodes", "1000", "/nonexistent/file.epd"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    // A network file that is not there is refused before any search.
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args([
            "epd",
            "--nodes",
            "1000",
            "--eval-file",
            "/nonexistent/net.nnue",
        ])
        .arg(public("tactical/bk.epd"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/net.nnue"));
    assert!(out.stdout.is_empty());
    // So is a JSON report that cannot be written: said before any search, not after the
    // whole suite (at 10 million nodes a position this would take minutes otherwise).
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args([
            "epd",
            "--nodes",
            "10000000",
            "--json",
            "/nonexistent/out.json",
        ])
        .arg(public("tactical/bk.epd"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("cannot create /nonexistent/out.json.partial")
    );
    assert!(out.stdout.is_empty());
}

/// A file read whole in which no line is a position fails the run, each line's reason
/// said (it used to end "solved 0 / 0" with success).
#[test]
fn a_file_without_positions_fails_the_run() {
    let scratch = common::scratch("epd", "nothing");
    let nothing = scratch.path().join("nothing.epd");
    std::fs::write(&nothing, "not a position\n\u{1}\u{2}\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["epd", "--nodes", "1000"])
        .arg(&nothing)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 positions loaded, 2 lines skipped"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no position to search"));
}

/// `epd/mate.epd` (made by `scripts/make_mate_suite.py`): each short mate is found again,
/// with its exact distance, by the depth recorded in its `acd` (round one's search) plus
/// `MATE_DEPTH_SLACK`: a change of pruning or ordering may move a mate by a ply or two.
#[test]
fn own_mate_suite_is_proved_again() {
    use cutoff_engine::limits::Limits;
    use cutoff_engine::score::mate_moves;
    use cutoff_engine::search::{SearchOptions, Searcher};

    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("epd/mate.epd");
    let suite = parse_suite(&std::fs::read_to_string(path).unwrap(), false);
    assert_eq!((suite.records.len(), suite.errors.len()), (41, 0));
    let mut searcher = Searcher::new(16).unwrap();
    let mut checked = 0;
    for record in &suite.records {
        let Goal::Mate(n) = record.goal else {
            panic!("line {}: not a mate record", record.line)
        };
        if !(1..=2).contains(&n) {
            continue;
        }
        const MATE_DEPTH_SLACK: i32 = 2;
        let depth = record.acd.expect("acd") as i32 + MATE_DEPTH_SLACK;
        searcher.clear();
        let result = searcher.search(
            &record.board,
            &Limits::depth(depth),
            &SearchOptions::default(),
            &mut |_| {},
        );
        assert_eq!(mate_moves(result.score), n, "line {}", record.line);
        checked += 1;
    }
    assert_eq!(checked, 15);
}

/// Property test (proptest): text made of FEN fields, EPD operations, quotes, semicolons
/// and arbitrary characters never makes the EPD parser panic, and every non-blank,
/// non-comment line comes back as a record or as an error with its line number.
mod fuzz {
    use cutoff_engine::epd::parse_suite;
    use proptest::prelude::*;

    const PIECES: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "8/8/8/8/8/8/8/K6k",
        "4k3/8/8/8/8/8/8/4K2R",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR",
        "w",
        "b",
        "KQkq",
        "HAha",
        "Kk",
        "q",
        "-",
        "e3",
        "e6",
        "bm",
        "am",
        "dm",
        "id",
        "c0",
        "pm",
        "ce",
        "acd",
        "hmvc",
        "fmvn",
        "\"ECM.001\"",
        "\"Qf4=10, Re2=3\"",
        "\"",
        ";",
        "#3",
        "#-2",
        "#0",
        "Qxf7+",
        "e8=Q",
        "O-O",
        "O-O-O",
        "Kb2!?",
        "Nf3",
        "0",
        "99",
        "-5",
        "18446744073709551616",
        " ",
        "\t",
        "\r",
    ];

    fn line() -> impl Strategy<Value = String> {
        let token = prop_oneof![
            8 => prop::sample::select(PIECES).prop_map(str::to_string),
            1 => any::<String>(),
        ];
        prop::collection::vec(token, 0..14).prop_map(|t| t.join(" "))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5_000))]
        #[test]
        fn no_text_makes_the_parser_panic(
            lines in prop::collection::vec(line(), 0..6),
            chess960 in any::<bool>(),
        ) {
            let text = lines.join("\n");
            let suite = parse_suite(&text, chess960);
            let expected = text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .count();
            prop_assert_eq!(suite.records.len() + suite.errors.len(), expected);
            for e in &suite.errors {
                prop_assert!(e.line >= 1 && !e.message.is_empty());
            }
        }
    }
}

/// `--syzygy`: the tables keep the win at depth 1 (every move that keeps the rook is
/// listed as best), and a folder that cannot be read stops the run before it starts.
#[test]
fn syzygy_tables_in_an_epd_run() {
    let scratch = common::scratch("epd", "syzygy");
    let dir = scratch.path();
    let suite = dir.join("krk.epd");
    std::fs::write(
        &suite,
        "8/8/8/8/8/2k5/3R4/7K w - - bm Rd1 Ra2 Re2 Rf2 Rg2 Rh2 Rd5 Rd6 Rd7 Rd8; id \"krk\";\n",
    )
    .unwrap();
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["epd", "--depth", "1", "--syzygy"])
        .arg(&tables)
        .arg(&suite)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().next(),
        Some(format!("Syzygy: 10 tables found in {}", tables.display()).as_str())
    );
    let summary = stdout.lines().last().unwrap();
    assert!(summary.contains("solved 1 / 1"), "{stdout}");

    let missing = dir.join("missing");
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["epd", "--depth", "1", "--syzygy"])
        .arg(&missing)
        .arg(&suite)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap().trim_end(),
        format!(
            "cutoff epd: Syzygy: cannot read {} (no such folder), 0 tables found there",
            missing.display()
        )
    );
}
