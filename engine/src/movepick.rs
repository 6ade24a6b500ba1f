//! Move ordering. Legal moves come from shakmaty all at once; the picker scores them into
//! ranked stages and hands them out best first by selection, so a cutoff early in the
//! list saves the cost of sorting the rest.
//!
//! Stages, in order: the TT move; good captures and queen promotions (SEE ≥ 0, most
//! valuable victim first, least valuable attacker next); the two killers; the countermove;
//! the remaining quiets by butterfly history; bad captures; under-promotions.

use shakmaty::{Move, MoveList, Role};

use crate::board::Board;
use crate::history::{Continuations, History};
use crate::see::{see_ge, see_value};

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: [i32; 2] = [(1 << 27) + 2, (1 << 27) + 1];
const COUNTERMOVE: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);
const UNDER_PROMOTION: i32 = -(1 << 29);

/// The stage a move was ranked in, as far as the search treats stages differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    TtMove,
    /// Captures and promotions, good or bad.
    Noisy,
    /// Killers and the countermove.
    Killer,
    Quiet,
}

/// True for a move that changes no material: not a capture, not a promotion.
#[inline]
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && !m.is_promotion()
}

/// Most valuable victim first; among equal victims, the better capture history.
#[inline]
fn mvv_history(m: Move, capture_history: i32) -> i32 {
    let victim = m.capture().map_or(0, see_value) + m.promotion().map_or(0, see_value);
    victim * MVV_SCALE + capture_history / CAPTURE_HISTORY_DIVISOR
}

/// Victim values weigh this much against capture history (at most ±HISTORY_MAX / DIVISOR,
/// less than the step from a pawn to a knight).
const MVV_SCALE: i32 = 16;
const CAPTURE_HISTORY_DIVISOR: i32 = 16;

/// Hands out the moves of one node, best first.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

impl MovePicker {
    /// All legal moves, for a main-search node.
    pub fn new(
        board: &Board,
        tt_packed: u16,
        history: &History,
        ply: usize,
        previous: Option<Move>,
        continuations: &Continuations,
    ) -> Self {
        let moves = board.legal_moves();
        let pos = board.pos();
        let side = board.turn();
        let killers = history.killers(ply);
        let countermove = previous.and_then(|p| history.countermove(!side, p));
        let mut scores = [0; 256];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = if tt_packed != 0 && Board::pack(m) == tt_packed {
                TT_MOVE
            } else if m.promotion().is_some_and(|r| r != Role::Queen) {
                UNDER_PROMOTION + mvv_history(m, 0)
            } else if !is_quiet(m) {
                let ordering = mvv_history(m, history.capture_score(side, m));
                if see_ge(pos, m, 0) {
                    GOOD_CAPTURE + ordering
                } else {
                    BAD_CAPTURE + ordering
                }
            } else if Some(m) == killers[0] {
                KILLER[0]
            } else if Some(m) == killers[1] {
                KILLER[1]
            } else if Some(m) == countermove {
                COUNTERMOVE
            } else {
                history.quiet_score(side, m, continuations)
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Captures and promotions only (or every evasion when in check), for quiescence.
    pub fn noisy(board: &Board, history: &History) -> Self {
        let mut moves = board.legal_moves();
        let in_check = board.in_check();
        if !in_check {
            moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        }
        let mut scores = [0; 256];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = if is_quiet(m) {
                0
            } else {
                GOOD_CAPTURE + mvv_history(m, history.capture_score(board.turn(), m))
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl Iterator for MovePicker {
    type Item = (Move, Stage);

    /// The next best move and the stage it was ranked in.
    fn next(&mut self) -> Option<(Move, Stage)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let m = self.moves[self.next];
        let score = self.scores[self.next];
        self.next += 1;
        let stage = if score == TT_MOVE {
            Stage::TtMove
        } else if score >= GOOD_CAPTURE {
            Stage::Noisy
        } else if score >= COUNTERMOVE {
            Stage::Killer
        } else if score > BAD_CAPTURE / 2 {
            Stage::Quiet
        } else {
            Stage::Noisy
        };
        Some((m, stage))
    }
}
