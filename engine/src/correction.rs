//! Correction history: what the search has learned about how far the static evaluation
//! is off in positions with a given pawn structure.
//!
//! The evaluation misjudges some pawn structures the same way wherever they occur (a
//! weakness it does not count, a blockade it overrates). Whenever a search result says
//! more than the static eval could (an exact score, or a bound on the far side of the
//! eval), the difference is blended into an entry keyed by side to move and pawn
//! structure, weighted by the depth of the search that found it; the static eval the
//! search prunes with is then corrected by that entry.

use shakmaty::Color;

use crate::params::{
    CORRECTION_BITS, CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_MAX_WEIGHT,
    CORRECTION_WEIGHT_SCALE,
};
use crate::score::EVAL_LIMIT;

const ENTRIES: usize = 1 << CORRECTION_BITS;

/// The correction tables of one search thread.
pub struct CorrectionHistory {
    /// By side to move and pawn-structure key: the eval's error in 1/GRAIN centipawns.
    pawn: Box<[[i32; ENTRIES]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: vec![[0; ENTRIES]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two rows"),
        }
    }
}

/// The entry of a pawn key: its top bits, which every pawn of the structure stirs.
#[inline]
fn index(pawn_key: u64) -> usize {
    (pawn_key >> (64 - CORRECTION_BITS)) as usize
}

impl CorrectionHistory {
    /// What was learned for this pawn structure, in centipawns: [`apply`] corrects an
    /// eval by it. The search reads it before it evaluates: the table is too large for
    /// the nearest cache, and the load then overlaps the evaluation.
    #[inline]
    pub fn correction(&self, side: Color, pawn_key: u64) -> i32 {
        self.pawn[side as usize][index(pawn_key)] / CORRECTION_GRAIN
    }

    /// A search of `depth` found the position worth `error` more than its static eval.
    pub fn update(&mut self, side: Color, pawn_key: u64, depth: i32, error: i32) {
        let entry = &mut self.pawn[side as usize][index(pawn_key)];
        let weight = (depth + 1).min(CORRECTION_MAX_WEIGHT());
        let target = error.clamp(-CORRECTION_LIMIT(), CORRECTION_LIMIT()) * CORRECTION_GRAIN;
        *entry = (*entry * (CORRECTION_WEIGHT_SCALE() - weight) + target * weight)
            / CORRECTION_WEIGHT_SCALE();
    }
}

/// `eval` corrected by a [`CorrectionHistory::correction`], kept within ±[`EVAL_LIMIT`]:
/// a corrected evaluation must no more look like a tablebase win than a raw one.
#[inline]
pub fn apply(eval: i32, correction: i32) -> i32 {
    (eval + correction).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    impl CorrectionHistory {
        fn correct(&self, side: Color, pawn_key: u64, eval: i32) -> i32 {
            apply(eval, self.correction(side, pawn_key))
        }
    }

    #[test]
    fn corrections_converge_towards_the_error_and_stay_apart() {
        let mut c = CorrectionHistory::default();
        let (key, other) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        assert_eq!(c.correct(Color::White, key, 50), 50);
        for _ in 0..200 {
            c.update(Color::White, key, 10, 80);
        }
        let corrected = c.correct(Color::White, key, 50);
        assert!((125..=130).contains(&corrected), "{corrected}");
        // Another structure, and the other side to move, learned nothing.
        assert_eq!(c.correct(Color::White, other, 50), 50);
        assert_eq!(c.correct(Color::Black, key, 50), 50);
        // Errors beyond the limit count as the limit.
        for _ in 0..400 {
            c.update(Color::Black, key, 20, 5000);
        }
        assert_eq!(c.correct(Color::Black, key, 0), CORRECTION_LIMIT() - 1);
    }

    /// A corrected evaluation stays below every tablebase score, as the raw one does
    /// (it used to reach up to the mate bound, a network's 31,500 plus 400 read as a
    /// tablebase win).
    #[test]
    fn a_correction_never_makes_an_evaluation_decisive() {
        assert_eq!(apply(EVAL_LIMIT, CORRECTION_LIMIT()), EVAL_LIMIT);
        assert_eq!(apply(-EVAL_LIMIT, -CORRECTION_LIMIT()), -EVAL_LIMIT);
        assert_eq!(apply(100, -30), 70);
    }
}
