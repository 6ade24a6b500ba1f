//! Cutoff's engine library: everything about searching a chess position, nothing about
//! text protocols.
//!
//! A tour: [`board::Board`] wraps a shakmaty position with an incremental Zobrist key and
//! repetition history. [`eval`] scores a position from the side to move. [`search`] runs
//! iterative deepening over a PVS alpha-beta ([`search::alphabeta`]) and quiescence
//! ([`search::qsearch`]), ordering moves with [`movepick`] (TT move, SEE-split captures
//! from [`see`], killers, countermove and history from [`history`]). The lock-free
//! [`tt::TranspositionTable`] is the only state threads share besides the stop flag and
//! node counters. [`time`] turns UCI clocks into soft/hard deadlines, [`limits`] says what
//! `go` asked for. [`perft`] and [`bench`] exercise the board and search deterministically.
//! The engine never prints: searches report through a callback.

#![forbid(unsafe_code)]

pub mod bench;
pub mod board;
pub mod epd;
pub mod eval;
pub mod history;
pub mod lab;
pub mod limits;
pub mod movepick;
pub mod perft;
pub mod search;
pub mod see;
pub mod time;
pub mod tt;
