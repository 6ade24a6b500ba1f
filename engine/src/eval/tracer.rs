//! How the terms report what they count: every feature goes through an [`Acc`], which
//! adds its weight to the running total and tells a [`Tracer`] the count, so that
//! [`super::evaluate`] (a tracer that records nothing) and [`super::trace`] (one that
//! records everything) run the same code.

use shakmaty::Color;

use super::attacks::KingAttack;
use super::features;
use super::tapered::Score;

/// Receives every feature count the evaluation makes.
pub(super) trait Tracer {
    /// `n` occurrences of `feature` (an index into [`features::WEIGHTS`]) for `color`.
    fn count(&mut self, feature: usize, color: Color, n: i32);
    /// The attacks on `king`'s king zone, the input of the nonlinear king danger.
    fn king_attack(&mut self, king: Color, attack: KingAttack);
    /// The game phase and the side to move.
    fn phase(&mut self, phase: i32, turn: Color);
}

/// The tracer used by [`super::evaluate`]: records nothing.
pub(super) struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn count(&mut self, _: usize, _: Color, _: i32) {}
    #[inline(always)]
    fn king_attack(&mut self, _: Color, _: KingAttack) {}
    #[inline(always)]
    fn phase(&mut self, _: i32, _: Color) {}
}

/// The running total plus the tracer. Every feature goes through [`Acc::add`], so the
/// total and the trace cannot disagree about a count.
///
/// The total is White's minus Black's, one pair the compiler keeps in registers: with a
/// pair per colour, indexed by a colour known only at run time, every term was a
/// read-modify-write of memory, each waiting on the one before.
pub(super) struct Acc<'a, T: Tracer> {
    pub net: Score,
    pub tracer: &'a mut T,
}

impl<'a, T: Tracer> Acc<'a, T> {
    /// A zero total, counting into `tracer`.
    #[inline(always)]
    pub fn new(tracer: &'a mut T) -> Self {
        Acc {
            net: Score::ZERO,
            tracer,
        }
    }

    /// `n` occurrences of `feature` for `color`.
    #[inline(always)]
    pub fn add(&mut self, feature: usize, color: Color, n: i32) {
        self.add_score(color, features::WEIGHTS[feature].times(n));
        self.tracer.count(feature, color, n);
    }

    /// A score for `color` that is not one feature's (the nonlinear king danger, terms
    /// replayed from the pawn table).
    #[inline(always)]
    pub fn add_score(&mut self, color: Color, score: Score) {
        self.net += if color.is_white() { score } else { -score };
    }
}

/// What `count` adds up (White's minus Black's), without a trace.
#[inline(always)]
pub(super) fn untraced(count: impl FnOnce(&mut Acc<NoTrace>)) -> Score {
    let mut tracer = NoTrace;
    let mut acc = Acc::new(&mut tracer);
    count(&mut acc);
    acc.net
}
