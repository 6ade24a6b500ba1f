//! The data manifest (`engine/nets/data.toml`): each training data file with what
//! identifies it (size, sha256, format, positions, games) and what remakes it (commit,
//! network, node budget, seeds, command). `cutoff data verify` checks files against it;
//! `cutoff data remake` runs the commands of the files that are missing; `cutoff data
//! manifest-entry` measures a file and prints its entry.
//!
//! The manifest is TOML, of which this reads what it writes: `[[file]]` tables of
//! `key = "string"` and `key = integer` lines, and `#` comments.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;
use cutoff_engine::games::Format;

use crate::tools::data_file::{Damage, chunks, format_of, records};
use crate::tools::sha256;

/// A value of the manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Text(String),
    Integer(u64),
}

/// One `[[file]]` table: its line in the manifest and its keys in order.
#[derive(Debug, Default)]
struct Entry {
    line: usize,
    keys: Vec<(String, Value)>,
}

impl Entry {
    fn get(&self, key: &str) -> Option<&Value> {
        self.keys.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn text(&self, key: &str) -> Result<&str, String> {
        match self.get(key) {
            Some(Value::Text(text)) => Ok(text),
            Some(Value::Integer(_)) => Err(format!("'{key}' should be a string")),
            None => Err(format!("no '{key}'")),
        }
    }

    fn integer(&self, key: &str) -> Result<Option<u64>, String> {
        match self.get(key) {
            Some(Value::Integer(n)) => Ok(Some(*n)),
            Some(Value::Text(_)) => Err(format!("'{key}' should be an integer")),
            None => Ok(None),
        }
    }
}

/// Reads a `"…"` string (with `\"` and `\\` escapes) at the start of `text`; returns it
/// and the rest of the line.
fn parse_string(text: &str) -> Result<(String, &str), String> {
    let mut value = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            // A quote is one byte, so `i + 1` is a character boundary.
            '"' => return Ok((value, text.get(i + 1..).unwrap_or_default())),
            '\\' => match chars.next() {
                Some((_, c @ ('"' | '\\'))) => value.push(c),
                _ => return Err("only \\\" and \\\\ escapes are read".into()),
            },
            c => value.push(c),
        }
    }
    Err("unterminated string".into())
}

/// The manifest's `[[file]]` tables; errors name the line.
fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries: Vec<Entry> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = |e: String| format!("line {}: {e}", i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line == "[[file]]" {
            entries.push(Entry {
                line: i + 1,
                ..Entry::default()
            });
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(at(format!(
                "expected [[file]] or key = value, got '{line}'"
            )));
        };
        let key = key.trim();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(at(format!("'{key}' is not a bare key")));
        }
        let value = value.trim();
        let (value, rest) = if value.starts_with('"') {
            let (text, rest) = parse_string(value).map_err(at)?;
            (Value::Text(text), rest)
        } else {
            let end = value
                .find(|c: char| !(c.is_ascii_digit() || c == '_'))
                .unwrap_or(value.len());
            let (digits, rest) = value.split_at_checked(end).unwrap_or((value, ""));
            let n = digits
                .replace('_', "")
                .parse()
                .map_err(|_| at(format!("'{value}' is neither a string nor an integer")))?;
            (Value::Integer(n), rest)
        };
        let rest = rest.trim();
        if !(rest.is_empty() || rest.starts_with('#')) {
            return Err(at(format!("unexpected '{rest}' after the value")));
        }
        let entry = entries
            .last_mut()
            .ok_or_else(|| at("a key outside any [[file]] table".into()))?;
        if entry.get(key).is_some() {
            return Err(at(format!("'{key}' given twice")));
        }
        entry.keys.push((key.to_string(), value));
    }
    Ok(entries)
}

/// What identifies a data file, measured.
struct Measured {
    format: Format,
    bytes: u64,
    sha256: String,
    positions: u64,
    /// Games files only: records do not keep game boundaries.
    games: Option<u64>,
    /// Damaged chunks (games files), not counted in `positions` and `games`.
    damaged: u64,
}

fn measure(path: &Path) -> Result<Measured, String> {
    let format = format_of(path)?;
    let damage = Damage::default();
    let (positions, games) = match format {
        // Every record read and checked: a cut or damaged records file has no entry.
        Format::Records => (
            records(path, &damage)?.try_fold(0, |n, record| record.map(|_| n + 1))?,
            None,
        ),
        Format::Games => chunks(path, &damage)?.fold((0, Some(0)), |(positions, games), c| {
            (
                positions + u64::from(c.positions),
                games.map(|g| g + u64::from(c.games)),
            )
        }),
    };
    Ok(Measured {
        format,
        bytes: std::fs::metadata(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .len(),
        sha256: sha256::file_hex(path)?,
        positions,
        games,
        damaged: damage.chunks(),
    })
}

/// What differs between an entry and its file; empty when they agree.
fn differences(entry: &Entry, file: &Measured) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    let mut compare = |key: &str, listed: String, measured: String| {
        if listed != measured {
            found.push(format!("{key} {measured} (manifest: {listed})"));
        }
    };
    compare(
        "format",
        entry.text("format")?.to_string(),
        file.format.name().to_string(),
    );
    let required = |key: &str| entry.integer(key)?.ok_or_else(|| format!("no '{key}'"));
    compare(
        "bytes",
        required("bytes")?.to_string(),
        file.bytes.to_string(),
    );
    compare(
        "positions",
        required("positions")?.to_string(),
        file.positions.to_string(),
    );
    if let Some(games) = file.games {
        compare("games", required("games")?.to_string(), games.to_string());
    }
    compare(
        "sha256",
        entry.text("sha256")?.to_ascii_lowercase(),
        file.sha256.clone(),
    );
    if file.damaged > 0 {
        found.push(format!("{} damaged chunk(s)", file.damaged));
    }
    Ok(found)
}

/// The manifest's entries and the folder their files are in (`dir`, else the
/// manifest's own).
fn load(manifest: &Path, dir: Option<&Path>) -> Result<(Vec<Entry>, PathBuf), String> {
    let text =
        std::fs::read_to_string(manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let entries = parse(&text).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let dir = dir.map_or_else(
        || match manifest.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
            _ => PathBuf::from("."),
        },
        Path::to_path_buf,
    );
    Ok((entries, dir))
}

/// `cutoff data verify`: every file the manifest lists, checked.
pub fn verify(manifest: &Path, dir: Option<&Path>) -> Result<String, String> {
    let (entries, dir) = load(manifest, dir)?;
    if entries.is_empty() {
        return Ok(format!(
            "{}: no [[file]] entry, nothing to check",
            manifest.display()
        ));
    }
    let mut report = String::new();
    let mut bad = 0;
    for entry in &entries {
        let fail = |e: String| format!("{}: entry at line {}: {e}", manifest.display(), entry.line);
        let name = entry.text("name").map_err(fail)?;
        let path = dir.join(name);
        let verdict = if !path.exists() {
            // What the reader needs next is the way back, so it is printed with the loss.
            format!(
                "MISSING (remade by: {})",
                entry.text("command").map_err(fail)?
            )
        } else {
            match measure(&path) {
                Ok(file) => {
                    let found = differences(entry, &file).map_err(fail)?;
                    if found.is_empty() {
                        "ok".to_string()
                    } else {
                        format!("MISMATCH: {}", found.join(", "))
                    }
                }
                Err(e) => format!("UNREADABLE: {e}"),
            }
        };
        if verdict != "ok" {
            bad += 1;
        }
        let _ = writeln!(report, "{name}: {verdict}");
    }
    if bad > 0 {
        eprint!("{report}");
        return Err(format!(
            "{bad} of {} file(s) missing or different from {}",
            entries.len(),
            manifest.display()
        ));
    }
    let _ = write!(
        report,
        "{} file(s) match {}",
        entries.len(),
        manifest.display()
    );
    Ok(report)
}

/// The arguments of an entry's command for this binary, its output renamed to
/// `partial`: the command must be `cutoff` and plain words (no quoting, no shell), and
/// its `--output` must be the entry's file.
fn remake_arguments(command: &str, name: &str, partial: &str) -> Result<Vec<String>, String> {
    let mut words = command.split_whitespace();
    if words.next() != Some("cutoff") {
        return Err("its command is not a cutoff command".into());
    }
    let mut arguments: Vec<String> = words.map(str::to_string).collect();
    if let Some(word) = arguments
        .iter()
        .find(|w| w.contains(['"', '\'', '\\', ';', '|', '&', '$', '(', ')', '<', '>', ',']))
    {
        return Err(format!("its command is not plain arguments ('{word}')"));
    }
    let output = arguments
        .iter()
        .position(|w| w == "--output")
        .and_then(|i| arguments.get_mut(i + 1))
        .filter(|w| *w == name)
        .ok_or_else(|| format!("its command's --output is not {name}"))?;
    *output = partial.to_string();
    Ok(arguments)
}

/// Where a datagen command's target is `--games N` or `--positions N` and `partial` is an
/// undamaged games file (an interrupted remake's), the arguments that complete it: the
/// target less what it holds. datagen goes on with a games file's numbering, so the
/// completed file is the one an uninterrupted run writes. None where it must start over
/// (a records file is resumed with other games).
fn continuation(arguments: &[String], partial: &Path) -> Option<Continuation> {
    let held = measure(partial).ok()?;
    if held.format != Format::Games || held.damaged > 0 {
        return None;
    }
    let at = arguments
        .iter()
        .position(|w| w == "--games" || w == "--positions")?;
    let done = if arguments[at] == "--games" {
        held.games?
    } else {
        held.positions
    };
    let target: u64 = arguments.get(at + 1)?.parse().ok()?;
    match target.checked_sub(done)? {
        0 => Some(Continuation::Complete),
        left => {
            let mut rest = arguments.to_vec();
            rest[at + 1] = left.to_string();
            Some(Continuation::Rest(rest))
        }
    }
}

/// How an interrupted remake goes on.
enum Continuation {
    /// It had written the whole file before it stopped: only the check is left.
    Complete,
    /// The command that writes the rest.
    Rest(Vec<String>),
}

/// Remakes one missing file by its entry's command, run by this binary in `dir`, into a
/// temporary file that becomes the file only once its format, positions and games are
/// the entry's. Returns what still differs from the entry (nothing when it is the file).
fn remake_file(entry: &Entry, name: &str, dir: &Path) -> Result<Vec<String>, String> {
    let partial = format!("{name}.remake");
    let mut arguments = remake_arguments(entry.text("command")?, name, &partial)?;
    let partial_path = dir.join(&partial);
    // An interrupted remake's games file is completed; anything else starts from nothing.
    let mut complete = false;
    if partial_path.exists() {
        match continuation(&arguments, &partial_path) {
            Some(Continuation::Complete) => complete = true,
            Some(Continuation::Rest(rest)) => {
                eprintln!("cutoff data remake: {name}: going on with {partial}");
                arguments = rest;
            }
            None => std::fs::remove_file(&partial_path)
                .map_err(|e| format!("{}: {e}", partial_path.display()))?,
        }
    }
    if !complete {
        let exe = std::env::current_exe().map_err(|e| format!("this binary's path: {e}"))?;
        eprintln!("cutoff data remake: {name}: cutoff {}", arguments.join(" "));
        let status = Command::new(exe)
            .args(&arguments)
            .current_dir(dir)
            .status()
            .map_err(|e| format!("cannot run its command: {e}"))?;
        if !status.success() {
            return Err(format!("its command failed ({status})"));
        }
    }
    let file = measure(&partial_path)?;
    let found = differences(entry, &file)?;
    // A stopped datagen run exits normally: only a whole file with the entry's counts is
    // the file remade.
    let whole = file.damaged == 0
        && entry.text("format")? == file.format.name()
        && entry.integer("positions")? == Some(file.positions)
        && (file.games.is_none() || entry.integer("games")? == file.games);
    if !whole {
        return Err(format!(
            "the remade file differs ({}); left as {partial}",
            found.join(", ")
        ));
    }
    std::fs::rename(&partial_path, dir.join(name))
        .map_err(|e| format!("{}: {e}", partial_path.display()))?;
    Ok(found)
}

/// `cutoff data remake`: the missing files of a manifest (or of `only`, by name) made
/// again by their entries' commands, in the manifest's order (so a file made from
/// another comes after it).
pub fn remake(manifest: &Path, dir: Option<&Path>, only: &[String]) -> Result<String, String> {
    let (entries, dir) = load(manifest, dir)?;
    let names = entries
        .iter()
        .map(|entry| {
            entry
                .text("name")
                .map_err(|e| format!("{}: entry at line {}: {e}", manifest.display(), entry.line))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(unknown) = only.iter().find(|n| !names.contains(&n.as_str())) {
        return Err(format!("{unknown}: not in {}", manifest.display()));
    }
    let mut report = String::new();
    let mut bad = 0;
    for (entry, name) in entries.iter().zip(names) {
        if !only.is_empty() && !only.iter().any(|n| n == name) {
            continue;
        }
        let verdict = if dir.join(name).exists() {
            "present, left as it is".to_string()
        } else {
            match remake_file(entry, name, &dir) {
                Ok(found) if found.is_empty() => "remade, ok".to_string(),
                Ok(found) => {
                    bad += 1;
                    format!(
                        "remade, MISMATCH: {} (a file remade by another version has the same \
                         games and another generator in its header: check, then enter it \
                         again with manifest-entry)",
                        found.join(", ")
                    )
                }
                Err(e) => {
                    bad += 1;
                    format!("NOT REMADE: {e}")
                }
            }
        };
        // Said as soon as it is known: a remake of several files runs for hours, and its
        // log should show which are done before the last one is.
        eprintln!("cutoff data remake: {name}: {verdict}");
        let _ = writeln!(report, "{name}: {verdict}");
    }
    if bad > 0 {
        return Err(format!("{bad} file(s) not remade as listed"));
    }
    let _ = write!(report, "the files are in {}", dir.display());
    Ok(report)
}

/// `cutoff data manifest-entry`: the provenance of a data file, as given.
#[derive(Args, Debug)]
pub struct EntryArgs {
    /// The data file (its name in the manifest is the file's name, without folders).
    pub file: PathBuf,
    /// The engine commit that made it.
    #[arg(long)]
    pub commit: String,
    /// The network the games were played with (a name and its sha256).
    #[arg(long)]
    pub network: String,
    /// Nodes a move.
    #[arg(long)]
    pub nodes: u64,
    /// The seed(s) of the run(s) that wrote it.
    #[arg(long)]
    pub seeds: String,
    /// The exact command that remakes it.
    #[arg(long)]
    pub command: String,
    /// Anything else worth knowing (where it lives, how it was interrupted).
    #[arg(long)]
    pub note: Option<String>,
}

/// A string in the manifest's quoting.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `cutoff data manifest-entry`: the file measured, its entry printed.
pub fn entry(args: &EntryArgs) -> Result<String, String> {
    if [&args.commit, &args.network, &args.seeds, &args.command]
        .iter()
        .chain(args.note.as_ref().as_slice())
        .any(|text| text.contains(['\n', '\r']))
    {
        return Err("a manifest value is one line".into());
    }
    let file = measure(&args.file)?;
    if file.damaged > 0 {
        return Err(format!(
            "{}: {} damaged chunk(s); enter only whole files",
            args.file.display(),
            file.damaged
        ));
    }
    let name = args
        .file
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("{}: not a file name in UTF-8", args.file.display()))?;
    let mut text = format!(
        "[[file]]\nname = {}\nformat = {}\nbytes = {}\nsha256 = {}\npositions = {}\n",
        quoted(name),
        quoted(file.format.name()),
        file.bytes,
        quoted(&file.sha256),
        file.positions
    );
    if let Some(games) = file.games {
        let _ = writeln!(text, "games = {games}");
    }
    let _ = write!(
        text,
        "commit = {}\nnetwork = {}\nnodes = {}\nseeds = {}\ncommand = {}",
        quoted(&args.commit),
        quoted(&args.network),
        args.nodes,
        quoted(&args.seeds),
        quoted(&args.command)
    );
    if let Some(note) = &args.note {
        let _ = write!(text, "\nnote = {}", quoted(note));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_parse_and_bad_ones_name_the_line() {
        let entries = parse(
            "# data\n[[file]]\nname = \"a \\\"b\\\".bin\" # note\npositions = 1_000\n\n[[file]]\nname = \"c\"\n",
        )
        .unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].text("name").unwrap(), "a \"b\".bin");
        assert_eq!(entries[0].integer("positions").unwrap(), Some(1000));
        assert_eq!(entries[1].line, 6);
        for (text, line) in [
            ("name = \"x\"\n", "line 1"),
            ("[[file]]\nname = \"x\n", "line 2"),
            ("[[file]]\nname = x\n", "line 2"),
            ("[[file]]\n\nnodes = 5 6\n", "line 3"),
            ("[[file]]\nname = \"x\"\nname = \"y\"\n", "line 3"),
            ("[table]\n", "line 1"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.starts_with(line), "{text:?}: {e}");
        }
    }
}
