//! Every margin, threshold and table size of the search, in one place.
//!
//! Naming: `*_DEPTH` bounds the depths where a technique applies, `*_MARGIN` is a score
//! margin multiplied by depth, `*_BASE` a constant part, `*_DIVISOR` a scale, `*_PERCENT`
//! and `*_PERMILLE` a share in hundredths or thousandths (a tuner varies integers).
//!
//! The constants that change how well Cutoff plays are declared once, in `tunables!`,
//! with their range and SPSA step sizes, and read as `NAME()`. A normal build makes each
//! an `#[inline(always)] const fn` returning its value: the compiler folds it as it would
//! a `const`. A tuning build (Cargo feature `spsa`) reads each from a table of
//! atomics that the UCI layer sets through [`set`], one `spin` option per constant, so a
//! tuner can play one binary against itself with different values. [`TUNABLES`] lists
//! them for both builds, and [`Tunable::openbench_line`] writes a tune's input for
//! OpenBench. Table sizes and the bounds that keep the search correct stay plain
//! constants: no tune should move them.
//!
//! The defaults were set by hand and passed SPRTs one change at a time; eighteen of them
//! then moved by the second SPSA tune (6,000 games at 60,000 nodes a move), whose values
//! passed SPRT [0, 5] at 10+0.1 against the hand-set ones: 8,800 games, +5.3 ± 4.2 Elo
//! (docs/search.md, "Tuning with SPSA").

/// One tunable constant as an SPSA tuner sees it: OpenBench's `name, int, value, min,
/// max, c_end, r_end`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// The constant's name, also its UCI option name in a tuning build.
    pub name: &'static str,
    /// The value of a normal build, and the tuning build's until set.
    pub default: i32,
    /// The range a tuner may explore, inclusive.
    pub min: i32,
    /// See `min`.
    pub max: i32,
    /// The perturbation ±c at the tune's last iteration, in the constant's units.
    pub c_end: f64,
    /// The step at the last iteration, as a multiple of c_end² per game pair won
    /// (OpenBench: a_end = r_end · c_end²).
    pub r_end: f64,
}

impl Tunable {
    /// The constant as one line of OpenBench's SPSA input.
    pub fn openbench_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.c_end, self.r_end
        )
    }
}

/// True in a tuning build (feature `spsa`), where [`set`] changes the constants.
pub const TUNING: bool = cfg!(feature = "spsa");

/// OpenBench's usual final learning rate, for a tunable that names none.
const R_END: f64 = 0.002;

/// Declares each tunable once: `NAME: type = default (min..=max, c_end C)`, or with
/// `, r_end R` after C, and its doc comment. Expands to the reader `NAME()` for the build
/// at hand and to [`TUNABLES`].
macro_rules! tunables {
    (@r_end) => { R_END };
    (@r_end $r_end:literal) => { $r_end };
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $default:literal
        ($min:literal..=$max:literal, c_end $c_end:literal $(, r_end $r_end:literal)?);)*) => {
        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "spsa"))]
            #[allow(non_snake_case, reason = "read as the constant it replaces: `RFP_MARGIN()`")]
            #[inline(always)]
            pub const fn $name() -> $ty {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "spsa")]
            #[allow(non_snake_case, reason = "read as the constant it replaces: `RFP_MARGIN()`")]
            #[inline]
            pub fn $name() -> $ty {
                tuned::VALUES[tuned::Slot::$name as usize]
                    .load(std::sync::atomic::Ordering::Relaxed) as $ty
            }
        )*

        /// Every tunable with its default, range and SPSA step sizes, in declaration order.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            c_end: $c_end as f64,
            r_end: tunables!(@r_end $($r_end)?),
        }),*];

        /// The tuning build's current values: process-wide, as UCI options are, and
        /// read with relaxed loads (a value set between searches is seen by the next).
        #[cfg(feature = "spsa")]
        mod tuned {
            use std::sync::atomic::AtomicI32;

            #[allow(
                non_camel_case_types,
                clippy::upper_case_acronyms,
                reason = "a slot per tunable, named as the tunable"
            )]
            pub(super) enum Slot {
                $($name),*
            }

            pub(super) static VALUES: [AtomicI32; super::TUNABLES.len()] =
                [$(AtomicI32::new($default)),*];
        }
    };
}

tunables! {
    /// Aspiration windows start this wide around the previous score, from ASPIRATION_DEPTH on.
    ASPIRATION_WINDOW: i32 = 24 (5..=100, c_end 3);
    /// The first depth searched with an aspiration window.
    ASPIRATION_DEPTH: i32 = 5 (1..=10, c_end 0.5);
    /// A window that failed grows by this share of its width before the next pass.
    ASPIRATION_GROWTH_PERCENT: i32 = 50 (20..=150, c_end 5);

    /// Reverse futility (static null move): prune when eval − margin·depth ≥ β.
    RFP_DEPTH: i32 = 8 (4..=14, c_end 0.5);
    /// Reverse futility margin per ply of depth.
    RFP_MARGIN: i32 = 76 (30..=150, c_end 6);

    /// Null-move pruning: reduction R = BASE + depth / DIVISOR + min((eval − β) /
    /// EVAL_DIVISOR, EVAL_MAX), verified by a reduced search from VERIFY_DEPTH on, where
    /// zugzwang would cost most.
    NMP_DEPTH: i32 = 3 (1..=6, c_end 0.5);
    /// Null-move reduction: the constant part.
    NMP_BASE: i32 = 3 (1..=6, c_end 0.5);
    /// Null-move reduction: one more ply per this many plies of depth.
    NMP_DIVISOR: i32 = 3 (1..=8, c_end 0.5);
    /// Null-move reduction: one more ply per this many centipawns the eval is above β ...
    NMP_EVAL_DIVISOR: i32 = 199 (50..=400, c_end 15);
    /// ... up to this many plies.
    NMP_EVAL_MAX: i32 = 3 (0..=6, c_end 0.5);
    /// A null-move cutoff from this depth on is verified by a reduced search.
    NMP_VERIFY_DEPTH: i32 = 12 (6..=24, c_end 1);
    /// A verification search keeps null moves off for this share (in percent) of its depth,
    /// in plies below the verifying node.
    NMP_VERIFY_SPAN_PERCENT: i32 = 75 (25..=100, c_end 6);

    /// Singular extensions: from DEPTH on, a TT move whose lower bound is at most DEPTH_SLACK
    /// plies shallower is tested by a search at (depth − 1) / 2 of the other moves against
    /// ttScore − MARGIN·depth. No other move comes close: extend one ply, two when they all
    /// fall DOUBLE_MARGIN further short (at most DOUBLE_MAX times along a line).
    SINGULAR_DEPTH: i32 = 8 (4..=14, c_end 0.5);
    /// How many plies shallower than the node the TT entry may be.
    SINGULAR_DEPTH_SLACK: i32 = 3 (1..=6, c_end 0.5);
    /// The singular margin per ply of depth below the TT score.
    SINGULAR_MARGIN: i32 = 2 (1..=6, c_end 0.5);
    /// How much further short the other moves fall for a double extension.
    SINGULAR_DOUBLE_MARGIN: i32 = 20 (0..=60, c_end 2);
    /// Double extensions allowed along one line.
    SINGULAR_DOUBLE_MAX: u8 = 6 (0..=12, c_end 0.5);

    /// Internal iterative reduction: no TT move at a deep node, search one ply less.
    IIR_DEPTH: i32 = 4 (2..=8, c_end 0.5);

    /// Late-move pruning: at depth d skip quiets after BASE + d² (halved when not improving).
    LMP_DEPTH: i32 = 8 (4..=14, c_end 0.5);
    /// Late-move pruning: the constant part of the quiet-move count.
    LMP_BASE: i32 = 3 (0..=8, c_end 0.5);

    /// Futility pruning of quiets: eval + BASE + MARGIN·depth ≤ α.
    FUTILITY_DEPTH: i32 = 8 (4..=14, c_end 0.5);
    /// Futility margin: the constant part.
    FUTILITY_BASE: i32 = 80 (0..=200, c_end 8);
    /// Futility margin per ply of depth.
    FUTILITY_MARGIN: i32 = 89 (30..=200, c_end 8);

    /// History pruning: at depth ≤ DEPTH, skip quiets whose history is below −MARGIN·depth.
    HISTORY_PRUNE_DEPTH: i32 = 4 (1..=8, c_end 0.5);
    /// History pruning's threshold per ply of depth.
    HISTORY_PRUNE_MARGIN: i32 = 2990 (500..=8000, c_end 250);

    /// SEE pruning in the main search: skip moves losing more than MARGIN·depth (quiets) or
    /// MARGIN·depth² (captures).
    SEE_PRUNE_DEPTH: i32 = 8 (4..=14, c_end 0.5);
    /// SEE threshold per ply of depth for quiets.
    SEE_QUIET_MARGIN: i32 = -59 (-150..=-10, c_end 5);
    /// SEE threshold per ply of depth squared for captures.
    SEE_CAPTURE_MARGIN: i32 = -24 (-100..=-5, c_end 2);

    /// Late-move reductions: R = BASE + ln(depth)·ln(move number) / DIVISOR (BASE and
    /// DIVISOR in hundredths), from LMR_DEPTH on and after LMR_MOVES moves (the same gate
    /// for the root's one-ply reduction of quiet moves that give no check).
    LMR_DEPTH: i32 = 3 (1..=6, c_end 0.5);
    /// ... to the moves after this many (one more in PV nodes).
    LMR_MOVES: usize = 2 (1..=6, c_end 0.5);
    /// Late-move reduction: the constant part, in hundredths of a ply.
    LMR_BASE: i32 = 76 (0..=200, c_end 6);
    /// Late-move reduction: divides ln(depth)·ln(move number), in hundredths.
    LMR_DIVISOR: i32 = 224 (120..=400, c_end 10);
    /// History score that changes the reduction by one ply.
    LMR_HISTORY_DIVISOR: i32 = 5904 (2000..=16000, c_end 400);
    /// Captures and promotions are reduced this share (in percent) of a quiet move's
    /// reduction…
    LMR_NOISY_PERCENT: i32 = 50 (0..=100, c_end 5);
    /// …less one ply per this much capture history.
    LMR_CAPTURE_HISTORY_DIVISOR: i32 = 3991 (1000..=16000, c_end 300);
    /// Extra plies of reduction at an expected cut node (a null-window child of a node
    /// expected to fail low, or a reduced search), where one move is expected to refute.
    LMR_CUT_NODE: i32 = 1 (0..=3, c_end 0.5);
    /// Extra plies of reduction for a quiet move when the TT move is a capture: the
    /// capture is the likely best move, the quiets less likely to matter.
    LMR_TT_CAPTURE: i32 = 1 (0..=2, c_end 0.5);

    /// Quiescence delta pruning: a capture that cannot lift the score within this of α is skipped.
    DELTA_MARGIN: i32 = 202 (50..=500, c_end 15);

    /// Move ordering: victim values weigh MVV_SCALE against capture history / DIVISOR
    /// (at most ±HISTORY_MAX / DIVISOR, less than the step from a pawn to a knight).
    MVV_SCALE: i32 = 16 (4..=64, c_end 1);
    /// Capture history counts this many times less than a victim's value step.
    CAPTURE_HISTORY_DIVISOR: i32 = 16 (4..=64, c_end 1);

    /// History: bonus = min(MULTIPLIER·depth − SUBTRACT, MAX).
    HISTORY_BONUS_MULTIPLIER: i32 = 303 (100..=800, c_end 20);
    /// Subtracted from the history bonus.
    HISTORY_BONUS_SUBTRACT: i32 = 251 (0..=800, c_end 20);
    /// The largest history bonus.
    HISTORY_BONUS_MAX: i32 = 2026 (500..=4000, c_end 120);

    /// Correction history: errors count up to ±LIMIT centipawns, and a search of depth d
    /// moves an entry (d + 1)/WEIGHT_SCALE of the way to its error, at most
    /// MAX_WEIGHT/WEIGHT_SCALE.
    CORRECTION_LIMIT: i32 = 397 (100..=1000, c_end 30);
    /// The most weight (out of WEIGHT_SCALE) one search's error gets.
    CORRECTION_MAX_WEIGHT: i32 = 16 (4..=64, c_end 2);
    /// The scale of a correction update's weight.
    CORRECTION_WEIGHT_SCALE: i32 = 259 (128..=1024, c_end 16);
    /// The share, in percent, of the pawn-structure table in an eval's correction.
    CORRECTION_PAWN_PERCENT: i32 = 75 (0..=200, c_end 8);
    /// The share, in percent, of each colour's non-pawn table in an eval's correction.
    CORRECTION_NON_PAWN_PERCENT: i32 = 20 (0..=200, c_end 8);

    /// Transposition table replacement prefers to keep entries deeper than the candidate by
    /// this much per age step.
    TT_AGE_WEIGHT: i32 = 8 (0..=32, c_end 1);
    /// A store keeps an entry of this search about the same position (unless the new one is
    /// exact) when it is deeper than the new one by more than this many plies.
    TT_REPLACE_DEPTH_SLACK: i32 = 2 (0..=6, c_end 0.5);

    /// Lazy SMP vote: each thread's best move gets (score − lowest score + OFFSET) · depth
    /// votes, so the thread with the worst score still counts.
    VOTE_SCORE_OFFSET: i32 = 14 (0..=50, c_end 2);

    /// Time management (`time.rs`; only a tune at a time control moves these). Moves
    /// assumed left in the game when the GUI does not say (sudden death).
    TIME_MOVES_TO_GO: u32 = 25 (10..=60, c_end 2);
    /// Share of the increment spent on this move.
    TIME_INCREMENT_PERCENT: i32 = 75 (25..=100, c_end 5);
    /// The soft limit never exceeds this share of the remaining time…
    TIME_SOFT_MAX_PERCENT: i32 = 40 (10..=80, c_end 4);
    /// …and the hard limit is this multiple of the soft one (in percent)…
    TIME_HARD_SOFT_PERCENT: i32 = 300 (100..=800, c_end 25);
    /// …within this share of the clock.
    TIME_HARD_MAX_PERCENT: i32 = 60 (20..=90, c_end 4);
    /// After an iteration, do not start the next one past this share of the (scaled) soft
    /// limit: the next iteration usually costs more than all earlier ones together.
    TIME_NEXT_ITERATION_PERCENT: i32 = 70 (30..=100, c_end 5);
    /// How the soft limit follows the search, from this depth on: the first iterations
    /// are too noisy to read.
    TIME_ADAPT_DEPTH: i32 = 4 (1..=10, c_end 0.5);
    /// Best-move stability: the soft limit is scaled by BASE − STEP·n (in thousandths),
    /// where n counts the iterations (at most MAX) in a row that kept the best move.
    TIME_STABILITY_BASE_PERMILLE: i32 = 1500 (1000..=2500, c_end 80);
    /// Best-move stability: the step per iteration that kept the best move.
    TIME_STABILITY_STEP_PERMILLE: i32 = 125 (0..=250, c_end 10);
    /// Best-move stability: iterations counted at most.
    TIME_STABILITY_MAX: u32 = 6 (0..=12, c_end 0.5);
    /// Score drop since the previous iteration: one more soft limit per this many
    /// centipawns lost, within [MIN, MAX] percent.
    TIME_SCORE_DROP_CP: i32 = 150 (50..=400, c_end 10);
    /// Score drop: the smallest factor.
    TIME_SCORE_MIN_PERCENT: i32 = 85 (50..=100, c_end 4);
    /// Score drop: the largest factor.
    TIME_SCORE_MAX_PERCENT: i32 = 160 (100..=300, c_end 8);
    /// Node share of the best move: scale by (BASE − share)·SCALE within [MIN, MAX]
    /// percent, so a best move that took nearly all the effort (no rival) stops sooner.
    TIME_NODES_BASE_PERCENT: i32 = 135 (100..=200, c_end 5);
    /// Node share: the scale.
    TIME_NODES_SCALE_PERCENT: i32 = 160 (50..=300, c_end 8);
    /// Node share: the smallest factor.
    TIME_NODES_MIN_PERCENT: i32 = 50 (10..=100, c_end 4);
    /// Node share: the largest factor.
    TIME_NODES_MAX_PERCENT: i32 = 160 (100..=300, c_end 8);
    /// With a single legal move, the soft limit shrinks to this share: there is nothing to
    /// decide, but a short search still gives a score and a ponder move.
    TIME_SINGLE_MOVE_PERCENT: i32 = 5 (1..=50, c_end 1);
}

/// Sets a tunable by name (case-insensitive, as UCI option names are) within its range.
/// Only a tuning build can: a normal build's constants are compiled in.
pub fn set(name: &str, value: i32) -> Result<(), String> {
    let (slot, t) = TUNABLES
        .iter()
        .enumerate()
        .find(|(_, t)| t.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("no tunable named '{name}'"))?;
    if !(t.min..=t.max).contains(&value) {
        return Err(format!(
            "{} must be within {}..{}, not {value}",
            t.name, t.min, t.max
        ));
    }
    store(slot, value)
}

#[cfg(feature = "spsa")]
fn store(slot: usize, value: i32) -> Result<(), String> {
    tuned::VALUES[slot].store(value, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

#[cfg(not(feature = "spsa"))]
fn store(_slot: usize, _value: i32) -> Result<(), String> {
    Err("search constants are fixed in this build; build with --features spsa".into())
}

/// Transposition-table cutoffs are taken only while the halfmove clock is below this: an
/// entry does not know the clock its search ran with, and closer to 100 the fifty-move
/// rule may draw lines the entry's score counted on. (A bound for correctness: not tuned.)
pub const TT_CUTOFF_HALFMOVES: u32 = 90;

/// Depth credited to a TT entry written from a tablebase probe beyond the node's own
/// depth: the value is exact knowledge, deeper than any search of the node would give.
pub const TB_STORE_DEPTH_BONUS: i32 = 6;

/// A mate in n plies is trusted, and the search ends, once iterations reach
/// 2·(n + MATE_PLIES_SLACK) plies.
pub const MATE_PLIES_SLACK: i32 = 4;

/// Late-move reductions are tabled for depths and move numbers below this; deeper nodes
/// and later moves reduce as the table's last row and column (a table size: not tuned).
pub const LMR_TABLE_SIZE: usize = 64;

/// History entries saturate at ±HISTORY_MAX (continuation entries are 16-bit: not tuned).
pub const HISTORY_MAX: i32 = 16384;

/// Check the clock and the stop flag every this many nodes.
pub const CHECK_INTERVAL: u64 = 1024;

/// Correction history: 2^BITS entries per side to move and table, each holding the eval's
/// error in 1/GRAIN centipawns (a table size and a fixed-point scale: not tuned).
pub const CORRECTION_BITS: u32 = 14;
/// Correction entries count in 1/GRAIN centipawns.
pub const CORRECTION_GRAIN: i32 = 256;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_is_declared_sanely() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min < t.max, "{}", t.name);
            assert!((t.min..=t.max).contains(&t.default), "{}", t.name);
            assert!(t.c_end > 0.0 && t.r_end > 0.0, "{}", t.name);
            // Divisors never reach zero.
            if t.name.ends_with("DIVISOR") || t.name.ends_with("SCALE") {
                assert!(t.min > 0, "{}", t.name);
            }
            // The perturbation must fit inside the range from the default.
            assert!(f64::from(t.max - t.min) >= 2.0 * t.c_end, "{}", t.name);
            assert!(
                TUNABLES[..i]
                    .iter()
                    .all(|u| !u.name.eq_ignore_ascii_case(t.name)),
                "{} twice",
                t.name
            );
        }
        assert_eq!(TUNABLES.len(), 69);
    }

    /// Bounds that the search uses as a pair (`clamp(min, max)` panics when min > max, and a
    /// weight above its scale would overshoot) stay ordered wherever a tune takes them.
    #[test]
    fn paired_bounds_stay_ordered_over_their_ranges() {
        let range = |name: &str| {
            let t = TUNABLES.iter().find(|t| t.name == name).expect(name);
            (t.min, t.max)
        };
        for (low, high) in [
            ("TIME_SCORE_MIN_PERCENT", "TIME_SCORE_MAX_PERCENT"),
            ("TIME_NODES_MIN_PERCENT", "TIME_NODES_MAX_PERCENT"),
            ("CORRECTION_MAX_WEIGHT", "CORRECTION_WEIGHT_SCALE"),
        ] {
            assert!(range(low).1 <= range(high).0, "{low} {high}");
        }
    }

    /// The macro on its own: an explicit r_end, the default one, and the readers.
    mod declared {
        use super::super::{R_END, Tunable};

        tunables! {
            /// A doc comment is allowed.
            WITH_R_END: i32 = -3 (-9..=9, c_end 1, r_end 0.005);
            WITHOUT: usize = 4 (0..=8, c_end 0.5);
        }

        #[test]
        fn one_line_each() {
            assert_eq!((WITH_R_END(), WITHOUT()), (-3, 4));
            assert_eq!(TUNABLES[0].r_end, 0.005);
            assert_eq!(TUNABLES[1].r_end, R_END);
            assert_eq!(
                TUNABLES[1].openbench_line(),
                "WITHOUT, int, 4, 0, 8, 0.5, 0.002"
            );
        }
    }

    #[test]
    fn readers_return_the_declared_defaults() {
        assert_eq!(ASPIRATION_WINDOW(), 24);
        assert_eq!(SEE_QUIET_MARGIN(), -59);
        assert_eq!(LMR_MOVES(), 2);
        assert_eq!(SINGULAR_DOUBLE_MAX(), 6);
        assert_eq!(TUNABLES[0].default, ASPIRATION_WINDOW());
    }

    #[test]
    fn openbench_lines_are_exact() {
        let line = |name: &str| {
            TUNABLES
                .iter()
                .find(|t| t.name == name)
                .map(Tunable::openbench_line)
        };
        assert_eq!(
            line("ASPIRATION_WINDOW").as_deref(),
            Some("ASPIRATION_WINDOW, int, 24, 5, 100, 3, 0.002")
        );
        assert_eq!(
            line("SEE_QUIET_MARGIN").as_deref(),
            Some("SEE_QUIET_MARGIN, int, -59, -150, -10, 5, 0.002")
        );
        assert_eq!(
            line("NMP_DEPTH").as_deref(),
            Some("NMP_DEPTH, int, 3, 1, 6, 0.5, 0.002")
        );
    }

    #[cfg(not(feature = "spsa"))]
    #[test]
    fn a_normal_build_refuses_to_set() {
        assert!(set("RFP_MARGIN", 80).unwrap_err().contains("spsa"));
        assert_eq!(
            set("rfp_margin", 10).unwrap_err(),
            "RFP_MARGIN must be within 30..150, not 10"
        );
        assert_eq!(set("NO_SUCH", 1).unwrap_err(), "no tunable named 'NO_SUCH'");
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn a_tuning_build_sets_by_name() {
        let before = DELTA_MARGIN();
        assert_eq!(set("delta_margin", 250), Ok(()));
        assert_eq!(DELTA_MARGIN(), 250);
        assert!(set("DELTA_MARGIN", 10).is_err());
        assert_eq!(DELTA_MARGIN(), 250);
        assert_eq!(set("DELTA_MARGIN", before), Ok(()));
        assert_eq!(DELTA_MARGIN(), before);
    }
}
