//! Every margin, threshold and table size of the search, in one place.
//!
//! Naming: `*_DEPTH` bounds the depths where a technique applies, `*_MARGIN` is a score
//! margin multiplied by depth, `*_BASE` a constant part, `*_DIVISOR` a scale.

/// Aspiration windows start this wide around the previous score, from this depth on.
pub const ASPIRATION_WINDOW: i32 = 25;
/// The first depth searched with an aspiration window.
pub const ASPIRATION_DEPTH: i32 = 5;

/// Transposition-table cutoffs are taken only while the halfmove clock is below this: an
/// entry does not know the clock its search ran with, and closer to 100 the fifty-move
/// rule may draw lines the entry's score counted on.
pub const TT_CUTOFF_HALFMOVES: u32 = 90;

/// Reverse futility (static null move): prune when eval − margin·depth ≥ β.
pub const RFP_DEPTH: i32 = 8;
/// Reverse futility margin per ply of depth.
pub const RFP_MARGIN: i32 = 75;

/// Null-move pruning: reduction R = BASE + depth / DIVISOR (+ eval bonus), verified by a
/// reduced search at high depth where zugzwang would cost most.
pub const NMP_DEPTH: i32 = 3;
/// Null-move reduction: the constant part.
pub const NMP_BASE: i32 = 3;
/// Null-move reduction: one more ply per this many plies of depth.
pub const NMP_DIVISOR: i32 = 3;
/// Null-move reduction: one more ply per this many centipawns the eval is above β ...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ... up to this many plies.
pub const NMP_EVAL_MAX: i32 = 3;
/// A null-move cutoff from this depth on is verified by a reduced search.
pub const NMP_VERIFY_DEPTH: i32 = 12;
/// A verification search keeps null moves off for this share (in percent) of its depth,
/// in plies below the verifying node.
pub const NMP_VERIFY_SPAN_PERCENT: i32 = 75;

/// Singular extensions: from DEPTH on, a TT move whose lower bound is at most DEPTH_SLACK
/// plies shallower is tested by a search at (depth − 1) / 2 of the other moves against
/// ttScore − MARGIN·depth. No other move comes close: extend one ply, two when they all
/// fall DOUBLE_MARGIN further short (at most DOUBLE_MAX times along a line).
pub const SINGULAR_DEPTH: i32 = 8;
/// How many plies shallower than the node the TT entry may be.
pub const SINGULAR_DEPTH_SLACK: i32 = 3;
/// The singular margin per ply of depth below the TT score.
pub const SINGULAR_MARGIN: i32 = 2;
/// How much further short the other moves fall for a double extension.
pub const SINGULAR_DOUBLE_MARGIN: i32 = 20;
/// Double extensions allowed along one line.
pub const SINGULAR_DOUBLE_MAX: u8 = 6;

/// Internal iterative reduction: no TT move at a deep node, search one ply less.
pub const IIR_DEPTH: i32 = 4;

/// Late-move pruning: at depth d skip quiets after BASE + d² (halved when not improving).
pub const LMP_DEPTH: i32 = 8;
/// Late-move pruning: the constant part of the quiet-move count.
pub const LMP_BASE: i32 = 3;

/// Futility pruning of quiets: eval + BASE + MARGIN·depth ≤ α.
pub const FUTILITY_DEPTH: i32 = 8;
/// Futility margin: the constant part.
pub const FUTILITY_BASE: i32 = 80;
/// Futility margin per ply of depth.
pub const FUTILITY_MARGIN: i32 = 90;

/// SEE pruning in the main search: skip moves losing more than MARGIN·depth (quiets) or
/// MARGIN·depth² (captures).
pub const SEE_PRUNE_DEPTH: i32 = 8;
/// SEE threshold per ply of depth for quiets.
pub const SEE_QUIET_MARGIN: i32 = -60;
/// SEE threshold per ply of depth squared for captures.
pub const SEE_CAPTURE_MARGIN: i32 = -25;

/// Late-move reductions: R = BASE + ln(depth)·ln(move number) / DIVISOR, from this depth
/// and after this many moves.
pub const LMR_DEPTH: i32 = 3;
/// ... to the moves after this many (one more in PV nodes).
pub const LMR_MOVES: usize = 2;
/// Late-move reduction: the constant part.
pub const LMR_BASE: f64 = 0.75;
/// Late-move reduction: divides ln(depth)·ln(move number).
pub const LMR_DIVISOR: f64 = 2.25;
/// History score that changes the reduction by one ply.
pub const LMR_HISTORY_DIVISOR: i32 = 6000;

/// At the root, quiet moves after the first ROOT_LMR_MOVES are searched one ply shallower
/// (then re-searched if they beat α), from ROOT_LMR_DEPTH on.
pub const ROOT_LMR_MOVES: usize = 3;
/// Root reductions apply from this depth on.
pub const ROOT_LMR_DEPTH: i32 = 3;

/// Quiescence delta pruning: a capture that cannot lift the score within this of α is skipped.
pub const DELTA_MARGIN: i32 = 200;

/// History: bonus = min(MULTIPLIER·depth − SUBTRACT, MAX); entries saturate at ±HISTORY_MAX.
pub const HISTORY_BONUS_MULTIPLIER: i32 = 300;
/// Subtracted from the history bonus.
pub const HISTORY_BONUS_SUBTRACT: i32 = 250;
/// The largest history bonus.
pub const HISTORY_BONUS_MAX: i32 = 2000;
/// History entries saturate at ± this.
pub const HISTORY_MAX: i32 = 16384;

/// Check the clock and the stop flag every this many nodes.
pub const CHECK_INTERVAL: u64 = 1024;

/// Correction history: 2^BITS entries per side; entries hold the eval's error in
/// 1/GRAIN centipawns, errors count up to ±LIMIT, and a search of depth d moves an
/// entry (d + 1)/WEIGHT_SCALE of the way to its error, at most MAX_WEIGHT/WEIGHT_SCALE.
pub const CORRECTION_BITS: u32 = 14;
/// Correction entries count in 1/GRAIN centipawns.
pub const CORRECTION_GRAIN: i32 = 256;
/// Errors count up to ± this many centipawns.
pub const CORRECTION_LIMIT: i32 = 400;
/// The most weight (out of WEIGHT_SCALE) one search's error gets.
pub const CORRECTION_MAX_WEIGHT: i32 = 16;
/// The scale of a correction update's weight.
pub const CORRECTION_WEIGHT_SCALE: i32 = 256;

/// Lazy SMP vote: each thread's best move gets (score − lowest score + OFFSET) · depth
/// votes, so the thread with the worst score still counts.
pub const VOTE_SCORE_OFFSET: i32 = 14;
