//! Pawn structure: doubled, isolated, backward and passed pawns, and passed pawns whose
//! way to promotion is safe.

use shakmaty::{Bitboard, Color};

use super::pieces::Attacks;
use super::{
    Acc, Ctx, Tracer, adjacent_files_mask, features, file_mask, forward, ranks_ahead, relative_rank,
};

/// Per-colour, per-square pawn masks: `[color as usize][square]`.
type ColorSquareMasks = [[u64; 64]; 2];

const fn build_masks(kind: u8) -> ColorSquareMasks {
    let mut out = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let white = c == Color::White as usize;
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq % 8, sq / 8);
            let ahead = ranks_ahead(white, rank);
            out[c][sq] = match kind {
                // Same file, strictly ahead.
                0 => file_mask(file) & ahead,
                // Same and adjacent files, strictly ahead.
                1 => (file_mask(file) | adjacent_files_mask(file)) & ahead,
                // Adjacent files, same rank or behind.
                _ => adjacent_files_mask(file) & !ahead,
            };
            sq += 1;
        }
        c += 1;
    }
    out
}

/// Squares in front of a pawn on its file.
const FORWARD_FILE: ColorSquareMasks = build_masks(0);
/// Squares an enemy pawn must not occupy for a pawn to be passed.
const PASSED_SPAN: ColorSquareMasks = build_masks(1);
/// Squares from which own pawns could still support a pawn.
const SUPPORT_SPAN: ColorSquareMasks = build_masks(2);

/// Whether no pawn of `enemy` (the opponent of `color`) can ever attack `sq`: none stands
/// on an adjacent file ahead of it.
#[inline(always)]
pub(super) fn out_of_pawn_reach(sq: shakmaty::Square, color: Color, enemy: Bitboard) -> bool {
    let i = sq.to_usize();
    let adjacent_ahead = PASSED_SPAN[color as usize][i] & !FORWARD_FILE[color as usize][i];
    (enemy & Bitboard(adjacent_ahead)).is_empty()
}

/// Pawn structure (doubled, isolated, backward) and passed pawns for `color`; returns the
/// passed pawns.
#[inline(always)]
pub(super) fn pawn_structure<T: Tracer>(ctx: &Ctx, color: Color, acc: &mut Acc<T>) -> Bitboard {
    let us = color as usize;
    let them = (!color) as usize;
    let own = ctx.pawns[us];
    let enemy = ctx.pawns[them];
    let mut passed = Bitboard::EMPTY;

    for sq in own {
        let i = sq.to_usize();
        let rank = relative_rank(sq, color);
        let front = Bitboard(FORWARD_FILE[us][i]);
        let doubled = (own & front).any();
        if doubled {
            acc.add(features::DOUBLED_PAWN, color, 1);
        }
        let isolated = (own & Bitboard(adjacent_files_mask(sq.file().to_usize()))).is_empty();
        if isolated {
            acc.add(features::ISOLATED_PAWN, color, 1);
        } else if (own & Bitboard(SUPPORT_SPAN[us][i])).is_empty()
            && (Bitboard::from_square(sq).shift(forward(color)) & ctx.pawn_attacks[them]).any()
        {
            acc.add(features::BACKWARD_PAWN, color, 1);
        }

        // Pawns side by side or defending each other control the squares in front of
        // them together and are hard to attack.
        let beside = Bitboard::from_square(sq).shift(1) | Bitboard::from_square(sq).shift(-1);
        if (own & beside & Bitboard(adjacent_files_mask(sq.file().to_usize()))).any() {
            acc.add(features::PAWN_PHALANX + rank, color, 1);
        }
        if ctx.pawn_attacks[us].contains(sq) {
            acc.add(features::PAWN_SUPPORTED + rank, color, 1);
        }

        // Passed: no enemy pawn ahead on this or adjacent files; only the front pawn of
        // a doubled pair counts.
        if !doubled && (enemy & Bitboard(PASSED_SPAN[us][i])).is_empty() {
            passed.add(sq);
            acc.add(features::PASSED_PAWN + rank, color, 1);
            if (ctx.occupied & front).is_empty() {
                acc.add(features::PASSED_FREE_PATH + rank, color, 1);
            }
            // The race to the stop square decides most pawn endings: each step the
            // enemy king is away helps the pawn, each step our own king is away hurts.
            if let (Some(stop), Some(ours), Some(theirs)) =
                (sq.offset(forward(color)), ctx.kings[us], ctx.kings[them])
            {
                let their_distance = theirs.distance(stop) as i32;
                let our_distance = ours.distance(stop) as i32;
                acc.add(features::PASSED_THEIR_KING + rank, color, their_distance);
                acc.add(features::PASSED_OUR_KING + rank, color, our_distance);
            }
        }
    }
    passed
}

/// Passed pawns of `color` whose way to promotion no enemy piece stands on or attacks:
/// only a piece that gets there in time can stop them. `attacks` is indexed by colour.
#[inline(always)]
pub(super) fn passed_safe_paths<T: Tracer>(
    ctx: &Ctx,
    color: Color,
    passed: Bitboard,
    attacks: &[Attacks; 2],
    acc: &mut Acc<T>,
) {
    let them = (!color) as usize;
    let guarded = attacks[them].all | ctx.by_color[them];
    for sq in passed {
        let path = Bitboard(FORWARD_FILE[color as usize][sq.to_usize()]);
        if (path & guarded).is_empty() {
            acc.add(
                features::PASSED_SAFE_PATH + relative_rank(sq, color),
                color,
                1,
            );
        }
    }
}
