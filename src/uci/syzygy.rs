//! Loading Syzygy tables for the `SyzygyPath` option and `cutoff epd --syzygy`, with the
//! lines that tell the user what was found. The engine reads the files; this module
//! only words its findings.

use std::io::ErrorKind;
use std::sync::Arc;

use cutoff_engine::tablebase::Tablebases;

/// What loading a `SyzygyPath` value gave.
pub struct Loaded {
    /// The tables to search with; None when none were found (or the path is empty).
    pub tablebases: Option<Arc<Tablebases>>,
    /// One line per folder, per damaged file and a total, each a sentence for the user;
    /// problems start with `error: `.
    pub messages: Vec<String>,
    /// True if a folder could not be read or a file was refused.
    pub failed: bool,
}

/// Loads the tables of every folder in `spec` (`:`-separated on Unix, `;` on Windows;
/// empty or `<empty>` turns the tables off).
pub fn load(spec: &str) -> Loaded {
    let folders = Tablebases::split_path(spec);
    if folders.is_empty() {
        return Loaded {
            tablebases: None,
            messages: vec!["Syzygy: tablebases off".to_string()],
            failed: false,
        };
    }
    let (tablebases, scans) = Tablebases::load(&folders);
    let mut messages = Vec::new();
    let mut failed = false;
    for scan in &scans {
        let folder = scan.folder.display();
        for (path, e) in &scan.rejected {
            failed = true;
            let why = if e.kind() == ErrorKind::InvalidData {
                "its size shows it is truncated or corrupt".to_string()
            } else {
                e.to_string()
            };
            messages.push(format!("error: Syzygy: skipped {}: {why}", path.display()));
        }
        match &scan.outcome {
            Ok(n) => messages.push(format!("Syzygy: {} found in {folder}", tables(*n))),
            Err(e) => {
                failed = true;
                let why = if e.kind() == ErrorKind::NotFound {
                    "no such folder".to_string()
                } else {
                    e.to_string()
                };
                messages.push(format!(
                    "error: Syzygy: cannot read {folder} ({why}), 0 tables found there"
                ));
            }
        }
    }
    if tablebases.files() == 0 {
        return Loaded {
            tablebases: None,
            messages,
            failed,
        };
    }
    messages.push(format!(
        "Syzygy: {} in all, endings of up to {} pieces",
        tables(tablebases.files()),
        tablebases.max_pieces()
    ));
    Loaded {
        tablebases: Some(Arc::new(tablebases)),
        messages,
        failed,
    }
}

/// "1 table", "5 tables".
fn tables(n: usize) -> String {
    if n == 1 {
        "1 table".to_string()
    } else {
        format!("{n} tables")
    }
}
