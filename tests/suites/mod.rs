//! Where the test files find EPD suites: the copies inside the repository, and for the
//! `#[ignore]`d tests the full public suites wherever `CUTOFF_FULL_SUITES` says.

#![allow(
    dead_code,
    reason = "each test file uses its own subset of these helpers"
)]

use std::path::PathBuf;

/// The environment variable naming the folder of the full public suites (laid out as
/// `tactical/`, `mate/`, `perft/`). `.ci/run` sets it where the full suites sit beside
/// the checkout; the tests that need it are `#[ignore]`d, so that `cargo test --release`
/// reads nothing outside the repository.
pub const FULL_SUITES_VAR: &str = "CUTOFF_FULL_SUITES";

/// A file of the repository's `epd/public/` (copies of public suites; sources in
/// `epd/README.md`).
pub fn public(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("epd/public")
        .join(rel)
}

/// A file of the full public suites, for the ignored tests.
pub fn full(rel: &str) -> PathBuf {
    let dir = std::env::var_os(FULL_SUITES_VAR).unwrap_or_else(|| {
        panic!("set {FULL_SUITES_VAR} to the folder of the full public suites (see .ci/run)")
    });
    PathBuf::from(dir).join(rel)
}
