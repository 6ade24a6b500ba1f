//! The network's first layer kept up to date beside the board's stack of positions.
//!
//! The board copies each position onto a stack as moves are made; the stack here holds
//! one accumulator per position on it, each tagged with the key of the position it was
//! computed for. An evaluation brings the top one up to date lazily: from the nearest
//! position below it whose accumulator is still valid, each step adds and subtracts the
//! first-layer columns of the pieces that the move between two consecutive positions
//! took off and put on. The board keeps each position's move beside it, so a step reads
//! the move ([`crate::displacement`], as the Zobrist key does) instead of comparing two
//! boards square by square. A null move changes nothing. Nodes never evaluated (table
//! cutoffs, pruned moves) cost nothing. A position too far above the nearest valid one
//! is refreshed from scratch instead.

use std::sync::Arc;

use shakmaty::{Color, Position};

use super::feature_index;
use super::layers::{Accumulator, Neurons, Stacks, Weights, update};
use super::network::Network;
use crate::board::Board;
use crate::displacement::{Displacement, Placed};
use crate::score::EVAL_LIMIT;

/// Replaying more positions than this costs more than refreshing from scratch (a step
/// touches two to four columns per perspective, a refresh about thirty).
const MAX_REPLAY: usize = 8;

/// One search thread's accumulators for the positions on its board's stack.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    network: Arc<Network>,
    stacks: Stacks,
}

impl AccumulatorStack {
    /// An empty stack for `network`.
    pub fn new(network: Arc<Network>) -> Self {
        let stacks = network.layers().stacks();
        AccumulatorStack { network, stacks }
    }

    /// The network the accumulators belong to.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The network's evaluation of `board`'s current position from the side to move, in
    /// centipawns, within ±[`EVAL_LIMIT`] whatever the file holds.
    #[inline]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        self.stacks.evaluate(board).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The accumulator of `board`'s current position brought up to date, and the same
    /// computed from scratch: both perspectives, White's first.
    #[cfg(test)]
    pub(crate) fn incremental_and_fresh(&mut self, board: &Board) -> (Vec<i16>, Vec<i16>) {
        self.stacks.incremental_and_fresh(board)
    }
}

/// The accumulator stack at compiled width `H`.
#[derive(Clone, Debug)]
pub(crate) struct Stack<const H: usize> {
    weights: Arc<Weights<H>>,
    /// `accumulators[i]`: the first layer's output for stack position `i`, valid when
    /// `keys[i]` is that position's key.
    accumulators: Vec<Accumulator<H>>,
    keys: Vec<Option<u64>>,
}

impl<const H: usize> Stack<H> {
    pub(crate) fn new(weights: Arc<Weights<H>>) -> Self {
        Stack {
            weights,
            accumulators: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The evaluation of `board`'s current position, unclamped.
    #[inline]
    pub(crate) fn evaluate(&mut self, board: &Board) -> i32 {
        let top = self.bring_up_to_date(board);
        let pieces = board.pos().board().occupied().count();
        self.weights
            .output(&self.accumulators[top], board.turn(), pieces)
    }

    /// See [`AccumulatorStack::incremental_and_fresh`].
    #[cfg(test)]
    pub(crate) fn incremental_and_fresh(&mut self, board: &Board) -> (Vec<i16>, Vec<i16>) {
        let top = self.bring_up_to_date(board);
        let mut fresh = Accumulator::zeroed();
        self.weights.refresh(board.pos().board(), &mut fresh);
        let values = |acc: &Accumulator<H>| {
            [Color::White, Color::Black]
                .iter()
                .flat_map(|&perspective| acc.side(perspective).0)
                .collect()
        };
        (values(&self.accumulators[top]), values(&fresh))
    }

    /// Makes the accumulator of `board`'s current position valid; returns its index.
    fn bring_up_to_date(&mut self, board: &Board) -> usize {
        let top = board.stack_len() - 1;
        if self.accumulators.len() <= top {
            self.accumulators.resize(top + 1, Accumulator::zeroed());
            self.keys.resize(top + 1, None);
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
                self.weights
                    .refresh(pos.board(), &mut self.accumulators[top]);
                self.keys[top] = Some(key);
            }
        }
        top
    }

    /// Computes the accumulator of stack position `i` from the valid one of `i - 1`.
    fn step(&mut self, board: &Board, i: usize) {
        let (parent, _) = board.stack_position(i - 1);
        let (_, key) = board.stack_position(i);
        let (below, above) = self.accumulators.split_at_mut(i);
        let (from, to) = (&below[i - 1], &mut above[0]);
        let displacement = board
            .stack_move(i)
            .map(|m| Displacement::of(m, parent.turn()));
        apply(&self.weights, displacement, from, to);
        self.keys[i] = Some(key);
    }
}

/// Writes into `to` the accumulator `from` changed by what the move between them did
/// (`None`: a null move, no change): the columns of the pieces taken off subtracted and
/// of those put on added, each perspective in one pass.
fn apply<const H: usize>(
    weights: &Weights<H>,
    displacement: Option<Displacement>,
    from: &Accumulator<H>,
    to: &mut Accumulator<H>,
) {
    for perspective in Color::ALL {
        let column = |(piece, square): Placed| -> &Neurons<H> {
            weights.column(feature_index(perspective, piece.color, piece.role, square))
        };
        let (from, to) = (from.side(perspective), to.side_mut(perspective));
        match displacement {
            None => update(to, from, [], []),
            Some(Displacement::Move { off, on }) => {
                update(to, from, [column(on)], [column(off)]);
            }
            Some(Displacement::Capture { off, on }) => {
                update(to, from, [column(on)], off.map(column));
            }
            Some(Displacement::Castle { off, on }) => {
                update(to, from, on.map(column), off.map(column));
            }
        }
    }
}
