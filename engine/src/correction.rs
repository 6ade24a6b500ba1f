//! Correction history: what the search has learned about how far the static evaluation
//! is off in positions with a given pawn structure, or a given set of one side's pieces.
//!
//! The evaluation misjudges some pawn structures the same way wherever they occur (a
//! weakness it does not count, a blockade it overrates), and some placements of pieces
//! too (a bishop shut in, a king walked into the open). Whenever a search result says
//! more than the static eval could (an exact score, or a bound on the far side of the
//! eval), the difference is blended into three entries, keyed by side to move and
//! pawn structure, and by side to move and each colour's pieces other than pawns,
//! weighted by the depth of the search that found it; the static eval the search prunes
//! with is then corrected by a weighted sum of the three.

use shakmaty::Color;

use crate::params::{
    CORRECTION_BITS, CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_MAX_WEIGHT,
    CORRECTION_NON_PAWN_PERCENT, CORRECTION_PAWN_PERCENT, CORRECTION_WEIGHT_SCALE,
};
use crate::score::EVAL_LIMIT;

const ENTRIES: usize = 1 << CORRECTION_BITS;

/// One table: by side to move and key, the eval's error in 1/GRAIN centipawns.
type Table = [[i32; ENTRIES]; 2];

/// The keys a position's correction is read and learned under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    /// The [`pawn_key`](crate::board::pawn_key) of both colours' pawns.
    pub pawn: u64,
    /// Each colour's [`non_pawn_key`](crate::board::non_pawn_key), indexed by colour.
    pub non_pawn: [u64; 2],
}

/// The correction tables of one search thread.
pub struct CorrectionHistory {
    pawn: Box<Table>,
    /// Indexed by the colour whose pieces key it.
    non_pawn: [Box<Table>; 2],
}

fn table() -> Box<Table> {
    vec![[0; ENTRIES]; 2]
        .into_boxed_slice()
        .try_into()
        .expect("two rows")
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: table(),
            non_pawn: [table(), table()],
        }
    }
}

/// The entry of a key: its top bits, which every piece of the key stirs.
#[inline]
fn index(key: u64) -> usize {
    (key >> (64 - CORRECTION_BITS)) as usize
}

impl CorrectionHistory {
    /// What was learned for these keys, in centipawns: [`apply`] corrects an eval by it.
    /// The search reads it before it evaluates: the tables are too large for the nearest
    /// cache, and the loads then overlap the evaluation.
    #[inline]
    pub fn correction(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let side = side as usize;
        let pawn = self.pawn[side][index(keys.pawn)];
        let non_pawn: i32 = (0..2)
            .map(|colour| self.non_pawn[colour][side][index(keys.non_pawn[colour])])
            .sum();
        (pawn * CORRECTION_PAWN_PERCENT() + non_pawn * CORRECTION_NON_PAWN_PERCENT())
            / (100 * CORRECTION_GRAIN)
    }

    /// A search of `depth` found the position worth `error` more than its static eval.
    pub fn update(&mut self, side: Color, keys: CorrectionKeys, depth: i32, error: i32) {
        let side = side as usize;
        let weight = (depth + 1).min(CORRECTION_MAX_WEIGHT());
        let target = error.clamp(-CORRECTION_LIMIT(), CORRECTION_LIMIT()) * CORRECTION_GRAIN;
        let blend = |entry: &mut i32| {
            *entry = (*entry * (CORRECTION_WEIGHT_SCALE() - weight) + target * weight)
                / CORRECTION_WEIGHT_SCALE();
        };
        blend(&mut self.pawn[side][index(keys.pawn)]);
        for colour in 0..2 {
            blend(&mut self.non_pawn[colour][side][index(keys.non_pawn[colour])]);
        }
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
        fn correct(&self, side: Color, keys: CorrectionKeys, eval: i32) -> i32 {
            apply(eval, self.correction(side, keys))
        }
    }

    /// What the tables hold for an error `e` learned in full by the pawn table and the
    /// non-pawn tables of `colours` colours.
    fn weighted(e: i32, colours: i32) -> i32 {
        (e * CORRECTION_PAWN_PERCENT() + colours * e * CORRECTION_NON_PAWN_PERCENT()) / 100
    }

    #[test]
    fn corrections_converge_towards_the_error_and_stay_apart() {
        let mut c = CorrectionHistory::default();
        let keys = CorrectionKeys {
            pawn: 0x1234_5678_9abc_def0,
            non_pawn: [0x2468_ace0_1357_9bdf, 0xfdb9_7531_0eca_8642],
        };
        assert_eq!(c.correct(Color::White, keys, 50), 50);
        for _ in 0..200 {
            c.update(Color::White, keys, 10, 80);
        }
        let corrected = c.correct(Color::White, keys, 50) - 50;
        assert!(
            (weighted(80, 2) - 4..=weighted(80, 2)).contains(&corrected),
            "{corrected}"
        );
        // Another pawn structure with the same pieces keeps the pieces' share, and the
        // same pawns with white's pieces elsewhere keep the pawns' and black's shares.
        let other_pawns = CorrectionKeys {
            pawn: 0x0fed_cba9_8765_4321,
            ..keys
        };
        let corrected = c.correct(Color::White, other_pawns, 0);
        let pieces = weighted(80, 2) - weighted(80, 0);
        assert!((pieces - 3..=pieces).contains(&corrected), "{corrected}");
        let white_moved = CorrectionKeys {
            non_pawn: [keys.non_pawn[0], 0x0123_4567_89ab_cdef],
            ..keys
        };
        let corrected = c.correct(Color::White, white_moved, 0);
        assert!(
            (weighted(80, 1) - 3..=weighted(80, 1)).contains(&corrected),
            "{corrected}"
        );
        // The other side to move learned nothing.
        assert_eq!(c.correct(Color::Black, keys, 50), 50);
        // Errors beyond the limit count as the limit.
        for _ in 0..400 {
            c.update(Color::Black, keys, 20, 5000);
        }
        let limit = weighted(CORRECTION_LIMIT(), 2);
        assert!((limit - 3..=limit).contains(&c.correct(Color::Black, keys, 0)));
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
