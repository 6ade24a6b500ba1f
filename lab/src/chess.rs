//! Chess for the lab: Cutoff's [`Board`] (shakmaty's legal move generator with an
//! incremental Zobrist key) and its evaluation at the horizon.
//!
//! The game ends only by checkmate (`−MATE + ply` for the side mated) or stalemate (0):
//! repetitions, the fifty-move rule and insufficient material are not detected, so that a
//! position's value depends on the position alone and not on the path to it.

use shakmaty::{Move, Role, san::SanPlus};

use super::{EngineSearch, Game, MATE};
use cutoff_engine::board::{Board, BoardError};
use cutoff_engine::eval::evaluate;
use cutoff_engine::limits::Limits;
use cutoff_engine::score;
use cutoff_engine::search::{SearchOptions, Searcher};
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

/// The engine's table for its row: enough that a depth-7 search of one position does not
/// lose entries to replacement, small enough to clear at once.
const ENGINE_HASH_MB: usize = 16;

/// The engine's score in the lab's units: mates counted in plies from the root against
/// the lab's `MATE` (tablebases are not loaded, so there are no tablebase scores).
fn from_engine_score(value: i32) -> i32 {
    if score::is_mate(value) {
        value.signum() * (MATE - (score::MATE - value.abs()))
    } else {
        value
    }
}

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

    const HAS_ENGINE: bool = true;

    /// The engine as it plays, on one thread from a cleared table and histories (so the
    /// count repeats exactly), to a fixed depth: with its check and singular extensions,
    /// null-move, late-move and futility pruning and its quiescence search, whose nodes it
    /// counts.
    fn engine_search(&self, depth: u32) -> Option<EngineSearch<Move>> {
        let mut searcher = Searcher::new(ENGINE_HASH_MB).ok()?;
        let limits = Limits::depth(depth as i32);
        let result = searcher.search(&self.board, &limits, &SearchOptions::default(), &mut |_| {});
        Some(EngineSearch {
            value: from_engine_score(result.score),
            best: result.best,
            nodes: result.nodes,
        })
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
