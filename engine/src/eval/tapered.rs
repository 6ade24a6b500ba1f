//! The evaluation's unit: a (middlegame, endgame) pair of centipawns, and the game phase
//! that blends the two halves into one score.
//!
//! The bottom of the evaluation: the weights file, the feature list and every term are
//! written in [`Score`]s; this module needs only the endgame scale's unit from
//! [`super::scaling`].

use std::ops::{Add, AddAssign, Neg, Sub};

use shakmaty::Color;

use super::scaling::SCALE_NORMAL;

/// Game-phase weight per role (pawn, knight, bishop, rook, queen, king).
pub const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Game phase with all pieces on the board; the phase is clamped to this value.
pub const MAX_PHASE: i32 = 24;

/// A (middlegame, endgame) score pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Middlegame part.
    pub mg: i32,
    /// Endgame part.
    pub eg: i32,
}

/// A (middlegame, endgame) pair; short, because the weights file is a wall of them.
pub const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl Score {
    /// (0, 0).
    pub const ZERO: Score = Score { mg: 0, eg: 0 };

    /// The pair times an integer count.
    #[inline(always)]
    pub const fn times(self, n: i32) -> Score {
        Score {
            mg: self.mg * n,
            eg: self.eg * n,
        }
    }

    /// Blends mg and eg by `phase` (0..=MAX_PHASE), the endgame part first multiplied by
    /// `scale` / [`SCALE_NORMAL`] (see [`super::scaling`]). Divisions truncate toward zero, so
    /// `taper(-s) == -taper(s)`, which keeps the evaluation colour symmetric.
    #[inline(always)]
    pub const fn taper(self, phase: i32, scale: i32) -> i32 {
        let eg = self.eg * scale / SCALE_NORMAL;
        (self.mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    }

    /// The side this pair's endgame part favours (White when it is zero): the side whose
    /// endgame scale applies.
    #[inline(always)]
    pub const fn endgame_favours(self) -> Color {
        if self.eg >= 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, o: Score) -> Score {
        Score {
            mg: self.mg + o.mg,
            eg: self.eg + o.eg,
        }
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, o: Score) -> Score {
        Score {
            mg: self.mg - o.mg,
            eg: self.eg - o.eg,
        }
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score {
            mg: -self.mg,
            eg: -self.eg,
        }
    }
}

impl From<(i32, i32)> for Score {
    fn from((mg, eg): (i32, i32)) -> Score {
        Score { mg, eg }
    }
}
