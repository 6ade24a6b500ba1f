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

use shakmaty::{Board as Pieces, Color, Piece, Position, Role, Square};

use super::feature_index;
use super::layers::{Accumulator, Neurons, Stacks, Weights, update};
use super::network::Network;
use crate::board::Board;
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
        let (child, key) = board.stack_position(i);
        let (below, above) = self.accumulators.split_at_mut(i);
        let (from, to) = (&below[i - 1], &mut above[0]);
        let updated = Difference::between(parent.board(), child.board())
            .is_some_and(|difference| difference.apply(&self.weights, from, to));
        if !updated {
            self.weights.refresh(child.board(), to);
        }
        self.keys[i] = Some(key);
    }
}
/// Most pieces one move takes off or puts on a square: castling moves two of each.
const MAX_CHANGES: usize = 2;

/// The pieces that differ between two consecutive positions: those gone from a square
/// and those arrived on one.
struct Difference {
    removed: [(Piece, Square); MAX_CHANGES],
    removed_len: usize,
    added: [(Piece, Square); MAX_CHANGES],
    added_len: usize,
}

impl Difference {
    /// The difference from `before` to `after`, or None if it is larger than one move
    /// makes (never between consecutive positions on the stack; a refresh handles it,
    /// as it does a difference of a shape no move makes).
    fn between(before: &Pieces, after: &Pieces) -> Option<Difference> {
        let none = (Color::White.pawn(), Square::A1);
        let mut d = Difference {
            removed: [none; MAX_CHANGES],
            removed_len: 0,
            added: [none; MAX_CHANGES],
            added_len: 0,
        };
        // A square whose piece changed differs in its colour or in one of the six role
        // sets: a few bitboard operations find the two to four squares a move touches,
        // and only those are looked at.
        let changed = Role::ALL
            .iter()
            .fold(before.white() ^ after.white(), |changed, &role| {
                changed | (before.by_role(role) ^ after.by_role(role))
            });
        for square in changed {
            if let Some(piece) = before.piece_at(square) {
                *d.removed.get_mut(d.removed_len)? = (piece, square);
                d.removed_len += 1;
            }
            if let Some(piece) = after.piece_at(square) {
                *d.added.get_mut(d.added_len)? = (piece, square);
                d.added_len += 1;
            }
        }
        Some(d)
    }

    /// Writes into `to` the accumulator `from` with the columns of the removed pieces
    /// subtracted and of the added ones added, each perspective in one pass; false,
    /// writing nothing, for a difference no move makes. Quiet moves and promotions take
    /// one piece off and put one on, captures two off and one on, castling two and two,
    /// a null move none.
    fn apply<const H: usize>(
        &self,
        weights: &Weights<H>,
        from: &Accumulator<H>,
        to: &mut Accumulator<H>,
    ) -> bool {
        let removed = &self.removed[..self.removed_len];
        let added = &self.added[..self.added_len];
        for perspective in Color::ALL {
            let column = |&(piece, square): &(Piece, Square)| -> &Neurons<H> {
                weights.column(feature_index(perspective, piece.color, piece.role, square))
            };
            let (from, to) = (from.side(perspective), to.side_mut(perspective));
            match (removed, added) {
                ([], []) => update(to, from, [], []),
                ([off], [on]) => update(to, from, [column(on)], [column(off)]),
                ([off1, off2], [on]) => {
                    update(to, from, [column(on)], [column(off1), column(off2)]);
                }
                ([off1, off2], [on1, on2]) => update(
                    to,
                    from,
                    [column(on1), column(on2)],
                    [column(off1), column(off2)],
                ),
                _ => return false,
            }
        }
        true
    }
}
