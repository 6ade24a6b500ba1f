//! The words the UCI parser knows, in a file of their own so that the integration tests
//! read the same lists (`#[path]`) rather than copies that could drift apart.

/// Every command word (`parse` skips unknown tokens before the first of these).
pub const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
];

/// Every keyword of `go`: a `searchmoves` list ends at the first of these.
pub const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Depths of `go perft` and `cutoff perft`: deep enough for any count one would wait
/// for, and a bound on the recursion.
pub const PERFT_DEPTH: std::ops::RangeInclusive<i64> = 0..=20;

/// The most threads a command-line tool (bench, perft, epd, datagen) runs: more than any
/// machine it is run on has cores, and a bound on a mistyped count.
pub const MAX_TOOL_THREADS: i64 = 256;

/// The arguments of `bench` (UCI) and `cutoff bench`, in their order, with their ranges.
pub const BENCH_USAGE: &str = "bench [depth] [threads] [hash MB]";
pub const BENCH_DEPTH: std::ops::RangeInclusive<i64> = 1..=64;
pub const BENCH_THREADS: std::ops::RangeInclusive<i64> = 1..=MAX_TOOL_THREADS;
pub const BENCH_HASH_MB: std::ops::RangeInclusive<i64> = 1..=65536;
