//! The network's first layer kept up to date beside the board's stack of positions.
//!
//! The board copies each position onto a stack as moves are made; the stack here holds
//! one accumulator per position on it, each tagged with the key of the position it was
//! computed for. An evaluation brings the top one up to date lazily: from the nearest
//! position below it whose accumulator is still valid, each step adds and subtracts the
//! first-layer columns of the pieces that differ between two consecutive positions. The
//! difference of the boards' piece sets, not the move, says what changed, so captures,
//! promotions, en passant and castling of every kind (the Chess960 king and rook may land
//! on each other's squares) need no case of their own, and a null move changes nothing.
//! Nodes never evaluated (table cutoffs, pruned moves) cost nothing. A position too far
//! above the nearest valid one is refreshed from scratch instead.

use std::sync::Arc;

use shakmaty::{Board as Pieces, Color, Position, Role};

use super::feature_index;
use super::network::{Accumulator, Network, add_column, sub_column};
use crate::board::Board;
use crate::score::TB_WIN_BOUND;

/// Replaying more positions than this costs more than refreshing from scratch (a step
/// touches two to four columns per perspective, a refresh about thirty).
const MAX_REPLAY: usize = 8;

/// The network's scores are kept below every tablebase win and mate, whatever the
/// file holds, so that the search never mistakes an evaluation for a decided game.
pub const EVAL_LIMIT: i32 = TB_WIN_BOUND - 1;

/// One search thread's accumulators for the positions on its board's stack.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    network: Arc<Network>,
    /// `accumulators[i]`: the first layer's output for stack position `i`, valid when
    /// `keys[i]` is that position's key.
    accumulators: Vec<Accumulator>,
    keys: Vec<Option<u64>>,
}

impl AccumulatorStack {
    /// An empty stack for `network`.
    pub fn new(network: Arc<Network>) -> Self {
        AccumulatorStack {
            network,
            accumulators: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The network the accumulators belong to.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The network's evaluation of `board`'s current position from the side to move, in
    /// centipawns, within ±[`EVAL_LIMIT`].
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let top = self.bring_up_to_date(board);
        self.network
            .output(&self.accumulators[top], board.turn())
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The accumulator of `board`'s current position, brought up to date.
    #[cfg(test)]
    pub(crate) fn accumulator(&mut self, board: &Board) -> &Accumulator {
        let top = self.bring_up_to_date(board);
        &self.accumulators[top]
    }

    /// Makes the accumulator of `board`'s current position valid; returns its index.
    fn bring_up_to_date(&mut self, board: &Board) -> usize {
        let top = board.stack_len() - 1;
        while self.accumulators.len() <= top {
            self.accumulators.push(self.network.empty_accumulator());
            self.keys.push(None);
        }
        let valid = |i: usize| self.keys[i] == Some(board.stack_position(i).1);
        let base = (top.saturating_sub(MAX_REPLAY)..=top)
            .rev()
            .find(|&i| valid(i));
        match base {
            Some(base) => {
                for i in base + 1..=top {
                    self.step(board, i);
                }
            }
            None => {
                let (pos, key) = board.stack_position(top);
                self.network
                    .refresh(pos.board(), &mut self.accumulators[top]);
                self.keys[top] = Some(key);
            }
        }
        top
    }

    /// Computes the accumulator of stack position `i` from the valid one of `i - 1`.
    fn step(&mut self, board: &Board, i: usize) {
        let (parent, _) = board.stack_position(i - 1);
        let (child, key) = board.stack_position(i);
        let (below, above) = self.accumulators.split_at_mut(i);
        let acc = &mut above[0];
        acc.copy_from(&below[i - 1]);
        apply_difference(&self.network, parent.board(), child.board(), acc);
        self.keys[i] = Some(key);
    }
}

/// Turns the accumulator of `before` into that of `after`: the columns of pieces gone
/// from a square are subtracted, those of pieces arrived added.
fn apply_difference(network: &Network, before: &Pieces, after: &Pieces, acc: &mut Accumulator) {
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = role.of(color);
            let (was, is) = (before.by_piece(piece), after.by_piece(piece));
            if was == is {
                continue;
            }
            for (squares, add) in [(was & !is, false), (is & !was, true)] {
                for square in squares {
                    for perspective in Color::ALL {
                        let feature = feature_index(perspective, color, role, square);
                        let side = acc.side_mut(perspective);
                        if add {
                            add_column(side, network.column(feature));
                        } else {
                            sub_column(side, network.column(feature));
                        }
                    }
                }
            }
        }
    }
}
