//! Chess for the lab: Cutoff's [`Board`] (shakmaty's legal move generator with an
//! incremental Zobrist key) and its evaluation at the horizon.
//!
//! The game ends only by checkmate (`−MATE + ply` for the side mated) or stalemate (0):
//! repetitions, the fifty-move rule and insufficient material are not detected, so that a
//! position's value depends on the position alone and not on the path to it.

use shakmaty::{Move, Role, san::SanPlus};

use super::{Game, MATE};
use cutoff_engine::board::{Board, BoardError};
use cutoff_engine::eval::evaluate;
use cutoff_engine::see::see;
use cutoff_engine::see::see_value;

/// Chess as a lab game: the engine's board, evaluation and SEE.
#[derive(Clone, Debug)]
pub struct ChessGame {
    board: Board,
}

impl ChessGame {
    /// The game from `board`.
    pub fn new(board: Board) -> Self {
        ChessGame { board }
    }

    /// The game from a FEN (standard chess).
    pub fn from_fen(fen: &str) -> Result<Self, BoardError> {
        Ok(ChessGame::new(Board::from_fen(fen, false)?))
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }
}

/// Static order classes: winning or even captures (SEE ≥ 0) by MVV-LVA first, then
/// promotions, quiet moves (0, where killers and history rank them), and losing captures.
const GOOD_CAPTURE: i32 = 2_000_000;
const PROMOTION: i32 = 1_500_000;
const BAD_CAPTURE: i32 = -2_000_000;

impl Game for ChessGame {
    type Move = Move;

    fn moves(&self) -> Vec<Move> {
        self.board.legal_moves().into_iter().collect()
    }

    fn make(&mut self, m: Move) {
        self.board.make(m);
    }

    fn unmake(&mut self) {
        self.board.unmake();
    }

    fn outcome(&self, moves: &[Move], ply: u32) -> Option<i32> {
        if !moves.is_empty() {
            None
        } else if self.board.in_check() {
            Some(-MATE + ply as i32)
        } else {
            Some(0)
        }
    }

    fn evaluate(&self) -> i32 {
        evaluate(self.board.pos())
    }

    fn key(&self) -> u64 {
        self.board.key()
    }

    fn is_noisy(&self, m: Move) -> bool {
        m.is_capture()
    }

    fn order_score(&mut self, m: Move) -> i32 {
        match m.capture() {
            Some(victim) => {
                // Most valuable victim first, then least valuable attacker.
                let mvv_lva = 10 * see_value(victim) - see_value(m.role());
                if see(self.board.pos(), m) >= 0 {
                    GOOD_CAPTURE + mvv_lva
                } else {
                    BAD_CAPTURE + mvv_lva
                }
            }
            None => match m.promotion() {
                Some(role) => PROMOTION + see_value(role) - see_value(Role::Pawn),
                None => 0,
            },
        }
    }

    fn move_name(&self, m: Move) -> String {
        SanPlus::from_move(self.board.pos().clone(), m).to_string()
    }

    fn aspiration_delta(&self) -> i32 {
        25
    }

    fn bstar_margin(&self) -> i32 {
        15
    }
}
