//! Perft: counts the leaf nodes of the legal move tree through `Board::make`, so that
//! move generation, make/unmake and the incremental key are exercised together.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use shakmaty::Move;

use crate::board::Board;

/// Number of leaf nodes `depth` plies below the current position.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    // Nothing sets this flag, so the count always completes.
    perft_until(board, depth, &AtomicBool::new(false)).unwrap_or_default()
}

/// As [`perft`], or None once `stop` is set: checked at every interior node, a load
/// that costs nothing beside generating the node's moves.
fn perft_until(board: &mut Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let moves = board.legal_moves();
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut nodes = 0;
    for m in moves {
        board.make(m);
        let below = perft_until(board, depth - 1, stop);
        board.unmake();
        nodes += below?;
    }
    Some(nodes)
}

/// Leaf counts below each root move, in generator order. Root moves are split across
/// the current rayon pool.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    divide_stoppable(board, depth, &AtomicBool::new(false)).unwrap_or_default()
}

/// Perft on `threads` worker threads (0 means rayon's default pool).
pub fn divide_with_threads(board: &Board, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_until(board, depth, threads, &AtomicBool::new(false)).unwrap_or_default()
}

/// As [`divide_with_threads`], or None once `stop` is set (UCI `stop` during
/// `go perft`).
pub fn divide_until(
    board: &Board,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    let run = || divide_stoppable(board, depth, stop);
    if threads == 0 {
        return run();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

fn divide_stoppable(board: &Board, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    let moves: Vec<Move> = board.legal_moves().into_iter().collect();
    moves
        .into_par_iter()
        .map(|m| {
            let mut child = board.clone();
            child.make(m);
            Some((m, perft_until(&mut child, depth.saturating_sub(1), stop)?))
        })
        .collect()
}
