//! `cutoff epd FILE…`: runs EPD test suites and reports per position and per file.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cutoff_engine::epd::{self, Record, RecordResult};
use cutoff_engine::limits::Limits;
use cutoff_engine::nnue::Network;
use cutoff_engine::search::{SEARCH_STACK_SIZE, SearchOptions, Searcher};
use indicatif::ProgressBar;
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::tools::pending_file::{PendingFile, check_distinct};
use crate::tools::progress;
use crate::uci::output;
use crate::uci::syzygy;

/// Settings of a run, from the command line.
pub struct EpdRun {
    pub files: Vec<PathBuf>,
    pub movetime: Option<u64>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub threads: usize,
    pub hash_mb: usize,
    pub jobs: usize,
    pub json: Option<PathBuf>,
    pub chess960: bool,
    /// Syzygy folders, as the UCI option `SyzygyPath` takes them.
    pub syzygy: Option<String>,
    /// The network to search with; `None` for the hand-crafted evaluation.
    pub network: Option<Arc<Network>>,
}

/// Per-position line: id, played move, expected, verdict, time to solution, depth, nodes.
fn position_line(record: &Record, r: &RecordResult) -> String {
    let played = r.best.map_or("(none)".to_string(), |m| epd::san(record, m));
    let verdict = match (r.solved, r.points) {
        (_, Some((got, max))) => format!("{got}/{max} points"),
        (Some(true), _) => "solved".to_string(),
        (Some(false), _) => "FAILED".to_string(),
        (None, _) => "-".to_string(),
    };
    let tts = r.solved_at.map_or(String::new(), |(depth, time, nodes)| {
        format!(
            "  found at depth {depth}, {} ms, {nodes} nodes",
            time.as_millis()
        )
    });
    format!(
        "{:<28} played {:<8} expected {:<16} {:<12} score {:<9} depth {:>2} nodes {:>10}{tts}",
        record
            .id
            .clone()
            .unwrap_or_else(|| format!("line {}", record.line)),
        played,
        epd::describe_goal(record),
        verdict,
        output::score(r.score),
        r.depth,
        r.nodes,
    )
}

fn record_json(record: &Record, r: &RecordResult) -> Value {
    json!({
        "line": record.line,
        "id": record.id,
        "fen": record.board.fen(),
        "expected": epd::describe_goal(record),
        "played": r.best.map(|m| epd::san(record, m)),
        "solved": r.solved,
        "points": r.points.map(|(got, max)| json!({"got": got, "max": max})),
        "score": output::score(r.score),
        "depth": r.depth,
        "nodes": r.nodes,
        "time_ms": r.time.as_millis() as u64,
        "solved_at": r.solved_at.map(|(depth, time, nodes)| json!({
            "depth": depth, "time_ms": time.as_millis() as u64, "nodes": nodes
        })),
        "notes": record.notes,
    })
}

/// STS themes are named by the id's prefix up to the last '.' ("STS(v1.0) Undermine.001").
fn theme(record: &Record) -> String {
    record
        .id
        .as_deref()
        .and_then(|id| id.rsplit_once('.').map(|(t, _)| t.to_string()))
        .unwrap_or_else(|| "(no id)".to_string())
}

/// Runs every file; returns false if a file could not be read or written, or held no
/// position to search.
pub fn run(settings: &EpdRun) -> bool {
    let limits = Limits {
        depth: settings.depth,
        nodes: settings.nodes,
        movetime: settings.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let limits = if limits.is_infinite() {
        Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..limits
        }
    } else {
        limits
    };
    let options = SearchOptions {
        threads: settings.threads,
        move_overhead: Duration::ZERO,
        ..SearchOptions::default()
    };
    // Tables named on the command line must all be readable: a run without the tables
    // it was asked to use would measure something else.
    let tablebases = match &settings.syzygy {
        Some(path) => {
            let loaded = syzygy::load(path);
            for message in &loaded.messages {
                match message.strip_prefix("error: ") {
                    Some(problem) => eprintln!("cutoff epd: {problem}"),
                    None => outln!("{message}"),
                }
            }
            if loaded.failed {
                return false;
            }
            loaded.tablebases
        }
        None => None,
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs.max(1))
        .stack_size(SEARCH_STACK_SIZE)
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("cutoff epd: cannot start {} jobs: {e}", settings.jobs);
            return false;
        }
    };
    // Claimed before the first search: a path that cannot be written is said now.
    let inputs: Vec<&Path> = settings.files.iter().map(PathBuf::as_path).collect();
    let json_file = match &settings.json {
        Some(path) => {
            match check_distinct(&[path], &inputs).and_then(|()| PendingFile::create(path)) {
                Ok(file) => Some(file),
                Err(e) => {
                    eprintln!("cutoff epd: {e}");
                    return false;
                }
            }
        }
        None => None,
    };
    let mut ok = true;
    let mut files_json = Vec::new();
    for path in &settings.files {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("cutoff epd: cannot read {}: {e}", path.display());
                ok = false;
                continue;
            }
        };
        let suite = epd::parse_suite(&text, settings.chess960);
        outln!(
            "{}: {} positions loaded, {} lines skipped",
            path.display(),
            suite.records.len(),
            suite.errors.len()
        );
        for e in &suite.errors {
            outln!("  line {}: skipped: {}", e.line, e.message);
        }
        for r in suite.records.iter().filter(|r| !r.notes.is_empty()) {
            outln!("  line {}: {}", r.line, r.notes.join("; "));
        }
        // A file with nothing to search is not a suite that was run: the wrong file, or
        // one in a format the reader does not know.
        if suite.records.is_empty() {
            eprintln!("cutoff epd: {}: no position to search", path.display());
            ok = false;
            continue;
        }

        let progress = progress::shown().then(|| {
            progress::styled(
                ProgressBar::new(suite.records.len() as u64),
                progress::COUNT,
            )
        });
        let start = Instant::now();
        let solved_so_far = Mutex::new(0usize);
        let results: Vec<Option<RecordResult>> = pool.install(|| {
            suite
                .records
                .par_iter()
                .map_init(
                    || {
                        Searcher::new(settings.hash_mb).ok().map(|mut s| {
                            s.set_tablebases(tablebases.clone());
                            s.set_network(settings.network.clone());
                            s
                        })
                    },
                    |searcher, record| {
                        let searcher = searcher.as_mut()?;
                        let r = epd::search_record(searcher, record, &limits, &options);
                        let line = position_line(record, &r);
                        let mut solved = solved_so_far.lock().unwrap_or_else(|e| e.into_inner());
                        *solved += usize::from(r.solved == Some(true));
                        match &progress {
                            Some(bar) => {
                                bar.println(line);
                                bar.set_message(format!("solved {solved}"));
                                bar.inc(1);
                            }
                            None => outln!("{line}"),
                        }
                        Some(r)
                    },
                )
                .collect()
        });
        if let Some(bar) = &progress {
            bar.finish_and_clear();
        }
        let elapsed = start.elapsed();
        if results.iter().any(Option::is_none) {
            eprintln!(
                "cutoff epd: cannot allocate a {} MB table",
                settings.hash_mb
            );
            ok = false;
            continue;
        }
        let results: Vec<RecordResult> = results.into_iter().flatten().collect();
        files_json.push(summary(
            path,
            &suite.records,
            &results,
            elapsed,
            suite.errors.len(),
        ));
    }
    if let Some(mut file) = json_file {
        let doc = json!({ "files": files_json });
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        if let Err(e) = file
            .write_bytes(text.as_bytes())
            .and_then(|()| file.finish())
        {
            eprintln!("cutoff epd: {e}");
            ok = false;
        }
    }
    ok
}

/// Prints the summary of one file and returns its JSON.
fn summary(
    path: &std::path::Path,
    records: &[Record],
    results: &[RecordResult],
    elapsed: Duration,
    skipped: usize,
) -> Value {
    let judged = results.iter().filter(|r| r.solved.is_some()).count();
    let solved = results.iter().filter(|r| r.solved == Some(true)).count();
    let percent = if judged == 0 {
        0.0
    } else {
        100.0 * solved as f64 / judged as f64
    };
    outln!(
        "{}: solved {solved} / {judged} ({percent:.1} %), {} positions, total time {:.1} s",
        path.display(),
        results.len(),
        elapsed.as_secs_f64()
    );
    // STS: points per theme, when the records carry them.
    let mut themes: Vec<(String, u32, u32)> = Vec::new();
    for (record, r) in records.iter().zip(results) {
        if let Some((got, max)) = r.points {
            let t = theme(record);
            match themes.iter_mut().find(|(name, _, _)| *name == t) {
                Some(entry) => {
                    entry.1 += got;
                    entry.2 += max;
                }
                None => themes.push((t, got, max)),
            }
        }
    }
    for (name, got, max) in &themes {
        outln!("  {name}: {got} / {max} points");
    }
    if !themes.is_empty() {
        let got: u32 = themes.iter().map(|t| t.1).sum();
        let max: u32 = themes.iter().map(|t| t.2).sum();
        outln!("  STS total: {got} / {max} points");
    }
    json!({
        "file": path.display().to_string(),
        "positions": results.len(),
        "skipped_lines": skipped,
        "judged": judged,
        "solved": solved,
        "time_ms": elapsed.as_millis() as u64,
        "themes": themes.iter().map(|(n, g, m)| json!({"theme": n, "points": g, "max": m})).collect::<Vec<_>>(),
        "results": records.iter().zip(results).map(|(rec, r)| record_json(rec, r)).collect::<Vec<_>>(),
    })
}
