//! What the terms share about the board and its attacks: [`Ctx`], the occupancy, pawns,
//! pawn attacks, kings and king zones of both sides, made once per evaluation; [`Attacks`],
//! the squares each side's pieces attack, which [`super::pieces`] gathers while counting
//! mobility and [`super::king`], [`super::threats`] and [`super::pawns`] read; and
//! [`KingAttack`], what those pieces do to the enemy king zone.
//!
//! Below every term module, so that each term reads what another gathered without the
//! two importing each other.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::geometry::{forward, pawn_attacks_bb};

/// What the evaluation of each side needs to know about the board; every array is
/// indexed by `color as usize`.
pub(super) struct Ctx {
    pub occupied: Bitboard,
    pub by_color: [Bitboard; 2],
    pub pawns: [Bitboard; 2],
    pub pawn_attacks: [Bitboard; 2],
    pub kings: [Option<Square>; 2],
    /// Squares around each king (plus the three in front of that ring).
    pub king_zone: [Bitboard; 2],
}

impl Ctx {
    /// The context of `board`.
    #[inline(always)]
    pub fn new(board: &Board) -> Ctx {
        let by_color = [board.black(), board.white()];
        let pawns = [board.pawns() & by_color[0], board.pawns() & by_color[1]];
        let kings = [board.king_of(Color::Black), board.king_of(Color::White)];
        let zone = |c: Color| {
            kings[c as usize].map_or(Bitboard::EMPTY, |k| {
                let ring = attacks::king_attacks(k).with(k);
                ring | ring.shift(forward(c))
            })
        };
        Ctx {
            occupied: board.occupied(),
            by_color,
            pawns,
            pawn_attacks: [
                pawn_attacks_bb(Color::Black, pawns[0]),
                pawn_attacks_bb(Color::White, pawns[1]),
            ],
            kings,
            king_zone: [zone(Color::Black), zone(Color::White)],
        }
    }
}

/// The squares one side attacks, by kind of attacker.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Attacks {
    /// By knights, bishops, rooks and queens.
    pub by_role: [Bitboard; 4],
    /// By anything, pawns and king included.
    pub all: Bitboard,
}

/// Inputs of the attack units: king-zone squares attacked by knights, bishops, rooks and
/// queens, then safe checks by knights, bishops, rooks and queens.
pub const KING_UNITS: usize = 8;

/// The attacks on one side's king zone, gathered while counting the other side's
/// mobility.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingAttack {
    /// Pieces attacking at least one square of the zone.
    pub attackers: i32,
    /// The counts the attack units weigh, in [`KING_UNITS`] order.
    pub inputs: [i32; KING_UNITS],
}

impl KingAttack {
    /// A piece of `role` attacking `hits` squares of the zone.
    #[inline(always)]
    pub(super) fn add(&mut self, role: Role, hits: i32) {
        if hits > 0 {
            self.attackers += 1;
            self.inputs[role as usize - 2] += hits;
        }
    }

    /// Attack units under the given per-role weights.
    #[inline(always)]
    pub fn units(&self, weights: &[i32; KING_UNITS]) -> i32 {
        self.inputs.iter().zip(weights).map(|(n, w)| n * w).sum()
    }
}
