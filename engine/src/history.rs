//! Move-ordering memory of one search thread: killer moves, countermoves, a butterfly
//! history and a continuation history of quiet moves, and a capture history.
//!
//! Every history table learns the same way: a move that caused a β cutoff gets a bonus
//! growing with depth, every move of its kind tried before it the same malus, and each
//! update moves an entry by less the closer it already is to ±`HISTORY_MAX` ("gravity"),
//! so scores stay bounded and recent results weigh more.

use shakmaty::{Color, Move, Role};

use crate::params::{
    HISTORY_BONUS_MAX, HISTORY_BONUS_MULTIPLIER, HISTORY_BONUS_SUBTRACT, HISTORY_MAX,
};
use crate::score::MAX_PLY;

/// Pieces as table indices: colour × 6 + role.
const PIECES: usize = 12;

/// A move as continuation history knows it: which piece went to which square
/// (`piece × 64 + to`). The piece, not the from-square, is what makes a follow-up good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// `m`, made by `side`.
    #[inline]
    pub fn of(side: Color, m: Move) -> PieceTo {
        PieceTo(quiet_slots(side, m).2 as u16)
    }
}

#[inline]
fn piece_index(side: Color, role: Role) -> usize {
    side as usize * 6 + role as usize - 1
}

/// The continuation history read when there is no earlier move.
static NO_CONTINUATION: [i16; PIECES * 64] = [0; PIECES * 64];

/// The moves one and two plies back that a quiet move's continuation history is read
/// under (None after a null move or at the root).
pub type Continuations = [Option<PieceTo>; 2];

/// The move-ordering tables of one thread.
pub struct History {
    /// Butterfly history, by side, from-square and to-square.
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Continuation history: how well a quiet move did right after an earlier move, by
    /// the earlier move's piece and target, then this move's piece and target.
    continuation: Box<[[i16; PIECES * 64]; PIECES * 64]>,
    /// Capture history, by moving piece, target and captured role (promotions without a
    /// capture use the king's slot, which no capture fills).
    capture: Box<[[[i32; 6]; 64]; PIECES]>,
    /// Two killer moves per ply: quiet moves that caused a beta cutoff at that ply.
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// The quiet move that last refuted a move, by the refuted move's side, role and target.
    countermoves: Box<[[[Option<Move>; 64]; 7]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            continuation: vec![[0; PIECES * 64]; PIECES * 64]
                .into_boxed_slice()
                .try_into()
                .expect("PIECES × 64 rows"),
            capture: Box::new([[[0; 6]; 64]; PIECES]),
            killers: [[None; 2]; MAX_PLY + 1],
            countermoves: Box::new([[[None; 64]; 7]; 2]),
        }
    }
}

/// Bonus for a cutoff at `depth` (and the size of the malus for the moves tried before it).
fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_MULTIPLIER() * depth - HISTORY_BONUS_SUBTRACT()).clamp(0, HISTORY_BONUS_MAX())
}

/// Where a quiet move's entries are: its butterfly slot (origin, 0 for a drop, and
/// target) and its [`PieceTo`] index, from one match on the move's shape (the accessors
/// would match once each, and the picker reads these for every quiet it scores).
#[inline]
fn quiet_slots(side: Color, m: Move) -> (usize, usize, usize) {
    let (role, from, to) = match m {
        Move::Normal { role, from, to, .. } => (role, from as usize, to as usize),
        Move::EnPassant { from, to } => (Role::Pawn, from as usize, to as usize),
        Move::Castle { king, rook } => (Role::King, king as usize, rook as usize),
        Move::Put { role, to } => (role, 0, to as usize),
    };
    (from, to, piece_index(side, role) * 64 + to)
}

/// Gravity update: the entry moves towards ±HISTORY_MAX by `delta`, less the closer it
/// already is.
#[inline]
fn update(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / HISTORY_MAX;
}

#[inline]
fn update_i16(entry: &mut i16, delta: i32) {
    let mut value = i32::from(*entry);
    update(&mut value, delta);
    *entry = value as i16;
}

/// The capture-history slot of `m`, made by `side`: moving piece, target, captured role
/// (promotions without a capture take the king's slot, which no capture fills).
#[inline]
fn capture_slot(side: Color, m: Move) -> (usize, usize, usize) {
    let captured = m.capture().unwrap_or(Role::King);
    (
        piece_index(side, m.role()),
        m.to() as usize,
        captured as usize - 1,
    )
}

impl History {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Clears the killers only (each search starts with fresh ones: plies shift meaning).
    pub fn clear_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// The ordering score of a quiet move: butterfly plus continuation history.
    #[inline]
    pub fn quiet_score(&self, side: Color, m: Move, continuations: &Continuations) -> i32 {
        // A missing earlier move reads a row of zeros: no branch per move, and the rows
        // are the same for every move of a node, so the picker's loop finds them once.
        let row =
            |c: Option<PieceTo>| c.map_or(&NO_CONTINUATION, |c| &self.continuation[c.0 as usize]);
        let (from, to, here) = quiet_slots(side, m);
        self.butterfly[side as usize][from][to]
            + i32::from(row(continuations[0])[here])
            + i32::from(row(continuations[1])[here])
    }

    /// The capture-history score of a capture or promotion.
    #[inline]
    pub fn capture_score(&self, side: Color, m: Move) -> i32 {
        let (piece, to, captured) = capture_slot(side, m);
        self.capture[piece][to][captured]
    }

    fn update_quiet(&mut self, side: Color, m: Move, continuations: &Continuations, delta: i32) {
        let (from, to, here) = quiet_slots(side, m);
        update(&mut self.butterfly[side as usize][from][to], delta);
        for c in continuations.iter().flatten() {
            update_i16(&mut self.continuation[c.0 as usize][here], delta);
        }
    }

    /// A quiet move caused a cutoff: reward it, punish the quiets tried before it.
    pub fn reward_quiet(
        &mut self,
        side: Color,
        best: Move,
        tried: &[Move],
        continuations: &Continuations,
        depth: i32,
    ) {
        let b = bonus(depth);
        for &m in tried {
            self.update_quiet(side, m, continuations, -b);
        }
        self.update_quiet(side, best, continuations, b);
    }

    /// A cutoff at `depth`: reward `best` if it is a capture or promotion, and punish the
    /// captures and promotions tried before it.
    pub fn reward_captures(&mut self, side: Color, best: Option<Move>, tried: &[Move], depth: i32) {
        let b = bonus(depth);
        let updates = tried.iter().map(|&m| (m, -b)).chain(best.map(|m| (m, b)));
        for (m, delta) in updates {
            let (piece, to, captured) = capture_slot(side, m);
            update(&mut self.capture[piece][to][captured], delta);
        }
    }

    /// Clears the killers of one ply (a node clears its children's before searching them,
    /// so killers stay local to one part of the tree).
    #[inline]
    pub fn clear_killers_at(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply) {
            *k = [None; 2];
        }
    }

    /// The two killer moves at `ply`, the newer first.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// Makes `m`, a quiet move that caused a beta cutoff at `ply`, its newer killer.
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// The countermove to the opponent's `previous` move (made by side `previous_side`).
    #[inline]
    pub fn countermove(&self, previous_side: Color, previous: Move) -> Option<Move> {
        self.countermoves[previous_side as usize][previous.role() as usize][previous.to() as usize]
    }

    /// Makes `reply` the countermove to the opponent's `previous` move (made by side
    /// `previous_side`).
    pub fn set_countermove(&mut self, previous_side: Color, previous: Move, reply: Move) {
        self.countermoves[previous_side as usize][previous.role() as usize]
            [previous.to() as usize] = Some(reply);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn continuation_history_learns_per_predecessor() {
        let board = Board::default();
        let e4 = board.parse_uci("e2e4").unwrap();
        let d4 = board.parse_uci("d2d4").unwrap();
        let nf3 = board.parse_uci("g1f3").unwrap();
        let after_e4: Continuations = [Some(PieceTo::of(Color::Black, e4)), None];
        let after_d4: Continuations = [Some(PieceTo::of(Color::Black, d4)), None];
        let mut h = History::default();
        h.reward_quiet(Color::White, nf3, &[], &after_e4, 8);
        let butterfly = h.quiet_score(Color::White, nf3, &[None, None]);
        assert!(butterfly > 0);
        assert!(h.quiet_score(Color::White, nf3, &after_e4) > butterfly);
        assert_eq!(h.quiet_score(Color::White, nf3, &after_d4), butterfly);
    }

    #[test]
    fn gravity_keeps_entries_bounded() {
        let board = Board::default();
        let nf3 = board.parse_uci("g1f3").unwrap();
        let nc3 = board.parse_uci("b1c3").unwrap();
        let mut h = History::default();
        for _ in 0..1000 {
            h.reward_quiet(Color::White, nf3, &[nc3], &[None, None], 20);
            h.reward_captures(Color::White, Some(nf3), &[nc3], 20);
        }
        assert!(h.quiet_score(Color::White, nf3, &[None, None]) <= HISTORY_MAX);
        assert!(h.quiet_score(Color::White, nc3, &[None, None]) >= -HISTORY_MAX);
        assert!(h.capture_score(Color::White, nf3) <= HISTORY_MAX);
    }
}
