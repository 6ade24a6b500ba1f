//! Chooses the network compiled into the engine: `engine/nets/default.nnue`, or the file
//! the `EVALFILE` environment variable names (OpenBench's worker builds a network test
//! with `make EVALFILE=<absolute path>`, and the Makefile passes it on). The chosen path
//! reaches `nnue::EMBEDDED` as `CUTOFF_EVALFILE`.
//!
//! A build script cannot run the crate it builds, so the engine's own reader cannot vet
//! the file here; this script refuses what is plainly not a network (a missing file, a
//! wrong magic, a size the header does not declare, a payload whose checksum differs),
//! so that a bad `EVALFILE` fails the build rather than giving an engine that aborts at
//! start-up. The Makefile then runs the built engine once, whose reader checks the rest.

use std::path::{Path, PathBuf};

/// The first bytes of every network file (`nnue::network::MAGIC`).
const MAGIC: &[u8] = b"CUTOFFNN";
/// The header's size; the payload's length is the u64 at byte 40 and its FNV-1a
/// checksum the u64 at byte 48 (`nnue::network`'s format).
const HEADER_BYTES: usize = 64;
const PAYLOAD_LEN_AT: usize = 40;
const CHECKSUM_AT: usize = 48;

fn main() {
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let network = match std::env::var_os("EVALFILE").filter(|v| !v.is_empty()) {
        Some(path) => PathBuf::from(path),
        None => Path::new(&std::env::var_os("CARGO_MANIFEST_DIR").expect("set by Cargo"))
            .join("nets")
            .join("default.nnue"),
    };
    if let Err(e) = check(&network) {
        // Cargo shows a build script's stderr when it fails.
        eprintln!("error: EVALFILE={}: {e}", network.display());
        std::process::exit(1);
    }
    println!("cargo:rerun-if-changed={}", network.display());
    println!("cargo:rustc-env=CUTOFF_EVALFILE={}", network.display());
}

/// Why `path` cannot be the embedded network, if it cannot.
fn check(path: &Path) -> Result<(), String> {
    // `include_bytes!` resolves a relative path against the source file that names it,
    // not against the directory `make` or `cargo` ran in: only an absolute one is clear.
    if !path.is_absolute() {
        return Err("the path must be absolute (the Makefile makes it so)".to_string());
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    if !bytes.starts_with(MAGIC) {
        return Err("not a Cutoff network file (it does not start with CUTOFFNN)".to_string());
    }
    let (header, payload) = bytes
        .split_at_checked(HEADER_BYTES)
        .ok_or_else(|| format!("{} bytes, shorter than the header", bytes.len()))?;
    let u64_at = |at: usize| {
        let mut field = [0; 8];
        field.copy_from_slice(&header[at..at + 8]);
        u64::from_le_bytes(field)
    };
    let declared = u64_at(PAYLOAD_LEN_AT);
    if declared != payload.len() as u64 {
        return Err(format!(
            "the header declares a payload of {declared} bytes, the file holds {}",
            payload.len()
        ));
    }
    let checksum = payload.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    if checksum != u64_at(CHECKSUM_AT) {
        return Err("the payload's checksum differs from the header's: a corrupt file".to_string());
    }
    Ok(())
}
