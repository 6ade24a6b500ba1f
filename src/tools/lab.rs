//! `cutoff lab`: the search lab. Runs the classic search algorithms of
//! `cutoff_lab` on the same positions to the same depth and prints one row per
//! algorithm (value, best move, interior and leaf nodes, time, effective branching factor),
//! optionally writing the same data as JSON. With `--depths` it sweeps a range of depths
//! over all the positions and prints, charts (`--plot`) and writes (`--json`) each row's
//! statistics instead.

use std::io::Write;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use cutoff_engine::board::{Board, STARTPOS};
use cutoff_engine::epd::parse_suite;
use cutoff_lab::chess::ChessGame;
use cutoff_lab::sweep::{self, PositionResult, Quartiles, Report};
use cutoff_lab::synthetic::Synthetic;
use cutoff_lab::tictactoe::{self, TableSearch};
use cutoff_lab::{self as lab, Algorithm, Detail, Game, MATE, Row, Settings, bstar, is_mate};
use serde_json::{Value, json};

use crate::tools::pending_file::{PendingFile, check_distinct};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    Chess,
    Tictactoe,
    Synthetic,
}

#[derive(Args, Debug)]
pub struct LabArgs {
    /// Position to search (default: the initial position).
    #[arg(long, conflicts_with = "epd")]
    pub fen: Option<String>,
    /// Search every position of an EPD file (the first four fields of a line are the FEN).
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// chess; tictactoe: the lecture notes' Table 1 (minimax, alpha-beta and the notes'
    /// variant for 8, 6, 4 and 2 empty squares); synthetic: a uniform random tree of
    /// --branching children per node and --depth plies.
    #[arg(long, value_enum, default_value_t = GameKind::Chess)]
    pub game: GameKind,
    /// Depth in plies, the same for every row.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Sweep a range of depths, e.g. `1..6` (both ends included), over every position:
    /// per row and depth, the median and spread of the node counts over the positions, the
    /// effective branching factor and the ratios to each position's minimal tree and to
    /// the uniform-tree formula, instead of one table per position.
    #[arg(long, value_parser = parse_depths, conflicts_with = "depth")]
    pub depths: Option<RangeInclusive<u32>>,
    /// Every row but the engine's stops after this many nodes and is reported as over
    /// budget (minimax and B* explode); in a sweep it is then not run deeper.
    #[arg(long, default_value_t = DEFAULT_NODE_BUDGET)]
    pub budget: u64,
    /// With --depths: write SVG charts of the sweep into this folder (nodes.svg,
    /// ebf.svg, savings.svg).
    #[arg(long, requires = "depths")]
    pub plot: Option<PathBuf>,
    /// Synthetic trees: how many trees (seeds --seed, --seed + 1, …) a sweep runs.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub positions: u64,
    /// Search captures at the horizon (quiescence: stand pat, captures only, no pruning).
    /// Default: off, the static evaluation is taken at the horizon.
    #[arg(long)]
    pub quiescence: bool,
    /// Comma-separated rows to run (default: all): minimax, alphabeta, alphabeta-failsoft,
    /// alphabeta-ordered, +killers, +history, +tt, pvs, aspiration, mtdf, etc, bstar,
    /// minimal-tree, engine (Cutoff's own search).
    #[arg(long)]
    pub algos: Option<String>,
    /// Also write every row (in a sweep: every count and every number the charts show)
    /// to this file as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Synthetic trees: children per node.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub branching: u32,
    /// Synthetic trees: the seed that determines every value.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// B*: give up separating after this many nodes.
    #[arg(long, default_value_t = bstar::DEFAULT_BUDGET)]
    pub bstar_budget: u64,
}

/// The node budget of a row unless `--budget` says otherwise.
const DEFAULT_NODE_BUDGET: u64 = 2_000_000;

/// `4`, `1..6` or `1..=6`.
fn parse_depths(text: &str) -> Result<RangeInclusive<u32>, String> {
    let depth = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=30).contains(d))
            .ok_or_else(|| format!("'{t}' is not a depth from 1 to 30"))
    };
    let (first, last) = match text.split_once("..") {
        Some((a, b)) => (depth(a)?, depth(b.trim_start_matches('='))?),
        None => (depth(text)?, depth(text)?),
    };
    if first > last {
        return Err(format!("the range {text} is empty"));
    }
    Ok(first..=last)
}

/// Runs `cutoff lab`.
pub fn run(args: &LabArgs) -> ExitCode {
    let algorithms = match parse_algorithms(args.algos.as_deref()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("cutoff lab: {e}");
            return ExitCode::from(2);
        }
    };
    // The outputs are claimed before the first search: a path that cannot be written is
    // said now, not after an hour's sweep.
    let json = match claim_json(args) {
        Ok(json) => json,
        Err(e) => {
            eprintln!("cutoff lab: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(dir) = &args.plot
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("cutoff lab: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    if let Some(depths) = &args.depths {
        return run_sweep(args, &algorithms, depths.clone(), json);
    }
    let doc = match args.game {
        GameKind::Tictactoe => tictactoe_table(),
        GameKind::Synthetic => {
            let tree = Synthetic::new(args.branching, args.depth, args.seed);
            let name = format!(
                "synthetic tree: branching {}, depth {}, seed {}",
                args.branching, args.depth, args.seed
            );
            let settings = settings(args);
            let position = run_position(&tree, &name, &algorithms, &settings, plain_value);
            json!({
                "game": "synthetic",
                "branching": args.branching,
                "seed": args.seed,
                "depth": args.depth,
                "positions": [position],
            })
        }
        GameKind::Chess => match chess_positions(args) {
            Ok(positions) => {
                let settings = settings(args);
                let rows: Vec<Value> = positions
                    .iter()
                    .map(|(name, board)| {
                        let game = ChessGame::new(board.clone());
                        let mut v = run_position(&game, name, &algorithms, &settings, chess_value);
                        v["fen"] = json!(board.fen());
                        v
                    })
                    .collect();
                json!({
                    "game": "chess",
                    "depth": args.depth,
                    "quiescence": args.quiescence,
                    "positions": rows,
                })
            }
            Err(e) => {
                eprintln!("cutoff lab: {e}");
                return ExitCode::from(2);
            }
        },
    };
    if let Err(e) = write_json(json, &doc) {
        eprintln!("cutoff lab: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn settings(args: &LabArgs) -> Settings {
    Settings {
        quiescence: args.quiescence,
        bstar_budget: args.bstar_budget,
        node_budget: args.budget,
        ..Settings::new(args.depth)
    }
}

/// The `--json` file, begun (it must not be the `--epd` it reads).
fn claim_json(args: &LabArgs) -> Result<Option<PendingFile>, String> {
    let Some(path) = &args.json else {
        return Ok(None);
    };
    let inputs: Vec<&Path> = args.epd.iter().map(PathBuf::as_path).collect();
    check_distinct(&[path], &inputs)?;
    PendingFile::create(path).map(Some)
}

/// Writes `doc` to the `--json` file, if one was given.
fn write_json(json: Option<PendingFile>, doc: &Value) -> Result<(), String> {
    let Some(mut file) = json else {
        return Ok(());
    };
    let text = serde_json::to_string_pretty(doc).unwrap_or_default();
    file.write_bytes((text + "\n").as_bytes())?;
    file.finish()
}

/// `cutoff lab --depths`: every row at every depth over every position, summarised.
fn run_sweep(
    args: &LabArgs,
    algorithms: &[Algorithm],
    depths: RangeInclusive<u32>,
    json: Option<PendingFile>,
) -> ExitCode {
    let settings = settings(args);
    let start = Instant::now();
    let done = AtomicUsize::new(0);
    let (report, fens) = match args.game {
        GameKind::Tictactoe => {
            eprintln!("cutoff lab: tic-tac-toe is searched to the end of the game: no --depths");
            return ExitCode::from(2);
        }
        GameKind::Synthetic => {
            let count = args.positions as usize;
            let progress = |p: &PositionResult| progress(&done, count, p, start);
            let title = format!(
                "{count} uniform tree{}, N = {}",
                if count == 1 { "" } else { "s" },
                args.branching
            );
            let tree = |i: usize, depth: u32| {
                let seed = args.seed.wrapping_add(i as u64);
                (
                    format!("seed {seed}"),
                    Synthetic::new(args.branching, depth, seed),
                )
            };
            let report = sweep::sweep(
                &title, count, tree, algorithms, depths, &settings, &progress,
            );
            (report, None)
        }
        GameKind::Chess => {
            let positions = match chess_positions(args) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("cutoff lab: {e}");
                    return ExitCode::from(2);
                }
            };
            let count = positions.len();
            let progress = |p: &PositionResult| progress(&done, count, p, start);
            let source = args
                .epd
                .as_ref()
                .and_then(|p| p.file_name())
                .map_or("--fen".to_string(), |f| f.to_string_lossy().into_owned());
            let title = format!(
                "{count} chess position{} of {source}{}",
                if count == 1 { "" } else { "s" },
                if args.quiescence { ", quiescence" } else { "" }
            );
            let game = |i: usize, _depth: u32| {
                let (name, board) = &positions[i];
                (name.clone(), ChessGame::new(board.clone()))
            };
            let report = sweep::sweep(
                &title, count, game, algorithms, depths, &settings, &progress,
            );
            let fens: Vec<String> = positions.iter().map(|(_, b)| b.fen()).collect();
            (report, Some(fens))
        }
    };
    print_sweep(&report);
    eprintln!("cutoff lab: sweep done in {}", duration(start.elapsed()));
    let mut doc = sweep_json(&report, fens.as_deref());
    doc["game"] = json!(format!("{:?}", args.game).to_lowercase());
    doc["quiescence"] = json!(args.quiescence);
    if args.game == GameKind::Synthetic {
        doc["branching"] = json!(args.branching);
        doc["seed"] = json!(args.seed);
    }
    if let Err(e) = write_json(json, &doc) {
        eprintln!("cutoff lab: {e}");
        return ExitCode::FAILURE;
    }
    if let Some(dir) = &args.plot {
        match lab::plot::write_charts(&report, dir) {
            Ok(files) => {
                for f in files {
                    eprintln!("cutoff lab: wrote {}", f.display());
                }
            }
            Err(e) => {
                eprintln!(
                    "cutoff lab: cannot draw the charts in {}: {e}",
                    dir.display()
                );
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// One line on stderr as each position of a sweep finishes.
fn progress(done: &AtomicUsize, count: usize, p: &PositionResult, start: Instant) {
    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
    eprintln!(
        "cutoff lab: {n}/{count} {} done ({} so far)",
        p.name,
        duration(start.elapsed())
    );
}

/// A count or ratio for the table, "> budget" where it is over the budget.
fn figure(v: Option<f64>, ratio: bool) -> String {
    match v {
        None => "> budget".to_string(),
        Some(v) if ratio => format!("{v:.2}"),
        Some(v) => grouped(v.round() as u64),
    }
}

/// The sweep's table: per depth, one line per row.
fn print_sweep(report: &Report) {
    outln!("{}\n", report.title);
    for (summaries, reference) in report.summaries.iter().zip(&report.references) {
        let depth = reference.depth;
        outln!(
            "depth {depth}: uniform tree {} nodes, its Knuth–Moore minimal tree {} (median over positions of the formulas with the root's N)",
            grouped(reference.uniform.round() as u64),
            grouped(reference.knuth_moore.round() as u64)
        );
        outln!(
            "algorithm            median nodes            25 %–75 %   over budget     EBF  x minimal  x formula"
        );
        for s in summaries {
            let spread = format!(
                "{}–{}",
                figure(s.nodes.q1, false),
                figure(s.nodes.q3, false)
            );
            outln!(
                "{:<18} {:>14} {:>22} {:>7}/{:<5} {:>7} {:>10} {:>10}",
                s.algorithm.name(),
                figure(s.nodes.median, false),
                spread,
                s.over_budget,
                s.positions,
                s.ebf.map_or("-".to_string(), |e| format!("{e:.2}")),
                s.vs_minimal
                    .map_or("-".to_string(), |q| figure(q.median, true)),
                figure(s.vs_formula.median, true),
            );
        }
        outln!();
    }
    if let Some(savings) = &report.savings {
        outln!(
            "Nodes as a share of plain alpha-beta's at depth {} (median over positions):",
            savings.depth
        );
        for (algorithm, ratio) in &savings.ratios {
            let share = ratio.map_or("> budget".to_string(), |r| format!("{:.1} %", 100.0 * r));
            outln!("{:<18} {share:>10}", algorithm.name());
        }
    }
    let _ = std::io::stdout().flush();
}

fn quartiles_json(q: &Quartiles) -> Value {
    json!({ "min": q.min, "q1": q.q1, "median": q.median, "q3": q.q3, "max": q.max })
}

/// The whole sweep as JSON: every count of every position and every number the charts
/// show (`null`: over budget).
fn sweep_json(report: &Report, fens: Option<&[String]>) -> Value {
    let summaries: Vec<Value> = report
        .summaries
        .iter()
        .flatten()
        .map(|s| {
            json!({
                "algorithm": s.algorithm.name(),
                "depth": s.depth,
                "positions": s.positions,
                "over_budget": s.over_budget,
                "nodes": quartiles_json(&s.nodes),
                "ebf": s.ebf,
                "vs_minimal_tree": s.vs_minimal.as_ref().map(quartiles_json),
                "vs_knuth_moore_formula": quartiles_json(&s.vs_formula),
            })
        })
        .collect();
    let references: Vec<Value> = report
        .references
        .iter()
        .map(|r| json!({ "depth": r.depth, "uniform_nodes": r.uniform, "knuth_moore_nodes": r.knuth_moore }))
        .collect();
    let positions: Vec<Value> = report
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let depths: Vec<Value> = report
                .depths
                .iter()
                .zip(&p.cells)
                .map(|(depth, cells)| {
                    let rows: Vec<Value> = report
                        .algorithms
                        .iter()
                        .zip(cells)
                        .map(|(a, c)| match c {
                            Some(c) => json!({
                                "algorithm": a.name(),
                                "value": c.value,
                                "nodes": c.nodes,
                                "seconds": c.seconds,
                            }),
                            None => json!({ "algorithm": a.name(), "over_budget": true }),
                        })
                        .collect();
                    json!({ "depth": depth, "rows": rows })
                })
                .collect();
            let mut v = json!({ "name": p.name, "branching": p.branching, "depths": depths });
            if let Some(fens) = fens {
                v["fen"] = json!(fens[i]);
            }
            v
        })
        .collect();
    let savings = report.savings.as_ref().map(|s| {
        let ratios: Vec<Value> = s
            .ratios
            .iter()
            .map(|(a, r)| json!({ "algorithm": a.name(), "ratio": r }))
            .collect();
        json!({ "depth": s.depth, "ratios": ratios })
    });
    json!({
        "title": report.title,
        "depths": report.depths,
        "node_budget": report.node_budget,
        "algorithms": report.algorithms.iter().map(|a| a.name()).collect::<Vec<_>>(),
        "references": references,
        "summaries": summaries,
        "savings_vs_alphabeta": savings,
        "positions": positions,
    })
}

fn parse_algorithms(list: Option<&str>) -> Result<Vec<Algorithm>, String> {
    let Some(list) = list else {
        return Ok(Algorithm::ALL.to_vec());
    };
    let mut out = Vec::new();
    for name in list.split(',').filter(|n| !n.trim().is_empty()) {
        let a = Algorithm::parse(name).ok_or_else(|| {
            let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
            format!("unknown algorithm '{name}' (known: {})", known.join(", "))
        })?;
        if !out.contains(&a) {
            out.push(a);
        }
    }
    if out.is_empty() {
        return Err("--algos names no algorithm".to_string());
    }
    Ok(out)
}

/// The chess positions to run, each with a name: `--fen`, every record of `--epd`, or the
/// initial position.
fn chess_positions(args: &LabArgs) -> Result<Vec<(String, Board)>, String> {
    if let Some(path) = &args.epd {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let suite = parse_suite(&text, false);
        for err in &suite.errors {
            eprintln!(
                "cutoff lab: {}:{}: {} (skipped)",
                path.display(),
                err.line,
                err.message
            );
        }
        let mut positions = Vec::new();
        for r in suite.records {
            if r.board.legal_moves().is_empty() {
                eprintln!(
                    "cutoff lab: {}:{}: {NOTHING_TO_SEARCH} (skipped)",
                    path.display(),
                    r.line
                );
                continue;
            }
            let name =
                r.id.clone()
                    .unwrap_or_else(|| format!("{} line {}", path.display(), r.line));
            positions.push((name, r.board));
        }
        if positions.is_empty() {
            return Err(format!("no position to search in {}", path.display()));
        }
        return Ok(positions);
    }
    let fen = args.fen.as_deref().unwrap_or(STARTPOS);
    let board = Board::from_fen(fen, false).map_err(|e| e.to_string())?;
    if board.legal_moves().is_empty() {
        return Err(format!("{fen}: {NOTHING_TO_SEARCH}"));
    }
    Ok(vec![(board.fen(), board)])
}

/// Why a position is not run: the rows compare searches of a tree, and a mate or a
/// stalemate has none (nor a branching factor for the formulas).
const NOTHING_TO_SEARCH: &str = "no legal moves (mate or stalemate), nothing to search";

/// Centipawns, or `#N` / `-#N` for a mate in N moves.
fn chess_value(v: i32) -> String {
    if is_mate(v) {
        let plies = MATE - v.abs();
        let moves = (plies + 1) / 2;
        if v > 0 {
            format!("#{moves}")
        } else {
            format!("-#{moves}")
        }
    } else {
        v.to_string()
    }
}

fn plain_value(v: i32) -> String {
    v.to_string()
}

/// 1234567 → "1,234,567".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 0.001 {
        format!("{} µs", d.as_micros())
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1000.0)
    } else {
        format!("{s:.2} s")
    }
}

/// "1 pass", "2 passes".
fn plural(n: u64, noun: &str) -> String {
    let s = if n == 1 {
        ""
    } else if noun.ends_with('s') || noun.ends_with("ch") {
        "es"
    } else {
        "s"
    };
    format!("{n} {noun}{s}")
}

fn note<M>(row: &Row<M>, value_fmt: fn(i32) -> String) -> String {
    if row.over_budget && row.algorithm != Algorithm::BStar {
        return "stopped at the node budget (--budget): value and move mean nothing".to_string();
    }
    match row.detail {
        Detail::None if row.algorithm == Algorithm::Minimax => "reference value".to_string(),
        Detail::None => String::new(),
        Detail::ReSearches(n) => plural(n.into(), "re-search"),
        Detail::Passes(n) => plural(n.into(), "null-window pass"),
        Detail::BStar(r) => {
            let rival = r.rival_upper.map_or("none".to_string(), value_fmt);
            let how = if r.separated {
                "separated"
            } else {
                "budget ran out"
            };
            format!(
                "{how} after {}: [{}, {}] vs rival ≤ {rival}",
                plural(r.expansions, "expansion"),
                value_fmt(r.lower),
                value_fmt(r.upper)
            )
        }
        Detail::MinimalTree { knuth_moore_leaves } => format!(
            "exact, from true values (uniform-tree formula with root N: {} leaves)",
            grouped(knuth_moore_leaves)
        ),
    }
}

const HEADER: &str = "algorithm            value  best        interior        leaves         nodes        time    EBF  notes";

/// Runs the rows on one position, printing each as it finishes; returns its JSON.
fn run_position<G: Game>(
    game: &G,
    name: &str,
    algorithms: &[Algorithm],
    settings: &Settings,
    value_fmt: fn(i32) -> String,
) -> Value {
    outln!(
        "{name}\ndepth {}, quiescence {}\n",
        settings.depth,
        if settings.quiescence { "on" } else { "off" }
    );
    outln!("{HEADER}");
    let mut reference = None;
    let mut rows = Vec::new();
    for &algorithm in algorithms {
        let Some(row) = lab::run(game, algorithm, settings) else {
            continue;
        };
        if algorithm == Algorithm::Minimax && !row.over_budget {
            reference = Some(row.value);
        }
        // A search stopped by the budget has no value to compare.
        let agrees = reference
            .filter(|_| !row.over_budget)
            .map(|m| m == row.value);
        let flag = if algorithm.is_exact() && agrees == Some(false) {
            " (DIFFERS FROM MINIMAX)"
        } else {
            ""
        };
        outln!(
            "{:<18} {:>7}  {:<8} {:>11} {:>13} {:>13} {:>11} {:>6}  {}{flag}",
            algorithm.name(),
            value_fmt(row.value),
            row.best_name.as_deref().unwrap_or("-"),
            split(&row, row.stats.interior),
            split(&row, row.stats.leaves),
            grouped(row.stats.total()),
            duration(row.elapsed),
            ebf(&row, settings.depth).map_or("-".to_string(), |e| format!("{e:.2}")),
            note(&row, value_fmt)
        );
        let _ = std::io::stdout().flush();
        rows.push(row_json(&row, settings.depth, algorithm.is_exact(), agrees));
    }
    outln!();
    json!({ "name": name, "depth": settings.depth, "quiescence": settings.quiescence, "rows": rows })
}

/// Interior nodes or leaves, "-" for the engine, which counts only their sum.
fn split<M>(row: &Row<M>, count: u64) -> String {
    if row.algorithm == Algorithm::Engine {
        "-".to_string()
    } else {
        grouped(count)
    }
}

/// The effective branching factor, except for B*, whose tree has no fixed depth.
fn ebf<M>(row: &Row<M>, depth: u32) -> Option<f64> {
    (row.algorithm != Algorithm::BStar).then(|| row.ebf(depth))
}

fn row_json<M>(row: &Row<M>, depth: u32, exact: bool, agrees: Option<bool>) -> Value {
    let mut v = json!({
        "algorithm": row.algorithm.name(),
        "value": row.value,
        "best": row.best_name,
        "interior": row.stats.interior,
        "leaves": row.stats.leaves,
        "nodes": row.stats.total(),
        "seconds": row.elapsed.as_secs_f64(),
        "ebf": ebf(row, depth),
        "exact": exact,
        "matches_minimax": agrees,
        "over_budget": row.over_budget,
    });
    if row.algorithm == Algorithm::Engine {
        v["interior"] = Value::Null;
        v["leaves"] = Value::Null;
    }
    match row.detail {
        Detail::None => {}
        Detail::ReSearches(n) => v["re_searches"] = json!(n),
        Detail::Passes(n) => v["passes"] = json!(n),
        Detail::BStar(r) => {
            v["bstar"] = json!({
                "stop": if r.separated { "separation" } else { "budget" },
                "expansions": r.expansions,
                "lower": r.lower,
                "upper": r.upper,
                "rival_upper": r.rival_upper,
            })
        }
        Detail::MinimalTree { knuth_moore_leaves } => {
            v["knuth_moore_leaves"] = json!(knuth_moore_leaves);
        }
    }
    v
}

/// The lecture notes' Table 1 and its continuation: every position with its three rows.
fn tictactoe_table() -> Value {
    outln!(
        "Tic-tac-toe, the lecture notes' Table 1: X (human) took the top-left corner, O (bot) \
         to move.\nRoot driver (not counted): each move in row-major order, searched to the \
         end with a fresh full window.\nWin +1, loss -1, draw 0; one node per call of the \
         recursive search.\n"
    );
    outln!(
        "empty  board        to move  algorithm         value  best     interior     leaves      nodes        time"
    );
    let mut positions = Vec::new();
    for position in tictactoe::table_positions() {
        let mut rows = Vec::new();
        for search in TableSearch::ALL {
            let r = tictactoe::drive(&position, search);
            outln!(
                "{:>5}  {}  {:<7}  {:<16} {:>6}  {:<5} {:>11} {:>10} {:>10} {:>11}",
                position.empty_squares(),
                position.cells_string(),
                format!("{:?}", position.to_move()),
                search.name(),
                r.value,
                position.move_name(r.best),
                grouped(r.stats.interior),
                grouped(r.stats.leaves),
                grouped(r.stats.total()),
                duration(r.elapsed)
            );
            rows.push(json!({
                "algorithm": search.name(),
                "value": r.value,
                "best": position.move_name(r.best),
                "interior": r.stats.interior,
                "leaves": r.stats.leaves,
                "nodes": r.stats.total(),
                "seconds": r.elapsed.as_secs_f64(),
                "move_values": r.values.iter().map(|&(m, v)| json!([position.move_name(m), v])).collect::<Vec<_>>(),
            }));
        }
        positions.push(json!({
            "board": position.cells_string(),
            "to_move": format!("{:?}", position.to_move()),
            "empty": position.empty_squares(),
            "rows": rows,
        }));
    }
    outln!(
        "\nThe notes report 120,371 (minimax) and 26,725 (alpha-beta) for the first position; \
         alphabeta-notes is their code's alpha-beta, whose `break` leaves only the inner of \
         its row/column loops."
    );
    json!({ "game": "tictactoe", "positions": positions })
}
