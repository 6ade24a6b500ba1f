//! `cutoff lab`: the search lab. Runs the classic search algorithms of
//! `cutoff_lab` on the same positions to the same depth and prints one row per
//! algorithm (value, best move, interior and leaf nodes, time, effective branching factor),
//! optionally writing the same data as JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use cutoff_engine::board::{Board, STARTPOS};
use cutoff_engine::epd::parse_suite;
use cutoff_lab::chess::ChessGame;
use cutoff_lab::synthetic::Synthetic;
use cutoff_lab::tictactoe::{self, TableSearch};
use cutoff_lab::{self as lab, Algorithm, Detail, Game, MATE, Row, Settings, bstar, is_mate};
use serde_json::{Value, json};

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
    /// Search captures at the horizon (quiescence: stand pat, captures only, no pruning).
    /// Default: off, the static evaluation is taken at the horizon.
    #[arg(long)]
    pub quiescence: bool,
    /// Comma-separated rows to run (default: all): minimax, alphabeta, alphabeta-failsoft,
    /// alphabeta-ordered, +killers, +history, +tt, pvs, aspiration, mtdf, etc, bstar,
    /// minimal-tree.
    #[arg(long)]
    pub algos: Option<String>,
    /// Also write every row to this file as JSON.
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

/// Runs `cutoff lab`.
pub fn run(args: &LabArgs) -> ExitCode {
    let algorithms = match parse_algorithms(args.algos.as_deref()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("cutoff lab: {e}");
            return ExitCode::from(2);
        }
    };
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
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("cutoff lab: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn settings(args: &LabArgs) -> Settings {
    Settings {
        quiescence: args.quiescence,
        bstar_budget: args.bstar_budget,
        ..Settings::new(args.depth)
    }
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
        if suite.records.is_empty() {
            return Err(format!("no position in {}", path.display()));
        }
        return Ok(suite
            .records
            .into_iter()
            .map(|r| {
                let name =
                    r.id.clone()
                        .unwrap_or_else(|| format!("{} line {}", path.display(), r.line));
                (name, r.board)
            })
            .collect());
    }
    let fen = args.fen.as_deref().unwrap_or(STARTPOS);
    let board = Board::from_fen(fen, false).map_err(|e| e.to_string())?;
    Ok(vec![(board.fen(), board)])
}

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
    println!(
        "{name}\ndepth {}, quiescence {}\n",
        settings.depth,
        if settings.quiescence { "on" } else { "off" }
    );
    println!("{HEADER}");
    let mut reference = None;
    let mut rows = Vec::new();
    for &algorithm in algorithms {
        let row = lab::run(game, algorithm, settings);
        if algorithm == Algorithm::Minimax {
            reference = Some(row.value);
        }
        let agrees = reference.map(|m| m == row.value);
        let flag = if algorithm.is_exact() && agrees == Some(false) {
            " (DIFFERS FROM MINIMAX)"
        } else {
            ""
        };
        println!(
            "{:<18} {:>7}  {:<8} {:>11} {:>13} {:>13} {:>11} {:>6}  {}{flag}",
            algorithm.name(),
            value_fmt(row.value),
            row.best_name.as_deref().unwrap_or("-"),
            grouped(row.stats.interior),
            grouped(row.stats.leaves),
            grouped(row.stats.total()),
            duration(row.elapsed),
            ebf(&row, settings.depth).map_or("-".to_string(), |e| format!("{e:.2}")),
            note(&row, value_fmt)
        );
        let _ = std::io::stdout().flush();
        rows.push(row_json(&row, settings.depth, algorithm.is_exact(), agrees));
    }
    println!();
    json!({ "name": name, "depth": settings.depth, "quiescence": settings.quiescence, "rows": rows })
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
    });
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
    println!(
        "Tic-tac-toe, the lecture notes' Table 1: X (human) took the top-left corner, O (bot) \
         to move.\nRoot driver (not counted): each move in row-major order, searched to the \
         end with a fresh full window.\nWin +1, loss -1, draw 0; one node per call of the \
         recursive search.\n"
    );
    println!(
        "empty  board        to move  algorithm         value  best     interior     leaves      nodes        time"
    );
    let mut positions = Vec::new();
    for position in tictactoe::table_positions() {
        let mut rows = Vec::new();
        for search in TableSearch::ALL {
            let r = tictactoe::drive(&position, search);
            println!(
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
    println!(
        "\nThe notes report 120,371 (minimax) and 26,725 (alpha-beta) for the first position; \
         alphabeta-notes is their code's alpha-beta, whose `break` leaves only the inner of \
         its row/column loops."
    );
    json!({ "game": "tictactoe", "positions": positions })
}
