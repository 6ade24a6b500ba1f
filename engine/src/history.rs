//! Move-ordering memory of one search thread: killer moves, countermoves and a butterfly
//! history of quiet moves.

use shakmaty::{Color, Move};

use crate::params::{
    HISTORY_BONUS_MAX, HISTORY_BONUS_MULTIPLIER, HISTORY_BONUS_SUBTRACT, HISTORY_MAX,
};
use crate::score::MAX_PLY;

/// Quiet-move ordering tables, owned by one thread.
pub struct History {
    /// Butterfly history, by side, from-square and to-square.
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Two killer moves per ply: quiet moves that caused a beta cutoff at that ply.
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// The quiet move that last refuted a move, by the refuted move's side, role and target.
    countermoves: Box<[[[Option<Move>; 64]; 7]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[None; 2]; MAX_PLY + 1],
            countermoves: Box::new([[[None; 64]; 7]; 2]),
        }
    }
}

/// Bonus for a cutoff at `depth` (and the size of the malus for the quiets tried before it).
pub fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_MULTIPLIER * depth - HISTORY_BONUS_SUBTRACT).clamp(0, HISTORY_BONUS_MAX)
}

fn from_index(m: Move) -> usize {
    m.from().map_or(0, |s| s as usize)
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

    #[inline]
    pub fn quiet_score(&self, side: Color, m: Move) -> i32 {
        self.butterfly[side as usize][from_index(m)][m.to() as usize]
    }

    /// Gravity update: the entry moves towards ±HISTORY_MAX by `delta`, less the closer it
    /// already is, so scores stay bounded and recent results weigh more.
    fn update(entry: &mut i32, delta: i32) {
        *entry += delta - *entry * delta.abs() / HISTORY_MAX;
    }

    /// A quiet move caused a cutoff: reward it, punish the quiets tried before it.
    pub fn reward_quiet(&mut self, side: Color, best: Move, tried: &[Move], depth: i32) {
        let b = bonus(depth);
        for &m in tried {
            Self::update(
                &mut self.butterfly[side as usize][from_index(m)][m.to() as usize],
                -b,
            );
        }
        Self::update(
            &mut self.butterfly[side as usize][from_index(best)][best.to() as usize],
            b,
        );
    }

    /// Clears the killers of one ply (a node clears its children's before searching them,
    /// so killers stay local to one part of the tree).
    #[inline]
    pub fn clear_killers_at(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply) {
            *k = [None; 2];
        }
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

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

    pub fn set_countermove(&mut self, previous_side: Color, previous: Move, reply: Move) {
        self.countermoves[previous_side as usize][previous.role() as usize]
            [previous.to() as usize] = Some(reply);
    }
}
