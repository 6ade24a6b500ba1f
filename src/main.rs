//! `cutoff`: with no subcommand, a UCI engine on stdin/stdout; subcommands run the
//! engine's tools from the command line.

mod tools;
mod uci;

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::{Parser, Subcommand};
use cutoff_engine::bench;
use cutoff_engine::board::{Board, STARTPOS};
use cutoff_engine::limits::MAX_DEPTH;
use cutoff_engine::nnue::Network;
use cutoff_engine::params;
use tools::network_args::NetworkArgs;
use tools::{data, datagen, epd, genfens, lab, net, texel, train};
use uci::{command, session};

/// The crate version and, when built from a git checkout, the commit (build.rs): for
/// `--version` and the UCI `id name`.
pub const VERSION: &str = env!("CUTOFF_VERSION");

#[derive(Parser)]
#[command(
    name = "cutoff",
    version = VERSION,
    about = "Cutoff, a UCI chess engine",
    long_about = "Cutoff, a UCI chess engine.\n\nWithout a subcommand it is a UCI engine on \
                  stdin/stdout: start it from a chess GUI, or type `uci`. The subcommands \
                  run its tools from the command line."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand)]
enum Tool {
    /// Search a fixed set of positions to a fixed depth; prints `N nodes N nps` last.
    /// The UCI command `bench [depth] [threads] [hash]` takes the same arguments.
    Bench {
        /// Search depth.
        #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(command::BENCH_DEPTH))]
        depth: i32,
        /// Search threads.
        #[arg(default_value_t = 1, value_parser = clap::value_parser!(u32).range(command::BENCH_THREADS))]
        threads: u32,
        /// Transposition table size in MB.
        #[arg(default_value_t = bench::DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(command::BENCH_HASH_MB))]
        hash: u32,
        #[command(flatten)]
        network: NetworkArgs,
    },
    /// Run EPD test suites (bm, am, dm, matetrack's bm #N, STS c0 points).
    Epd {
        /// EPD files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Milliseconds per position (the default when no limit is given: 1000).
        #[arg(long)]
        movetime: Option<u64>,
        /// Fixed depth per position.
        #[arg(long, value_parser = clap::value_parser!(i32).range(1..=i64::from(MAX_DEPTH)))]
        depth: Option<i32>,
        /// Fixed node count per position.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// Search threads per position.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=command::MAX_TOOL_THREADS))]
        threads: u32,
        /// Table size per job in MB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
        /// Positions searched in parallel, each with its own search and table.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=command::MAX_TOOL_THREADS))]
        jobs: u32,
        /// Write every result to this file as JSON.
        #[arg(long)]
        json: Option<std::path::PathBuf>,
        /// Read castling rights as Chess960.
        #[arg(long)]
        chess960: bool,
        /// Syzygy tablebase folders (as the UCI option SyzygyPath: `:`-separated, `;` on
        /// Windows).
        #[arg(long, value_name = "PATH")]
        syzygy: Option<String>,
        #[command(flatten)]
        network: NetworkArgs,
    },
    /// Count the leaf nodes of the legal move tree.
    Perft {
        /// Depth in plies.
        #[arg(value_parser = clap::value_parser!(u32).range(command::PERFT_DEPTH))]
        depth: u32,
        /// Start position (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads (0, the default: all cores).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=command::MAX_TOOL_THREADS))]
        threads: u32,
        /// Read castling rights as Chess960 (Shredder-FEN or X-FEN).
        #[arg(long)]
        chess960: bool,
    },
    /// The search lab: every classic search algorithm on the same positions to the same
    /// depth, one row each (value, best move, interior and leaf nodes, time, EBF).
    Lab {
        #[command(flatten)]
        args: lab::LabArgs,
    },
    /// Self-play training data: games of Cutoff against itself at a fixed node budget,
    /// appended to --output as 32-byte records of the quiet positions or as whole games.
    Datagen {
        #[command(flatten)]
        args: datagen::DatagenArgs,
    },
    /// Print every tunable search constant as an OpenBench SPSA input line: `name, int,
    /// value, min, max, c_end, r_end` (a build with `--features spsa` takes them as
    /// UCI options).
    SpsaParams,
    /// Training data tools: stats, convert, from-text, to-text, from-pgn, merge, dedup,
    /// shuffle, split, verify, manifest-entry, remake.
    Data {
        #[command(subcommand)]
        tool: data::DataTool,
    },
    /// Network tools: info (shape, sha256, the size of its evaluations on positions),
    /// scale (its output layer times a factor, or to a mean evaluation size).
    Net {
        #[command(subcommand)]
        tool: net::NetTool,
    },
    /// Fit the evaluation's weights to labelled positions (datagen records or
    /// `FEN | score | result` lines) and write them as Rust source (default:
    /// engine/src/eval/weights.rs).
    #[command(alias = "tune")]
    Texel {
        #[command(flatten)]
        args: texel::TexelArgs,
    },
    /// Train a network (768 -> H x2 -> B buckets) on packed positions on the CPU; after each
    /// epoch write the quantised network, a checkpoint and the loss curves (SVG).
    Train {
        #[command(flatten)]
        args: train::TrainArgs,
    },
}

/// The evaluation a tool asked for; a network that cannot be read is reported here.
fn load_network(args: &NetworkArgs) -> Result<Option<Arc<Network>>, ()> {
    args.load().map_err(|e| eprintln!("cutoff: {e}"))
}

fn main() -> ExitCode {
    // OpenBench's DATAGEN workload passes its request as one argument (then "quit").
    // Read as OsString: `args()` panics on a path or argument that is not UTF-8 (clap
    // reports a bad argument below).
    let first = std::env::args_os().nth(1);
    if let Some(request) = first
        .as_ref()
        .and_then(|a| a.to_str())
        .filter(|a| a.starts_with("genfens"))
    {
        return genfens::run(request);
    }
    let cli = Cli::parse();
    match cli.command {
        None => match session::Session::new() {
            Ok(mut s) => {
                s.run();
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("cutoff: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Tool::Bench {
            depth,
            threads,
            hash,
            network,
        }) => {
            let Ok(network) = load_network(&network) else {
                return ExitCode::FAILURE;
            };
            // No one sends `stop` here: the flags stay clear.
            let signals = Arc::default();
            let (threads, hash) = (threads as usize, hash as usize);
            if session::run_bench(depth, threads, hash, network, signals, || {}) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some(Tool::Epd {
            files,
            movetime,
            depth,
            nodes,
            threads,
            hash,
            jobs,
            json,
            chess960,
            syzygy,
            network,
        }) => {
            let Ok(network) = load_network(&network) else {
                return ExitCode::FAILURE;
            };
            let settings = epd::EpdRun {
                files,
                movetime,
                depth,
                nodes,
                threads: threads as usize,
                hash_mb: hash as usize,
                jobs: jobs as usize,
                json,
                chess960,
                syzygy,
                network,
            };
            if epd::run(&settings) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some(Tool::Perft {
            depth,
            fen,
            divide,
            threads,
            chess960,
        }) => {
            let fen = fen.unwrap_or_else(|| STARTPOS.to_string());
            match Board::from_fen(&fen, chess960) {
                Ok(board) => {
                    let never = AtomicBool::new(false);
                    session::run_perft(&board, depth, threads as usize, divide, &never, || {});
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("cutoff: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Tool::Lab { args }) => lab::run(&args),
        Some(Tool::Datagen { args }) => datagen::run(&args),
        Some(Tool::Data { tool }) => data::run(&tool),
        Some(Tool::Net { tool }) => net::run(&tool),
        Some(Tool::Texel { args }) => texel::run(&args),
        Some(Tool::Train { args }) => train::run(&args),
        Some(Tool::SpsaParams) => {
            for t in params::TUNABLES {
                tools::outln!("{}", t.openbench_line());
            }
            ExitCode::SUCCESS
        }
    }
}
