//! Names the commit `cutoff` is built from, for `--version` and the UCI `id name`:
//! `CUTOFF_VERSION` is the crate version, then `(commit)` or `(commit, modified)` when
//! built inside its own git checkout. Built elsewhere (a tarball, no git installed), it is
//! the crate version alone.

use std::path::Path;
use std::process::Command;

/// What the build depends on besides git's state (the root package's files and each path
/// dependency of Cargo.toml): a change here can make a clean tree modified (or a
/// modified one clean), so the script runs again.
const SOURCES: &[&str] = &[
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "src",
    "engine",
    "lab",
    "train",
    "texel",
];

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let described = match commit() {
        Some(commit) => format!("{version} ({commit})"),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=CUTOFF_VERSION={described}");
    for source in SOURCES {
        println!("cargo:rerun-if-changed={source}");
    }
}

/// The short commit hash, with ", modified" for a dirty tree; None outside a git checkout
/// of this very directory (a tarball unpacked inside another repository names none).
fn commit() -> Option<String> {
    let dir = std::env::var("CARGO_MANIFEST_DIR").ok()?;
    let top = git(&dir, &["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != Path::new(&dir).canonicalize().ok()? {
        return None;
    }
    // Rerun when HEAD moves (checkout, commit) or the index changes (add, reset); the
    // paths are git's own, which differ in a worktree.
    // A branch's ref may be packed: then the packed file moves with it. (A path that
    // does not exist would make Cargo run the script on every build.)
    let branch = git(&dir, &["symbolic-ref", "-q", "HEAD"]);
    for path in ["HEAD", "index", "packed-refs"]
        .into_iter()
        .chain(branch.as_deref())
    {
        if let Some(p) = git(&dir, &["rev-parse", "--git-path", path])
            && Path::new(&dir).join(&p).exists()
        {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    let hash = git(&dir, &["rev-parse", "--short", "HEAD"])?;
    // Untracked files are left out: a stray log or EPD output changes no build.
    let status = git(&dir, &["status", "--porcelain", "--untracked-files=no"])?;
    Some(if status.is_empty() {
        hash
    } else {
        format!("{hash}, modified")
    })
}

/// A git command's trimmed output, if git ran and succeeded.
fn git(dir: &str, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}
