//! The pawn table: a per-thread cache of what depends on the pawns alone (the pawn
//! structure of [`super::pawns`]) and on the pawns and one king square (the shelter of
//! [`super::king`]). Above both, so that neither term module imports the other.

use shakmaty::{Bitboard, Square};

use super::attacks::Ctx;
use super::geometry::per_color;
use super::king::king_shelter;
use super::pawns::pawn_structure;
use super::tapered::Score;
use super::tracer::untraced;

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
