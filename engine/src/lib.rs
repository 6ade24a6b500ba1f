//! Cutoff's engine library: everything about searching a chess position, nothing about
//! text protocols.
//!
//! A tour, from the bottom up (a module imports only from its own row or those above it):
//! - [`displacement`] reads a move as the pieces it takes off and puts on, what the
//!   Zobrist key and the network's accumulators change by.
//! - [`board::Board`] wraps a shakmaty position with an incremental Zobrist key and
//!   repetition history; [`movegen`] generates the captures and queen promotions
//!   quiescence needs (shakmaty generates only all moves at once) and checks the TT
//!   move's legality without generating; [`limits`] says what
//!   `go` asked for; [`rng`] is the seeded generator; [`score`] holds the mate- and
//!   tablebase-score conventions and the bounds a score may be, [`params`] every margin
//!   and table size.
//! - [`eval`] scores a position from the side to move, and [`nnue`] is the learned
//!   alternative: a network read from a file, its first layer updated move by move;
//!   [`see`] plays out exchanges with its own piece values; the lock-free
//!   [`tt::TranspositionTable`] is the only search state threads share besides the stop
//!   flag, node counters, tablebases and the network; [`history`] keeps killers,
//!   countermoves and the history tables, [`correction`] what the search learned about
//!   the eval's errors; [`time`] turns UCI clocks into soft/hard deadlines;
//!   [`tablebase`] loads Syzygy tables (reading data files is the engine's business,
//!   talking to the user is not) and turns probes into scores and root-move ranks;
//!   [`skill`] maps a playing strength onto a node budget and a noisy choice among
//!   MultiPV lines.
//! - [`movepick`] hands out a node's moves best first.
//! - [`search`] runs iterative deepening over a PVS alpha-beta ([`search::alphabeta`]) and
//!   quiescence ([`search::qsearch`]), one `ThreadData` per thread (Lazy SMP).
//! - [`data`] packs a labelled position into the 32-byte training record, and [`games`]
//!   keeps whole games (every ply's move and score) in checksummed chunks.
//! - [`perft`], [`bench`], [`epd`] and [`datagen`] (self-play training data) drive the
//!   board and the search.
//!
//! The engine never prints: searches report through a callback.

// The engine talks only through return values and callbacks: it never prints, and never
// ends the process (the binary, the tuner and the lab decide what a failure means).
// Its tests may print what they measured. (`unsafe_code` and the rest: the workspace's
// `[workspace.lints]` in Cargo.toml.)
#![cfg_attr(
    not(test),
    deny(clippy::print_stdout, clippy::print_stderr, clippy::exit)
)]

pub mod bench;
pub mod board;
pub mod correction;
pub mod data;
pub mod datagen;
pub mod displacement;
pub mod epd;
pub mod eval;
pub mod games;
pub mod history;
pub mod limits;
pub mod movegen;
pub mod movepick;
pub mod nnue;
pub mod params;
pub mod perft;
pub mod rng;
pub mod score;
pub mod search;
pub mod see;
pub mod skill;
pub mod tablebase;
pub mod time;
pub mod tt;
