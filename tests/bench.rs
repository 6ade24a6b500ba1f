//! The regression pin: `cutoff bench` must count the nodes that the latest commit message
//! with a `Bench: <nodes>` line names (the OpenBench convention: every commit that touches
//! the engine ends with one). A change that claims to leave the search tree alone (a
//! speed-up, a refactoring) but changes it fails here, in CI, instead of going unnoticed.
//!
//! The history read is the first-parent line of `HEAD`: the commits that landed on the
//! branch, merge commits included, so a merge that changes the count must name the new
//! one. Outside a git checkout (a source archive) there is no history to read, and the
//! test says so and passes; in a checkout, a history without any `Bench:` line fails.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The prefix of the line that names the node count in a commit message.
const BENCH_PREFIX: &str = "Bench: ";

/// The root of the checkout this package was built from, or None when the package does
/// not sit at the top of a git work tree (or git cannot be run).
fn checkout_root(manifest_dir: &Path) -> Option<PathBuf> {
    let out = Command::new("git")
        .arg("-C")
        .arg(manifest_dir)
        .args(["rev-parse", "--show-toplevel"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let top = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim_end());
    // A package unpacked inside some other repository is not a checkout of this one.
    let same = |a: &Path, b: &Path| a.canonicalize().ok() == b.canonicalize().ok();
    same(&top, manifest_dir).then_some(top)
}

/// The node count of the newest `Bench: <nodes>` line on the first-parent history of
/// `HEAD` in `root`, with the commit that carries it; None if no message has one.
fn latest_bench(root: &Path) -> Option<(u64, String)> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        // %x00 ends each message, so that a message's own lines cannot be mistaken for
        // the next commit's.
        .args(["log", "--first-parent", "--format=%h%n%B%x00", "HEAD"])
        .output()
        .expect("git log");
    assert!(out.status.success(), "git log failed: {out:?}");
    let log = String::from_utf8(out.stdout).expect("git log prints UTF-8");
    log.split('\0').find_map(|message| {
        let mut lines = message.trim_start().lines();
        let commit = lines.next()?.to_string();
        // The last such line counts, should a message quote an older one above it.
        let nodes = lines
            .filter_map(|l| l.trim().strip_prefix(BENCH_PREFIX))
            .filter_map(|n| n.trim().parse::<u64>().ok())
            .next_back()?;
        Some((nodes, commit))
    })
}

/// The node count `cutoff bench` prints on its last line (`<nodes> nodes <nps> nps`).
fn bench_nodes() -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .arg("bench")
        .output()
        .expect("run cutoff bench");
    assert!(out.status.success(), "cutoff bench failed: {out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let last = text
        .lines()
        .next_back()
        .expect("cutoff bench printed nothing");
    let nodes = last
        .strip_suffix(" nps")
        .and_then(|l| l.split_once(" nodes "));
    nodes
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("last line {last:?} is not '<nodes> nodes <nps> nps'"))
}

#[test]
fn bench_matches_the_latest_commit_message() {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(root) = checkout_root(manifest_dir) else {
        assert!(
            !manifest_dir.join(".git").exists(),
            "{} has a .git but `git rev-parse` fails there: is git installed?",
            manifest_dir.display()
        );
        println!(
            "not a git checkout ({}): no commit message to pin `cutoff bench` to; skipped",
            manifest_dir.display()
        );
        return;
    };
    let (expected, commit) = latest_bench(&root).unwrap_or_else(|| {
        panic!(
            "no commit message on the first-parent history of HEAD in {} ends with \
             'Bench: <nodes>' (a shallow clone? fetch the history)",
            root.display()
        )
    });
    let nodes = bench_nodes();
    assert_eq!(
        nodes, expected,
        "`cutoff bench` counts {nodes} nodes, commit {commit} says 'Bench: {expected}'. \
         If the search tree was meant to change, end the commit message with 'Bench: {nodes}'."
    );
}
