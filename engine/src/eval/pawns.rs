//! Pawn structure: doubled, isolated, backward and passed pawns, and passed pawns whose
//! way to promotion is free, near the kings or safe. What depends on the pawns alone is
//! kept in [`super::pawn_table`].

use shakmaty::{Bitboard, Color};

use super::attacks::{Attacks, Ctx};
use super::features;
use super::geometry::{
    FORWARD_FILE, PASSED_SPAN, SUPPORT_SPAN, adjacent_files_mask, forward, relative_rank,
};
use super::tracer::{Acc, Tracer};

/// Pawn structure for `color`, from the pawns alone: doubled, isolated, backward,
/// phalanx, supported and passed pawns by rank. Returns the passed pawns. Depends on
/// nothing but the pawns, so that [`super::pawn_table::PawnTable`] can keep its result.
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
        let doubled = (own & Bitboard(FORWARD_FILE[us][i])).any();
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
        }
    }
    passed
}

/// What `color`'s passed pawns are worth beyond their rank, once the pieces are known: a
/// free path, the kings' distances to the stop square, and a path that no enemy piece
/// stands on or attacks (only a piece that gets there in time can stop such a pawn).
/// `attacks` is indexed by colour.
#[inline(always)]
pub(super) fn passed_pawns<T: Tracer>(
    ctx: &Ctx,
    color: Color,
    passed: Bitboard,
    attacks: &[Attacks; 2],
    acc: &mut Acc<T>,
) {
    let us = color as usize;
    let them = (!color) as usize;
    let guarded = attacks[them].all | ctx.by_color[them];
    for sq in passed {
        let rank = relative_rank(sq, color);
        let path = Bitboard(FORWARD_FILE[us][sq.to_usize()]);
        if (ctx.occupied & path).is_empty() {
            acc.add(features::PASSED_FREE_PATH + rank, color, 1);
        }
        // The race to the stop square decides most pawn endings: each step the enemy
        // king is away helps the pawn, each step our own king is away hurts.
        if let (Some(stop), Some(ours), Some(theirs)) =
            (sq.offset(forward(color)), ctx.kings[us], ctx.kings[them])
        {
            let their_distance = theirs.distance(stop) as i32;
            let our_distance = ours.distance(stop) as i32;
            acc.add(features::PASSED_THEIR_KING + rank, color, their_distance);
            acc.add(features::PASSED_OUR_KING + rank, color, our_distance);
        }
        if (path & guarded).is_empty() {
            acc.add(features::PASSED_SAFE_PATH + rank, color, 1);
        }
    }
}
