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
use super::network::{Accumulator, Network, add_column, sub_column};
use crate::board::Board;
use crate::score::EVAL_LIMIT;

/// Replaying more positions than this costs more than refreshing from scratch (a step
/// touches two to four columns per perspective, a refresh about thirty).
const MAX_REPLAY: usize = 8;

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
    /// centipawns, within ±[`EVAL_LIMIT`] whatever the file holds.
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
        let (from, to) = (&below[i - 1], &mut above[0]);
        match Difference::between(parent.board(), child.board()) {
            Some(difference) => {
                for perspective in Color::ALL {
                    difference.apply(
                        &self.network,
                        perspective,
                        from.side(perspective),
                        to.side_mut(perspective),
                    );
                }
            }
            None => self.network.refresh(child.board(), to),
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
    /// makes (never between consecutive positions on the stack; a refresh handles it).
    fn between(before: &Pieces, after: &Pieces) -> Option<Difference> {
        let none = (Color::White.pawn(), Square::A1);
        let mut d = Difference {
            removed: [none; MAX_CHANGES],
            removed_len: 0,
            added: [none; MAX_CHANGES],
            added_len: 0,
        };
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = role.of(color);
                let (was, is) = (before.by_piece(piece), after.by_piece(piece));
                if was == is {
                    continue;
                }
                for square in was & !is {
                    *d.removed.get_mut(d.removed_len)? = (piece, square);
                    d.removed_len += 1;
                }
                for square in is & !was {
                    *d.added.get_mut(d.added_len)? = (piece, square);
                    d.added_len += 1;
                }
            }
        }
        Some(d)
    }

    /// Writes into `to` the values of `from` (one perspective) with the columns of the
    /// removed pieces subtracted and of the added ones added. The shapes of quiet moves
    /// and promotions (one off, one on) and of captures (two off, one on) run as one pass.
    fn apply(&self, network: &Network, perspective: Color, from: &[i32], to: &mut [i32]) {
        let column = |&(piece, square): &(Piece, Square)| {
            network.column(feature_index(perspective, piece.color, piece.role, square))
        };
        let removed = &self.removed[..self.removed_len];
        let added = &self.added[..self.added_len];
        match (removed, added) {
            ([off], [on]) => add_sub(to, from, column(on), column(off)),
            ([off1, off2], [on]) => add_sub_sub(to, from, column(on), column(off1), column(off2)),
            _ => {
                to.copy_from_slice(from);
                for off in removed {
                    sub_column(to, column(off));
                }
                for on in added {
                    add_column(to, column(on));
                }
            }
        }
    }
}

/// `to = from + on - off`, element by element, in one pass. The slices are cut to one
/// length first so that the loop carries no bounds checks and vectorises.
#[inline]
fn add_sub(to: &mut [i32], from: &[i32], on: &[i16], off: &[i16]) {
    let n = to.len();
    let (from, on, off) = (&from[..n], &on[..n], &off[..n]);
    for i in 0..n {
        to[i] = from[i] + i32::from(on[i]) - i32::from(off[i]);
    }
}

/// `to = from + on - off1 - off2`, element by element, in one pass (a capture).
#[inline]
fn add_sub_sub(to: &mut [i32], from: &[i32], on: &[i16], off1: &[i16], off2: &[i16]) {
    let n = to.len();
    let (from, on, off1, off2) = (&from[..n], &on[..n], &off1[..n], &off2[..n]);
    for i in 0..n {
        to[i] = from[i] + i32::from(on[i]) - i32::from(off1[i]) - i32::from(off2[i]);
    }
}
