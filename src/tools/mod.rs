//! The command-line face of the binary: each subcommand of `cutoff` (datagen, data,
//! net, train, texel, epd, lab, genfens) in a module of its own, with the helpers they share
//! (network flags, files written under a temporary name, opening books read lazily).

/// `println!` for the tools' reports on stdout. A reader that has gone
/// (`cutoff datagen … | head -1`) does not stop a tool: its report goes nowhere, and what
/// it writes to its files is still written. (`println!` would panic there, and a panic
/// aborts this binary.)
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}
pub(crate) use outln;

/// A flag's value that must be a finite number above 0 (a shard's megabytes, a scale
/// factor): a clap value parser, so that 0, a negative or NaN is a usage error at once.
pub fn positive_number(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("expected a finite number above 0, not '{text}'")),
    }
}

pub mod book;
pub mod data;
pub mod data_file;
pub mod datagen;
pub mod epd;
pub mod genfens;
pub mod lab;
pub mod manifest;
pub mod net;
pub mod network_args;
pub mod pending_file;
pub mod pgn;
pub mod progress;
pub mod sha256;
pub mod texel;
pub mod train;
