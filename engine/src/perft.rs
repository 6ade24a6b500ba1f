//! Perft: counts the leaf nodes of the legal move tree through `Board::make`, so that
//! move generation, make/unmake and the incremental key are exercised together.

use rayon::prelude::*;
use shakmaty::Move;

use crate::board::Board;

/// Number of leaf nodes `depth` plies below the current position.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for m in moves {
        board.make(m);
        nodes += perft(board, depth - 1);
        board.unmake();
    }
    nodes
}

/// Leaf counts below each root move, in generator order. Root moves are split across
/// the current rayon pool.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = board.legal_moves().into_iter().collect();
    moves
        .into_par_iter()
        .map(|m| {
            let mut child = board.clone();
            child.make(m);
            (m, perft(&mut child, depth.saturating_sub(1)))
        })
        .collect()
}

/// Perft on `threads` worker threads (0 means rayon's default pool).
pub fn divide_with_threads(board: &Board, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if threads == 0 {
        return divide(board, depth);
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| divide(board, depth)),
        Err(_) => divide(board, depth),
    }
}
