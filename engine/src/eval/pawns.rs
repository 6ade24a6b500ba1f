//! Pawn structure: doubled, isolated, backward and passed pawns, and passed pawns whose
//! way to promotion is free, near the kings or safe; and the table that keeps what depends
//! on the pawns alone (and the kings' shelter, which depends on the pawns and one square).

use shakmaty::{Bitboard, Color, Square};

use super::king::king_shelter;
use super::pieces::Attacks;
use super::{
    Acc, Ctx, NoTrace, Score, Tracer, adjacent_files_mask, features, file_mask, forward, per_color,
    ranks_ahead, relative_rank,
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

/// Pawn structure for `color`, from the pawns alone: doubled, isolated, backward,
/// phalanx, supported and passed pawns by rank. Returns the passed pawns. Depends on
/// nothing but the pawns, so that [`PawnTable`] can keep its result.
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

/// What `count` adds up (White's minus Black's), without a trace.
#[inline(always)]
fn untraced(count: impl FnOnce(&mut Acc<NoTrace>)) -> Score {
    let mut acc = Acc {
        net: Score::ZERO,
        tracer: &mut NoTrace,
    };
    count(&mut acc);
    acc.net
}

/// The pawn table has 2^BITS entries (64 bytes each), indexed by the pawn key's top bits.
const PAWN_TABLE_BITS: u32 = 13;

/// What [`pawn_structure`] found for one pawn structure, and [`king_shelter`] for the
/// last king squares seen with it.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    key: u64,
    /// White's minus Black's.
    score: Score,
    passed: [Bitboard; 2],
    /// `[color as usize]`: the king's square and its shelter there (negated for Black,
    /// as it counts in White's minus Black's).
    shelter: [Option<(Square, Score)>; 2],
}

/// A per-thread cache of the pawn-structure terms and the kings' shelter, keyed by the
/// pawn key ([`crate::board::pawn_key`]). Pawns move seldom and kings stay put, so most
/// evaluations of a search find both here. An empty entry (key 0) is right as it stands:
/// key 0 is the board without pawns, which scores nothing and has no passed pawns.
pub struct PawnTable {
    entries: Box<[PawnEntry]>,
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable {
            entries: vec![PawnEntry::default(); 1 << PAWN_TABLE_BITS].into_boxed_slice(),
        }
    }
}

impl PawnTable {
    /// Adds the pawn-structure terms of `key`'s structure and both kings' shelter to
    /// `net` (White's minus Black's) and returns both colours' passed pawns, counting
    /// what the table does not hold first.
    #[inline(always)]
    pub(super) fn structure(&mut self, ctx: &Ctx, key: u64, net: &mut Score) -> [Bitboard; 2] {
        let entry = &mut self.entries[(key >> (64 - PAWN_TABLE_BITS)) as usize];
        if entry.key != key {
            let mut passed = [Bitboard::EMPTY; 2];
            let score = untraced(|acc| {
                passed = per_color(
                    #[inline(always)]
                    |c| pawn_structure(ctx, c, acc),
                );
            });
            *entry = PawnEntry {
                key,
                score,
                passed,
                shelter: [None; 2],
            };
        }
        per_color(
            #[inline(always)]
            |color| {
                let c = color as usize;
                let Some(king) = ctx.kings[c] else {
                    return;
                };
                let shelter = match entry.shelter[c] {
                    Some((square, shelter)) if square == king => shelter,
                    _ => {
                        let shelter = untraced(|acc| king_shelter(ctx, color, acc));
                        entry.shelter[c] = Some((king, shelter));
                        shelter
                    }
                };
                *net += shelter;
            },
        );
        *net += entry.score;
        entry.passed
    }
}
